/**
 * Connected components laid out apart and packed in rows. With INCLUDE_CHILDREN, ELK does not separate components:
 * every one starts in the first layer, so a Kubernetes manifest of five Service → Deployment pairs came out one row
 * 1,821 px wide. Laid out one by one and packed left to right, tallest first, in rows of a chosen width, they fit a
 * README column.
 */
import type { GraphIR } from '../graph/types.js';
import { CONTAINER_MIN_WIDTH, SPACING } from './drawing-rules.js';
import { containerTitle } from './titles.js';
import type { LaidOutGraph, Point } from './types.js';

/**
 * Top-level items joined by edges (through anything inside them), in first-seen order; undefined for one component.
 * `looseTogether`: top-level nodes joined to nothing make one part, for a layout that sets them in a grid itself
 * (Graphviz's placement, looseInGrid): packed one by one, nodes of unequal heights left ragged rows (robot-shop's
 * twelve Helm services: four cylinders in a row, one workload under the last, then rows of five and two).
 */
export function connectedComponents(graph: GraphIR, { looseTogether = false } = {}): GraphIR[] | undefined {
  const groupParent = new Map(graph.groups.map((group) => [group.id, group.parent] as const));
  const nodeIds = new Set(graph.nodes.map((node) => node.id));
  /** The top-level group around a group, or the item itself; undefined when parents form a cycle (left to ELK's warning). */
  const topOf = (start: string, parent: string | undefined): string | undefined => {
    let top = start;
    const seen = new Set<string>();
    for (let up = parent; up !== undefined && groupParent.has(up); up = groupParent.get(up)) {
      if (seen.has(up)) return undefined;
      seen.add(up);
      top = `g:${up}`;
    }
    return top;
  };
  const tops = new Map<string, string>();
  for (const group of graph.groups) tops.set(`g:${group.id}`, topOf(`g:${group.id}`, group.parent) ?? '');
  for (const node of graph.nodes) tops.set(`n:${node.id}`, topOf(`n:${node.id}`, node.parent) ?? '');
  if ([...tops.values()].includes('')) return undefined;
  // An edge end names a node, or else a group (as ELK reads it).
  const topOfEnd = (end: string) => tops.get(nodeIds.has(end) ? `n:${end}` : `g:${end}`);

  const root = new Map<string, string>();
  const find = (item: string): string => {
    let at = item;
    while (root.get(at) !== at) at = root.get(at)!;
    root.set(item, at);
    return at;
  };
  for (const top of tops.values()) root.set(top, top);
  for (const edge of graph.edges) {
    const [from, to] = [topOfEnd(edge.from), topOfEnd(edge.to)];
    if (from !== undefined && to !== undefined) root.set(find(from), find(to));
  }
  if (looseTogether) {
    const size = new Map<string, number>();
    for (const top of new Set(tops.values())) size.set(find(top), (size.get(find(top)) ?? 0) + 1);
    const loose = graph.nodes.map((node) => `n:${node.id}`).filter((item) => tops.get(item) === item && size.get(find(item)) === 1);
    for (const item of loose) root.set(find(item), find(loose[0]!));
  }
  const order = [...new Set([...tops.values()].map(find))];
  if (order.length < 2) return undefined;
  const part = (item: string) => order.indexOf(find(tops.get(item)!));
  const parts = order.map((): GraphIR => ({ ...graph, nodes: [], edges: [], groups: [], warnings: [] }));
  for (const group of graph.groups) parts[part(`g:${group.id}`)]!.groups.push(group);
  for (const node of graph.nodes) parts[part(`n:${node.id}`)]!.nodes.push(node);
  // An edge with an unknown end goes with its known one, so ELK's warning about it is said once.
  for (const edge of graph.edges) {
    const end = topOfEnd(edge.from) ?? topOfEnd(edge.to);
    parts[end === undefined ? 0 : order.indexOf(find(end))]!.edges.push(edge);
  }
  return parts;
}

const moved = ({ x, y }: Point, dx: number, dy: number): Point => ({ x: x + dx, y: y + dy });

/** Shifts a whole layout; `edgeIndex` maps a part's edge indices to the whole graph's. */
export function shifted(laid: LaidOutGraph, dx: number, dy: number, edgeIndex: (index: number) => number): Omit<LaidOutGraph, 'width' | 'height'> {
  return {
    nodes: laid.nodes.map((node) => ({ ...node, ...moved(node, dx, dy) })),
    groups: laid.groups.map((group) => ({ ...group, ...moved(group, dx, dy), title: { ...group.title, ...moved(group.title, dx, dy) } })),
    edges: laid.edges.map((edge) => ({
      ...edge,
      index: edgeIndex(edge.index),
      points: edge.points.map((point) => moved(point, dx, dy)),
      labels: edge.labels.map((label) => ({ ...label, ...moved(label, dx, dy) })),
    })),
    warnings: laid.warnings,
  };
}

/**
 * Packs laid-out components in rows no wider than `rowWidth` (or the widest component), tallest first so each row's
 * height is set by its first; ties keep source order. A part that fits under the last one placed, within the row's
 * height or growing it by less than a row of its own would, goes there: two short pairs beside a long chain stack in
 * one column (aks-store's quickstart: its third pair made a row of its own, 884 × 1,434 px). `skyline`: packed on a
 * skyline instead (skylinePlaces).
 */
export function packComponents(graph: GraphIR, parts: readonly GraphIR[], laid: readonly LaidOutGraph[], rowWidth: number, { skyline = false } = {}): LaidOutGraph {
  const order = laid.map((_, i) => i).sort((a, b) => laid[b]!.height - laid[a]!.height || a - b);
  const limit = Math.max(rowWidth, ...laid.map((part) => part.width));
  // No edge leaves a table joined to nothing: beside another such table it needs only the room between nodes of a layer.
  const lone = (i: number) => parts[i]!.nodes.length === 1 && parts[i]!.nodes[0]!.kind === 'entity' && parts[i]!.edges.length === 0 && parts[i]!.groups.length === 0;
  const gapAfter = (i: number) => (lone(i) ? LONE_GAP : SPACING.betweenLayers);
  const places = skyline ? skylinePlaces(laid, order, limit, gapAfter) : rowPlaces(laid, order, limit, gapAfter);
  const edgeOf = new Map(graph.edges.map((edge, index) => [edge, index]));
  const result: LaidOutGraph = { nodes: [], groups: [], edges: [], warnings: [], width: 0, height: 0 };
  for (const i of order) {
    const [part, at] = [laid[i]!, places.get(i)!];
    const placed = shifted(part, at.x, at.y, (index) => edgeOf.get(parts[i]!.edges[index]!)!);
    result.nodes.push(...placed.nodes);
    result.groups.push(...placed.groups);
    result.edges.push(...placed.edges);
    result.warnings.push(...placed.warnings);
    result.width = Math.max(result.width, at.x + part.width);
    result.height = Math.max(result.height, at.y + part.height);
  }
  return result;
}

/** Room ELK leaves around a laid-out graph (its default root padding): kept around a container drawn by hand. */
const ROOT_PADDING = 12;

/**
 * The gap after a table joined to nothing, within the ELK padding round it (ROOT_PADDING): SPACING.nodeNode between
 * the boxes, as between the nodes of a layer, where the gap between layers left DolphinScheduler's 70 unrelated
 * tables 94 px apart both ways (1.35 times Graphviz's canvas). Other loose nodes (a chart's workloads) keep the wider
 * gap: their rows were tuned against Graphviz's grid (pack37).
 */
const LONE_GAP = SPACING.nodeNode - 2 * ROOT_PADDING;

/** Rows left to right, each as tall as its first part, a part stacked under the last one where that saves height. */
function rowPlaces(laid: readonly LaidOutGraph[], order: readonly number[], limit: number, gapAfter: (i: number) => number): Map<number, Point> {
  const places = new Map<number, Point>();
  let rowTop = 0;
  let rowHeight = 0;
  /** The gap under the current row: the widest any of its parts asks. */
  let rowGap = 0;
  /** The column being filled in the current row: its left, its width and the bottom of its last part (from the row's top). */
  let column = { x: 0, width: 0, bottom: 0 };
  let columnGap = 0;
  for (const i of order) {
    const part = laid[i]!;
    const gap = Math.max(columnGap, gapAfter(i));
    const next = column.x + column.width + gap;
    const stackable = rowHeight > 0 && column.x + Math.max(column.width, part.width) <= limit;
    /** How much taller stacking under the column makes the row: worth it below what a new row would add. */
    const growth = column.bottom + gap + part.height - rowHeight;
    if (stackable && (growth <= 0 || (next + part.width > limit && growth < gap + part.height))) {
      places.set(i, { x: column.x, y: rowTop + column.bottom + gap });
      column = { x: column.x, width: Math.max(column.width, part.width), bottom: column.bottom + gap + part.height };
      columnGap = gap;
      rowHeight = Math.max(rowHeight, column.bottom);
      rowGap = Math.max(rowGap, gap);
      continue;
    }
    if (rowHeight > 0 && next + part.width > limit) {
      rowTop += rowHeight + Math.max(rowGap, gapAfter(i));
      rowHeight = 0;
      rowGap = 0;
    }
    column = { x: rowHeight === 0 ? 0 : next, width: part.width, bottom: part.height };
    columnGap = gapAfter(i);
    places.set(i, { x: column.x, y: rowTop });
    rowHeight = Math.max(rowHeight, part.height);
    rowGap = Math.max(rowGap, gapAfter(i));
  }
  return places;
}

/**
 * Each part, tallest first, as high as it can go (then as far left) on the skyline of those placed: parts of unequal
 * heights fill the room a row leaves under its shorter ones (Camunda's 27 unrelated tables under its 16 joined ones:
 * 5,499 px tall, 6,254 in rows as tall as their tallest). A part too wide for any other to stand beside it goes first:
 * placed after a taller, narrower one it would roof the room beside that one, which a skyline cannot reach again
 * (Flowable's CMMN tables, a chain as wide as the drawing, under its 2,050 px fan of job tables left 1,240 px beside the fan empty).
 */
function skylinePlaces(laid: readonly LaidOutGraph[], tallestFirst: readonly number[], limit: number, gapAfter: (i: number) => number): Map<number, Point> {
  const gap = SPACING.betweenLayers;
  const places = new Map<number, Point>();
  const spans = (i: number) => tallestFirst.every((j) => j === i || laid[i]!.width + gap + laid[j]!.width > limit);
  const order = [...tallestFirst.filter(spans), ...tallestFirst.filter((i) => !spans(i))];
  /** The first free y from each x on (with the gap under what is placed), as steps sorted by x. */
  let steps: { x: number; y: number }[] = [{ x: 0, y: 0 }];
  const topOver = (from: number, to: number) => Math.max(...steps.filter((step, k) => step.x < to && (steps[k + 1]?.x ?? Infinity) > from).map((step) => step.y));
  for (const i of order) {
    const part = laid[i]!;
    let best: Point | undefined;
    for (const { x } of steps) {
      if (x > 0 && x + part.width > limit) continue;
      const y = topOver(x, x + part.width);
      if (best === undefined || y < best.y) best = { x, y };
    }
    places.set(i, best!);
    const [from, to, top] = [best!.x, best!.x + part.width + gapAfter(i), best!.y + part.height + gapAfter(i)];
    const under = topOver(to, to + 1e-6);
    steps = [...steps.filter((step) => step.x < from), { x: from, y: top }, ...(steps.some((step) => step.x === to) ? [] : [{ x: to, y: under }]), ...steps.filter((step) => step.x >= to)];
  }
  return places;
}


/**
 * The one container that holds everything (a Kubernetes namespace, a PlantUML package), with the graph inside it:
 * its contents can be packed, and the container drawn around them. Undefined when an edge ends on the container.
 */
export function soleContainer(graph: GraphIR): { group: GraphIR['groups'][number]; inner: GraphIR } | undefined {
  const groupIds = new Set(graph.groups.map((group) => group.id));
  const tops = [...graph.groups, ...graph.nodes].filter((item) => item.parent === undefined || !groupIds.has(item.parent));
  const group = graph.groups.find((candidate) => candidate === tops[0]);
  if (tops.length !== 1 || group === undefined || graph.edges.some((edge) => edge.from === group.id || edge.to === group.id)) return undefined;
  const free = <T extends { parent?: string | undefined }>(item: T): T => {
    if (item.parent !== group.id) return item;
    const { parent: _, ...rest } = item;
    return rest as T;
  };
  return { group, inner: { ...graph, groups: graph.groups.filter((other) => other !== group).map(free), nodes: graph.nodes.map(free) } };
}

/**
 * Space a container adds around its contents: padding at the sides, and its title above. One without a title holds
 * its contents closely, as D2 draws a blank container in a grid (the legend cell of D2's grid connections example was
 * 440 px wide round 95 px of entries, and widened its whole column).
 */
export function containerFrame(label: string): { title: ReturnType<typeof containerTitle>; left: number; top: number; minWidth: number } {
  const pad = SPACING.containerPadding;
  if (label === '') return { title: { text: '', width: 0, height: 0 }, left: pad, top: pad, minWidth: 0 };
  const title = containerTitle(label);
  return { title, left: pad, top: pad + title.height + SPACING.containerTitleGap, minWidth: Math.max(CONTAINER_MIN_WIDTH, title.width + 2 * pad) };
}

/** Draws `group` around a laid-out graph, as ELK would have: same padding, title at its top left, contents centred across. */
export function wrapInContainer(inner: LaidOutGraph, group: GraphIR['groups'][number]): LaidOutGraph {
  const { title, left, top, minWidth } = containerFrame(group.label);
  const box = { x: ROOT_PADDING, y: ROOT_PADDING, width: Math.max(minWidth, inner.width + 2 * left), height: inner.height + top + left };
  const placed = shifted(inner, box.x + left + (box.width - 2 * left - inner.width) / 2, box.y + top, (index) => index);
  const { text, ...size } = title;
  return {
    ...placed,
    groups: [{ id: group.id, ...box, depth: 0, title: { text, x: box.x + left, y: box.y + left, ...size } }, ...placed.groups.map((inside) => ({ ...inside, depth: inside.depth + 1 }))],
    width: box.width + 2 * ROOT_PADDING,
    height: box.height + 2 * ROOT_PADDING,
  };
}
