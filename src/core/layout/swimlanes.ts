/**
 * PlantUML swimlanes (`|Lane|`) drawn as PlantUML draws them: columns side by side that the flow runs down through.
 * Laid out as containers, ELK places the lanes by the edges between them, and a flow that crosses back and forth
 * leaves them stacked and scattered, its edges led round the outside (eclipse-tractusx IRS supply-chain activity).
 * Here the flow is laid out once without its lanes, top-down; each lane's shapes then move sideways together into
 * its column, keeping their heights, and the edges are routed again around the shapes.
 */
import type { GraphIR } from '../graph/types.js';
import { OrthogonalRouter } from '../routing/orthogonal.js';
import { separateRuns } from '../routing/separate-runs.js';
import { SPACING } from './drawing-rules.js';
import { layoutOnce } from './elk.js';
import { crosses } from './detours.js';
import { containerTitle } from './titles.js';
import type { Box, LaidOutEdge, LaidOutGraph, LaidOutGroup, LaidOutLabel, LaidOutNode, LayoutEngine, Point } from './types.js';

/**
 * The containers at the top are swimlanes (partitions and groups may sit inside them) and every edge joins two
 * shapes: the lanes can be columns.
 */
export const hasSwimlanes = (graph: GraphIR): boolean => {
  const top = graph.groups.filter((group) => group.parent === undefined);
  if (top.length === 0 || !top.every((group) => group.kind === 'swimlane') || graph.groups.some((group) => group.parent !== undefined && group.kind === 'swimlane')) return false;
  const nodes = new Set(graph.nodes.map((node) => node.id));
  return graph.edges.every((edge) => nodes.has(edge.from) && nodes.has(edge.to));
};

/**
 * A flow in swimlanes laid out as columns, the flat flow placed by `place`. The lanes are columns whoever places the
 * flow: a note beside a step (`toward`) sends the flow to Graphviz, and the lanes were then drawn as boxes wherever
 * the flow left their steps (the IRS ESR certificate activity: a lane of four steps a box beside the main column).
 */
export const layoutSwimlanesWith =
  (place: LayoutEngine): LayoutEngine =>
  async (graph) => {
    const lanes = new Set(graph.groups.filter((group) => group.kind === 'swimlane').map((group) => group.id));
    // A partition's parts in other lanes (`continues`) are laid out as the one partition, so the flow keeps its order.
    const continued = new Map(graph.groups.filter((group) => group.continues !== undefined).map((group) => [group.id, group.continues!]));
    const outOfLane = <T extends { parent?: string }>({ parent, ...rest }: T): T => ({ ...rest, ...(parent !== undefined && !lanes.has(parent) && { parent: continued.get(parent) ?? parent }) }) as T;
    const groups = graph.groups.filter((group) => !lanes.has(group.id) && !continued.has(group.id)).map(outOfLane);
    const flat = await place({ ...graph, direction: 'DOWN', groups, nodes: graph.nodes.map(outOfLane) });
    const laid = intoLanes(graph, flat, partsPerLane(graph));
    return continued.size === 0 ? laid : { ...laid, groups: framedPerLane(graph, laid) };
  };

/**
 * The flat flow in one ELK run: the tries that reshape a drawing to fit a column (wrapping the flow, narrowing its
 * layers) would scatter each lane's steps across the page.
 */
export const layoutSwimlanes: LayoutEngine = layoutSwimlanesWith(layoutOnce);

const PAD = SPACING.containerPadding;

/**
 * The partitions drawn one box per lane (framedPerLane) and how many of them hold each shape: in its lane's width the
 * whole partition laid out does not count, and each box round a shape widens it by the box's padding.
 */
function partsPerLane(graph: GraphIR): { whole: ReadonlySet<string>; boxesRound: (id: string) => number } {
  const whole = new Set(graph.groups.flatMap((group) => (group.continues === undefined ? [] : [group.continues])));
  const parts = new Set([...whole, ...graph.groups.filter((group) => group.continues !== undefined).map((group) => group.id)]);
  const parentOf = new Map([...graph.groups, ...graph.nodes].map((item) => [item.id, item.parent]));
  const boxesRound = (id: string): number => {
    let count = 0;
    for (let up = parentOf.get(id), depth = 0; up !== undefined && depth <= graph.groups.length; up = parentOf.get(up), depth++) if (parts.has(up)) count++;
    return count;
  };
  return { whole, boxesRound };
}

function intoLanes(graph: GraphIR, flat: LaidOutGraph, parts: ReturnType<typeof partsPerLane> = { whole: new Set(), boxesRound: () => 0 }): LaidOutGraph {
  const parentOf = new Map([...graph.groups, ...graph.nodes].map((item) => [item.id, item.parent]));
  const laneOf = (id: string): string | undefined => {
    let lane: string | undefined;
    for (let up = parentOf.get(id), depth = 0; up !== undefined && depth <= graph.groups.length; up = parentOf.get(up), depth++) lane = up;
    return lane;
  };
  // Shapes before the first lane (PlantUML wants none) keep a column of their own, first.
  const lanes: { id: string | undefined; label: string }[] = [
    ...(flat.nodes.some((node) => laneOf(node.id) === undefined) ? [{ id: undefined, label: '' }] : []),
    ...graph.groups.filter((group) => group.parent === undefined).map((group) => ({ id: group.id, label: group.label })),
  ];
  const titles = lanes.map((lane) => containerTitle(lane.label));
  const band = Math.max(...titles.map((title) => title.height)) + 2 * PAD;
  const top = Math.min(...flat.nodes.map((node) => node.y), ...flat.groups.map((group) => group.y));
  const shift = new Map<string, Point>();
  const groups: LaidOutGroup[] = [];
  let left = 0;
  lanes.forEach((lane, i) => {
    const members = [...flat.nodes, ...flat.groups].filter((item) => laneOf(item.id) === lane.id);
    const reach = members.filter((item) => !parts.whole.has(item.id)).map((item) => {
      const margin = parts.boxesRound(item.id) * PAD;
      return { x: item.x - margin, width: item.width + 2 * margin };
    });
    const from = reach.length > 0 ? Math.min(...reach.map((item) => item.x)) : 0;
    const span = reach.length > 0 ? Math.max(...reach.map((item) => item.x + item.width)) - from : 0;
    const width = Math.max(span, titles[i]!.width, SPACING.nodeNode) + 2 * PAD;
    // The lane's shapes move together, so a run of steps down the lane stays in line.
    const dx = left + (width - span) / 2 - from;
    for (const item of members) shift.set(item.id, { x: dx, y: band - top });
    if (lane.id !== undefined) {
      const title = titles[i]!;
      groups.push({ id: lane.id, x: left, y: 0, width, height: 0, depth: 0, title: { text: title.text, x: left + (width - title.width) / 2, y: PAD, width: title.width, height: title.height } });
    }
    left += width;
  });
  const moved = <T extends { id: string } & Box>(item: T): T => ({ ...item, x: item.x + shift.get(item.id)!.x, y: item.y + shift.get(item.id)!.y });
  const nodes = flat.nodes.map(moved);
  // Partitions inside a lane move with it, one level deeper.
  const inner = flat.groups.map((group) => ({ ...moved(group), depth: group.depth + 1, title: { ...group.title, x: group.title.x + shift.get(group.id)!.x, y: group.title.y + shift.get(group.id)!.y } }));
  const height = Math.max(...nodes.map((node) => node.y + node.height), ...inner.map((group) => group.y + group.height)) + PAD;
  for (const group of groups) group.height = height;
  return { nodes, groups: [...groups, ...inner], edges: routed(graph, nodes, flat.edges, shift), warnings: flat.warnings, width: left, height };
}

/**
 * A partition the flow left its lane in, drawn as PlantUML draws it: one box in each lane it has steps in, round those
 * steps, all as high as the partition was laid out. Inner partitions are framed first, so an outer box holds them.
 */
function framedPerLane(graph: GraphIR, laid: LaidOutGraph): LaidOutGroup[] {
  const family = new Map<string, string[]>();
  for (const group of graph.groups) if (group.continues !== undefined) family.set(group.continues, [...(family.get(group.continues) ?? [group.continues]), group.id]);
  const parentOf = new Map([...graph.groups, ...graph.nodes].map((item) => [item.id, item.parent]));
  const laidOut = new Map(laid.groups.map((group) => [group.id, group]));
  const within = (id: string, group: string): boolean => {
    for (let up = parentOf.get(id), depth = 0; up !== undefined && depth <= graph.groups.length; up = parentOf.get(up), depth++) if (up === group) return true;
    return false;
  };
  const frames = new Map<string, LaidOutGroup>();
  const byDepth = [...family.keys()].sort((a, b) => (laidOut.get(b)?.depth ?? 0) - (laidOut.get(a)?.depth ?? 0));
  for (const original of byDepth) {
    const whole = laidOut.get(original);
    if (!whole) continue;
    for (const part of family.get(original)!) {
      const members: Box[] = [...laid.nodes.filter((node) => within(node.id, part)), ...[...frames.entries()].filter(([id]) => within(id, part)).map(([, frame]) => frame)];
      if (members.length === 0) continue;
      const from = Math.min(...members.map((item) => item.x)) - PAD;
      const width = Math.max(Math.max(...members.map((item) => item.x + item.width)) + PAD - from, whole.title.width + 2 * PAD);
      frames.set(part, { id: part, x: from, y: whole.y, width, height: whole.height, depth: whole.depth, title: { ...whole.title, x: from + (width - whole.title.width) / 2 } });
    }
  }
  return [...laid.groups.filter((group) => !family.has(group.id)), ...frames.values()];
}

/**
 * The edges between the moved shapes. One within a lane keeps ELK's route and labels, moved with the lane, unless
 * that now runs through a shape of another lane; the others are routed anew around the shapes, their labels beside
 * the new route.
 */
function routed(graph: GraphIR, nodes: readonly LaidOutNode[], edges: readonly LaidOutEdge[], shift: ReadonlyMap<string, Point>): LaidOutEdge[] {
  const index = new Map(nodes.map((node, i) => [node.id, i]));
  // Ends meet a diamond or a circle on its outline, as the router knows from the shape.
  const router = new OrthogonalRouter(
    nodes.map((node) => ({ type: node.box.shape, x: node.x, y: node.y, width: node.width, height: node.height })),
    nodes.keys(),
  );
  const moved = edges.map((edge) => {
    const { from, to } = graph.edges[edge.index]!;
    const [a, b] = [shift.get(from)!, shift.get(to)!];
    if (a.x !== b.x) return undefined;
    const points = edge.points.map((p) => ({ x: p.x + a.x, y: p.y + a.y }));
    const others = nodes.filter((node) => node.id !== from && node.id !== to);
    if (points.slice(1).some((q, i) => others.some((node) => crosses(points[i]!, q, node)))) return undefined;
    return { ...edge, points, labels: edge.labels.map((label) => ({ ...label, x: label.x + a.x, y: label.y + a.y })) };
  });
  const lines = edges.map((edge, i) => {
    const { from, to } = graph.edges[edge.index]!;
    const kept = moved[i];
    if (kept) return { points: kept.points, ends: [from, to], fixed: true };
    const [a, b] = [nodes[index.get(from)!]!, nodes[index.get(to)!]!];
    const points = (from !== to && router.route({ from: index.get(from)!, to: index.get(to)!, through: [] })?.points) || straight(a, b);
    return { points, ends: [from, to], slideEnds: true };
  });
  return separateRuns(lines, nodes).map((points, i) => moved[i] ?? { ...edges[i]!, points, labels: edges[i]!.labels.map((label) => besideRoute(label, points)) });
}

/** Down from the middle of one box's bottom to the middle of the other's top, for an edge the router cannot lead. */
function straight(a: Box, b: Box): Point[] {
  const start = { x: a.x + a.width / 2, y: a.y + a.height };
  const end = { x: b.x + b.width / 2, y: b.y };
  return [start, { x: start.x, y: (start.y + end.y) / 2 }, { x: end.x, y: (start.y + end.y) / 2 }, end];
}

/** A label moved to its route: a middle label centred on the longest leg, an end label by its end. */
function besideRoute(label: LaidOutLabel, points: readonly Point[]): LaidOutLabel {
  if (label.placement !== 'center') {
    const end = label.placement === 'start' ? points[0]! : points[points.length - 1]!;
    return { ...label, x: end.x + 4, y: end.y + (label.placement === 'start' ? 4 : -label.height - 4) };
  }
  const legLength = (i: number) => Math.abs(points[i]!.x - points[i - 1]!.x) + Math.abs(points[i]!.y - points[i - 1]!.y);
  let longest = 1;
  for (let i = 2; i < points.length; i++) if (legLength(i) > legLength(longest)) longest = i;
  const [p, q] = [points[longest - 1]!, points[longest]!];
  const vertical = p.x === q.x;
  // Beside an upright leg, across the middle of a level one, as ELK places labels.
  return { ...label, x: vertical ? p.x + 6 : (p.x + q.x) / 2 - label.width / 2, y: vertical ? (p.y + q.y) / 2 - label.height / 2 : p.y - label.height - 4 };
}
