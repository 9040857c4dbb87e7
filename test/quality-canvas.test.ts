/**
 * The canvas rule of issue 27 over the corpus (test/fixtures/<notation>/): every input drawn as the service draws it
 * takes no more room than Graphviz's layout of the same graph at our sizes (CANVAS_OVER_GRAPHVIZ), but for the inputs
 * the README lists with their figures. A listed input must still be above the margin and keep its figure (within
 * FIGURE_SLACK), so a drawing that grows fails, and one that shrinks has its row updated or deleted.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { foldForReading } from '../src/core/graph/fold.js';
import { CANVAS_OVER_GRAPHVIZ } from '../src/core/layout/drawing-rules.js';
import { resolveIconHints } from '../src/core/notations/icon-hints.js';
import { CONVERTERS, drawGraph } from '../src/core/notations/index.js';
import { compareCanvas } from '../src/core/quality/canvas.js';

/** README figures are rounded to two decimals; a change past this is a changed drawing. */
const FIGURE_SLACK = 0.02;

/** The README's table of exceptions: `notation/file` → ratio. */
function listedExceptions(): Map<string, number> {
  const lines = readFileSync('README.md', 'utf8').split('\n').map((line) => line.trim());
  const header = lines.findIndex((line) => line.startsWith('| input | ours, Mpx² | Graphviz, Mpx² | ratio |'));
  expect(header, 'the README lists the canvas exceptions').toBeGreaterThan(0);
  const listed = new Map<string, number>();
  for (const line of lines.slice(header + 2)) {
    if (!line.startsWith('|')) break;
    const [input, , , ratio] = line.split('|').slice(1).map((cell) => cell.trim());
    listed.set(input!.replace(/`/g, ''), Number(ratio));
  }
  return listed;
}

const listed = listedExceptions();
const fixtures = new URL('fixtures/', import.meta.url);
const rows: string[] = [];

describe.each(CONVERTERS.filter((converter) => converter.id !== 'dot').map((converter) => [converter.id, converter] as const))('%s canvas against Graphviz', (id, converter) => {
  const folder = new URL(`${id}/`, fixtures);
  const files = readdirSync(folder).filter((file) => file !== 'NOTICE.md');

  it.each(files)('%s', async (file) => {
    const key = `${id}/${file}`;
    const graph = resolveIconHints(foldForReading(await converter.toGraph(readFileSync(new URL(file, folder), 'utf8')), id));
    const scene = await drawGraph(graph, id);
    const canvas = await compareCanvas(graph, scene.elements);
    const figure = listed.get(key);
    if (canvas === undefined) {
      expect(figure, `${key} is drawn by Graphviz itself or is not layered: nothing to compare`).toBeUndefined();
      return;
    }
    rows.push(`${key.padEnd(60)} ${(canvas.ours / 1e6).toFixed(2).padStart(6)} / ${(canvas.graphviz / 1e6).toFixed(2).padStart(6)} Mpx² = ${canvas.ratio.toFixed(2)}`);
    if (figure === undefined) {
      expect(canvas.ratio, `${key}: our canvas over Graphviz's`).toBeLessThanOrEqual(CANVAS_OVER_GRAPHVIZ);
      return;
    }
    expect(canvas.ratio, `${key} is listed in the README but within the margin now: delete its row`).toBeGreaterThan(CANVAS_OVER_GRAPHVIZ);
    expect(Math.abs(canvas.ratio - figure), `${key}: ${canvas.ratio.toFixed(2)} where the README says ${figure}`).toBeLessThanOrEqual(FIGURE_SLACK);
  }, 120_000);
});

it('lists only inputs of the corpus', () => {
  expect([...listed.keys()].filter((key) => !existsSync(new URL(key, fixtures)))).toEqual([]);
});

afterAll(() => {
  console.log(`canvas, ours / Graphviz's:\n${rows.sort().join('\n')}`);
});
