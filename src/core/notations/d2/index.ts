/**
 * Compiled D2 → GraphIR. D2's official WASM build (`@terrastruct/d2`) parses the code and resolves containers,
 * classes, globs and imports; infra runs it (src/infra/d2-compiler.ts: it starts its own worker thread, which core
 * may not) and hands its compiled diagram here: shapes by their path (`aws.vpc.api`), shape types, labels, icons,
 * table columns and class members, connections with both arrowheads. D2's layout and renderer are not used: ours lay
 * out the graph and draw it, with our icons.
 */
import { AppError } from '../../errors.js';
import type { Arrowhead, Direction, GraphEdge, GraphGrid, GraphGroup, GraphIR, GraphNode, GraphStyle, NodeKind } from '../../graph/types.js';
import { fontSizeOf, mapColor } from '../dot/style.js';
import { dictionary } from '../../dictionary.js';
import { markdownText } from './markdown.js';
import { isLifeline, sequenceActors, sequenceSteps } from './sequence.js';
import { themeColor } from './themes.js';
import { KEY_GROUP_KIND } from '../../scene/key-beside.js';
import { FONT } from '../../layout/drawing-rules.js';

interface Label {
  label: string;
}
type Shape = {
  id: string;
  type: string;
  /** Where D2's own layout put it: only read for the rows and columns of a grid. */
  pos?: { x: number; y: number };
  label: string;
  /** `markdown` for a `|md …|` label, which D2 renders; a code block's language (`go`, `sql`) is drawn as written. */
  language?: string;
  icon: { Host?: string; Path?: string } | null;
  fill?: string;
  stroke?: string;
  strokeDash?: number;
  strokeWidth?: number;
  /** `style.opacity`, 1 when the author set none. */
  opacity?: number;
  /** The label's colour (`style.font-color`), or a theme colour (N1) when the author set none. */
  color?: string;
  columns?: Array<{ name: Label; type: Label; constraint?: string[] | null }> | null;
  fields?: Array<{ name: string; type: string; visibility: string }> | null;
  methods?: Array<{ name: string; return: string; visibility: string }> | null;
  /** With `pos`, where D2's own sequence layout put a span, note or group; its size, kept where the author set it. */
  width?: number;
  height?: number;
  borderRadius?: number;
  /** `style.font-size`, D2's default (16) when the author set none. */
  fontSize?: number;
} & Partial<Record<UndrawnStyle, unknown>>
type Connection = {
  src: string;
  dst: string;
  srcArrow: string;
  dstArrow: string;
  label: string;
  strokeDash?: number;
  stroke?: string;
  opacity?: number;
  color?: string;
  fontSize?: number;
  icon?: unknown;
  srcLabel?: Label | null;
  dstLabel?: Label | null;
  /** Where D2's own layout drew it: only read for the order of a sequence diagram's messages. */
  route?: Array<{ x: number; y: number }> | null;
} & Partial<Record<UndrawnStyle, unknown>>
type Value = { value?: string } | null;
/** An object's keywords read here: its direction, its grid, and the emphasis its author wrote. */
interface Attributes {
  style?: { bold?: Value; italic?: Value };
  near_key?: unknown;
  shape?: Value;
  direction?: Value;
  width?: Value;
  height?: Value;
  gridRows?: Value;
  gridColumns?: Value;
  gridGap?: Value;
  verticalGap?: Value;
  horizontalGap?: Value;
}
/** The part of D2's compile answer read here. `graph.objects` are the diagram's shapes, in the same order. */
/** One board of D2's compiled graph: the root's attributes and its objects'. */
interface D2Board {
  root?: { attributes?: Attributes };
  objects?: Array<{ id: string; attributes?: Attributes }>;
}

export interface CompiledD2 {
  diagram: {
    shapes: Shape[];
    connections: Connection[];
    layers?: unknown[] | null;
    scenarios?: unknown[] | null;
    steps?: unknown[] | null;
    legend?: { shapes?: Shape[] | null; connections?: Connection[] | null } | null;
  };
  graph: D2Board & { steps?: D2Board[] | null };
  /** `vars: { d2-config: { theme-id } }`, the author's theme. */
  renderOptions?: { themeID?: number | null };
  /** What was read leniently before D2 compiled the code (imports.ts: an imported file not given). */
  warnings?: string[];
}

/** D2's gap between grid cells when the author sets none. */
const GRID_GAP = 40;

/**
 * The grid of a container (or the root) with `grid-rows`/`grid-columns`: D2 decides how the children fill it (rows
 * first or columns first, evened out when only one count is set), so each child's row and column are read from where
 * D2's own layout put it: one row per distinct top, one column per distinct left.
 */
function gridOf(attributes: Attributes | undefined, children: Shape[]): GraphGrid | undefined {
  if (!attributes?.gridRows?.value && !attributes?.gridColumns?.value) return undefined;
  const number = (value: Value | undefined) => (value?.value !== undefined && value.value !== '' && Number.isFinite(Number(value.value)) ? Number(value.value) : undefined);
  const gap = number(attributes.gridGap) ?? GRID_GAP;
  const { band: rows, span: rowSpans } = spannedBands(children.map((child) => [child.pos?.y ?? 0, child.height ?? 0]));
  const { band: spannedColumns, span: columnSpans } = spannedBands(children.map((child) => [child.pos?.x ?? 0, child.width ?? 0]));
  let columns = spannedColumns;
  // A cell wider than the others (Teleport's 300 px proxy over its two boxes) overlaps several columns: then each
  // row's cells are its columns, left to right.
  if (new Set(rows.map((row, k) => `${row},${columns[k]}`)).size < children.length) {
    columns = children.map((child, k) => children.filter((other, j) => rows[j] === rows[k] && (other.pos?.x ?? 0) < (child.pos?.x ?? 0)).length);
  }
  const cells: GraphGrid['cells'] = {};
  children.forEach((child, k) => {
    const [rowSpan, columnSpan] = [rowSpans[k]!, columns === spannedColumns ? columnSpans[k]! : 1];
    cells[child.id] = { row: rows[k]!, column: columns[k]!, ...(rowSpan > 1 && { rowSpan }), ...(columnSpan > 1 && { columnSpan }) };
  });
  return { cells, rowGap: number(attributes.verticalGap) ?? gap, columnGap: number(attributes.horizontalGap) ?? gap };
}

/**
 * Bands as `bands` reads them, but a cell that holds two or more cells of other bands apart along the axis spans
 * them: D2 evens five cells over three columns into columns of one, two and two, the first as tall as two rows (an
 * agent CLI's five commands), and read by overlap all five were one row, two pairs drawn on top of each other.
 */
function spannedBands(extents: ReadonlyArray<[number, number]>): { band: number[]; span: number[] } {
  const inside = (k: number, j: number) => j !== k && extents[j]![0] >= extents[k]![0] - 1 && extents[j]![0] + extents[j]![1] <= extents[k]![0] + extents[k]![1] + 1;
  const spanning = extents.map((_, k) => {
    const held = extents.map((_, j) => j).filter((j) => inside(k, j));
    return held.length >= 2 && new Set(bands(held.map((j) => extents[j]!))).size >= 2;
  });
  const plain = extents.map((_, k) => k).filter((k) => !spanning[k]);
  const plainBands = bands(plain.map((k) => extents[k]!));
  const band: number[] = [];
  const span = extents.map(() => 1);
  plain.forEach((k, i) => (band[k] = plainBands[i]!));
  const starts: number[] = [];
  plain.forEach((k, i) => (starts[plainBands[i]!] = Math.min(starts[plainBands[i]!] ?? Infinity, extents[k]![0])));
  extents.forEach(([start, size], k) => {
    if (!spanning[k]) return;
    const covered = starts.map((at, b) => (at >= start - 1 && at < start + size ? b : -1)).filter((b) => b >= 0);
    band[k] = covered[0] ?? 0;
    span[k] = Math.max(1, covered.length);
  });
  return { band, span };
}

/**
 * The band (row or column, in order) of each extent `[start, size]`: cells of one band overlap along the axis. Cells
 * of different sizes do not share an edge (D2 centres a narrow cell in its column), so an exact edge would give each
 * its own band: Teleport's Infrastructure grid (2 rows of 3) came out with 5 columns.
 */
function bands(extents: ReadonlyArray<[number, number]>): number[] {
  const order = extents.map((_, k) => k).sort((a, b) => extents[a]![0] - extents[b]![0]);
  const band: number[] = [];
  let current = -1;
  let end = -Infinity;
  for (const k of order) {
    const [start, size] = extents[k]!;
    // Touching is not overlapping: cells with no gap between them (grid-gap: 0) stay in bands of their own.
    if (start >= end - 1) current++;
    end = Math.max(end, start + Math.max(size, 1));
    band[k] = current;
  }
  return band;
}

/** D2 shape → our outline and role; `approximate` when ours only resembles it. */
const SHAPES: Record<string, { shape: string; kind?: NodeKind; approximate?: true }> = dictionary({
  rectangle: { shape: 'rectangle' },
  square: { shape: 'rectangle' },
  page: { shape: 'page' },
  document: { shape: 'document' },
  parallelogram: { shape: 'parallelogram' },
  cylinder: { shape: 'cylinder', kind: 'database' },
  queue: { shape: 'horizontal-cylinder', kind: 'queue' },
  package: { shape: 'folder' },
  step: { shape: 'step' },
  callout: { shape: 'speech-bubble' },
  stored_data: { shape: 'data-storage' },
  person: { shape: 'person', kind: 'user' },
  diamond: { shape: 'diamond', kind: 'decision' },
  oval: { shape: 'ellipse' },
  circle: { shape: 'ellipse' },
  hexagon: { shape: 'hexagon' },
  cloud: { shape: 'cloud' },
  text: { shape: 'text', kind: 'note' },
  code: { shape: 'rectangle', approximate: true },
  image: { shape: 'rectangle' },
  sql_table: { shape: 'rectangle', kind: 'entity' },
  class: { shape: 'rectangle', kind: 'class' },
  'c4-person': { shape: 'person', kind: 'user' },
});

/** D2's compiled arrowheads → ours (D2 fills triangles, diamonds and circles unless told otherwise). */
const HEADS: Record<string, Arrowhead> = dictionary({
  none: 'none',
  line: 'none',
  triangle: 'triangle',
  'unfilled-triangle': 'triangle-outline',
  arrow: 'arrow',
  'filled-diamond': 'diamond',
  diamond: 'diamond-outline',
  'filled-circle': 'circle',
  circle: 'circle',
  'cf-one': 'circle-bar',
  'cf-one-required': 'double-bar',
  'cf-many': 'circle-crows-foot',
  'cf-many-required': 'crows-foot-bar',
  box: 'bar',
  'filled-box': 'bar',
  cross: 'bar',
});

const DIRECTIONS: Record<string, Direction> = dictionary({ down: 'DOWN', right: 'RIGHT', up: 'UP', left: 'LEFT' });
/** D2 centres a shape pinned `near: top-center` across the diagram's top, and sets one `top-right` at its right. */
const TITLE_ALIGNS: Record<string, GraphIR['titleAlign']> = dictionary({ 'top-center': 'center', 'top-right': 'right' });
const KEYS: Record<string, string> = dictionary({ primary_key: 'PK', foreign_key: 'FK', unique: 'UK' });
const VISIBILITY: Record<string, string> = dictionary({ public: '+', private: '-', protected: '#' });

/** D2's error message (a JSON list of `{range, errmsg: "index:3:7: …"}`) as parse_error with the first one's position. */
export function d2ParseError(message: string): AppError {
  let first: { errmsg?: string } | undefined;
  try {
    first = (JSON.parse(message) as Array<{ errmsg?: string }>)[0];
  } catch {
    // Not D2's list: its message as it is.
  }
  const position = /^[^:]*:(\d+):(\d+):\s*(.*)$/s.exec(first?.errmsg ?? '');
  if (position) {
    const [, line, column, what] = position;
    return new AppError('parse_error', `line ${line}, column ${column}: D2: ${what}`, { line: Number(line), column: Number(column) });
  }
  return new AppError('parse_error', `D2: ${first?.errmsg ?? message}`);
}

/** `…/icons/<library>/<label>.svg` (what our D2 export links) is our icon; any other icon's file name is a hint. */
function iconOf(icon: Shape['icon']): { iconRef?: string; iconHint?: string } {
  const path = icon?.Path;
  if (!path) return {};
  const ours = /\/icons\/([^/]+)\/([^/]+)\.svg$/.exec(path);
  if (ours) return { iconRef: `${ours[1]}/${ours[2]}` };
  const file = path.split('/').pop()!.replace(/\.[a-z]+$/i, '');
  return file ? { iconHint: file.replace(/[-_]+/g, ' ') } : {};
}

/** D2's theme palette (N1…N7 neutrals, B1…B6 base, AA/AB accents): the theme's colours, not the author's. */
const THEME_COLOR = /^(?:N|B|AA|AB)\d$/;
const colorOf = (value: string | undefined) => (value === undefined || value === '' || THEME_COLOR.test(value) ? undefined : mapColor(value));
/** Fully transparent: `stroke: transparent` or `stroke-width: 0` is a shape without a border. */
const INVISIBLE = '#00000000';

/**
 * D2 styles and properties with no drawing here, named in warnings when an author set them (false, 0 and "" are
 * D2's defaults): the shape is drawn plain.
 */
const UNDRAWN_STYLES = ['shadow', '3d', 'multiple', 'double-border', 'fillPattern', 'animated', 'link', 'tooltip'] as const;
type UndrawnStyle = (typeof UNDRAWN_STYLES)[number];
const D2_STYLE_NAMES: Record<UndrawnStyle, string> = { shadow: 'style.shadow', '3d': 'style.3d', multiple: 'style.multiple', 'double-border': 'style.double-border', fillPattern: 'style.fill-pattern', animated: 'style.animated', link: 'link', tooltip: 'tooltip' };

function undrawnStyles(items: ReadonlyArray<{ id: string } & Partial<Record<UndrawnStyle, unknown>>>): string[] {
  return UNDRAWN_STYLES.flatMap((style) => {
    const ids = items.filter((item) => item[style] !== undefined && item[style] !== false && item[style] !== '' && item[style] !== 'none').map((item) => JSON.stringify(item.id));
    return ids.length === 0 ? [] : [`D2 ${D2_STYLE_NAMES[style]} is not drawn (${ids.join(', ')})`];
  });
}

/**
 * D2's text size when the author sets none, for shapes, containers and connections alike: our 16 px label and 14 px
 * edge label stand for it. A grid of 100 px cells set in 10 px type (D2's docs, grid connections) was drawn at 16 px,
 * each label widening its cell (a 440 px column).
 */
const D2_FONT_SIZE = 16;

function styleOf(item: { fill?: string; stroke?: string; strokeDash?: number; strokeWidth?: number; borderRadius?: number; color?: string; opacity?: number; fontSize?: number }, base: number = FONT.label): GraphStyle | undefined {
  // `style.opacity: 0` keeps the shape's place (a blank cell of a grid) and draws nothing there.
  if (item.opacity === 0) return { fillColor: INVISIBLE, strokeColor: INVISIBLE, textColor: INVISIBLE };
  const style: GraphStyle = {};
  const fill = colorOf(item.fill);
  const stroke = item.strokeWidth === 0 ? INVISIBLE : colorOf(item.stroke);
  const text = colorOf(item.color);
  if (fill) style.fillColor = fill;
  if (stroke) style.strokeColor = stroke;
  if (text) style.textColor = text;
  if ((item.strokeDash ?? 0) > 0) style.strokeStyle = 'dashed';
  if ((item.borderRadius ?? 0) > 0) style.corner = 'rounded';
  const fontSize = fontSizeOf(item.fontSize, base, D2_FONT_SIZE);
  if (fontSize !== undefined) style.fontSize = fontSize;
  return Object.keys(style).length > 0 ? style : undefined;
}

/**
 * A compiled D2 id's keys: `a.b` is b in a, but a quoted key is one key whatever it holds (`"x.y".p` is p in "x.y").
 * Quotes are kept, so the keys join back into the id.
 */
export function d2PathKeys(id: string): string[] {
  return id.match(/(?:"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|[^.'"])+/g) ?? [id];
}

/** D2 shapes whose sides D2 keeps equal: a width or a height set is both. */
const SQUARE_SHAPES = new Set(['circle', 'square']);

/** The `width`/`height` its author set, as D2 sized the shape for them. */
function authorSizeOf(shape: Shape, attributes: Attributes | undefined): GraphNode['authorSize'] {
  // D2 compiles a circle as an oval (and a square as a rectangle): the shape the author wrote says which.
  const square = SQUARE_SHAPES.has(attributes?.shape?.value ?? '');
  const width = attributes?.width?.value !== undefined || (square && attributes?.height?.value !== undefined) ? shape.width : undefined;
  const height = attributes?.height?.value !== undefined || (square && attributes?.width?.value !== undefined) ? shape.height : undefined;
  if (width === undefined && height === undefined) return undefined;
  return { ...(width !== undefined && { width }), ...(height !== undefined && { height }) };
}

/** Table columns as our rows (`PK FK name  type`), class members as UML members. */
function rowsOf(shape: Shape): string[] | undefined {
  if (shape.type === 'sql_table') {
    return (shape.columns ?? []).map((c) => `${(c.constraint ?? []).map((k) => KEYS[k] ?? k).join(' ').padEnd(5)} ${c.name.label}  ${c.type.label}`.trimEnd());
  }
  if (shape.type === 'class') {
    return [
      ...(shape.fields ?? []).map((f) => `${VISIBILITY[f.visibility] ?? ''}${f.name}${f.type ? `: ${f.type}` : ''}`),
      ...(shape.methods ?? []).map((m) => `${VISIBILITY[m.visibility] ?? ''}${m.name}${m.return ? `: ${m.return}` : ''}`),
    ];
  }
  return undefined;
}

/**
 * What the compile holds and the drawing leaves out, said: layers and scenarios are other diagrams (D2 links them), so
 * one is drawn, the root (or the last of its steps, atLastStep). A sequence diagram has no place for a legend.
 */
function leftOut(compiled: CompiledD2, legendDrawn = false): string[] {
  const boards = (['layers', 'scenarios', 'steps'] as const).map((kind) => [kind, compiled.diagram[kind]?.length ?? 0] as const).filter(([, count]) => count > 0);
  const said = boards.length > 0 ? [`D2 ${boards.map(([kind, count]) => `${count} ${count === 1 ? kind.replace(/s$/, '') : kind}`).join(', ')} left out: only the root board is drawn`] : [];
  const legend = compiled.diagram.legend;
  const entries = (legend?.shapes?.length ?? 0) + (legend?.connections?.length ?? 0);
  if (entries > 0 && !legendDrawn) said.push(`D2 legend (vars.d2-legend, ${entries} ${entries === 1 ? 'entry' : 'entries'}) is not drawn`);
  return said;
}

/** The legend's box: an id no D2 key compiles to (a key with a space is quoted). */
const LEGEND_ID = 'd2 legend';

/**
 * `vars.d2-legend`, D2's key to the drawing: a box titled Legend listing each shape in its own shape and style with
 * its label, then each connection as an arrow in its colour before its label, one entry a row, in the order written.
 * Shapes the author hid (`style.opacity: 0`, the usual ends of the sample connections) are not entries.
 */
function legendOf(compiled: CompiledD2): { group: GraphGroup; nodes: GraphNode[]; warnings: string[] } | undefined {
  const shapes = (compiled.diagram.legend?.shapes ?? []).filter((shape) => shape.opacity !== 0 && shape.label !== '');
  const connections = (compiled.diagram.legend?.connections ?? []).filter((c) => c.opacity !== 0 && c.label !== '');
  if (shapes.length + connections.length === 0) return undefined;
  const nodes: GraphNode[] = shapes.map((shape, k) => {
    const mapped = SHAPES[shape.type] ?? { shape: 'rectangle' };
    const style = styleOf(shape);
    return { id: `${LEGEND_ID}.s${k}`, label: shape.label, kind: 'generic', shape: mapped.shape, parent: LEGEND_ID, ...(style && { style }) };
  });
  connections.forEach((c, k) => {
    const { strokeColor, strokeStyle } = styleOf({ stroke: c.stroke, strokeDash: c.strokeDash }) ?? {};
    const mark = `${HEADS[c.srcArrow] && HEADS[c.srcArrow] !== 'none' ? '←' : ''}${strokeStyle === 'dashed' ? '- - -' : '———'}${HEADS[c.dstArrow] === 'none' ? '' : '→'}`;
    nodes.push({ id: `${LEGEND_ID}.c${k}`, label: `${mark}  ${c.label}`, kind: 'generic', shape: 'text', parent: LEGEND_ID, style: { fillColor: INVISIBLE, strokeColor: INVISIBLE, ...(strokeColor && { textColor: strokeColor }) } });
  });
  const cells: GraphGrid['cells'] = {};
  nodes.forEach((node, row) => (cells[node.id] = { row, column: 0 }));
  const group: GraphGroup = { id: LEGEND_ID, label: 'Legend', kind: KEY_GROUP_KIND, grid: { cells, rowGap: 10, columnGap: 0 } };
  const warnings = connections.length > 0 ? [`D2 legend: its ${connections.length} connection${connections.length === 1 ? '' : 's'} shown as a line mark in the connection's colour before the label`] : [];
  return { group, nodes, warnings };
}

/** D2's `shape: sequence_diagram` at the root, drawn by our lifeline layout (./sequence.ts reads its order). */
function sequenceGraph(compiled: CompiledD2): GraphIR {
  return { ...sequenceOf(compiled.diagram.shapes, compiled.diagram.connections), warnings: leftOut(compiled) };
}

/** A sequence diagram's actors and steps, from its shapes and connections (ids within the diagram). */
function sequenceOf(shapes: readonly Shape[], connections: readonly Connection[]): GraphIR {
  const nodes = sequenceActors(shapes, connections).map((shape): GraphNode => {
    const mapped = SHAPES[shape.type] ?? { shape: 'rectangle' };
    const node: GraphNode = { id: shape.id, label: shape.label, kind: mapped.kind ?? 'generic', shape: mapped.shape, ...iconOf(shape.icon) };
    const style = styleOf(shape);
    if (style) node.style = style;
    return node;
  });
  const steps = sequenceSteps(shapes, connections, d2PathKeys, (arrow) => HEADS[arrow] ?? 'arrow');
  return { layout: 'sequence', direction: 'RIGHT', nodes, edges: [], groups: [], warnings: [], sequence: { steps } };
}

/** A sequence diagram inside the container `id`, its shapes and connections renamed within it (`chat.alice` → `alice`). */
function nestedSequence(id: string, shapes: readonly Shape[], connections: readonly Connection[]): GraphIR {
  const prefix = `${id}.`;
  const inside = (key: string) => key.startsWith(prefix);
  const local = (key: string) => (inside(key) ? key.slice(prefix.length) : key);
  return sequenceOf(
    shapes.filter((shape) => inside(shape.id)).map((shape) => ({ ...shape, id: local(shape.id) })),
    // D2 names the end of a nested actor's lifeline outside the container (`browser-lifeline-end-…`).
    connections.filter((c) => inside(c.src) && (inside(c.dst) || isLifeline(c))).map((c) => ({ ...c, src: local(c.src), dst: local(c.dst) })),
  );
}

/**
 * With a theme the author chose (`theme-id`), D2's colour tokens read as the colours they stand for in it (C4's blue
 * containers, grey external systems); with none, they are left to our colours by role.
 */
function withTheme(compiled: CompiledD2): CompiledD2 {
  const id = compiled.renderOptions?.themeID;
  if (themeColor(id, 'N1') === undefined) return compiled;
  const resolve = <T extends { fill?: string; stroke?: string; color?: string }>(item: T): T => {
    const [fill, stroke, color] = [item.fill, item.stroke, item.color].map((value) => (value === undefined ? undefined : themeColor(id, value)));
    return { ...item, ...(fill && { fill }), ...(stroke && { stroke }), ...(color && { color }) };
  };
  return { ...compiled, diagram: { ...compiled.diagram, shapes: compiled.diagram.shapes.map(resolve), connections: compiled.diagram.connections.map(resolve) } };
}

export function d2ToGraph(source: CompiledD2): GraphIR {
  const { compiled, said } = atLastStep(source);
  const graph = compiledToGraph(compiled);
  const warnings = [...(source.warnings ?? []), ...said, ...graph.warnings];
  return warnings.length > graph.warnings.length ? { ...graph, warnings } : graph;
}

/**
 * D2's steps each build on the one before (D2 animates them one after another), so the last holds the whole story: the
 * root board alone is the story's first frame (a sequence's participants without one message).
 */
function atLastStep(source: CompiledD2): { compiled: CompiledD2; said: string[] } {
  const steps = source.diagram.steps as CompiledD2['diagram'][] | null | undefined;
  const last = steps?.at(-1);
  const board = source.graph.steps?.at(-1);
  if (last === undefined || board === undefined) return { compiled: source, said: [] };
  const { layers, scenarios, legend } = source.diagram;
  return {
    compiled: { ...source, diagram: { ...last, layers, scenarios, legend, steps: null }, graph: board },
    said: [`D2 ${steps!.length} step${steps!.length === 1 ? '' : 's'} drawn as the last, which holds what each step before it adds`],
  };
}

function compiledToGraph(source: CompiledD2): GraphIR {
  const compiled = withTheme(source);
  const { connections } = compiled.diagram;
  const compiledShapes = compiled.diagram.shapes.map((shape) => (shape.language === 'markdown' ? { ...shape, label: markdownText(shape.label) } : shape));
  const warnings: string[] = [];
  const parentOf = (id: string) => {
    const keys = d2PathKeys(id);
    return keys.length > 1 ? keys.slice(0, -1).join('.') : undefined;
  };
  if (compiled.graph.root?.attributes?.shape?.value === 'sequence_diagram') return sequenceGraph(compiled);
  // Objects come in the shapes' order, named by their last key.
  const objects = compiled.graph.objects ?? [];
  const attributesOf = new Map(compiledShapes.flatMap((shape, i) => (objects[i] !== undefined && objects[i].id === d2PathKeys(shape.id).pop() ? [[shape.id, objects[i].attributes] as const] : [])));
  // A sequence diagram inside a container is one node, drawn inside with lifelines (GraphNode.inset): what it holds
  // is not drawn in the graph around it.
  const isSequence = (id: string) => attributesOf.get(id)?.shape?.value === 'sequence_diagram';
  const sequenceIds = compiledShapes.filter((shape) => isSequence(shape.id)).map((shape) => shape.id);
  const shapes = compiledShapes.filter((shape) => !sequenceIds.some((id) => shape.id.startsWith(`${id}.`)));
  const containers = new Set(shapes.map((s) => parentOf(s.id)).filter((id): id is string => id !== undefined));
  // `near: top-center` and the like: where the author pinned a shape (read from the key's path, as D2 keeps it).
  const nearOf = (key: unknown): string | undefined =>
    (key as { path?: Array<{ unquoted_string?: { value?: Array<{ string?: string }> } }> } | null)?.path?.[0]?.unquoted_string?.value?.[0]?.string;
  const nearTop = new Map((compiled.graph.objects ?? []).flatMap((o) => {
    const near = nearOf(o.attributes?.near_key);
    return near?.startsWith('top') === true ? [[o.id, near] as const] : [];
  }));
  const childrenOf = (parent: string | undefined) => shapes.filter((shape) => parentOf(shape.id) === parent);
  const connected = new Set(connections.flatMap((c) => [c.src, c.dst]));
  let title: string | undefined;
  let titleSize: number | undefined;
  let titleAlign: GraphIR['titleAlign'];
  const approximated = new Map<string, string[]>();
  const nodes: GraphNode[] = [];
  const groups: GraphGroup[] = [];
  for (const shape of shapes) {
    const parent = parentOf(shape.id);
    if (isSequence(shape.id)) {
      const node: GraphNode = { id: shape.id, label: shape.label, kind: 'generic', inset: nestedSequence(shape.id, compiledShapes, connections) };
      if (parent !== undefined) node.parent = parent;
      nodes.push(node);
      continue;
    }
    if (containers.has(shape.id)) {
      const group: GraphGroup = { id: shape.id, label: shape.label };
      if (parent !== undefined) group.parent = parent;
      // D2 draws a container's outline solid and square: a dashed or rounded one is the author's mark (iidi-tech's
      // dashed provincial boundaries round solid federal infrastructure).
      // A container's title keeps our size: D2 sizes container labels by depth (28, 24, 20 px…), not by style.font-size alone.
      const { fontSize: _, ...style } = styleOf(shape) ?? {};
      group.style = { strokeStyle: 'solid', corner: 'sharp', ...style };
      const direction = DIRECTIONS[attributesOf.get(shape.id)?.direction?.value ?? ''];
      if (direction) group.direction = direction;
      const grid = gridOf(attributesOf.get(shape.id), childrenOf(shape.id));
      if (grid) group.grid = grid;
      groups.push(group);
      continue;
    }
    // D2's idiom for a diagram title: a text shape placed near the top (what our export writes); a note near the
    // bottom is drawn as text, not taken for the title.
    if (shape.type === 'text' && parent === undefined && nearTop.has(shape.id) && !connected.has(shape.id) && title === undefined) {
      title = shape.label;
      // A title the author set larger than our heading keeps its size (iidi-tech's 55 px architecture titles).
      if ((shape.fontSize ?? 0) > FONT.diagramTitle) titleSize = shape.fontSize;
      titleAlign = TITLE_ALIGNS[nearTop.get(shape.id)!];
      continue;
    }
    const mapped = SHAPES[shape.type] ?? { shape: 'rectangle', approximate: true as const };
    if (mapped.approximate) approximated.set(shape.type, [...(approximated.get(shape.type) ?? []), shape.id]);
    const node: GraphNode = { id: shape.id, label: shape.label, kind: mapped.kind ?? 'generic', shape: mapped.shape, ...iconOf(shape.icon) };
    const rows = rowsOf(shape);
    if (rows !== undefined && rows.length > 0) node.rows = rows;
    // D2 draws a class's methods under a rule below its fields.
    const fields = shape.fields?.length ?? 0;
    if (shape.type === 'class' && fields > 0 && (shape.methods?.length ?? 0) > 0) node.compartments = [fields];
    const authorSize = authorSizeOf(shape, attributesOf.get(shape.id));
    if (authorSize) node.authorSize = authorSize;
    if (parent !== undefined) node.parent = parent;
    // Theme colours (B1…N7) are D2's palette, not the author's: only colours written as such are kept.
    const style = styleOf(shape);
    if (style) node.style = style;
    // D2 draws an image shape as the picture alone, its label under it: our icon, with no box around it.
    // A text shape is the words alone, as D2 draws it: no box; and no fill behind them but a Markdown block's own,
    // which D2 sets behind its text (a linked list's head node in yellow).
    if (shape.type === 'image' || shape.type === 'text') {
      const behind = shape.language === 'markdown' ? node.style?.fillColor : undefined;
      node.style = { ...node.style, fillColor: behind ?? INVISIBLE, strokeColor: INVISIBLE };
    }
    // D2 sets every shape's label in its bold face by default; only the emphasis the author asked for is kept.
    const written = attributesOf.get(shape.id)?.style;
    if (written?.bold?.value === 'true') node.style = { ...node.style, fontWeight: 'bold' };
    if (written?.italic?.value === 'true') node.style = { ...node.style, fontStyle: 'italic' };
    // D2 sets Markdown and code blocks from the left (iidi-tech's bullet lists of what each service does).
    if (shape.language) node.style = { ...node.style, textAlign: 'left' };
    nodes.push(node);
  }
  for (const [type, ids] of approximated) warnings.push(`D2 ${type} shape drawn as ${(SHAPES[type] ?? { shape: 'rectangle' }).shape} (${ids.map((id) => JSON.stringify(id)).join(', ')})`);
  // A connection to a table's column (`orders.user_id -> users.id`) joins the tables.
  const drawn = new Set([...nodes.map((n) => n.id), ...groups.map((g) => g.id)]);
  const endOf = (id: string): string => {
    for (let at: string | undefined = id; at !== undefined; at = parentOf(at)) if (drawn.has(at)) return at;
    return id;
  };
  const legend = legendOf(compiled);
  warnings.push(...leftOut(compiled, legend !== undefined), ...(legend?.warnings ?? []), ...undrawnStyles([...compiledShapes, ...connections.map((c) => ({ ...c, id: `${c.src} -> ${c.dst}` }))]));
  const withIcons = connections.filter((c) => c.icon != null).length;
  if (withIcons > 0) warnings.push(`${withIcons} connection icon${withIcons === 1 ? '' : 's'} left out (icons are drawn on shapes)`);
  // Messages inside a sequence diagram are drawn in it; a connection from outside ends on its box.
  const withinSequence = (c: Connection) => sequenceIds.some((id) => c.src.startsWith(`${id}.`) && c.dst.startsWith(`${id}.`));
  const edges: GraphEdge[] = connections.filter((c) => !isLifeline(c) && !withinSequence(c)).map((c, index) => {
    // `style.opacity: 0` is an author's way to place shapes (`a -> b` pulls b after a): laid out, not drawn.
    if (c.opacity === 0) return { id: `e${index + 1}`, from: endOf(c.src), to: endOf(c.dst), hidden: true };
    const edge: GraphEdge = { id: `e${index + 1}`, from: endOf(c.src), to: endOf(c.dst), startArrowhead: HEADS[c.srcArrow] ?? 'arrow', endArrowhead: HEADS[c.dstArrow] ?? 'arrow' };
    if (c.label) edge.label = c.label;
    if (c.srcLabel?.label) edge.startLabel = c.srcLabel.label;
    if (c.dstLabel?.label) edge.endLabel = c.dstLabel.label;
    const { strokeColor, strokeStyle, textColor, fontSize } = styleOf({ stroke: c.stroke, strokeDash: c.strokeDash, ...(c.label && { color: c.color, fontSize: c.fontSize }) }, FONT.edgeLabel) ?? {};
    if (strokeColor || strokeStyle || textColor || fontSize) edge.style = { ...(strokeColor && { strokeColor }), ...(strokeStyle && { strokeStyle }), ...(textColor && { textColor }), ...(fontSize && { fontSize }) };
    return edge;
  });
  const written = DIRECTIONS[compiled.graph.root?.attributes?.direction?.value ?? ''];
  // The root's grid holds what is drawn at the top level (not the title).
  const grid = gridOf(compiled.graph.root?.attributes, childrenOf(undefined).filter((shape) => drawn.has(shape.id)));
  if (legend) {
    nodes.push(...legend.nodes);
    groups.push(legend.group);
  }
  return {
    layout: 'layered',
    direction: written ?? 'DOWN',
    ...(written !== undefined && { forcedDirection: true }),
    nodes,
    edges,
    groups,
    warnings,
    ...(title !== undefined && { title }),
    ...(titleSize !== undefined && { titleSize }),
    ...(titleAlign !== undefined && { titleAlign }),
    ...(grid !== undefined && { grid }),
  };
}

/** An edge (`a -> b`, `a <-> b`, `a -- b`) between D2 keys, or a `shape:`/`direction:`/`style.` key: D2's own statements. */
const EDGE = /^[ \t]*[\w"'.$-][^\n:;{}]*?[ \t]*(?:<->|->|<-|--)[ \t]*[\w"'.$(-]/m;
const D2_KEYS = /^[ \t]*(?:shape|direction|style\.[\w-]+|icon|near|vars|classes|layers|scenarios)[ \t]*:/m;

/** How sure it is that `code` is D2 (0..1), as a registered converter's `detect` answers. */
export function detectD2(code: string): number {
  const head = code.slice(0, 20_000);
  // Other notations' own markers: theirs, not ours.
  if (/^[ \t]*(@startuml|digraph|graph[ \t]|flowchart|strict[ \t]|apiVersion:|services:|resource[ \t]|CREATE[ \t])/im.test(head)) return 0;
  // A YAML document marker (`---`, `--- services:`) starts YAML; a D2 line never starts with it.
  if (/^---(?:[ \t]|$)/m.test(head)) return 0;
  const edge = EDGE.test(head);
  const keys = D2_KEYS.test(head);
  return edge && keys ? 0.8 : edge || keys ? 0.55 : 0;
}
