/**
 * Hub ends: edges that reach one side of a node side by side share one end point there, as a bus.
 *
 * ELK gives each edge its own end point, a few pixels apart, and the arrowheads of a hub pile into a black wedge
 * (twenty edges into graphviz-plugins' `ps`). Each end is led to the middle of the side instead: along its channel
 * when it comes out of one, so the edges share a trunk into the node, else through a short bus just outside the side,
 * within the node's own extent where no other node is. ELK's own `mergeEdges` works within one container only, and
 * also merges ends that carry a cardinality, whose labels it then leaves stacked away from their edges
 * (mysql-employees), so it stays off.
 */
import { edgeMeaning, type Arrowhead, type GraphIR } from '../graph/types.js';
import { simplifyPolyline } from '../routing/orthogonal.js';
import { CROWDED_HEADS } from './drawing-rules.js';
import type { Box, LaidOutGraph, Point } from './types.js';

/** Fewer edges than this on one side keep their own end points. */
export const HUB_MIN_EDGES = 3;
/**
 * Fewer edges than this keep their own end points too where their heads already stand apart: three or four lines into
 * one side read best each to its own arrowhead, while a shared trunk hides which source each came from (issue 27).
 */
export const HUB_TRUNK_MIN_EDGES = 5;
/** How far outside the side the bus runs: inside ELK's edge-to-node spacing, so no route is in the way. */
const BUS_GAP = 10;
/** Room a leg moved onto a shared track keeps from every node it passes. */
const TRACK_ROOM = 8;
/** End points this close to a side lie on it. */
const ON_SIDE = 1;
/** Room kept between a moved leg and any label, so a label stays beside the edge it names. */
export const LABEL_ROOM = 24;
/** ELK's coordinates of one straight leg can differ in the last digits. */
const same = (a: number, b: number): boolean => Math.abs(a - b) < 0.01;

type Side = 'left' | 'right' | 'top' | 'bottom';

interface End {
  edge: number;
  at: 'start' | 'end';
  side: Side;
}

function sideOf(point: Point, box: Box): Side | undefined {
  const inX = point.x >= box.x - ON_SIDE && point.x <= box.x + box.width + ON_SIDE;
  const inY = point.y >= box.y - ON_SIDE && point.y <= box.y + box.height + ON_SIDE;
  if (inY && Math.abs(point.x - box.x) <= ON_SIDE) return 'left';
  if (inY && Math.abs(point.x - (box.x + box.width)) <= ON_SIDE) return 'right';
  if (inX && Math.abs(point.y - box.y) <= ON_SIDE) return 'top';
  if (inX && Math.abs(point.y - (box.y + box.height)) <= ON_SIDE) return 'bottom';
  return undefined;
}

/**
 * The route with its end (`last` the final point, `before` the one ahead of it) led to the side's middle, along its
 * channel (only when `trunk`: the edges of the hub mean the same) or through a bus just outside the side; undefined
 * when the end does not come straight in from far enough out.
 */
function throughBus(route: Point[], box: Box, side: Side, clear: (a: Point, b: Point) => boolean, trunk: boolean): Point[] | undefined {
  const last = route[route.length - 1]!;
  const before = route[route.length - 2];
  if (before === undefined) return undefined;
  const horizontal = side === 'left' || side === 'right';
  const outward = side === 'left' || side === 'top' ? -1 : 1;
  const edge = side === 'left' ? box.x : side === 'right' ? box.x + box.width : side === 'top' ? box.y : box.y + box.height;
  const bus = edge + outward * BUS_GAP;
  // The end must come straight in and turn no nearer the side than the bus (ELK often bends right on it).
  const turnsAt = horizontal ? before.x : before.y;
  if (!(horizontal ? same(before.y, last.y) : same(before.x, last.x)) || (turnsAt - bus) * outward < -0.5) return undefined;
  const middle = horizontal ? { x: edge, y: box.y + box.height / 2 } : { x: box.x + box.width / 2, y: edge };
  const channel = route[route.length - 3];
  // Coming out of a channel that runs along the side (the gap between layers): the last leg slides onto the middle,
  // and the edges share one trunk from their channels to the node.
  if (trunk && channel !== undefined && (horizontal ? same(channel.x, before.x) : same(channel.y, before.y))) {
    const turn = horizontal ? { x: before.x, y: middle.y } : { x: middle.x, y: before.y };
    if (clear(channel, turn) && clear(turn, middle)) return [...route.slice(0, -2), turn, middle];
  }
  const tail = horizontal ? [{ x: bus, y: last.y }, { x: bus, y: middle.y }, middle] : [{ x: last.x, y: bus }, { x: middle.x, y: bus }, middle];
  return [...route.slice(0, -1), ...tail];
}

/** `label` lies within LABEL_ROOM of the leg a→b. */
function near(label: Box, a: Point, b: Point): boolean {
  const gapX = Math.max(0, Math.min(a.x, b.x) - (label.x + label.width), label.x - Math.max(a.x, b.x));
  const gapY = Math.max(0, Math.min(a.y, b.y) - (label.y + label.height), label.y - Math.max(a.y, b.y));
  return Math.max(gapX, gapY) < LABEL_ROOM;
}

// Checked for every moved leg against every node: plain functions, no closures made per call.
const inside = (value: number, low: number, size: number): boolean => value > low + ON_SIDE && value < low + size - ON_SIDE;
const spans = (from: number, to: number, low: number, size: number): boolean => Math.max(from, to) > low + ON_SIDE && Math.min(from, to) < low + size - ON_SIDE;

/** A segment of an orthogonal route passes through the inside of `box`. */
function crosses(a: Point, b: Point, box: Box): boolean {
  return same(a.y, b.y) ? inside(a.y, box.y, box.height) && spans(a.x, b.x, box.x, box.width) : inside(a.x, box.x, box.width) && spans(a.y, b.y, box.y, box.height);
}

/** The leg a→b passes through no node but `own`. */
function clearOf(nodes: readonly Box[], own: Box, a: Point, b: Point): boolean {
  for (const node of nodes) if (node !== own && crosses(a, b, node)) return false;
  return true;
}

/** Two orthogonal legs, one across the other, cross inside both. */
export function cross(a: Point, b: Point, c: Point, d: Point): boolean {
  const flat = same(a.y, b.y);
  if (flat === same(c.y, d.y)) return false;
  return flat ? crossFlat(a, b, c, d) : crossFlat(c, d, a, b);
}

/** The flat leg h1→h2 and the upright leg v1→v2 cross inside both. */
const crossFlat = (h1: Point, h2: Point, v1: Point, v2: Point): boolean =>
  h1.y > Math.min(v1.y, v2.y) && h1.y < Math.max(v1.y, v2.y) && v1.x > Math.min(h1.x, h2.x) && v1.x < Math.max(h1.x, h2.x);

/** Two orthogonal legs lie on one line and overlap by more than a point. */
function alongside(a: Point, b: Point, c: Point, d: Point): boolean {
  const flat = same(a.y, b.y);
  if (flat !== same(c.y, d.y) || !(flat ? Math.abs(a.y - c.y) < 1.5 : Math.abs(a.x - c.x) < 1.5)) return false;
  return flat ? overlap(a.x, b.x, c.x, d.x) > 1 : overlap(a.y, b.y, c.y, d.y) > 1;
}

/** Length two spans of one line share (negative when apart). */
const overlap = (lo: number, hi: number, from: number, to: number): number =>
  Math.min(Math.max(lo, hi), Math.max(from, to)) - Math.max(Math.min(lo, hi), Math.min(from, to));

/** A route with its bounds: legs are tested against every route, and most routes are far from the leg. */
interface Bounded {
  points: readonly Point[];
  left: number;
  top: number;
  right: number;
  bottom: number;
}

function bounded(points: readonly Point[]): Bounded {
  let [left, top, right, bottom] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const { x, y } of points) {
    left = Math.min(left, x);
    top = Math.min(top, y);
    right = Math.max(right, x);
    bottom = Math.max(bottom, y);
  }
  return { points, left, top, right, bottom };
}

/** The leg a→b lies more than `margin` outside the route's bounds. */
const apart = (route: Bounded, a: Point, b: Point, margin: number): boolean =>
  Math.max(a.x, b.x) < route.left - margin || Math.min(a.x, b.x) > route.right + margin || Math.max(a.y, b.y) < route.top - margin || Math.min(a.y, b.y) > route.bottom + margin;

/** Some leg of `route` lies alongside the leg a→b. */
function runsAlong(route: Bounded, a: Point, b: Point): boolean {
  if (apart(route, a, b, 2)) return false;
  for (let j = 1; j < route.points.length; j++) if (alongside(a, b, route.points[j - 1]!, route.points[j]!)) return true;
  return false;
}

/** How many legs of `route` the leg a→b crosses. */
function crossings(route: Bounded, a: Point, b: Point): number {
  if (apart(route, a, b, 0)) return 0;
  let count = 0;
  for (let j = 1; j < route.points.length; j++) if (cross(a, b, route.points[j - 1]!, route.points[j]!)) count++;
  return count;
}

/**
 * The merged ends of one hub that fan out through the gap beside its side cross that gap on one line, as a tree. ELK
 * gives each edge its own track there: five edges leaving one node drew five nested runs (kyma's NATS controller).
 * The nearest track to the side is kept; an edge moves onto it only where its moved legs pass no node and leave no label
 * of its edge behind. Returns the routes (led towards the hub) that moved.
 */
function shareChannel(
  merged: readonly { edge: number; at: End['at']; forward: Point[] }[],
  box: Box,
  side: Side,
  clear: (a: Point, b: Point) => boolean,
  unlabelled: (edge: number, a: Point, b: Point) => boolean,
  routes: readonly Bounded[],
  labels: readonly Box[],
): { edge: number; at: End['at']; forward: Point[] }[] {
  const horizontal = side === 'left' || side === 'right';
  const outward = side === 'left' || side === 'top' ? -1 : 1;
  const across = (p: Point): number => (horizontal ? p.x : p.y);
  const along = (p: Point): number => (horizontal ? p.y : p.x);
  const at = (track: number, p: Point): Point => (horizontal ? { x: track, y: p.y } : { x: p.x, y: track });
  // Routes ending trunk → channel → hub: out along the normal (p1→p2), along the side (p2→p3), in along the normal (p3→p4).
  const fanned = merged.filter(({ forward }) => {
    const [p1, p2, p3, p4] = forward.slice(-4);
    if (p1 === undefined || p2 === undefined || p3 === undefined || p4 === undefined) return false;
    return same(along(p1), along(p2)) && same(across(p2), across(p3)) && same(along(p3), along(p4)) && (across(p1) - across(p2)) * outward > 0;
  });
  if (fanned.length < 2) return [];
  const track = fanned.map(({ forward }) => across(forward.at(-2)!)).reduce((best, t) => ((t - best) * outward < 0 ? t : best));
  const own = new Set(fanned.map(({ edge }) => edge));
  // Another edge already on the track would read as joined to the hub's edges (sentry's compose file).
  const taken = (a: Point, b: Point): boolean => routes.some((route, edge) => runsAlong(route, a, b) && !own.has(edge));
  // A longer leg in a busy gap can cut other edges and labels the old track kept clear of (capi's machine deployment).
  const current = [...routes];
  const cuts = (self: number, path: Point[]): number => {
    const whole = bounded(path);
    const [corner, opposite] = [{ x: whole.left, y: whole.top }, { x: whole.right, y: whole.bottom }];
    let count = 0;
    for (let edge = 0; edge < current.length; edge++) {
      const route = current[edge]!;
      if (edge === self || apart(route, corner, opposite, 0)) continue;
      for (let i = 1; i < path.length; i++) count += crossings(route, path[i - 1]!, path[i]!);
    }
    return count;
  };
  const moved: { edge: number; at: End['at']; forward: Point[] }[] = [];
  // Nearest track first: each edge moved has the tracks between its own and the shared one already cleared.
  const nearestFirst = [...fanned].sort((a, b) => (across(a.forward.at(-2)!) - across(b.forward.at(-2)!)) * outward);
  for (const { edge, at: end, forward } of nearestFirst) {
    const [p1, p2, p3, p4] = forward.slice(-4) as [Point, Point, Point, Point];
    if (same(across(p2), track)) continue;
    const [q2, q3] = [at(track, p2), at(track, p3)];
    if (!clear(p2, q2) || !clear(q2, q3) || !unlabelled(edge, p2, p3) || taken(p1, q2) || taken(q2, q3)) continue;
    if (labels.some((label) => crosses(p2, q2, label) || crosses(q2, q3, label)) || cuts(edge, [p1, q2, q3, p4]) > cuts(edge, [p1, p2, p3, p4])) continue;
    moved.push({ edge, at: end, forward: [...forward.slice(0, -3), q2, q3, p4] });
    current[edge] = bounded(moved.at(-1)!.forward);
  }
  return moved;
}

/**
 * Merges the ends of edges that reach a node's side HUB_MIN_EDGES or more at a time with the same head and no end
 * label; only edges that mean the same share a trunk. A leg is only moved where it passes no other node and leaves no label of its edge behind.
 */
export function mergeHubEnds(laid: LaidOutGraph, graph: GraphIR): LaidOutGraph {
  // An edge end names a node, or else a container (a box of the services a folded graph's sources all depend on).
  const boxes = new Map<string, Box>([...laid.groups.map((group): [string, Box] => [group.id, group]), ...laid.nodes.map((node): [string, Box] => [node.id, node])]);
  const bySide = new Map<string, End[]>();
  for (const [position, edge] of laid.edges.entries()) {
    const source = graph.edges[edge.index]!;
    for (const at of ['start', 'end'] as const) {
      const box = boxes.get(at === 'start' ? source.from : source.to);
      const point = at === 'start' ? edge.points[0] : edge.points[edge.points.length - 1];
      if (box === undefined || point === undefined) continue;
      // A cardinality or multiplicity at this end belongs to one edge: those ends stay apart. Read from the graph, as
      // Graphviz's placement with our routes merges ends before it sets the labels (Chinook's track: its three foreign
      // keys' "0..*" on one point).
      if (at === 'start' ? source.startLabel : source.endLabel) continue;
      const side = sideOf(point, box);
      if (side === undefined) continue;
      const head: Arrowhead = (at === 'start' ? source.startArrowhead : source.endArrowhead) ?? (at === 'start' ? 'none' : 'arrow');
      const key = `${at === 'start' ? source.from : source.to}\u0000${side}\u0000${at}\u0000${head}`;
      if (!bySide.has(key)) bySide.set(key, []);
      bySide.get(key)!.push({ edge: position, at, side });
    }
  }
  const routes = laid.edges.map((edge) => edge.points);
  // Kept beside the routes as they move: a hub's legs are tested against every route (sentry: 293 edges).
  const bounds = routes.map(bounded);
  const labels = laid.edges.flatMap((edge) => edge.labels);
  for (const ends of bySide.values()) {
    if (ends.length < HUB_MIN_EDGES) continue;
    const { side } = ends[0]!;
    const source = graph.edges[laid.edges[ends[0]!.edge]!.index]!;
    // Edges that mean different things still meet at one point (no wedge of heads) but through the short bus only.
    const trunk = new Set(ends.map(({ edge }) => edgeMeaning(graph.edges[laid.edges[edge]!.index]!))).size === 1;
    // Those already far enough apart to read as separate arrowheads keep their own ends, unless many share a meaning.
    const at = ends.map(({ edge, at: end }) => (end === 'start' ? routes[edge]![0]! : routes[edge]!.at(-1)!));
    if ((!trunk || ends.length < HUB_TRUNK_MIN_EDGES) && at.every((p, i) => at.every((q, j) => i === j || Math.hypot(p.x - q.x, p.y - q.y) >= CROWDED_HEADS))) continue;
    const box = boxes.get(ends[0]!.at === 'start' ? source.from : source.to)!;
    const clear = (a: Point, b: Point): boolean => clearOf(laid.nodes, box, a, b);
    // A leg moved onto a shared track keeps ELK's edge-to-node spacing: it may not graze a node it passes.
    const roomy = laid.nodes.map((node) => ({ x: node.x - TRACK_ROOM, y: node.y - TRACK_ROOM, width: node.width + 2 * TRACK_ROOM, height: node.height + 2 * TRACK_ROOM }));
    const clearWithRoom = (a: Point, b: Point): boolean => roomy.every((near, i) => laid.nodes[i] === box || !crosses(a, b, near));
    /** Each merged end's route led towards the hub, with where it came from. */
    const merged: { edge: number; at: End['at']; forward: Point[] }[] = [];
    for (const { edge, at } of ends) {
      const forward = at === 'end' ? routes[edge]! : [...routes[edge]!].reverse();
      const [before, last] = forward.slice(-2);
      if (before === undefined || last === undefined || laid.edges[edge]!.labels.some((label) => near(label, before, last))) continue;
      const bused = throughBus(forward, box, side, clear, trunk);
      if (bused === undefined) continue;
      const route = simplifyPolyline(bused);
      merged.push({ edge, at, forward: route });
      routes[edge] = at === 'end' ? route : [...route].reverse();
      bounds[edge] = bounded(routes[edge]!);
    }
    const unlabelled = (edge: number, a: Point, b: Point): boolean => !laid.edges[edge]!.labels.some((label) => near(label, a, b));
    for (const { edge, at, forward } of trunk ? shareChannel(merged, box, side, clearWithRoom, unlabelled, bounds, labels) : []) {
      routes[edge] = at === 'end' ? forward : [...forward].reverse();
      bounds[edge] = bounded(routes[edge]!);
    }
  }
  return { ...laid, edges: laid.edges.map((edge, position) => ({ ...edge, points: routes[position]! })) };
}
