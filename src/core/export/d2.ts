/**
 * Recovered graph → D2: nested containers, every node shape mapped to D2's (tables as `sql_table`, UML classes as
 * `class`), connections with both arrowheads, labels and styles, icons as URLs the service serves, `sketch` for
 * hand-drawn scenes and the direction the edges run.
 */
import type { Arrowhead, Direction } from '../graph/types.js';
import type { Look, NodeShape, RecoveredEdge, RecoveredGraph, RecoveredNode } from './graph-recovery.js';
import { printedIds } from './identifiers.js';
import type { CodeExport } from './mermaid.js';
import { columnOf } from './table-rows.js';

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

const SHAPES: Record<NodeShape, { shape: string; lossy?: true }> = {
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
  'speech-bubble': { shape: 'callout' },
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
  text: { shape: 'text' },
  code: { shape: 'code' },
  math: { shape: 'text' },
  image: { shape: 'rectangle', lossy: true },
  embed: { shape: 'rectangle', lossy: true },
};

/** UML member rows (a visibility mark or a method) make a class; other rows make a table. */
const isClassLike = (rows: readonly string[]) => rows.some((row) => /^\s*([+\-#~]|\w+\()/.test(row));

function d2Shape(node: RecoveredNode): { shape: string; lossy?: true } {
  if (node.rows?.length) return { shape: isClassLike(node.rows) ? 'class' : 'sql_table' };
  if (node.shape === 'ellipse' && Math.abs(node.box.width - node.box.height) <= 0.1 * Math.max(node.box.width, node.box.height)) return { shape: 'circle' };
  return SHAPES[node.shape];
}

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
  const warnings: string[] = [];
  const ids = printedIds([...graph.groups.map((g) => g.id), ...graph.nodes.map((n) => n.id)], D2_KEYWORDS);
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

  const colour = (owner: string, what: string, value: string): string => {
    if (value === 'transparent' || value.length === 7 || value.length === 4) return d2String(value);
    // D2 takes #rgb and #rrggbb only: the alpha of #rgba / #rrggbbaa is dropped.
    warnings.push(`${owner}: ${what} ${value} drawn without its alpha (D2 colours are opaque)`);
    return d2String(value.length === 5 ? value.slice(0, 4) : value.slice(0, 7));
  };
  const styleLines = (owner: string, style: { strokeColor: string; fillColor?: string; strokeStyle: string; corner?: string }, look: Look, kind: 'box' | 'text' | 'edge') => {
    const out: string[] = [];
    if (kind === 'text') out.push(`font-color: ${colour(owner, 'colour', style.strokeColor)}`);
    else {
      out.push(`stroke: ${colour(owner, 'stroke', style.strokeColor)}`);
      if (style.fillColor !== undefined) out.push(`fill: ${colour(owner, 'fill', style.fillColor)}`);
      out.push(`stroke-width: ${look.strokeWidth}`);
      if (style.strokeStyle !== 'solid') out.push(`stroke-dash: ${style.strokeStyle === 'dashed' ? 5 : 2}`);
    }
    if (kind === 'box' && style.corner === 'rounded') out.push(`border-radius: ${ROUNDED_RADIUS}`);
    if (kind === 'box' && look.shadow) out.push('shadow: true');
    if (kind === 'box' && style.fillColor !== 'transparent' && look.fillStyle === 'dots') out.push('fill-pattern: dots');
    if (look.opacity < 100) out.push(`opacity: ${look.opacity / 100}`);
    if (look.fontSize !== undefined) out.push(`font-size: ${Math.round(Math.min(FONT_SIZE.max, Math.max(FONT_SIZE.min, look.fontSize)))}`);
    return out;
  };
  const classes = new Map<string, string>();
  const classOf = (style: string[]): string => {
    const key = style.join('; ');
    if (!classes.has(key)) classes.set(key, `s${classes.size}`);
    return classes.get(key)!;
  };
  const iconUrl = (node: RecoveredNode): string | undefined => {
    if (node.iconRef === undefined) return undefined;
    if (options.iconBaseUrl === undefined) {
      warnings.push(`node "${node.id}": icon ${node.iconRef} left out (no public URL to link it from)`);
      return undefined;
    }
    const slash = node.iconRef.indexOf('/');
    const library = encodeURIComponent(node.iconRef.slice(0, slash));
    const label = encodeURIComponent(node.iconRef.slice(slash + 1));
    return `${options.iconBaseUrl.replace(/\/+$/, '')}/icons/${library}/${label}.svg`;
  };

  const nodeLines = (node: RecoveredNode, indent: string): string[] => {
    const owner = `node "${node.id}"`;
    const mapped = d2Shape(node);
    if (mapped.lossy) warnings.push(`${owner}: D2 has no ${node.shape} shape; drawn as ${mapped.shape}`);
    const id = ids.get(node.id)!;
    const inner = `${indent}  `;
    if (node.shape === 'code' || node.shape === 'math') {
      const language = node.shape === 'math' ? 'latex' : (node.language ?? 'text').replace(/[^A-Za-z0-9_+#-]/g, '') || 'text';
      const fence = blockFence(node.label);
      return [`${indent}${id}: ${fence}${language}`, ...node.label.replace(/\r\n?/g, '\n').split('\n'), fence];
    }
    const fields = [`shape: ${mapped.shape}`];
    const icon = iconUrl(node);
    if (icon !== undefined) fields.push(`icon: ${d2String(icon)}`);
    fields.push(`class: ${classOf(styleLines(owner, node.style, node.look, node.shape === 'text' ? 'text' : 'box'))}`);
    if (mapped.shape !== 'sql_table' && mapped.shape !== 'class') return [`${indent}${id}: ${d2String(node.label)} {${fields.join('; ')}}`];
    // D2 refuses line breaks in a table's or class's title.
    const title = node.label.replace(/\s*[\r\n]+\s*/g, ' ');
    if (title !== node.label) warnings.push(`${owner}: D2 table titles are one line; its line breaks became spaces`);
    const members = memberLines(node.rows!, mapped.shape);
    return [`${indent}${id}: ${d2String(title)} {`, ...[...fields, ...members].map((l) => `${inner}${l}`), `${indent}}`];
  };

  const writeLevel = (parent: string | undefined, indent: string) => {
    for (const group of graph.groups.filter((g) => g.parent === parent)) {
      lines.push(`${indent}${ids.get(group.id)!}: ${d2String(group.label)} {`);
      lines.push(`${indent}  class: ${classOf(styleLines(`group "${group.id}"`, group.style, group.look, 'box'))}`);
      writeLevel(group.id, `${indent}  `);
      lines.push(`${indent}}`);
    }
    for (const node of graph.nodes.filter((n) => n.parent === parent)) lines.push(...nodeLines(node, indent));
  };
  writeLevel(undefined, '');

  for (const edge of graph.edges) {
    lines.push(...connectionLines(edge, path, classOf(styleLines(`edge "${edge.id}"`, edge.style, edge.look, 'edge')), warnings));
  }
  // Each distinct look is written once, as a D2 class, and named by the elements that have it.
  const header = [...classes].map(([style, name]) => `  ${name}: {style: {${style}}}`);
  lines.splice(config.length > 0 ? 2 : 1, 0, 'classes: {', ...header, '}');
  return { code: `${lines.join('\n')}\n`, warnings };
}

function connectionLines(edge: RecoveredEdge, path: (id: string) => string, styleClass: string, warnings: string[]): string[] {
  const start = ARROWHEADS[edge.startArrowhead];
  const end = ARROWHEADS[edge.endArrowhead];
  for (const [head, mapped] of [
    [edge.startArrowhead, start],
    [edge.endArrowhead, end],
  ] as const) {
    if (mapped.lossy) warnings.push(`edge "${edge.id}": D2 has no ${head} arrowhead; drawn as ${mapped.shape}`);
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

const KEY_CONSTRAINT: Record<string, string> = { PK: 'primary_key', FK: 'foreign_key', UK: 'unique' };

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
