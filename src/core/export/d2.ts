/**
 * Recovered graph → D2: nested containers, every node shape mapped to D2's (tables as `sql_table`, UML classes as
 * `class`, generic person, queue and package icons as those shapes), connections with both arrowheads, labels and
 * styles, icons as URLs the service serves, `sketch` for hand-drawn scenes and the direction the edges run. What D2
 * cannot draw is named in the warnings, once per kind of loss (losses.ts).
 */
import { FONT } from '../layout/drawing-rules.js';
import type { Arrowhead, Direction } from '../graph/types.js';
import { iconShapeOf, type Look, type NodeShape, type RecoveredEdge, type RecoveredGraph, type RecoveredGroup, type RecoveredNode } from './graph-recovery.js';
import { printedIds } from './identifiers.js';
import { Losses } from './losses.js';
import type { CodeExport } from './mermaid.js';
import { columnOf, isClassLike } from './table-rows.js';
import { dictionary } from '../dictionary.js';

export interface D2Options {
  /** The service's public base URL; icons are linked as `${iconBaseUrl}/icons/<library>/<label>.svg`. */
  iconBaseUrl?: string;
}

/** D2's reserved keys (d2graph's keyword lists, underscore forms included) plus `null` and `_`, which no id may be. */
export const D2_KEYWORDS = new Set([
  ...['label', 'desc', 'shape', 'icon', 'constraint', 'tooltip', 'link', 'near', 'width', 'height', 'direction', 'top', 'left'],
  ...['class', 'classes', 'vars', 'scenarios', 'steps', 'layers', 'style', 'opacity', 'stroke', 'fill', 'shadow', 'multiple'],
  ...['animated', 'bold', 'italic', 'underline', 'font', 'filled', 'null', 'suspend', 'unsuspend', 'imports', 'import', 'spread'],
  ...['source_arrowhead', 'target_arrowhead', 'grid_rows', 'grid_columns', 'grid_gap', 'vertical_gap', 'horizontal_gap'],
]);

const DIRECTION: Record<Direction, string> = { DOWN: 'down', UP: 'up', RIGHT: 'right', LEFT: 'left' };
/** D2's accepted ranges (d2graph validation). */
const FONT_SIZE = { min: 8, max: 100 } as const;
const ROUNDED_RADIUS = 8;

/** A double-quoted D2 string: `\`, `"` and `$` (substitutions) escaped, line breaks as `\n`. */
export function d2String(text: string): string {
  const escaped = text
    .replace(/\r\n?/g, '\n')
    .replace(/\t/g, ' ')
    .replace(/[\u0000-\u0009\u000b-\u001f\u007f]/g, '')
    .replace(/[\\"$]/g, (c) => `\\${c}`)
    .replace(/\n/g, '\\n');
  return `"${escaped}"`;
}

const SHAPES: Record<NodeShape, { shape: string; lossy?: true }> = dictionary({
  rectangle: { shape: 'rectangle' },
  ellipse: { shape: 'oval' },
  diamond: { shape: 'diamond' },
  triangle: { shape: 'rectangle', lossy: true },
  'right-triangle': { shape: 'rectangle', lossy: true },
  parallelogram: { shape: 'parallelogram' },
  trapezoid: { shape: 'parallelogram', lossy: true },
  star: { shape: 'rectangle', lossy: true },
  hexagon: { shape: 'hexagon' },
  heptagon: { shape: 'hexagon', lossy: true },
  octagon: { shape: 'hexagon', lossy: true },
  cross: { shape: 'rectangle', lossy: true },
  cloud: { shape: 'cloud' },
  cylinder: { shape: 'cylinder' },
  'horizontal-cylinder': { shape: 'queue' },
  'speech-bubble': { shape: 'callout' },
  person: { shape: 'person' },
  // D2 has no lollipop or robustness glyph: a circle round the label.
  lollipop: { shape: 'circle', lossy: true },
  boundary: { shape: 'circle', lossy: true },
  control: { shape: 'circle', lossy: true },
  entity: { shape: 'circle', lossy: true },
  document: { shape: 'document' },
  'manual-input': { shape: 'parallelogram', lossy: true },
  display: { shape: 'rectangle', lossy: true },
  terminator: { shape: 'oval' },
  'data-storage': { shape: 'stored_data' },
  preparation: { shape: 'hexagon' },
  'arrow-right': { shape: 'step' },
  'arrow-left': { shape: 'step', lossy: true },
  'arrow-up': { shape: 'step', lossy: true },
  'arrow-down': { shape: 'step', lossy: true },
  step: { shape: 'step' },
  folder: { shape: 'package' },
  'box-3d': { shape: 'rectangle', lossy: true },
  page: { shape: 'page' },
  stacked: { shape: 'rectangle', lossy: true },
  component: { shape: 'rectangle', lossy: true },
  text: { shape: 'text' },
  code: { shape: 'code' },
  math: { shape: 'text' },
  image: { shape: 'rectangle', lossy: true },
  embed: { shape: 'rectangle', lossy: true },
});

/** Rows make a UML class or a table (table-rows.ts); a generic person, queue or package icon the matching shape. */
function d2Shape(item: RecoveredNode | RecoveredGroup): { shape: string; lossy?: true } {
  const rows = 'rows' in item ? item.rows : undefined;
  if (rows?.length) return { shape: isClassLike(rows) ? 'class' : 'sql_table' };
  const fromIcon = iconShapeOf(item);
  if (fromIcon !== undefined) return { shape: fromIcon };
  if (item.shape === 'ellipse' && Math.abs(item.box.width - item.box.height) <= 0.1 * Math.max(item.box.width, item.box.height)) return { shape: 'circle' };
  return SHAPES[item.shape];
}

/**
 * LaTeX D2 renders. It hands the source to MathJax inside a JavaScript template string, which a backtick or `${`
 * ends, and MathJax fails on many characters outside Latin, Greek, Cyrillic, punctuation, arrows and operators
 * (U+02AD, U+F928, U+1D9E4, …; found by feeding it the sweep's hostile labels). Other math is shown as its source.
 */
const renderableLatex = (text: string) => /^[\t\n\r\u0020-\u007e\u00a0-\u017f\u0370-\u04ff\u2000-\u206f\u2190-\u22ff]*$/.test(text) && !/`|\$\{/.test(text);

const ARROWHEADS: Record<Arrowhead, { shape: string; filled?: boolean; lossy?: true }> = {
  none: { shape: 'none' },
  arrow: { shape: 'arrow' },
  triangle: { shape: 'triangle' },
  'triangle-outline': { shape: 'triangle', filled: false },
  circle: { shape: 'circle', filled: true },
  diamond: { shape: 'diamond', filled: true },
  'diamond-outline': { shape: 'diamond', filled: false },
  bar: { shape: 'cf-one-required', lossy: true },
  'crows-foot': { shape: 'cf-many', lossy: true },
  'crows-foot-bar': { shape: 'cf-many-required' },
  'double-bar': { shape: 'cf-one-required' },
  'circle-bar': { shape: 'cf-one' },
  'circle-crows-foot': { shape: 'cf-many' },
};

export function toD2(graph: RecoveredGraph, options: D2Options = {}): CodeExport {
  const losses = new Losses();
  const ids = printedIds([...graph.groups.map((g) => g.id), ...graph.nodes.map((n) => n.id), ...(graph.titleElement ? [graph.titleElement] : [])], D2_KEYWORDS);
  const parentOf = new Map<string, string | undefined>([...graph.groups, ...graph.nodes].map((item) => [item.id, item.parent]));
  const path = (id: string): string => {
    const parent = parentOf.get(id);
    return parent === undefined ? ids.get(id)! : `${path(parent)}.${ids.get(id)!}`;
  };
  const ancestors = (id: string): string[] => {
    const parent = parentOf.get(id);
    return parent === undefined ? [] : [parent, ...ancestors(parent)];
  };
  // dagre (D2's default layout) cannot join a container to something inside it; ELK can.
  const needsElk = graph.edges.some((e) => ancestors(e.from).includes(e.to) || ancestors(e.to).includes(e.from));

  const lines = [`direction: ${DIRECTION[graph.direction]}`];
  const config = [...(graph.sketch ? ['sketch: true'] : []), ...(needsElk ? ['layout-engine: elk'] : [])];
  if (config.length > 0) lines.push(`vars: {d2-config: {${config.join('; ')}}}`);

  const colour = (id: string, what: string, value: string): string => {
    if (value === 'transparent' || value.length === 7 || value.length === 4) return d2String(value);
    // D2 takes #rgb and #rrggbb only: the alpha of #rgba / #rrggbbaa is dropped.
    losses.add(`${what} alpha dropped (D2 colours are opaque)`, id);
    return d2String(value.length === 5 ? value.slice(0, 4) : value.slice(0, 7));
  };
  const styleLines = (id: string, style: { strokeColor: string; fillColor?: string; strokeStyle: string; corner?: string }, look: Look, kind: 'box' | 'text' | 'edge') => {
    const out: string[] = [];
    if (kind === 'text') out.push(`font-color: ${colour(id, 'colour', style.strokeColor)}`);
    else {
      out.push(`stroke: ${colour(id, 'stroke', style.strokeColor)}`);
      if (style.fillColor !== undefined) out.push(`fill: ${colour(id, 'fill', style.fillColor)}`);
      // D2 takes whole pixels only (DOT penwidth 3.99 is our 7.98).
      out.push(`stroke-width: ${Math.round(look.strokeWidth)}`);
      if (style.strokeStyle !== 'solid') out.push(`stroke-dash: ${style.strokeStyle === 'dashed' ? 5 : 2}`);
    }
    if (kind === 'box' && style.corner === 'rounded') out.push(`border-radius: ${ROUNDED_RADIUS}`);
    if (kind === 'box' && style.corner === 'beveled') losses.add('beveled corners drawn sharp (D2 has no bevel)', id);
    if (look.shadow && kind === 'box') out.push('shadow: true');
    else if (look.shadow) losses.add('shadow left out (D2 draws shadows on shapes only)', id);
    if (kind === 'box' && style.fillColor !== 'transparent' && look.fillStyle !== 'solid') {
      // D2's fill patterns are textures (dots, lines, grain, paper); its diagonal lines are the nearest to any hatching.
      out.push(`fill-pattern: ${look.fillStyle === 'dots' ? 'dots' : 'lines'}`);
      if (look.fillStyle !== 'dots') losses.add(`${look.fillStyle} fill drawn as D2's lines pattern`, id);
    }
    if (look.opacity < 100) out.push(`opacity: ${look.opacity / 100}`);
    // D2 sets a shape's label bold and an edge's italic of its own accord; the emphasis the scene shows is said.
    if (look.fontWeight === 'bold') out.push('bold: true');
    if (look.fontStyle === 'italic') out.push('italic: true');
    if (look.fontSize !== undefined) out.push(`font-size: ${Math.round(Math.min(FONT_SIZE.max, Math.max(FONT_SIZE.min, look.fontSize)))}`);
    return out;
  };
  const classes = new Map<string, string>();
  const classOf = (style: string[]): string => {
    const key = style.join('; ');
    if (!classes.has(key)) classes.set(key, `s${classes.size}`);
    return classes.get(key)!;
  };
  /** The shape, and the icon unless the shape already says what it shows (a person, a queue, a package). */
  const shapeFields = (item: RecoveredNode | RecoveredGroup): { mapped: ReturnType<typeof d2Shape>; fields: string[] } => {
    const mapped = d2Shape(item);
    if (mapped.lossy) losses.add(`D2 has no ${item.shape} shape; drawn as ${mapped.shape}`, item.id);
    const fields = [`shape: ${mapped.shape}`];
    if (item.iconRef === undefined || mapped.shape === iconShapeOf(item)) return { mapped, fields };
    if (options.iconBaseUrl === undefined) losses.add('icon left out (no public URL to link it from)', item.id);
    else fields.push(`icon: ${d2String(iconUrl(options.iconBaseUrl, item.iconRef))}`);
    return { mapped, fields };
  };

  const nodeLines = (node: RecoveredNode, indent: string): string[] => {
    const id = ids.get(node.id)!;
    const block = node.shape === 'code' || node.shape === 'math';
    // D2 refuses an empty block string and a text shape without a label: a blank one is an empty code shape.
    if ((block || node.shape === 'text') && node.label.trim() === '') return [`${indent}${id}: "" {shape: code}`];
    if (block) {
      const unsafe = node.shape === 'math' && !renderableLatex(node.label);
      if (unsafe) losses.add('math shown as its LaTeX source (D2 cannot render it)', node.id);
      const language = node.shape === 'math' ? (unsafe ? 'text' : 'latex') : (node.language ?? 'text').replace(/[^A-Za-z0-9_+#-]/g, '') || 'text';
      const fence = blockFence(node.label);
      return [`${indent}${id}: ${fence}${language}`, ...node.label.replace(/\r\n?/g, '\n').split('\n'), fence];
    }
    const { mapped, fields } = shapeFields(node);
    fields.push(`class: ${classOf(styleLines(node.id, node.style, node.look, node.shape === 'text' ? 'text' : 'box'))}`);
    if (mapped.shape !== 'sql_table' && mapped.shape !== 'class') return [`${indent}${id}: ${d2String(node.label)} {${fields.join('; ')}}`];
    // The scene has no tables: a shape is read as one from the text under its label (table-rows.ts).
    losses.add(`read as a D2 ${mapped.shape} from the text under its label`, node.id);
    // D2 refuses line breaks in a table's or class's title.
    const title = node.label.replace(/\s*[\r\n]+\s*/g, ' ');
    if (title !== node.label) losses.add('table title line breaks became spaces (D2 titles are one line)', node.id);
    const members = memberLines(node.rows!, mapped.shape);
    return [`${indent}${id}: ${d2String(title)} {`, ...[...fields, ...members].map((l) => `${indent}  ${l}`), `${indent}}`];
  };

  const writeLevel = (parent: string | undefined, indent: string) => {
    for (const group of graph.groups.filter((g) => g.parent === parent)) {
      lines.push(`${indent}${ids.get(group.id)!}: ${d2String(group.label)} {`);
      const { fields } = shapeFields(group);
      fields.push(`class: ${classOf(styleLines(group.id, group.style, group.look, 'box'))}`);
      // A rectangle is D2's default container; other outlines (an oval, a package) are said.
      lines.push(...fields.filter((f) => f !== 'shape: rectangle').map((f) => `${indent}  ${f}`));
      writeLevel(group.id, `${indent}  `);
      lines.push(`${indent}}`);
    }
    for (const node of graph.nodes.filter((n) => n.parent === parent)) lines.push(...nodeLines(node, indent));
  };
  writeLevel(undefined, '');
  // D2 has no diagram title: its documented idiom is a text shape placed near the top.
  if (graph.title !== undefined) lines.push(`${ids.get(graph.titleElement!)!}: ${d2String(graph.title)} {shape: text; near: top-center; style.font-size: ${FONT.diagramTitle}}`);

  for (const edge of graph.edges) {
    lines.push(...connectionLines(edge, path, classOf(styleLines(edge.id, edge.style, edge.look, 'edge')), losses));
  }
  // Each distinct look is written once, as a D2 class, and named by the elements that have it.
  const header = [...classes].map(([style, name]) => `  ${name}: {style: {${style}}}`);
  lines.splice(config.length > 0 ? 2 : 1, 0, 'classes: {', ...header, '}');
  // The recovery's warnings (what the scene holds that no graph can) come first, as in the Mermaid export.
  return { code: `${lines.join('\n')}\n`, warnings: [...graph.warnings, ...losses.lines()] };
}

/** `<base>/icons/<library>/<label>.svg`, the URL the service serves an icon at. */
function iconUrl(base: string, ref: string): string {
  const slash = ref.indexOf('/');
  return `${base.replace(/\/+$/, '')}/icons/${encodeURIComponent(ref.slice(0, slash))}/${encodeURIComponent(ref.slice(slash + 1))}.svg`;
}

function connectionLines(edge: RecoveredEdge, path: (id: string) => string, styleClass: string, losses: Losses): string[] {
  const start = ARROWHEADS[edge.startArrowhead];
  const end = ARROWHEADS[edge.endArrowhead];
  for (const [head, mapped] of [
    [edge.startArrowhead, start],
    [edge.endArrowhead, end],
  ] as const) {
    if (mapped.lossy) losses.add(`D2 has no ${head} arrowhead; drawn as ${mapped.shape}`, edge.id);
  }
  const op = start.shape !== 'none' ? (end.shape !== 'none' ? '<->' : '<-') : end.shape !== 'none' ? '->' : '--';
  const body: string[] = [];
  const arrowhead = (key: string, mapped: (typeof ARROWHEADS)[Arrowhead], label: string | undefined) => {
    const fields: string[] = [];
    // D2 draws a triangle by default; other shapes and the fill are said.
    if (mapped.shape !== 'none' && mapped.shape !== 'triangle') fields.push(`shape: ${mapped.shape}`);
    if (mapped.filled !== undefined) fields.push(`style.filled: ${mapped.filled}`);
    if (label !== undefined && label !== '') fields.push(`label: ${d2String(label)}`);
    if (fields.length > 0) body.push(`${key}: {${fields.join('; ')}}`);
  };
  arrowhead('source-arrowhead', start, edge.startLabel);
  arrowhead('target-arrowhead', end, edge.endLabel);
  body.push(`class: ${styleClass}`);
  const label = edge.label !== undefined && edge.label !== '' ? `: ${d2String(edge.label)}` : '';
  const head = `${path(edge.from)} ${op} ${path(edge.to)}${label}`;
  return body.length === 1 ? [`${head} {${body[0]}}`] : [`${head} {`, ...body.map((l) => `  ${l}`), '}'];
}

/** The shortest run of pipes the code does not contain (`|`, `||`, …) opens and closes the block string. */
function blockFence(text: string): string {
  let fence = '|';
  while (text.includes(fence)) fence += '|';
  return fence;
}

/** Table columns (`name: type {constraint}`) or class members (`+name: type`), one key each, made unique. */
function memberLines(rows: readonly string[], shape: 'sql_table' | 'class'): string[] {
  const used = new Set<string>();
  return rows
    .filter((row) => row.trim() !== '')
    .map((row) => {
      const text = row.trim();
      const { name, type, constraints } = shape === 'sql_table' ? column(text) : classMember(text);
      let key = name;
      for (let n = 2; used.has(key.toLowerCase()); n++) key = `${name} (${n})`;
      used.add(key.toLowerCase());
      const constraint = constraints.length > 0 ? ` {constraint: [${constraints.join('; ')}]}` : '';
      return `${d2String(key)}: ${d2String(type)}${constraint}`;
    });
}

const KEY_CONSTRAINT: Record<string, string> = dictionary({ PK: 'primary_key', FK: 'foreign_key', UK: 'unique' });

function column(row: string): { name: string; type: string; constraints: string[] } {
  const { name, type, keys } = columnOf(row);
  return { name, type, constraints: keys.map((key) => KEY_CONSTRAINT[key]!) };
}

function classMember(row: string): { name: string; type: string; constraints: string[] } {
  // `+name: Type` and `+method(args): Type`; a member without a type keeps its whole text as the key.
  const colon = row.lastIndexOf(':');
  if (colon > 0 && !row.slice(colon).includes(')')) return { name: row.slice(0, colon).trim(), type: row.slice(colon + 1).trim(), constraints: [] };
  return { name: row, type: '', constraints: [] };
}
