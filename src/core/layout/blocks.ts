/**
 * Containers laid out on their own: a grid (D2 `grid-rows`/`grid-columns`) and a container whose author gave it a
 * direction apart from the diagram's (D2 `direction` on a container). ELK lays out the whole hierarchy in one run with
 * one direction and knows no grid, so each such container is laid out first — its cells in their rows and columns, or
 * its contents in its own direction — and then stands in the layout around it as one box of that size. Edges from
 * outside to something inside it are led on from the box's border to their end.
 */
import type { Direction, GraphEdge, GraphGrid, GraphGroup, GraphIR, GraphNode } from '../graph/types.js';
import { FONT, SPACING } from './drawing-rules.js';
import { measureText } from './measure.js';
import { sizeNode, wrapEdgeLabel } from './node-size.js';
import { BEND_PENALTY, OrthogonalRouter, ROUTE_MARGIN, type Side, simplifyPolyline } from '../routing/orthogonal.js';
import { separateRuns } from '../routing/separate-runs.js';
import { containerFrame, shifted } from './pack.js';
import { boxesOverlap } from '../export/geometry.js';
import type { Box, LaidOutEdge, LaidOutGraph, LaidOutLabel, LaidOutNode, LayoutEngine, Point } from './types.js';

/** Whether a graph has a container to lay out on its own (else the engine lays it out alone, as before). */
export const hasBlocks = (graph: GraphIR): boolean => graph.grid !== undefined || graph.groups.some((group) => group.grid !== undefined || group.direction !== undefined);

/** Room around a grid drawn at the top level, as ELK leaves around a graph. */
const ROOT_PADDING = 12;

/** `engine`, with grids and containers of their own direction laid out on their own. */
export function withBlocks(engine: LayoutEngine): LayoutEngine {
  const layout: LayoutEngine = async (graph) => {
    if (graph.grid !== undefined) return layoutGrid(graph, undefined, graph.grid, layout);
    const tree = treeOf(graph);
    const blocks = graph.groups.filter((group) => tree.isBlock(group) && !tree.ancestors(group.id, false).some((up) => tree.isBlock(tree.group.get(up)!)));
    if (blocks.length === 0) return engine(graph);

    // Each block laid out alone, its box taken as its size.
    const laidBlocks = new Map<string, { laid: LaidOutGraph; box: Box; part: GraphIR }>();
    for (const block of blocks) {
      const part = partOf(graph, block, tree);
      const laid = block.grid !== undefined ? await layoutGrid(part, block, block.grid, layout) : await layout({ ...part, direction: block.direction!, forcedDirection: true });
      const box = laid.groups.find((group) => group.id === block.id) ?? { x: 0, y: 0, width: laid.width, height: laid.height };
      laidBlocks.set(block.id, { laid, box, part });
    }
    const blockOf = (end: string): string | undefined => {
      const chain = [...(tree.node.has(end) ? [] : [end]), ...tree.ancestors(end, tree.node.has(end))];
      return chain.find((id) => laidBlocks.has(id));
    };
    const stand = (block: string) => `${block}\u0000block`;
    const outside = graph.nodes.filter((node) => blockOf(node.id) === undefined);
    const placeholders: GraphNode[] = blocks.map((block) => {
      const { box } = laidBlocks.get(block.id)!;
      return { id: stand(block.id), label: '', kind: 'generic', size: { width: box.width, height: box.height }, ...(block.parent !== undefined && { parent: block.parent }) };
    });
    const kept: { edge: GraphEdge; index: number }[] = [];
    graph.edges.forEach((edge, index) => {
      const [from, to] = [blockOf(edge.from), blockOf(edge.to)];
      if (from !== undefined && from === to) return; // laid out inside its block
      kept.push({ edge: { ...edge, from: from === undefined ? edge.from : stand(from), to: to === undefined ? edge.to : stand(to) }, index });
    });
    const collapsed: GraphIR = {
      ...graph,
      nodes: [...outside, ...placeholders],
      groups: graph.groups.filter((group) => blockOf(group.id) === undefined),
      edges: kept.map(({ edge }) => edge),
    };
    const laid = await engine(collapsed);

    // Each block drawn where its box was placed; edges into it carried on to their end.
    const result: LaidOutGraph = { ...laid, nodes: laid.nodes.filter((node) => !node.id.endsWith('\u0000block')), groups: [...laid.groups], edges: [], warnings: [...laid.warnings] };
    const boxes = new Map<string, Box>();
    /** The nodes drawn inside each block, where they were placed. */
    const insides = new Map<string, Box[]>();
    for (const block of blocks) {
      const at = laid.nodes.find((node) => node.id === stand(block.id));
      if (at === undefined) continue;
      const { laid: inner, box, part } = laidBlocks.get(block.id)!;
      const depth = tree.ancestors(block.id, false).length;
      const placed = shifted(inner, at.x - box.x, at.y - box.y, (index) => graph.edges.indexOf(part.edges[index]!));
      result.nodes.push(...placed.nodes);
      result.groups.push(...placed.groups.map((group) => ({ ...group, depth: group.depth + depth })));
      result.edges.push(...placed.edges);
      result.warnings.push(...placed.warnings);
      for (const item of [...placed.nodes, ...placed.groups]) boxes.set(item.id, item);
      insides.set(block.id, placed.nodes);
    }
    /** The nodes of the block holding `end` other than `end` itself, which a leg carried to it must go round. */
    const othersBeside = (end: string): Box[] => (insides.get(blockOf(end) ?? '') ?? []).filter((node) => node !== boxes.get(end));
    const taken: Box[] = [...laid.edges, ...result.edges].flatMap((edge) => edge.labels);
    for (const edge of laid.edges) {
      const { index } = kept[edge.index]!;
      const original = graph.edges[index]!;
      const points = [...edge.points];
      const fromBox = blockOf(original.from) !== undefined ? boxes.get(original.from) : undefined;
      const toBox = blockOf(original.to) !== undefined ? boxes.get(original.to) : undefined;
      const atEnd = toBox ? enter(points, toBox, othersBeside(original.to)) : { points };
      const atStart = fromBox ? enter([...atEnd.points].reverse(), fromBox, othersBeside(original.from)) : { points: [...atEnd.points].reverse() };
      const labels = edge.labels.map((label) => {
        const moved = [atEnd.shift, atStart.shift].reduce((at, shift) => (shift === undefined ? at : carried(at, shift)), label);
        // Two legs shifted to one line would stack their labels: the second keeps its place.
        if (moved === label || taken.some((other) => other !== label && boxesOverlap(other, moved))) return label;
        taken.push(moved);
        return moved;
      });
      result.edges.push({ ...edge, index, points: atStart.points.reverse(), labels });
    }
    // An end already on the border it is carried to (a block's own edge to a container inside it, laid out with the
    // block) repeats its point: a leg of no length, on which an arrowhead has no way to point (a two-way link between
    // two Mermaid subgraphs ended in a diamond of two heads across the border).
    return { ...result, edges: result.edges.map((edge) => ({ ...edge, points: withoutRepeats(edge.points) })) };
  };
  return layout;
}

const withoutRepeats = (points: readonly Point[]): Point[] =>
  points.filter((point, k) => k === 0 || Math.abs(point.x - points[k - 1]!.x) > 0.01 || Math.abs(point.y - points[k - 1]!.y) > 0.01);

interface Tree {
  group: Map<string, GraphGroup>;
  node: Map<string, GraphNode>;
  /** Groups around a group, or around a node when `isNode`, innermost first. */
  ancestors(id: string, isNode: boolean): string[];
  isBlock(group: GraphGroup): boolean;
}

function treeOf(graph: GraphIR): Tree {
  const group = new Map(graph.groups.map((g) => [g.id, g]));
  const node = new Map(graph.nodes.map((n) => [n.id, n]));
  const ancestors = (id: string, isNode: boolean): string[] => {
    const chain: string[] = [];
    for (let up = isNode ? node.get(id)?.parent : group.get(id)?.parent; up !== undefined && group.has(up) && !chain.includes(up); up = group.get(up)!.parent) chain.push(up);
    return chain;
  };
  /** The flow a group's contents follow: its own, else its nearest container's, else the diagram's. */
  const flow = (id: string): Direction => {
    for (const up of [id, ...ancestors(id, false)]) if (group.get(up)?.direction !== undefined) return group.get(up)!.direction!;
    return graph.direction;
  };
  const isBlock = (g: GraphGroup) => g.grid !== undefined || (g.direction !== undefined && g.direction !== (g.parent !== undefined && group.has(g.parent) ? flow(g.parent) : graph.direction));
  return { group, node, ancestors, isBlock };
}

/** A group and everything inside it as a graph of its own (the group at its top level), with the edges among them. */
function partOf(graph: GraphIR, top: GraphGroup, tree: Tree): GraphIR {
  const inside = (id: string, isNode: boolean) => (!isNode && id === top.id) || tree.ancestors(id, isNode).includes(top.id);
  const insideEnd = (end: string) => inside(end, tree.node.has(end));
  const { parent: _, ...root } = top;
  return {
    layout: 'layered',
    direction: graph.direction,
    nodes: graph.nodes.filter((node) => inside(node.id, true)),
    groups: [root, ...graph.groups.filter((group) => group !== top && inside(group.id, false))],
    edges: graph.edges.filter((edge) => insideEnd(edge.from) && insideEnd(edge.to)),
    warnings: [],
  };
}

/** A leg of a route moved sideways by (dx, dy), to carry the labels set beside it along. */
interface Shift {
  leg: readonly [Point, Point];
  dx: number;
  dy: number;
}

/**
 * `points`, which end on a block's border, carried on to `box` inside it at a right angle: the last leg shifted along
 * the border to face the box, so it runs straight in. A slanted leg from wherever the route met the block cut across
 * the block's other nodes (the Codex deployment's folded workflows: nine legs through the steps of a row).
 */
function enter(points: readonly Point[], box: Box, others: readonly Box[]): { points: Point[]; shift?: Shift } {
  const entered = straightIn(points, box);
  return { ...entered, points: roundOthers(entered.points, box, others) };
}

/** Whether the axis-aligned leg a–b runs through the inside of `box` (touching its border is not). */
const legThrough = (a: Point, b: Point, box: Box): boolean =>
  Math.max(a.x, b.x) > box.x + 1 && Math.min(a.x, b.x) < box.x + box.width - 1 && Math.max(a.y, b.y) > box.y + 1 && Math.min(a.y, b.y) < box.y + box.height - 1;

/** What reaching a side not asked for costs the router here: it is not an option while another route exists. */
const OTHER_SIDE = 10_000;

/**
 * `points` whose last leg, carried in from the block's border, runs through another node of the block: that leg found
 * again by the orthogonal router from the border round the block's nodes, to the side of its end that faces the
 * border where it can (beside the nodes in the way), else to another. D2's docs' deployment, folded, led the edge into
 * `aws.builders` straight through `aws.ec2` above it.
 */
function roundOthers(points: Point[], box: Box, others: readonly Box[]): Point[] {
  const [before, border, end] = points.slice(-3);
  if (before === undefined || border === undefined || end === undefined || !others.some((other) => legThrough(border, end, other))) return points;
  const vertical = Math.abs(before.x - border.x) < 0.5;
  const inward: Side = vertical ? (before.y < border.y ? 'bottom' : 'top') : before.x < border.x ? 'right' : 'left';
  const facing: Side = ({ bottom: 'top', top: 'bottom', right: 'left', left: 'right' } as const)[inward];
  const span = (b: Box): [number, number] => (vertical ? [b.x, b.x + b.width] : [b.y, b.y + b.height]);
  const [start, stop] = span(box);
  const inset = ROUTE_MARGIN / 2;
  // The facing side's middle, and just beside each node in the way.
  const ats = [(start + stop) / 2, ...others.flatMap((other) => [span(other)[0] - ROUTE_MARGIN - 1, span(other)[1] + ROUTE_MARGIN + 1])].filter((at) => at >= start + inset && at <= stop - inset);
  const stub = { x: border.x - 1, y: border.y - 1, width: 2, height: 2 };
  const obstacles = [stub, box, ...others].map((obstacle) => ({ ...obstacle, type: 'rectangle' }));
  const request = { from: 0, to: 1, through: [], fromSides: [inward], offSideCost: OTHER_SIDE };
  const routes = [
    ...ats.map((at) => new OrthogonalRouter(obstacles, [0, 1], 0, [{ side: facing, at }]).route({ ...request, toSides: [facing], toPort: { side: facing, at } })),
    new OrthogonalRouter(obstacles, [0, 1]).route(request),
  ].filter((route) => route !== undefined);
  const cost = (route: Point[]) => route.slice(1).reduce((sum, point, i) => sum + Math.abs(point.x - route[i]!.x) + Math.abs(point.y - route[i]!.y), 0) + BEND_PENALTY * (route.length - 2);
  const best = routes.map((route) => simplifyPolyline([border, ...route.points.slice(1)])).sort((a, b) => cost(a) - cost(b))[0];
  return best === undefined ? points : simplifyPolyline([...points.slice(0, -2), ...best]);
}

function straightIn(points: readonly Point[], box: Box): { points: Point[]; shift?: Shift } {
  const last = points[points.length - 1];
  const prev = points[points.length - 2];
  if (last === undefined) return { points: [...points] };
  if (prev === undefined) return { points: [...points, toward(last, box)] };
  const down = Math.abs(prev.x - last.x) < 0.5;
  const across = Math.abs(prev.y - last.y) < 0.5;
  if (!down && !across) return { points: [...points, toward(last, box)] };
  // Along the border, the point nearest the leg's line that faces the box's middle half.
  const along = (at: number, start: number, length: number) => Math.min(Math.max(at, start + length / 4), start + (3 * length) / 4);
  const head = points.slice(0, -2);
  const leg = [prev, last] as const;
  if (down) {
    const x = along(last.x, box.x, box.width);
    const y = prev.y < last.y ? box.y : box.y + box.height;
    if (Math.abs(x - last.x) < 0.5) return { points: [...points, { x: last.x, y }] };
    // A route of one leg keeps its start on its source: the shift is a jog half-way.
    const bend = head.length === 0 ? [prev, { x: prev.x, y: (prev.y + last.y) / 2 }, { x, y: (prev.y + last.y) / 2 }] : [...head, { x, y: prev.y }];
    return { points: [...bend, { x, y: last.y }, { x, y }], shift: { leg, dx: x - last.x, dy: 0 } };
  }
  const y = along(last.y, box.y, box.height);
  const x = prev.x < last.x ? box.x : box.x + box.width;
  if (Math.abs(y - last.y) < 0.5) return { points: [...points, { x, y: last.y }] };
  const bend = head.length === 0 ? [prev, { x: (prev.x + last.x) / 2, y: prev.y }, { x: (prev.x + last.x) / 2, y }] : [...head, { x: prev.x, y }];
  return { points: [...bend, { x: last.x, y }, { x, y }], shift: { leg, dx: 0, dy: y - last.y } };
}

/** Room between a label and the leg it is read with (ELK sets a label about 5 px off its edge). */
const LABEL_BESIDE_LEG = 24;

/** `label` moved with the leg it stood beside, else as it was. */
function carried<T extends Box>(label: T, { leg: [a, b], dx, dy }: Shift): T {
  const gapX = Math.max(Math.min(a.x, b.x) - (label.x + label.width), label.x - Math.max(a.x, b.x), 0);
  const gapY = Math.max(Math.min(a.y, b.y) - (label.y + label.height), label.y - Math.max(a.y, b.y), 0);
  return Math.hypot(gapX, gapY) <= LABEL_BESIDE_LEG ? { ...label, x: label.x + dx, y: label.y + dy } : label;
}

/** Where a line from `from` toward the middle of `box` meets its border. */
function toward(from: Point, box: Box): Point {
  const centre = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  const dx = from.x - centre.x;
  const dy = from.y - centre.y;
  if (dx === 0 && dy === 0) return centre;
  const scale = Math.min(dx === 0 ? Infinity : box.width / 2 / Math.abs(dx), dy === 0 ? Infinity : box.height / 2 / Math.abs(dy));
  return { x: centre.x + dx * Math.min(1, scale), y: centre.y + dy * Math.min(1, scale) };
}

/**
 * The children of `container` (or the top level) in their rows and columns: each column as wide as its widest cell
 * and each row as tall as its tallest, as D2 draws a grid; rectangles are stretched to fill their cell. A child that
 * is a container is laid out first, by `layout`. Edges between cells run in the gaps between rows and columns.
 */
async function layoutGrid(graph: GraphIR, container: GraphGroup | undefined, grid: GraphGrid, layout: LayoutEngine, fillWidth?: number): Promise<LaidOutGraph> {
  const tree = treeOf(graph);
  const top = container?.id;
  const isChild = (parent: string | undefined) => (top === undefined ? parent === undefined || !tree.group.has(parent) : parent === top);
  const cells: { id: string; laid: LaidOutGraph; box: Box; stretch: boolean; part?: GraphIR }[] = [];
  for (const group of graph.groups.filter((g) => g.id !== top && isChild(g.parent))) {
    const part = partOf(graph, group, tree);
    const laid = await layout(part);
    const box = laid.groups.find((g) => g.id === group.id)!;
    cells.push({ id: group.id, laid, box, stretch: true, part });
  }
  for (const node of graph.nodes.filter((n) => isChild(n.parent))) {
    const box = sizeNode(node);
    const laidNode: LaidOutNode = { id: node.id, x: 0, y: 0, width: box.width, height: box.height, box };
    cells.push({ id: node.id, laid: { nodes: [laidNode], groups: [], edges: [], warnings: [], width: box.width, height: box.height }, box: laidNode, stretch: box.shape === 'rectangle' });
  }
  // Children the grid does not name (none from D2's compiler) go in a row of their own below it.
  const known = cells.map((cell) => grid.cells[cell.id]).filter((cell) => cell !== undefined);
  const spare = Math.max(-1, ...known.map((cell) => cell.row + (cell.rowSpan ?? 1) - 1)) + 1;
  let next = 0;
  const cellOf = new Map(cells.map((cell) => [cell.id, grid.cells[cell.id] ?? { row: spare, column: next++ }]));
  const rowSpan = (id: string) => Math.max(1, cellOf.get(id)!.rowSpan ?? 1);
  const rows = Math.max(0, ...[...cellOf.entries()].map(([id, cell]) => cell.row + rowSpan(id)));
  const span = (id: string) => Math.max(1, cellOf.get(id)!.columnSpan ?? 1);
  const columns = Math.max(0, ...[...cellOf.entries()].map(([id, cell]) => cell.column + span(id)));
  /**
   * Each band's size along one axis: its widest single-band cell, then each cell spanning bands (Mermaid's `a:3`
   * across columns, D2's first of five cells over three columns as tall as two rows) sharing what it lacks out.
   */
  const bandSizes = (count: number, first: (id: string) => number, spanOf: (id: string) => number, size: (box: Box) => number, gap: number): number[] => {
    const sizes = Array.from({ length: count }, (_, b) => Math.max(0, ...cells.filter((cell) => first(cell.id) === b && spanOf(cell.id) === 1).map((cell) => size(cell.box))));
    for (const cell of cells.filter((c) => spanOf(c.id) > 1)) {
      const at = first(cell.id);
      const spanned = sizes.slice(at, at + spanOf(cell.id));
      const lack = size(cell.box) - (spanned.reduce((sum, s) => sum + s, 0) + (spanned.length - 1) * gap);
      if (lack > 0) for (let b = at; b < at + spanned.length; b++) sizes[b]! += lack / spanned.length;
    }
    return sizes;
  };
  const widths = bandSizes(columns, (id) => cellOf.get(id)!.column, span, (box) => box.width, grid.columnGap);
  // A grid that fills its container, stretched to its cell (fillWidth) or widened to a container's least width: the
  // width gained goes to the narrowest columns first, so they come out as even as the widest allows, as Mermaid sizes
  // a composite block's children.
  if (grid.fill && container !== undefined && columns > 0) {
    const frame = containerFrame(container.label);
    const room = Math.max(fillWidth ?? 0, frame.minWidth) - 2 * frame.left - (columns - 1) * grid.columnGap;
    if (room > widths.reduce((sum, w) => sum + w, 0)) {
      // The even width `even` with the columns wider than it kept as they are: sum of max(width, even) = room.
      const widest = [...widths].sort((a, b) => b - a);
      let [even, kept] = [room / columns, 0];
      for (let k = 0; k < columns - 1 && widest[k]! > even; k++) {
        kept += widest[k]!;
        even = (room - kept) / (columns - k - 1);
      }
      for (let c = 0; c < columns; c++) widths[c] = Math.max(widths[c]!, even);
    }
  }
  const heights = bandSizes(rows, (id) => cellOf.get(id)!.row, rowSpan, (box) => box.height, grid.rowGap);
  const xs = widths.map((_, c) => widths.slice(0, c).reduce((sum, w) => sum + w + grid.columnGap, 0));
  const ys = heights.map((_, r) => heights.slice(0, r).reduce((sum, h) => sum + h + grid.rowGap, 0));

  const out: LaidOutGraph = { nodes: [], groups: [], edges: [], warnings: [], width: 0, height: 0 };
  /** Each cell's outline once placed, to route edges between cells. */
  const placedBox = new Map<string, Box>();
  for (const cell of cells) {
    const { row, column } = cellOf.get(cell.id)!;
    const last = column + span(cell.id) - 1;
    const lastRow = row + rowSpan(cell.id) - 1;
    const slot = { x: xs[column]!, y: ys[row]!, width: xs[last]! + widths[last]! - xs[column]!, height: ys[lastRow]! + heights[lastRow]! - ys[row]! };
    const inner = cell.part?.groups[0];
    if (inner?.grid?.fill === true && slot.width > cell.box.width + 0.5) {
      // Laid out again to the slot's width, its children filling it rather than sitting at its left.
      cell.laid = await layoutGrid(cell.part!, inner, inner.grid, layout, slot.width);
      cell.box = cell.laid.groups.find((g) => g.id === cell.id)!;
    }
    const size = cell.stretch ? { width: slot.width, height: slot.height } : { width: cell.box.width, height: cell.box.height };
    const at = { x: slot.x + (slot.width - size.width) / 2, y: slot.y + (slot.height - size.height) / 2 };
    const placed = shifted(cell.laid, at.x - cell.box.x, at.y - cell.box.y, (index) => graph.edges.indexOf(cell.part?.edges[index] as GraphEdge));
    const resize = <T extends Box & { id: string }>(item: T): T => (item.id === cell.id ? { ...item, ...at, ...size } : item);
    out.nodes.push(...placed.nodes.map(resize));
    out.groups.push(...placed.groups.map(resize));
    out.edges.push(...placed.edges);
    out.warnings.push(...placed.warnings);
    placedBox.set(cell.id, { ...at, ...size });
  }
  // The cell each end sits in.
  const cellAround = (end: string): string | undefined => [end, ...tree.ancestors(end, tree.node.has(end))].find((id) => cellOf.has(id));
  // Whether any cell takes a place in rows `rows` (from, to: exclusive) and columns `columns` (inclusive).
  const filled = (rows: [number, number], columns: [number, number]) =>
    [...cellOf.entries()].some(([id, cell]) => cell.row + rowSpan(id) - 1 > rows[0] && cell.row < rows[1] && cell.column <= columns[1] && cell.column + span(id) - 1 >= columns[0]);
  const gutters = { xs, ys, widths, heights, grid, filled };
  const routed: LaidOutEdge[] = [];
  graph.edges.forEach((edge, index) => {
    const [from, to] = [cellAround(edge.from), cellAround(edge.to)];
    if (from === undefined || to === undefined || from === to) return;
    // An end inside a cell's container: carried on from the cell's border to it.
    const endBox = (end: string, cell: string) => (end === cell ? undefined : [...out.nodes, ...out.groups].find((item) => item.id === end));
    const fromBox = endBox(edge.from, from);
    const toBox = endBox(edge.to, to);
    const route = gutterRoute(placedBox.get(from)!, cellOf.get(from)!, placedBox.get(to)!, cellOf.get(to)!, gutters, fromBox ?? toBox);
    if (fromBox) route.unshift(toward(route[0]!, fromBox));
    if (toBox) route.push(toward(route[route.length - 1]!, toBox));
    routed.push({ index, points: simplifyPolyline(route), labels: [] });
  });
  // Routes sharing a gap are moved apart (as ELK's are), then labelled.
  const apart = separateRuns(routed.map((edge) => ({ points: edge.points, ends: [graph.edges[edge.index]!.from, graph.edges[edge.index]!.to], slideEnds: true })), [...out.nodes, ...out.groups]);
  routed.forEach((edge, i) => out.edges.push({ ...edge, points: apart[i]!, labels: labelsOf(graph.edges[edge.index]!, apart[i]!) }));

  // The grid's extent, everything in it moved clear of the origin, then its container's frame around it.
  const all = [...out.nodes, ...out.groups, ...out.edges.flatMap((edge) => [...edge.labels, ...edge.points.map((point) => ({ ...point, width: 0, height: 0 }))])];
  const left = Math.min(0, ...all.map((item) => item.x));
  const topEdge = Math.min(0, ...all.map((item) => item.y));
  const width = Math.max(...all.map((item) => item.x + item.width), 0) - left;
  const height = Math.max(...all.map((item) => item.y + item.height), 0) - topEdge;
  if (container === undefined) {
    const moved = shifted(out, ROOT_PADDING - left, ROOT_PADDING - topEdge, (index) => index);
    return { ...moved, width: width + 2 * ROOT_PADDING, height: height + 2 * ROOT_PADDING };
  }
  const frame = containerFrame(container.label);
  const boxWidth = Math.max(frame.minWidth, width + 2 * frame.left);
  const inset = (boxWidth - width) / 2;
  const moved = shifted(out, inset - left, frame.top - topEdge, (index) => index);
  const { text, ...titleSize } = frame.title;
  const box = { x: 0, y: 0, width: boxWidth, height: height + frame.top + frame.left };
  return {
    ...moved,
    groups: [{ id: container.id, ...box, depth: 0, title: { text, x: frame.left, y: SPACING.containerPadding, ...titleSize } }, ...moved.groups.map((group) => ({ ...group, depth: group.depth + 1 }))],
    width: box.width,
    height: box.height,
  };
}

interface Gutters {
  xs: number[];
  ys: number[];
  widths: number[];
  heights: number[];
  grid: GraphGrid;
  /** Whether a cell sits between two rows (exclusive) in a range of columns (inclusive). */
  filled: (rows: [number, number], columns: [number, number]) => boolean;
}

/**
 * A right-angled route between two cells that keeps to the gaps: straight across when nothing stands between them in
 * a row, or in a column (their columns overlapping, when one spans several: in line with `inner`, the end inside a
 * container cell, where it can be); else out into the gap beside the source, along it to the gap beside the target,
 * and in. Mermaid's `space` cells are empty: a link runs straight over them.
 */
function gutterRoute(a: Box, cellA: GraphGrid['cells'][string], b: Box, cellB: GraphGrid['cells'][string], g: Gutters, inner?: Box): Point[] {
  // The last column each cell spans.
  const [lastA, lastB] = [cellA.column + (cellA.columnSpan ?? 1) - 1, cellB.column + (cellB.columnSpan ?? 1) - 1];
  // The last row each cell spans: cells whose rows overlap are side by side.
  const [bottomA, bottomB] = [cellA.row + (cellA.rowSpan ?? 1) - 1, cellB.row + (cellB.rowSpan ?? 1) - 1];
  const mid = (box: Box) => ({ x: box.x + box.width / 2, y: box.y + box.height / 2 });
  const [ma, mb] = [mid(a), mid(b)];
  // The gap above a row (for the first, the room above the grid) and right of a column (for the last, beyond it).
  const rowGapAfter = (row: number) => (row < 0 ? g.ys[0]! - g.grid.rowGap / 2 : g.ys[row]! + g.heights[row]! + g.grid.rowGap / 2);
  const columnGapAfter = (column: number) => g.xs[column]! + g.widths[column]! + g.grid.columnGap / 2;
  if (cellA.row <= bottomB && cellB.row <= bottomA) {
    const between: [number, number] = lastA < cellB.column ? [lastA + 1, cellB.column - 1] : [lastB + 1, cellA.column - 1];
    const [firstRow, lastRow] = [Math.max(cellA.row, cellB.row), Math.min(bottomA, bottomB)];
    if (between[0] > between[1] || !g.filled([firstRow - 1, lastRow + 1], between)) {
      const [top, bottom] = [Math.max(a.y, b.y), Math.min(a.y + a.height, b.y + b.height)];
      const y = inner !== undefined && inner.y + inner.height / 2 > top && inner.y + inner.height / 2 < bottom ? inner.y + inner.height / 2 : (top + bottom) / 2;
      return a.x < b.x ? [{ x: a.x + a.width, y }, { x: b.x, y }] : [{ x: a.x, y }, { x: b.x + b.width, y }];
    }
    // Over the cells between, in the gap above the row.
    const y = rowGapAfter(cellA.row - 1);
    return [{ x: ma.x, y: a.y }, { x: ma.x, y }, { x: mb.x, y }, { x: mb.x, y: b.y }];
  }
  if (cellA.column <= lastB && cellB.column <= lastA) {
    const [low, high] = [Math.max(cellA.column, cellB.column), Math.min(lastA, lastB)];
    if (!g.filled(cellA.row < cellB.row ? [bottomA, cellB.row] : [bottomB, cellA.row], [low, high])) {
      const [left, right] = [Math.max(a.x, b.x), Math.min(a.x + a.width, b.x + b.width)];
      const x = inner !== undefined && inner.x + inner.width / 2 > left && inner.x + inner.width / 2 < right ? inner.x + inner.width / 2 : (left + right) / 2;
      return a.y < b.y ? [{ x, y: a.y + a.height }, { x, y: b.y }] : [{ x, y: a.y }, { x, y: b.y + b.height }];
    }
    // Past the cells between, in the gap right of the column.
    const x = columnGapAfter(Math.max(lastA, lastB));
    return [{ x: a.x + a.width, y: ma.y }, { x, y: ma.y }, { x, y: mb.y }, { x: b.x + b.width, y: mb.y }];
  }
  // Out of the source's top or bottom into the row gap toward the target, across to the column gap beside the
  // target, along it to the target's middle, and in from the side.
  const down = cellB.row > bottomA;
  const y = down ? rowGapAfter(bottomA) : rowGapAfter(cellA.row - 1);
  const right = cellB.column > lastA;
  const x = right ? columnGapAfter(cellB.column - 1) : columnGapAfter(lastB);
  return [
    { x: ma.x, y: down ? a.y + a.height : a.y },
    { x: ma.x, y },
    { x, y },
    { x, y: mb.y },
    { x: right ? b.x : b.x + b.width, y: mb.y },
  ];
}

/** The edge's labels: its middle one on its longest leg (beside it when the leg runs up or down a gap), those at its ends beside them. */
function labelsOf(edge: GraphEdge, route: Point[]): LaidOutLabel[] {
  const labels: LaidOutLabel[] = [];
  const sized = (text: string) => {
    const wrapped = wrapEdgeLabel(text);
    return { text: wrapped, ...measureText(wrapped, FONT.edgeLabel, FONT.family) };
  };
  if (edge.label) {
    let longest = 0;
    for (let i = 1; i < route.length; i++) {
      const leg = (j: number) => Math.hypot(route[j]!.x - route[j - 1]!.x, route[j]!.y - route[j - 1]!.y);
      if (leg(i) > leg(longest || 1)) longest = i;
    }
    const i = longest || 1;
    const centre = { x: (route[i - 1]!.x + route[i]!.x) / 2, y: (route[i - 1]!.y + route[i]!.y) / 2 };
    const text = sized(edge.label);
    const upright = route[i - 1]!.x === route[i]!.x;
    labels.push({ ...text, placement: 'center', x: upright ? centre.x + SPACING.edgeLabelPadding : centre.x - text.width / 2, y: centre.y - text.height / 2 });
  }
  const pad = SPACING.edgeLabelPadding;
  for (const [placement, text, at] of [['start', edge.startLabel, route[0]!], ['end', edge.endLabel, route[route.length - 1]!]] as const) {
    if (!text) continue;
    const size = sized(text);
    labels.push({ ...size, placement, x: at.x + pad, y: at.y + pad });
  }
  return labels;
}
