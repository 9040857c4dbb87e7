/**
 * Mermaid `block-beta` → GraphIR: blocks placed in the author's grid (`columns 3`: left to right, a new row when a
 * row is full; `space` keeps a cell empty), composite blocks as containers with a grid of their own, block shapes as
 * in flowcharts, links between blocks. A block several columns wide (`a:3`) spans as many columns. A chain of
 * links (`a --> b --> c`), which Mermaid's block parser reads as one link from nowhere, is read link by link.
 */
import type { GraphEdge, GraphGrid, GraphGroup, GraphIR, GraphNode } from '../../graph/types.js';
import { BOX, SHAPES } from './flowchart.js';
import { decodeMermaid } from './parser.js';
import { cssStyle } from './style.js';
import { dictionary } from '../../dictionary.js';

interface Block {
  /** Absent on the block a chain of links leaves behind (see chainedLinks). */
  id?: string;
  label?: string;
  /** `na` (a plain block), `space`, `composite`, or a shape: `round`, `circle`, `cylinder`… */
  type: string;
  widthInColumns?: number;
  columns?: number;
  children?: Block[];
  styles?: string[];
  classes?: string[];
  /** A block arrow's way: `up`, `down`, `left`, `right`, `x` (both across), `y` (both up and down). */
  directions?: string[];
}
interface BlockEdge {
  start: string;
  end: string;
  label?: string;
  arrowTypeStart?: string;
  arrowTypeEnd?: string;
}
export interface BlockDb {
  getBlocks(): Block[];
  getEdges(): BlockEdge[];
  getColumns(id: string): number;
  getClasses?(): Map<string, { styles?: string[] }>;
}

/** A block arrow's first way → our block arrow shape (`arrow-down`…); `x` and `y` point both ways, drawn one way. */
const ARROW_WAYS: Record<string, string> = dictionary({ up: 'up', down: 'down', left: 'left', right: 'right', x: 'right', y: 'down' });

/** Gaps between cells, as Mermaid's block padding. */
const GAP = 24;

/** A line that is a chain of two links or more between block ids (`client --> query --> model`). */
const CHAIN = /^\s*[\w-]+(?:\s*<?[-=.]{2,}[>xo]?\s*[\w-]+){2,}\s*$/;
const CHAIN_STEP = /([\w-]+)\s*(<?)[-=.]{2,}([>xo]?)\s*(?=([\w-]+))/g;

/**
 * The links of each chain in the source, one by one. Mermaid's block grammar takes one link per statement: of a chain
 * it keeps a link from no block to the last (and a block with no id), so none is drawn; the author meant each link.
 */
function chainedLinks(code: string): BlockEdge[] {
  const links: BlockEdge[] = [];
  for (const line of code.split(/\r?\n/)) {
    if (!CHAIN.test(line)) continue;
    for (const [, start, back, head, end] of line.matchAll(CHAIN_STEP)) {
      links.push({ start: start!, end: end!, arrowTypeStart: back === '<' ? 'arrow_point' : 'arrow_open', arrowTypeEnd: head === '>' ? 'arrow_point' : 'arrow_open' });
    }
  }
  return links;
}

export function blockToGraph(db: BlockDb, code = ''): GraphIR {
  const nodes: GraphNode[] = [];
  const groups: GraphGroup[] = [];
  const warnings: string[] = [];
  const classes = db.getClasses?.();
  /** The children of one container in rows of `columns` cells (-1: one row). */
  const place = (children: readonly Block[], columns: number, parent: string | undefined): GraphGrid => {
    const cells: GraphGrid['cells'] = {};
    let [row, column] = [0, 0];
    for (const block of children) {
      // What is left of a chain of links (see chainedLinks): a block with no id, which no one wrote.
      if (block.id === undefined) continue;
      const width = Math.max(1, block.widthInColumns ?? 1);
      if (columns > 0 && column > 0 && column + width > columns) [row, column] = [row + 1, 0];
      if (block.type !== 'space') {
        const span = columns > 0 ? Math.min(width, columns) : width;
        cells[block.id] = { row, column, ...(span > 1 && { columnSpan: span }) };
        if (block.type === 'composite') {
          const group: GraphGroup = { id: block.id, label: decodeMermaid(block.label ?? ''), grid: place(block.children ?? [], block.columns ?? db.getColumns(block.id), block.id) };
          if (parent !== undefined) group.parent = parent;
          groups.push(group);
        } else {
          const mapped = block.type === 'block_arrow' ? { shape: `arrow-${ARROW_WAYS[block.directions?.[0] ?? ''] ?? 'right'}` } : (SHAPES[block.type === 'na' ? 'square' : block.type] ?? BOX);
          // A label of spaces (`<["&nbsp;&nbsp;"]>(down)`, an arrow drawn for its shape) shows nothing in Mermaid.
          const label = decodeMermaid(block.label ?? block.id);
          const node: GraphNode = { id: block.id, label: label.trim() === '' ? '' : label, kind: mapped.kind ?? 'generic', shape: mapped.shape };
          const style = { ...cssStyle([...(block.classes ?? []).flatMap((name) => classes?.get(name)?.styles ?? []), ...(block.styles ?? [])]), ...(mapped.corner && { corner: mapped.corner }) };
          if (Object.keys(style).length > 0) node.style = style;
          if (parent !== undefined) node.parent = parent;
          nodes.push(node);
        }
      }
      column += width;
      if (columns > 0 && column >= columns) [row, column] = [row + 1, 0];
    }
    return { cells, rowGap: GAP, columnGap: GAP, fill: true };
  };
  const grid = place(db.getBlocks(), db.getColumns('root'), undefined);
  const ids = new Set([...nodes.map((node) => node.id), ...groups.map((group) => group.id)]);
  const edges: GraphEdge[] = [];
  const read = db.getEdges().filter((link) => link.start !== undefined);
  const chained = read.length < db.getEdges().length ? chainedLinks(code) : [];
  if (chained.length > 0) warnings.push(`${chained.length} links written as chains (a --> b --> c) drawn one by one; Mermaid's block parser draws none of them`);
  let unknown = 0;
  for (const link of [...read, ...chained]) {
    if (!ids.has(link.start) || !ids.has(link.end)) {
      unknown++;
      continue;
    }
    const edge: GraphEdge = { id: `e${edges.length + 1}`, from: link.start, to: link.end, startArrowhead: link.arrowTypeStart === 'arrow_point' ? 'arrow' : 'none', endArrowhead: link.arrowTypeEnd === 'arrow_point' ? 'arrow' : 'none' };
    const label = decodeMermaid(link.label ?? '').trim();
    if (label !== '') edge.label = label;
    edges.push(edge);
  }
  if (unknown > 0) warnings.push(`${unknown} link${unknown === 1 ? '' : 's'} to no block left out`);
  return { layout: 'layered', direction: 'DOWN', forcedDirection: true, nodes, edges, groups, warnings, grid };
}
