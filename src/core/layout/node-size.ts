/** Box sizes from measured text, the shape's usable inner area and room for an icon. */
import type { CellBlock, Direction, GraphNode, NodeKind } from '../graph/types.js';
import { HEADER_ICON, ICON_SIZE } from '../icons/limits.js';
import { cylinderRimRadius, FIGURE_LABEL_GAP, FIGURE_SIZES, figureHeight, iconBody, isFigure, SHAPE_TYPES, type ShapeType } from '../scene/constants.js';
import { DEFAULT_SHAPE, FONT, ICON_NODE_MIN_HEIGHT, NODE_BOX, SPACING } from './drawing-rules.js';
import { measureText, wordPieces, wrapWords } from './measure.js';
import { placeCells, type PlacedCells } from './cells.js';
import { tableColumns } from './table-columns.js';
import { dictionary } from '../dictionary.js';

/** Share of a shape's box that text may use (the rest is curved or slanted outline), and the px the outline adds. */
const TEXT_AREA: Record<string, { fx: number; fy: number }> = dictionary({
  rectangle: { fx: 1, fy: 1 },
  ellipse: { fx: 0.7, fy: 0.7 },
  diamond: { fx: 0.5, fy: 0.5 },
  triangle: { fx: 0.45, fy: 0.45 },
  parallelogram: { fx: 0.7, fy: 1 },
  trapezoid: { fx: 0.7, fy: 1 },
  star: { fx: 0.4, fy: 0.4 },
  hexagon: { fx: 0.75, fy: 1 },
  octagon: { fx: 0.8, fy: 0.8 },
  cloud: { fx: 0.7, fy: 0.7 },
  cylinder: { fx: 1, fy: 0.75 },
  'horizontal-cylinder': { fx: 0.8, fy: 1 },
  document: { fx: 1, fy: 0.85 },
  terminator: { fx: 0.8, fy: 1 },
  // Its right end curves in by up to 0.15 of the width and the label keeps off both ends (render/outlines.ts): 0.85
  // planned a bucket's `if local.create_bucket &&…` on one line that the renderer then broke in two.
  'data-storage': { fx: 0.8, fy: 1 },
  // Block arrows (D2's `step`): the label sits on the shaft, half the box across, and may run into the head a little.
  'arrow-right': { fx: 0.85, fy: 0.5 },
  'arrow-left': { fx: 0.85, fy: 0.5 },
  'arrow-up': { fx: 0.5, fy: 0.85 },
  'arrow-down': { fx: 0.5, fy: 0.85 },
  // A folder's tab takes up to a fifth of its height; a node's depth up to a tenth of its width and a fifth of its height.
  folder: { fx: 1, fy: 0.8 },
  'box-3d': { fx: 0.9, fy: 0.8 },
  page: { fx: 0.9, fy: 1 },
  stacked: { fx: 0.9, fy: 0.85 },
  // A component's icon takes its top right corner: the label keeps a tenth of the width off each side.
  component: { fx: 0.8, fy: 1 },
  // A chevron: the notch and the point take a fifth of the width each.
  step: { fx: 0.7, fy: 1 },
});

/** The box text may use inside a shape of this size, after padding (and below the icon when it has one). */
export function textArea(shape: string, width: number, height: number, icon = false): { width: number; height: number } {
  const area = TEXT_AREA[shape] ?? TEXT_AREA.rectangle!;
  // The icon sits at the top of the shape's body (below a cylinder's cap), the label under the icon.
  const body = icon ? iconBody({ type: shape, y: 0, width, height }).height : height;
  const below = icon ? body - iconBand(body) : height;
  const textWidth = width * area.fx - 2 * SPACING.nodePaddingX + 2;
  // Without an icon a cylinder's label lies between its cap and its bottom rim (render/outlines.ts), three rims off
  // its height, with half the usual padding: the rims already hold it off the outline.
  if (shape === 'cylinder' && !icon) return { width: textWidth, height: height - 3 * cylinderRimRadius(width, height) - SPACING.nodePaddingY + 2 };
  // A figure's label (a person's, an interface's) is under it (render/outlines.ts), across the whole width.
  if (isFigure(shape)) return { width: textWidth, height: height - figureHeight(shape, width, height) - FIGURE_LABEL_GAP - 2 * SPACING.nodePaddingY + 2 };
  return { width: textWidth, height: below * area.fy - 2 * SPACING.nodePaddingY + 2 };
}

/** Kinds drawn as small fixed marks, not node-sized boxes. */
const MARKS: Partial<Record<GraphNode['kind'], { width: number; height: number }>> = dictionary({
  start: { width: 36, height: 36 },
  end: { width: 36, height: 36 },
  fork: { width: 120, height: 10 },
  // A decision without words (PlantUML's repeat, a state's choice) is a merge or branch point, as small as PlantUML's.
  decision: { width: 28, height: 28 },
});

export interface NodeBox {
  width: number;
  height: number;
  shape: ShapeType;
  /** The label, wrapped to the box. */
  label: string;
  /** Rows (fields, members, columns), each cut to the box width. */
  rows: string[];
  /** Height of the header band above the rows (0 without rows), the stereotype line included. */
  headerHeight: number;
  /** A class's «stereotype» line, drawn over its name in the header in the rows' font, as UML, Mermaid and PlantUML draw it. */
  stereotype?: string;
  /** Indices of `rows` (as cut) that open a compartment under a rule of its own (GraphNode.compartments). */
  compartments?: number[];
  /** True when the box has room reserved for an icon: at its top, or a table's, left of the title in its header. */
  icon: boolean;
  /** Label size in px (FONT.label unless the notation set one); rows are drawn in proportion. */
  fontSize: number;
  /** A record's or table's cells (GraphNode.cells), placed in a block centred in the box. */
  cells?: PlacedCells;
  /** A table's rows as columns (table-columns.ts): each row's cells, and each column's x from the rows' left edge. */
  columns?: { cells: string[][]; offsets: number[] };
}

/** Edge labels wrap past this width in every engine, so one long label does not stretch a whole layer. */
const EDGE_LABEL_MAX_WIDTH = 220;

/** An edge label as every engine draws it: wrapped past EDGE_LABEL_MAX_WIDTH, lines joined. */
export const wrapEdgeLabel = (text: string, fontSize: number = FONT.edgeLabel): string => wrapText(text, EDGE_LABEL_MAX_WIDTH, fontSize).join('\n');

/**
 * Splits `text` into lines no wider than `maxWidth` px, breaking at spaces, then inside a word still too long
 * (wordPieces). As the renderer does (render/text.ts), a single word may stand alone on its line up to `wordWidthMax`
 * (a shape's whole width, where a diamond's inscribed box is narrow), so an identifier is not cut where the shape
 * could hold it whole.
 */
export function wrapText(text: string, maxWidth: number, fontSize: number, wordWidthMax = maxWidth): string[] {
  const width = (line: string) => measureText(line, fontSize, FONT.family).width;
  const fits = (line: string) => width(line) <= maxWidth;
  const lines: string[] = [];
  for (const paragraph of text.split('\n')) {
    // A paragraph that fits is one line, as the words below would make it (a prefix is never wider than the whole;
    // they drop spaces leading and ending it): measured once, not once a word (a schema's every column, each layout).
    const whole = paragraph.replace(/^ +| +$/g, '');
    if (fits(whole)) {
      lines.push(whole);
      continue;
    }
    let line = '';
    for (const word of wrapWords(paragraph)) {
      const candidate = line === '' ? word : `${line} ${word}`;
      if (fits(candidate)) {
        line = candidate;
        continue;
      }
      if (line !== '') lines.push(line);
      line = '';
      if (width(word) <= Math.max(maxWidth, wordWidthMax)) {
        line = word;
        continue;
      }
      for (const piece of wordPieces(word)) {
        if (line !== '' && !fits(line + piece)) {
          lines.push(line);
          line = '';
        }
        for (const char of piece) {
          if (line !== '' && !fits(line + char)) {
            lines.push(line);
            line = '';
          }
          line += char;
        }
      }
    }
    lines.push(line);
  }
  return lines;
}

/** Continuation lines of a wrapped row start this far in, so they read as part of the row above. */
export const ROW_INDENT = '    ';

/** A row of «marks» only (`«interface»`, `«abstract» «entity»`): a stereotype, not a member. */
export const STEREOTYPE_ROW = /^«[^«»]+»(\s+«[^«»]+»)*$/;

const CLASSIFIER_KINDS: ReadonlySet<NodeKind> = new Set(['class', 'interface', 'enum']);
/**
 * A class box widens past NODE_BOX.maxWidth, up to this, to hold its longest identifier whole on a wrapped line:
 * java-design-patterns' CpuHealthIndicator cut `HIGH_PROCESS_CPU_LOAD_MESSAGE_WITHOUT_PARAM` after its last underscore,
 * a name no reader could search for. Whole members are not kept on one line: boxes as wide as their longest signature
 * drew class diagrams a tenth wider, their text under 11 px at a README's width (java-design-patterns' promise).
 */
const MEMBER_WORD_MAX_WIDTH = 640;

/** The width a class's members wrap at: the usual text width, or wider to hold the longest word of a member whole after its `indent`. */
function classWidth(members: readonly string[], fontSize: number, usual: number, indent: number): number {
  const widest = Math.max(0, ...members.flatMap((row) => row.split(/\s+/)).map((word) => measureText(word, fontSize, FONT.family).width + indent));
  return Math.max(usual, Math.min(MEMBER_WORD_MAX_WIDTH - 2 * SPACING.nodePaddingX, Math.ceil(widest)));
}
const TABLE_KINDS: ReadonlySet<NodeKind> = new Set(['entity', ...CLASSIFIER_KINDS]);
const MAX_FOLDED_ROWS = 3;

/** A size its author set (D2's `width`/`height`), or a mark (a start dot, an end bull's-eye, a fork bar, an empty decision) whose size is its meaning. */
export function hasFixedSize(node: GraphNode): boolean {
  return node.size !== undefined || node.authorSize !== undefined || (MARKS[node.kind] !== undefined && node.label === '');
}

/** Sizes the box of `node`: the text decides, within the drawing rules' bounds; rows make a table taller than 260 px if needed. */
export function sizeNode(node: GraphNode, flow: Direction = 'DOWN'): NodeBox {
  const known = sized.get(node)?.get(flow);
  if (known !== undefined) return known;
  // Frozen, as every caller shares it.
  const box = Object.freeze(measuredNode(node, flow));
  Object.freeze(box.rows);
  if (!sized.has(node)) sized.set(node, new Map());
  sized.get(node)!.set(flow, box);
  return box;
}
/**
 * Boxes already measured, by node and flow: a layout sizes every node once per try (Graphviz's placement of a schema
 * up to six times, its rows capped, then the scene), wrapping and measuring every row each time. Layout reads a graph
 * and never changes its nodes.
 */
const sized = new WeakMap<GraphNode, Map<Direction, NodeBox>>();

function measuredNode(node: GraphNode, flow: Direction): NodeBox {
  if (node.size) return { ...node.size, shape: 'rectangle', label: '', rows: [], headerHeight: 0, icon: false, fontSize: FONT.label };
  const mark = MARKS[node.kind];
  if (mark && node.label === '') {
    // A fork or join bar lies across the flow: upright in a left-to-right diagram, as Mermaid and PlantUML draw it.
    const across = node.kind === 'fork' && (flow === 'RIGHT' || flow === 'LEFT') ? { width: mark.height, height: mark.width } : mark;
    return { ...across, shape: node.kind === 'fork' ? 'rectangle' : node.kind === 'decision' ? 'diamond' : 'ellipse', label: '', rows: [], headerHeight: 0, icon: false, fontSize: FONT.label };
  }
  const fontSize = node.style?.fontSize ?? FONT.label;
  if (node.cells) return cellBox(node, node.cells, fontSize);
  const rowFontSize = rowFont(fontSize);

  // A node with an icon (a Deployment, an RDS instance) or a shape its notation drew it as (a C4 ContainerDb's
  // cylinder) shows its few detail rows as label lines under the label; tables, classes and records keep their rows
  // as a table, where the rows are the point. So does a resource its notation named for an icon the catalog lacks
  // (Terraform's `data azurerm_subscription`): a box like its iconned neighbours, not a table among them.
  const shaped = node.iconRef !== undefined || node.iconHint !== undefined || (node.shape !== undefined && node.shape !== 'rectangle');
  const foldRows = shaped && !TABLE_KINDS.has(node.kind) && (node.rows?.length ?? 0) <= MAX_FOLDED_ROWS;
  const rows = foldRows ? [] : (node.rows ?? []);
  if (foldRows && node.rows?.length) node = { ...node, label: [node.label, ...node.rows].join('\n') };
  // Tables and records draw header and rows as separate texts, which only lines up in a plain box.
  const wanted = rows.length > 0 ? 'rectangle' : (node.shape ?? DEFAULT_SHAPE[node.kind] ?? 'rectangle');
  const shape = isShapeType(wanted) ? wanted : 'rectangle';
  const area = TEXT_AREA[shape] ?? TEXT_AREA.rectangle!;
  const maxTextWidth = NODE_BOX.maxWidth * area.fx - 2 * SPACING.nodePaddingX;
  const label = wrapText(node.label, maxTextWidth, fontSize, NODE_BOX.maxWidth - 2 * SPACING.nodePaddingX).join('\n');
  const labelSize = measureText(label, fontSize, FONT.family, node.style?.fontWeight);
  // Only a resolved icon earns room: codeToScene turns hints into refs before layout, or drops them. Icons are stamped
  // on node-sized boxes only: a label too long for one (a C4 description wrapped in a cylinder) goes without.
  let icon = rows.length === 0 && node.iconRef !== undefined;

  // A leading «interface» row is the class's stereotype: it goes over the name, not among the members.
  const stereotype = rows.length > 0 && STEREOTYPE_ROW.test(rows[0]!) ? rows[0] : undefined;
  const members = stereotype === undefined ? rows : rows.slice(1);
  const opening = foldRows ? [] : (node.compartments ?? []).map((i) => (stereotype === undefined ? i : i - 1));
  // A UML classifier declared without members (its rows given, but none) is still a class box: its name over an
  // empty compartment, as Mermaid draws it, not a plain box that reads as another kind of thing.
  const memberless = !foldRows && rows.length === 0 && node.rows !== undefined && CLASSIFIER_KINDS.has(node.kind);
  if (rows.length > 0 || memberless) {
    // A table keeps its node's icon, small, left of the title (from-graph, icons/stamp): beside icon boxes it still
    // reads as the same kind of thing. The title wraps in what the icon leaves.
    const headerIcon = node.iconRef !== undefined;
    const iconSpace = headerIcon ? HEADER_ICON.size + HEADER_ICON.gap : 0;
    const title = headerIcon ? wrapText(node.label, maxTextWidth - iconSpace, fontSize, NODE_BOX.maxWidth - 2 * SPACING.nodePaddingX - iconSpace).join('\n') : label;
    const titleSize = headerIcon ? measureText(title, fontSize, FONT.family, node.style?.fontWeight) : labelSize;
    const columns = node.kind === 'entity' && stereotype === undefined && opening.length === 0 ? tableLayout(members, rowFontSize, maxTextWidth) : undefined;
    // A long member or column wraps onto indented lines: a cut signature would hide its parameters or return type.
    // A class's box first widens to hold its longest identifier whole (classWidth).
    const indent = measureText(ROW_INDENT, rowFontSize, FONT.family).width;
    const rowsWidth = CLASSIFIER_KINDS.has(node.kind) ? classWidth(members, rowFontSize, maxTextWidth, indent) : maxTextWidth;
    const wrapped = members.map((row) => wrapText(row, rowsWidth - indent, rowFontSize).map((line, k) => (k === 0 ? line : `${ROW_INDENT}${line}`)));
    const cut = wrapped.flat();
    // A compartment opens at the first line of its first row; one that would open on the first line is no compartment.
    const starts = wrapped.map((_, i) => wrapped.slice(0, i).reduce((sum, lines) => sum + lines.length, 0));
    const compartments = [...new Set(opening.filter((i) => i > 0 && i < members.length).map((i) => starts[i]!))].sort((a, b) => a - b);
    const rowsSize = columns !== undefined ? { width: columns.width, height: measureText(columns.cells.map((row) => row.at(-1)).join('\n'), rowFontSize, FONT.family).height } : measureText(cut.join('\n'), rowFontSize, FONT.family);
    const stereotypeSize = stereotype === undefined ? { width: 0, height: 0 } : measureText(stereotype, rowFontSize, FONT.family);
    const headerHeight = stereotypeSize.height + Math.max(titleSize.height, iconSpace > 0 ? HEADER_ICON.size : 0) + 2 * SPACING.nodePaddingY;
    const width = clamp(Math.max(titleSize.width + iconSpace, stereotypeSize.width, rowsSize.width) + 2 * SPACING.nodePaddingX, NODE_BOX.minWidth, Math.max(NODE_BOX.maxWidth, rowsWidth + 2 * SPACING.nodePaddingX));
    // Each compartment's rule has a row gap above and below it, as the header's has.
    const height = headerHeight + rowsSize.height + 2 * SPACING.rowGap * (1 + compartments.length);
    if (columns !== undefined) return { width, height, shape, label: title, rows: [...members], headerHeight, icon: headerIcon, fontSize, columns: { cells: columns.cells, offsets: columns.offsets } };
    return { width, height, shape, label: title, rows: cut, headerHeight, icon: headerIcon, fontSize, ...(stereotype !== undefined && { stereotype }), ...(compartments.length > 0 && { compartments }) };
  }

  const textWidth = (labelSize.width + 2 * SPACING.nodePaddingX) / area.fx;
  const textHeight = (labelSize.height + 2 * SPACING.nodePaddingY) / area.fy;
  const widthFor = (withIcon: boolean): number => Math.ceil(clamp(Math.max(textWidth, withIcon ? ICON_SIZE.max / ICON_SIZE.widthShare : 0), NODE_BOX.minWidth, NODE_BOX.maxWidth));
  // A label of several lines needs more of a cylinder than TEXT_AREA's share (a Deployment's four lines ran onto the cap).
  const plainHeight =
    shape === 'cylinder' ? Math.max(textHeight, cylinderHeight(labelSize.height)) : isFigure(shape) ? FIGURE_SIZES[shape].height + FIGURE_LABEL_GAP + textHeight : textHeight;
  const iconHeight = withCap(shape, Math.max(ICON_NODE_MIN_HEIGHT, heightWithIcon(textHeight)), widthFor(true));
  // Icons are stamped on node-sized boxes only: a label too long to leave room for one (a long C4 description in a
  // cylinder) goes without, rather than keep an icon that is never drawn.
  if (icon && iconHeight > NODE_BOX.maxHeight) icon = false;
  let width = widthFor(icon);
  let height = Math.ceil(Math.max(icon ? iconHeight : plainHeight, NODE_BOX.minHeight));
  // A size the author set is theirs (a 10 px dot for a state's start, a 500 px base under narrower layers), past the
  // drawing rules' bounds; it only grows as far as the label needs.
  const set = node.authorSize;
  // A least size (DOT's width=8 for a message bus under its subscribers) only grows the box.
  width = Math.max(width, Math.ceil(node.leastSize?.width ?? 0));
  height = Math.max(height, Math.ceil(node.leastSize?.height ?? 0));
  if (set?.width !== undefined) width = Math.ceil(Math.max(set.width, label === '' ? 0 : textWidth));
  if (set?.height !== undefined) {
    const withIcon = height;
    height = Math.ceil(Math.max(set.height, label === '' ? 0 : textHeight));
    if (height < withIcon) icon = false;
  }
  return {
    width,
    height,
    shape,
    label,
    rows: [],
    headerHeight: 0,
    icon,
    fontSize,
  };
}

/** Room between a table's columns: two spaces' width in the rows' font, as the rows were written. */
const COLUMN_GAP = 8;

/** The least room a table's last column (its types) wraps in; with less, its rows wrap as one text. */
const LAST_COLUMN_MIN_WIDTH = 80;

/**
 * A table's rows set as columns (table-columns.ts), and the width they take, within the box's widest text: a type too
 * long for it wraps in its column onto lines of its own, the cells beside them blank (`status  SubscriptionStatus
 * (BTree)`). Undefined where the columns before the last leave it too little room, and its rows wrap as one text.
 */
function tableLayout(rows: readonly string[], fontSize: number, maxWidth: number): { cells: string[][]; offsets: number[]; width: number } | undefined {
  const cells = tableColumns(rows);
  if (cells === undefined) return undefined;
  const widthOf = (text: string) => measureText(text, fontSize, FONT.family).width;
  const widths = cells[0]!.map((_, column) => Math.max(...cells.map((row) => widthOf(row[column]!))));
  const offsets = widths.map((_, column) => widths.slice(0, column).reduce((sum, w) => sum + w + COLUMN_GAP, 0));
  const last = offsets.length - 1;
  if (offsets[last]! + widths[last]! <= maxWidth) return { cells, offsets, width: offsets[last]! + widths[last]! };
  // A type wraps between its words only: `ACT_GE_` over `BYTEARRAY` reads as two names (and read back, is another).
  const room = maxWidth - offsets[last]!;
  const longestWord = Math.max(...cells.flatMap((row) => row[last]!.split(/\s+/).map(widthOf)));
  if (last === 0 || room < Math.max(LAST_COLUMN_MIN_WIDTH, longestWord)) return undefined;
  const lines = cells.flatMap((row) => wrapText(row[last]!, room, fontSize).map((line, k) => (k === 0 ? [...row.slice(0, last), line] : [...row.slice(0, last).map(() => ''), line])));
  return { cells: lines, offsets, width: Math.max(...lines.map((row) => offsets[last]! + widthOf(row[last]!))) };
}

/** Graphviz's least node size (width 0.75 in, height 0.5 in) unless the author set one. */
const GRAPHVIZ_LEAST = { width: 54, height: 36 };

/**
 * A record fills its box, stretched to the least size as Graphviz stretches its fields; a table keeps its own size,
 * centred in an outline grown as far as the outline's text area needs (a table in an ellipse).
 */
function cellBox(node: GraphNode, block: CellBlock, fontSize: number): NodeBox {
  const wanted = node.shape ?? 'rectangle';
  const shape = isShapeType(wanted) ? wanted : 'rectangle';
  const least = { width: node.leastSize?.width ?? GRAPHVIZ_LEAST.width, height: node.leastSize?.height ?? GRAPHVIZ_LEAST.height };
  const natural = placeCells(block, fontSize);
  const area = TEXT_AREA[shape] ?? TEXT_AREA.rectangle!;
  const width = Math.ceil(Math.max(least.width, natural.width / area.fx));
  const height = Math.ceil(Math.max(least.height, natural.height / area.fy));
  const cells = block.kind === 'fields' ? placeCells(block, fontSize, { width, height }) : natural;
  return { width, height, shape, label: '', rows: [], headerHeight: 0, icon: false, fontSize, cells };
}

/** Rows are drawn a step smaller than the label, in the drawing rules' proportion. */
export const rowFont = (labelSize: number): number => Math.round((labelSize * FONT.row) / FONT.label);

/**
 * Icon stamping puts a square icon of 45% of the box height, at most 48 px, at the top (after a gap of up to 10 px)
 * and lays the label out below it: the box must be tall enough that the part below the icon still holds the label.
 */
export function heightWithIcon(textHeight: number): number {
  const small = (textHeight + ICON_SIZE.maxTopGap) / (1 - ICON_SIZE.heightShare);
  // Past 48 / 45%, the icon stops growing and every extra pixel is the label's.
  return Math.ceil(small * ICON_SIZE.heightShare <= ICON_SIZE.max ? small : textHeight + ICON_SIZE.maxTopGap + ICON_SIZE.max);
}

/** The height of a shape whose body (iconBody) is `body` tall: a cylinder adds its cap, which grows with the height. */
function withCap(shape: ShapeType, body: number, width: number): number {
  if (shape !== 'cylinder') return body;
  // height = body + 2 · rim(height) converges fast: the rim grows by at most 0.15 of the height.
  let height = body;
  for (let i = 0; i < 12; i++) height = body + 2 * cylinderRimRadius(width, height);
  return height;
}

/**
 * The least height at which a cylinder without an icon holds a label this tall (textArea), at any width: layout may
 * widen a box (a layer's common width), and a wider cylinder has deeper rims. The area grows with the height.
 */
function cylinderHeight(labelHeight: number): number {
  let height = labelHeight;
  while (textArea('cylinder', NODE_BOX.maxWidth, height).height < labelHeight) height++;
  return height;
}

/** Height of the band an icon takes at the top of a box of this height. */
export const iconBand = (height: number): number => Math.min(ICON_SIZE.max, height * ICON_SIZE.heightShare) + ICON_SIZE.maxTopGap;

const isShapeType = (value: string): value is ShapeType => (SHAPE_TYPES as readonly string[]).includes(value);

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));
