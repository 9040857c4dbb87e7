import type { OpSet, Options } from 'roughjs/bin/core.js';
import { RoughGenerator } from 'roughjs/bin/generator.js';
import type { BOWING, FILL_STYLES, ROUGHNESS, STROKE_STYLES } from '../scene/constants.js';
import type { Point } from '../scene/schema.js';
import { BOWING_LEVEL, ROUGHNESS_LEVEL, dashArray } from './constants.js';
import { outlinePath, type Outline } from './outlines.js';
import { fmt, tag } from './svg.js';

/**
 * Drawing a figure in the element's style: rough.js (seeded, so strokes are stable) for `sketch` and `scribble`,
 * exact geometry for `clean`. Pattern fills of clean shapes still come from rough.js at roughness 0, which draws
 * them as straight lines.
 */

/** A closed outline, or an open stroke (connectors, rims, arrowhead parts). */
export type Figure = Outline | { kind: 'polyline'; points: Point[] } | { kind: 'circle'; center: Point; diameter: number };

export interface DrawStyle {
  /** A colour, or undefined for no stroke. */
  stroke: string | undefined;
  strokeWidth: number;
  strokeStyle: (typeof STROKE_STYLES)[number];
  /** A colour, or undefined for no fill. */
  fill: string | undefined;
  fillStyle: (typeof FILL_STYLES)[number];
  roughness: (typeof ROUGHNESS)[number];
  bowing: (typeof BOWING)[number];
  seed: number;
}

const generator = new RoughGenerator();
/** Rough strokes wobble by pixels: a tenth of one is plenty and keeps the paths short. */
const tenth = (value: number): number => Math.round(value * 10) / 10;

/**
 * rough.js's own `opsToPath` formats every number with toFixed and a map per op, the renderer's single largest cost
 * on a big scene; this writes the same path with plain rounding.
 */
function opsPath(set: OpSet): string {
  let d = '';
  for (const { op, data } of set.ops) {
    if (op === 'move') d += `M${tenth(data[0]!)} ${tenth(data[1]!)}`;
    else if (op === 'lineTo') d += `L${tenth(data[0]!)} ${tenth(data[1]!)}`;
    else d += `C${tenth(data[0]!)} ${tenth(data[1]!)} ${tenth(data[2]!)} ${tenth(data[3]!)} ${tenth(data[4]!)} ${tenth(data[5]!)}`;
  }
  return d;
}

/** rough.js draws from Math.random when the seed is 0, and only positive 31-bit seeds cycle well. */
const roughSeed = (seed: number): number => {
  const s = Number.isFinite(seed) ? Math.abs(Math.trunc(seed)) % 2147483647 : 0;
  return s === 0 ? 1 : s;
};

const tuples = (points: readonly Point[]): Array<[number, number]> => points.map((q) => [q.x, q.y]);

function rough(figure: Figure, o: Options) {
  switch (figure.kind) {
    case 'rectangle':
      return generator.rectangle(figure.box.x, figure.box.y, figure.box.width, figure.box.height, o);
    case 'ellipse': {
      const { x, y, width, height } = figure.box;
      return generator.ellipse(x + width / 2, y + height / 2, width, height, o);
    }
    case 'polygon':
      return generator.polygon(tuples(figure.points), o);
    case 'path':
      return generator.path(figure.d, figure.closed ? o : { ...o, fill: undefined });
    case 'polyline':
      return generator.linearPath(tuples(figure.points), o);
    case 'circle':
      return generator.circle(figure.center.x, figure.center.y, figure.diameter, o);
  }
}

const isClosed = (figure: Figure): boolean =>
  figure.kind === 'polyline' ? false : figure.kind === 'path' ? figure.closed : true;

function exactPath(figure: Figure): string {
  if (figure.kind === 'polyline') return `M${figure.points.map((q) => `${fmt(q.x)} ${fmt(q.y)}`).join(' L')}`;
  if (figure.kind === 'circle') {
    const r = figure.diameter / 2;
    return outlinePath({ kind: 'ellipse', box: { x: figure.center.x - r, y: figure.center.y - r, width: 2 * r, height: 2 * r } });
  }
  return outlinePath(figure);
}

function strokeAttrs(style: DrawStyle): Array<[string, string | number | undefined]> {
  const dash = dashArray(style.strokeStyle, style.strokeWidth);
  return [
    ['stroke', style.stroke],
    ['stroke-width', style.strokeWidth],
    ['stroke-linecap', 'round'],
    ['stroke-linejoin', 'round'],
    ['stroke-dasharray', dash],
  ];
}

/** One figure as SVG: fill under stroke, in a fixed attribute order. */
export function drawFigure(figure: Figure, style: DrawStyle): string {
  const fill = isClosed(figure) ? style.fill : undefined;
  if (style.roughness === 'clean') {
    const d = exactPath(figure);
    if (fill !== undefined && style.fillStyle !== 'solid') {
      const pattern = drawRough(figure, { ...style, stroke: undefined, roughness: 'clean' }, { roughness: 0, disableMultiStrokeFill: true });
      return pattern + (style.stroke ? tag('path', [['d', d], ['fill', 'none'], ...strokeAttrs(style)]) : '');
    }
    if (!style.stroke && fill === undefined) return '';
    return tag('path', [['d', d], ['fill', fill ?? 'none'], ...(style.stroke ? strokeAttrs(style) : [])]);
  }
  if (figure.kind === 'path' && fill !== undefined && style.fillStyle === 'solid') {
    // rough.js would parse the path a second time to wobble a solid fill that its own stroke covers the edge of: the
    // exact outline fills the same area at half the cost (path shapes were a third of a 10,000-element render).
    return tag('path', [['d', exactPath(figure)], ['fill', fill], ['stroke', 'none']]) + drawRough(figure, { ...style, fill: undefined }, {});
  }
  return drawRough(figure, style, {});
}

function drawRough(figure: Figure, style: DrawStyle, overrides: Options): string {
  const fill = isClosed(figure) ? style.fill : undefined;
  const options: Options = {
    seed: roughSeed(style.seed),
    roughness: ROUGHNESS_LEVEL[style.roughness],
    bowing: BOWING_LEVEL[style.bowing],
    stroke: style.stroke ?? 'none',
    strokeWidth: style.strokeWidth,
    fill,
    fillStyle: style.fillStyle,
    // Dashes over a doubled stroke read as noise, so non-solid strokes are drawn once (as Excalidraw does).
    disableMultiStroke: style.strokeStyle !== 'solid',
    ...overrides,
  };
  const drawable = fill !== undefined && style.fillStyle === 'dots' ? withSeededRandom(options.seed!, () => rough(figure, options)) : rough(figure, options);
  const o = drawable.options;
  let out = '';
  for (const set of drawable.sets) {
    const d = opsPath(set);
    if (set.type === 'fillPath') {
      out += tag('path', [['d', d], ['fill', fill], ['stroke', 'none']]);
    } else if (set.type === 'fillSketch' && style.fillStyle === 'dots') {
      out += tag('path', [['d', dotsPath(set, o.fillWeight < 0 ? o.strokeWidth / 2 : o.fillWeight)], ['fill', fill], ['stroke', 'none']]);
    } else if (set.type === 'fillSketch') {
      const weight = o.fillWeight < 0 ? o.strokeWidth / 2 : o.fillWeight;
      out += tag('path', [['d', d], ['fill', 'none'], ['stroke', fill], ['stroke-width', weight], ['stroke-linecap', 'round']]);
    } else if (style.stroke) {
      out += tag('path', [['d', d], ['fill', 'none'], ...strokeAttrs(style)]);
    }
  }
  return out;
}

/**
 * rough.js draws each dot of a `dots` fill as a sketched ellipse of some forty curve segments, about a kilobyte a
 * dot. Each becomes a plain disc at the same (seeded, jittered) place: the same look at a twentieth of the size.
 */
function dotsPath(set: OpSet, weight: number): string {
  let d = '';
  const flush = (xs: number[], ys: number[]) => {
    if (xs.length === 0) return;
    const cx = (Math.min(...xs) + Math.max(...xs)) / 2;
    const cy = (Math.min(...ys) + Math.max(...ys)) / 2;
    const r = (Math.max(Math.max(...xs) - Math.min(...xs), Math.max(...ys) - Math.min(...ys)) + weight) / 2;
    d += `M${fmt(cx - r)} ${fmt(cy)}a${fmt(r)} ${fmt(r)} 0 1 0 ${fmt(2 * r)} 0a${fmt(r)} ${fmt(r)} 0 1 0 ${fmt(-2 * r)} 0`;
  };
  let xs: number[] = [];
  let ys: number[] = [];
  for (const op of set.ops) {
    if (op.op === 'move') {
      flush(xs, ys);
      xs = [];
      ys = [];
    }
    for (let i = 0; i < op.data.length; i += 2) {
      xs.push(op.data[i]!);
      ys.push(op.data[i + 1]!);
    }
  }
  flush(xs, ys);
  return d;
}

/**
 * rough.js's dots filler jitters each dot with Math.random() instead of its seeded randomizer (every other filler
 * is seeded), so the same scene would give different bytes each time. For that one call Math.random is a
 * Park–Miller generator seeded from the element; the call is synchronous, so nothing else can observe the swap.
 */
function withSeededRandom<T>(seed: number, draw: () => T): T {
  const original = Math.random;
  let state = seed;
  Math.random = () => {
    state = Math.imul(48271, state) & 0x7fffffff;
    return state / 0x80000000;
  };
  try {
    return draw();
  } finally {
    Math.random = original;
  }
}
