/**
 * Renderer speed: mixed scenes of 100, 1,000 and 10,000 elements through `renderSvg` with real fonts. The issue's
 * goal: 10,000 elements under 1 s, and linear growth (10× the elements ≤ 12× the time). Also prints where the time
 * goes: the same count of each kind of element alone, per 1,000 elements.
 * Run alone: node --import tsx bench/render.ts
 */
import { loadavg } from 'node:os';
import { pathToFileURL } from 'node:url';
import { renderSvg, type RenderElement } from '../src/core/render/index.js';
import { SHAPE_TYPES } from '../src/core/scene/constants.js';
import { intakeScene } from '../src/core/scene/intake.js';
import type { ElementInput } from '../src/core/scene/schema.js';
import { loadRenderFonts } from '../src/infra/fonts.js';

export interface RenderBench {
  /** Median wall-clock and CPU time (CPU time is what contention for the shared cores does not inflate). */
  sizes: Array<{ elements: number; ms: number; cpuMs: number; svgKiB: number }>;
  /** Time of 10,000 over time of 1,000 elements. */
  growth: number;
  /** Milliseconds per 1,000 elements of one kind. */
  perKind: Record<string, number>;
}

type Kind = 'shape' | 'hachure shape' | 'arrow' | 'text' | 'line' | 'freedraw' | 'code' | 'math';
const FORMULAS = ['E = mc^2', '\\sum_{i=1}^n i', '\\frac{a}{b}', '\\sqrt{x}'];

/** One element of a kind, the i-th of a grid (columns of 50, 200 × 140 px cells). */
function element(kind: Kind, i: number): ElementInput {
  const x = (i % 50) * 200;
  const y = Math.floor(i / 50) * 140;
  switch (kind) {
    case 'shape':
    case 'hachure shape':
      return {
        type: SHAPE_TYPES[i % SHAPE_TYPES.length]!,
        x,
        y,
        width: 140,
        height: 80,
        text: `Service ${i}`,
        fillColor: '#a5d8ff',
        fillStyle: kind === 'shape' ? 'solid' : 'hachure',
        roughness: i % 3 === 0 ? 'clean' : 'sketch',
        corner: i % 2 === 0 ? 'rounded' : 'sharp',
      };
    case 'arrow':
      return { type: 'arrow', points: [{ x, y: y + 40 }, { x: x + 60, y: y + 40 + (i % 5) * 10 }], text: i % 4 === 0 ? 'calls' : undefined };
    case 'text':
      return { type: 'text', x, y, text: `Note ${i}: a short remark`, fontSize: 16 };
    case 'line':
      return { type: 'line', points: [{ x, y }, { x: x + 40, y: y + 30 }, { x: x + 80, y }], lineShape: 'multipoint-curved' };
    case 'freedraw':
      return { type: 'freedraw', points: Array.from({ length: 20 }, (_, k) => ({ x: x + k * 4, y: y + Math.sin(k / 2) * 10 })) };
    case 'code':
      return { type: 'code', x, y, text: `const x${i} = ${i};\nconsole.log(x${i});`, language: 'javascript', fontSize: 12 };
    case 'math':
      return { type: 'math', x, y, width: 120, height: 40, text: FORMULAS[i % FORMULAS.length]! };
  }
}

/** A diagram-like mix: labelled shapes (a fifth hachured), arrows, notes, a few lines, strokes, code and formulas. */
const MIX: Kind[] = [
  ...Array<Kind>(36).fill('shape'),
  ...Array<Kind>(9).fill('hachure shape'),
  ...Array<Kind>(30).fill('arrow'),
  ...Array<Kind>(12).fill('text'),
  ...Array<Kind>(5).fill('line'),
  ...Array<Kind>(5).fill('freedraw'),
  'code',
  'math',
  'shape',
];

export function mixedScene(count: number): RenderElement[] {
  return intakeScene(Array.from({ length: count }, (_, i) => element(MIX[i % MIX.length]!, i))).elements;
}

function time(elements: RenderElement[], runs: number): { ms: number; cpuMs: number; bytes: number } {
  const fonts = loadRenderFonts();
  const wall: number[] = [];
  const cpu: number[] = [];
  let bytes = 0;
  for (let run = 0; run < runs; run++) {
    const start = performance.now();
    const startCpu = process.cpuUsage();
    bytes = renderSvg(elements, { fonts }).length;
    const used = process.cpuUsage(startCpu);
    wall.push(performance.now() - start);
    cpu.push((used.user + used.system) / 1000);
  }
  const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  return { ms: median(wall), cpuMs: median(cpu), bytes };
}

export async function benchRender(): Promise<RenderBench> {
  // Warm-up: fonts, the subsetter's wasm, MathJax and highlight.js load once per process, and the JIT settles.
  time(mixedScene(1000), 2);
  const sizes = [100, 1000, 10_000].map((count) => {
    const { ms, cpuMs, bytes } = time(mixedScene(count), count === 10_000 ? 3 : 5);
    return { elements: count, ms, cpuMs, svgKiB: Math.round(bytes / 1024) };
  });
  const perKind: Record<string, number> = {};
  for (const kind of ['shape', 'hachure shape', 'arrow', 'text', 'line', 'freedraw', 'code', 'math'] as const) {
    perKind[kind] = time(intakeScene(Array.from({ length: 1000 }, (_, i) => element(kind, i))).elements, 3).ms;
  }
  return { sizes, growth: sizes[2]!.ms / sizes[1]!.ms, perKind };
}

export function printRender(result: RenderBench): void {
  console.log('renderSvg, mixed scenes (real fonts, subset and embedded)');
  for (const s of result.sizes) {
    console.log(`  ${String(s.elements).padStart(6)} elements: ${s.ms.toFixed(1)} ms (CPU ${s.cpuMs.toFixed(1)} ms), ${s.svgKiB} KiB`);
  }
  const tenK = result.sizes[2]!.ms;
  console.log(`  goal 10,000 < 1000 ms: ${tenK < 1000 ? 'OK' : 'OVER'}; growth 1k→10k ${result.growth.toFixed(2)}× (goal ≤ 12×) ${result.growth <= 12 ? 'OK' : 'OVER'}`);
  console.log('  where the time goes, ms per 1,000 elements of one kind:');
  for (const [kind, ms] of Object.entries(result.perKind)) console.log(`    ${kind.padEnd(14)} ${ms.toFixed(1)}`);
  console.log(`  (load average ${loadavg()[0]?.toFixed(2)})`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  printRender(await benchRender());
}
