/**
 * Draws one input file as the service does and writes it as PNG, to look at a notation's drawing while working on
 * it: `node --import tsx scripts/render-file.ts <notation> <file> <out.png> [fit-within-px]`; DETAIL=full draws a large
 * infrastructure graph unfolded.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { type Detail, foldForReading } from '../src/core/graph/fold.js';
import type { GraphIR } from '../src/core/graph/types.js';
import { stampIcons } from '../src/core/icons/index.js';
import { d2ToGraph } from '../src/core/notations/d2/index.js';
import { resolveIconHints } from '../src/core/notations/icon-hints.js';
import { CONVERTERS, drawGraph } from '../src/core/notations/index.js';
import { renderScenePng } from '../src/core/render/png.js';
import { intakeScene } from '../src/core/scene/intake.js';
import { createD2Compiler } from '../src/infra/d2-compiler.js';
import { loadRenderFonts } from '../src/infra/fonts.js';

const [notation, file, out, fitWithin] = process.argv.slice(2);
const converter = CONVERTERS.find((c) => c.id === notation);
if ((!converter && notation !== 'd2') || !file || !out) {
  throw new Error(`usage: render-file.ts <${[...CONVERTERS.map((c) => c.id), 'd2'].join('|')}> <file> <out.png> [fit-within-px]`);
}
const code = readFileSync(file, 'utf8');

async function readGraph(): Promise<GraphIR> {
  if (converter) return foldForReading(await converter.toGraph(code), converter.id, process.env.DETAIL as Detail | undefined);
  const compiler = createD2Compiler({ timeoutSeconds: 120, queue: 1 });
  try {
    return d2ToGraph(await compiler.compile(code));
  } finally {
    await compiler.close();
  }
}

const graph = resolveIconHints(await readGraph());
const scene = await drawGraph(graph, converter?.id);
const { elements } = stampIcons(intakeScene(scene.elements).elements, { autoIcons: false });
writeFileSync(out, renderScenePng(elements, { fonts: loadRenderFonts(), ...(fitWithin && { fitWithin: Number(fitWithin) }) }));
console.log(`${graph.nodes.length} nodes, ${graph.edges.length} edges → ${out}`);
for (const warning of scene.warnings) console.log(`warning: ${warning}`);
