/** Graphviz attribute values mapped to ours: shapes, arrowheads, colours, styles, rankdir. */
import colorNames from 'color-name';
import * as chromatic from 'd3-scale-chromatic';
import type { Arrowhead, Direction, GraphStyle } from '../../graph/types.js';
import { dictionary, ownValue } from '../../dictionary.js';

/** Graphviz shape → native shape. Shapes we have no twin for get the nearest outline. */
const SHAPES: Record<string, string> = dictionary({
  box: 'rectangle',
  rect: 'rectangle',
  rectangle: 'rectangle',
  square: 'rectangle',
  msquare: 'rectangle',
  record: 'rectangle',
  mrecord: 'rectangle',
  plain: 'rectangle',
  plaintext: 'rectangle',
  none: 'rectangle',
  underline: 'rectangle',
  tab: 'folder',
  folder: 'folder',
  box3d: 'box-3d',
  component: 'rectangle',
  house: 'rectangle',
  invhouse: 'rectangle',
  polygon: 'rectangle',
  ellipse: 'ellipse',
  oval: 'ellipse',
  circle: 'ellipse',
  doublecircle: 'ellipse',
  point: 'ellipse',
  egg: 'ellipse',
  diamond: 'diamond',
  mdiamond: 'diamond',
  cylinder: 'cylinder',
  note: 'page',
  hexagon: 'hexagon',
  octagon: 'octagon',
  doubleoctagon: 'octagon',
  tripleoctagon: 'octagon',
  septagon: 'octagon',
  pentagon: 'hexagon',
  parallelogram: 'parallelogram',
  trapezium: 'trapezoid',
  invtrapezium: 'trapezoid',
  star: 'star',
  triangle: 'triangle',
  invtriangle: 'triangle',
});

/** Shapes whose nearest outline is visibly not Graphviz's (a second ring, a tab, a 3-D edge, another corner count): said in warnings. */
export const APPROXIMATE_SHAPES = new Set(['msquare', 'tab', 'folder', 'component', 'house', 'invhouse', 'polygon', 'doublecircle', 'point', 'egg', 'mdiamond', 'doubleoctagon', 'tripleoctagon', 'septagon', 'pentagon', 'invtrapezium', 'invtriangle', 'underline']);

/** Shapes Graphviz draws without an outline. */
export const OUTLINELESS = new Set(['plain', 'plaintext', 'none', 'underline']);

export function mapShape(shape: string): string | undefined {
  return SHAPES[shape.toLowerCase()];
}

/** Graphviz arrow type (`normal`, `onormal`, `odiamond`, `crow`; modifiers `o` open, `l`/`r` half) → native arrowhead. */
export function mapArrowhead(arrow: string): Arrowhead {
  const name = arrow.toLowerCase();
  if (name === 'empty' || name === 'invempty') return 'triangle-outline';
  if (name === 'ediamond') return 'diamond-outline';
  const [, open, shape = ''] = /^(o?)[lr]?(.*)$/.exec(name)!;
  // Multi-part arrows (`invdot`, `teetee`) are drawn with their first part.
  const is = (prefix: string) => shape.startsWith(prefix);
  if (is('none')) return 'none';
  if (is('normal') || is('inv')) return open ? 'triangle-outline' : 'triangle';
  if (is('diamond')) return open ? 'diamond-outline' : 'diamond';
  if (is('dot')) return 'circle';
  if (is('tee') || is('box')) return 'bar';
  if (is('crow')) return 'crows-foot';
  return 'arrow';
}

export const RANKDIR: Record<string, Direction> = dictionary({ TB: 'DOWN', LR: 'RIGHT', BT: 'UP', RL: 'LEFT' });

export const hex2 = (value: number) => Math.round(Math.min(255, Math.max(0, value))).toString(16).padStart(2, '0');

/**
 * Graphviz colour (`#rrggbb[aa]`, `H S V` or `H,S,V`, X11/CSS name, `grey50`, a `a:b` list, a Brewer colour) →
 * `#rrggbb`; undefined if unknown. `scheme` is the element's `colorscheme`: with a Brewer scheme (`pubugn9`) a bare
 * number is that scheme's colour (`fillcolor=1`), and `/scheme/colour` names one outright.
 */
export function mapColor(value: string, scheme?: string): string | undefined {
  let first = value.split(':')[0]!.trim().toLowerCase();
  const named = /^\/([a-z0-9]*)\/(.+)$/.exec(first);
  if (named) [scheme, first] = [named[1] || scheme, named[2]!];
  if (scheme !== undefined && /^\d{1,2}$/.test(first)) return brewerColor(scheme.toLowerCase(), Number(first));
  // `#rrggbbaa` keeps its alpha, as Graphviz draws it: git.gv's `#88000022` is a pale pink, not dark red.
  if (/^#[0-9a-f]{6}([0-9a-f]{2})?$/.test(first)) return first.endsWith('ff') && first.length === 9 ? first.slice(0, 7) : first;
  if (/^#[0-9a-f]{3}$/.test(first)) return `#${[...first.slice(1)].map((c) => c + c).join('')}`;
  const hsv = first.match(/^([0-9.]+)[ ,]+([0-9.]+)[ ,]+([0-9.]+)$/);
  if (hsv) return hsvToHex(Number(hsv[1]), Number(hsv[2]), Number(hsv[3]));
  // The schema takes hex only: fully transparent black.
  if (first === 'transparent' || first === 'none') return '#00000000';
  const grey = first.match(/^gr[ae]y(\d{1,3})$/);
  if (grey) return `#${hex2((Number(grey[1]) / 100) * 255).repeat(3)}`;
  // X11 numbered variants (lightblue2) are shades of the base name; the base is close enough.
  const rgb = ownValue(colorNames, first) ?? ownValue(colorNames, first.replace(/[1-4]$/, ''));
  return rgb ? `#${rgb.map(hex2).join('')}` : undefined;
}

/**
 * Graphviz's Brewer schemes by name: the ColorBrewer scheme and its number of classes (`pubugn9`, `set13`, `paired12`),
 * as d3-scale-chromatic holds them: sequential and diverging schemes per class count, qualitative ones as their largest
 * set, whose first k colours are the k-class set.
 */
const BREWER = new Map(
  Object.entries(chromatic)
    .filter(([name, value]) => name.startsWith('scheme') && Array.isArray(value))
    .map(([name, value]) => [name.slice('scheme'.length).toLowerCase(), value as ReadonlyArray<string | ReadonlyArray<string> | undefined>]),
);

/** Colour `index` (from 1) of a Graphviz Brewer scheme, undefined when the scheme or the index is unknown. */
function brewerColor(scheme: string, index: number): string | undefined {
  for (const digits of [1, 2]) {
    const palette = BREWER.get(scheme.slice(0, -digits));
    const classes = Number(scheme.slice(-digits));
    if (palette === undefined || !Number.isInteger(classes) || index < 1 || index > classes) continue;
    const colours = typeof palette[0] === 'string' ? (palette as readonly string[]).slice(0, classes) : (palette[classes] as readonly string[] | undefined);
    if (colours !== undefined && colours.length === classes) return colours[index - 1];
  }
  return undefined;
}

function hsvToHex(h: number, s: number, v: number): string {
  const i = Math.floor(h * 6) % 6;
  const f = h * 6 - Math.floor(h * 6);
  const p = v * (1 - s);
  const q = v * (1 - f * s);
  const t = v * (1 - (1 - f) * s);
  const [r, g, b] = [
    [v, t, p],
    [q, v, p],
    [p, v, t],
    [p, q, v],
    [t, p, v],
    [v, p, q],
  ][i]!;
  return `#${hex2(r! * 255)}${hex2(g! * 255)}${hex2(b! * 255)}`;
}

/**
 * The parts of a Graphviz `style` list we draw: dashed/dotted lines, rounded corners, fill, invisibility, and the
 * old `setlinewidth(n)`, which is penwidth by another name.
 */
export function parseStyle(style: string | undefined): { strokeStyle?: GraphStyle['strokeStyle']; rounded: boolean; filled: boolean; invisible: boolean; lineWidth?: string } {
  const parts = new Set((style ?? '').split(',').map((part) => part.trim().toLowerCase()));
  const lineWidth = /setlinewidth\(\s*([\d.]+)\s*\)/i.exec(style ?? '')?.[1];
  return {
    ...(lineWidth !== undefined && { lineWidth }),
    strokeStyle: parts.has('dashed') ? 'dashed' : parts.has('dotted') ? 'dotted' : parts.has('solid') ? 'solid' : undefined,
    rounded: parts.has('rounded'),
    filled: parts.has('filled'),
    invisible: parts.has('invis'),
  };
}

/** Graphviz's default fontsize, in points: our default label (16 px) and edge label (14 px) sizes stand for it. */
const DOT_DEFAULT_FONTSIZE = 14;

/**
 * A notation's text size (DOT `fontsize`, D2 `style.font-size`) as ours in px, in proportion to our default for that
 * text (`base`) as the notation's default is to it, or undefined for the default or a value that is not a positive
 * number. Kept within 6–96 px so a typo cannot hide or swamp a label.
 */
export function fontSizeOf(fontsize: string | number | undefined, base: number, notationDefault = DOT_DEFAULT_FONTSIZE): number | undefined {
  const value = fontsize === undefined ? NaN : Number(fontsize);
  if (!Number.isFinite(value) || value <= 0 || value === notationDefault) return undefined;
  return Math.min(96, Math.max(6, Math.round((value * base) / notationDefault)));
}
