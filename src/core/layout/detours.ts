/**
 * Detours: ELK leads an edge between levels of containers that runs against the flow round the outside of a
 * container, thousands of px for a few hundred between its ends (a Terraform elastic IP that depends on the internet
 * gateway inside its VPC went up past the VPC's top and back down its side). Such a route is drawn again by our
 * orthogonal router, round the shapes and off the other edges, and its label moves to the new route's longest leg.
 */
import Flatbush from 'flatbush';
import type { GraphIR } from '../graph/types.js';
import { cross } from './hubs.js';
import { OrthogonalRouter } from '../routing/orthogonal.js';
import { boxContains, boxesOverlap as overlaps } from '../export/geometry.js';
import type { Box, LaidOutEdge, LaidOutGraph, LaidOutLabel, Point } from './types.js';

/** A route longer than this many times the walk between its ends' centres (plus DETOUR_SLACK) is a detour. */
const DETOUR_FACTOR = 2;
/** Short edges bend round their neighbours by design: a route this much longer than the walk is never a detour. */
const DETOUR_SLACK = 400;
/**
 * A route that sets off away from its target (ELK's way with an edge against the flow: out of the source's far side
 * and round) is a detour once it is this many times the walk (plus BACKWARD_SLACK): the inheritance edges of
 * java-design-patterns' commander left each service's bottom and went round its package up to Service.
 */
const BACKWARD_FACTOR = 1.2;
/** Short edges against the flow are left to ELK: drawn again, an activity loop ran into a branch, labels met. */
const BACKWARD_SLACK = 600;
/**
 * Further places along a leg, tried after its middle and quarters: where several labelled routes run side by side
 * (a table's foreign keys into one other table), those few were all taken and labels were set on one another.
 */
const FURTHER_ALONG = [0.1, 0.4, 0.6, 0.9, 0.15, 0.35, 0.65, 0.85, 0.05, 0.2, 0.3, 0.45, 0.55, 0.7, 0.8, 0.95];
/** Room between a moved label and the leg it names. */
const LABEL_GAP = 4;
/**
 * The same beside an end's leg: half an end marker's spread across the line (a crow's foot or a circle and bar, 0.5
 * of an arrowhead's 18 px at the default stroke, render/arrowheads.ts) and LABEL_GAP. At LABEL_GAP, petclinic's "0..*"
 * and "0..1" were drawn over the feet and circles of its foreign keys.
 */
const END_LABEL_GAP = 13;
/** Room kept, where there is a place with it, between a label and the labels and shapes around it. */
const LABEL_CLEARANCE = 12;

const routeLength = (points: readonly Point[]): number => points.slice(1).reduce((sum, point, i) => sum + Math.abs(point.x - points[i]!.x) + Math.abs(point.y - points[i]!.y), 0);
const centre = (box: Box): Point => ({ x: box.x + box.width / 2, y: box.y + box.height / 2 });
/** Whether the route's first leg heads away from the target's centre, along the axis it runs on. */
const setsOffAway = (points: readonly Point[], target: Point): boolean => {
  const [p, q] = [points[0], points[1]];
  if (p === undefined || q === undefined) return false;
  return p.x === q.x ? Math.sign(q.y - p.y) * Math.sign(target.y - p.y) < 0 : Math.sign(q.x - p.x) * Math.sign(target.x - p.x) < 0;
};

export function rerouteDetours(laid: LaidOutGraph, graph: GraphIR): LaidOutGraph {
  const nodeIndex = new Map(laid.nodes.map((node, index) => [node.id, index]));
  const ends = (edge: LaidOutEdge): [number, number] | undefined => {
    const { from, to } = graph.edges[edge.index]!;
    const [a, b] = [nodeIndex.get(from), nodeIndex.get(to)];
    return a === undefined || b === undefined || a === b ? undefined : [a, b];
  };
  const detours = new Set<number>();
  laid.edges.forEach((edge, i) => {
    const pair = ends(edge);
    if (pair === undefined || edge.curved) return;
    const [a, b] = [centre(laid.nodes[pair[0]]!), centre(laid.nodes[pair[1]]!)];
    const walk = Math.abs(a.x - b.x) + Math.abs(a.y - b.y);
    const length = routeLength(edge.points);
    if (length > DETOUR_FACTOR * walk + DETOUR_SLACK || (setsOffAway(edge.points, b) && length > BACKWARD_FACTOR * walk + BACKWARD_SLACK)) detours.add(i);
  });
  if (detours.size === 0) return laid;

  // Nodes, then containers, then the labels of the edges that stay: all obstacles; a route may cross the containers
  // round its own ends.
  const labels = laid.edges.flatMap((edge, i) => (detours.has(i) ? [] : edge.labels));
  const obstacles = [...laid.nodes.map((node) => ({ ...node, type: node.box.shape })), ...[...laid.groups, ...labels].map((box) => ({ ...box, type: 'rectangle' }))];
  const groupsOffset = laid.nodes.length;
  const router = new OrthogonalRouter(obstacles, [...detours].flatMap((i) => ends(laid.edges[i]!)!));
  // Given without their ends, the other edges are kept off even where they meet the same shape: a new route sharing
  // an end's last leg would read as one relation (the checker's trunk of different meanings).
  laid.edges.forEach((edge, i) => {
    if (!detours.has(i)) router.avoid(edge.points, -1, -1);
  });
  // Routes and labels as they stand, the detours' new ones included as they are drawn: two rerouted back edges into
  // one state put their labels beside each other, not on one spot.
  const routes = laid.edges.map((edge) => edge.points);
  const taken: Box[] = [...laid.nodes, ...labels];
  const edges = laid.edges.map((edge, i) => {
    if (!detours.has(i)) return edge;
    const [from, to] = ends(edge)!;
    const around = (node: number) => laid.groups.flatMap((group, g) => (boxContains(group, laid.nodes[node]!, 0) ? [groupsOffset + g] : []));
    const route = router.route({ from, to, through: [...new Set([...around(from), ...around(to)])] });
    if (route === undefined || routeLength(route.points) >= routeLength(edge.points)) {
      taken.push(...edge.labels);
      return edge;
    }
    routes[i] = route.points;
    const others = new RouteLegs(routes.filter((_, k) => k !== i));
    const moved = edge.labels.map((label) => {
      const placed = besideRoute(label, route.points, taken, others);
      taken.push(placed);
      return placed;
    });
    return { ...edge, points: route.points, labels: moved };
  });
  return { ...laid, edges };
}

/**
 * A label moved to its new route: a middle one beside the longest leg, a start or end one beside the first or last
 * leg near its end, else beside another leg; above or below a level leg, right or left of an upright one: the first
 * place that covers no other line, shape or label, else no shape or label, else one a label's depth further out that
 * covers no shape or label, else the first place.
 */
export function besideRoute(label: LaidOutLabel, points: readonly Point[], taken: Taken, lines: RouteLegs): LaidOutLabel {
  const { beside, further } = placesBeside(label, points, lines);
  const offShapes = (place: Box) => !overlapsAny(place, taken);
  // Best a word's space clear of any other label or shape: two labels a few px apart read as one ("calls calls" where
  // the AKS store demo's makeline → documentdb and order → rabbitmq labels met).
  const clear = (place: Box) => offShapes({ x: place.x - LABEL_CLEARANCE, y: place.y - LABEL_CLEARANCE, width: place.width + 2 * LABEL_CLEARANCE, height: place.height + 2 * LABEL_CLEARANCE });
  return beside.find((place) => clear(place) && clearOf(place, taken, lines)) ?? beside.find((place) => clearOf(place, taken, lines)) ?? beside.find(offShapes) ?? further.find(offShapes) ?? beside[0]!;
}

/**
 * The places a label may take by its route, best first: `beside` a leg (the leg it names first: the first, the last,
 * or the longest; then the others, longest first, those no other of `lines` runs along before those one does), and
 * `further`, a label's depth further out, past a neighbouring route.
 */
export function placesBeside(label: LaidOutLabel, points: readonly Point[], lines: RouteLegs): { beside: LaidOutLabel[]; further: LaidOutLabel[] } {
  return { beside: [...placesAlong(label, points, lines, false)], further: [...placesAlong(label, points, lines, true)] };
}

/**
 * placesBeside's places one at a time, `beside` or `further` (in the same order): a label takes the first clear one,
 * most often among the first few, where making every place was most of the labelling time of a small schema.
 */
export function* placesAlong(label: LaidOutLabel, points: readonly Point[], lines: RouteLegs, further: boolean): Generator<LaidOutLabel> {
  const legLength = (k: number) => Math.abs(points[k]!.x - points[k - 1]!.x) + Math.abs(points[k]!.y - points[k - 1]!.y);
  const legs = points.slice(1).map((_, k) => k + 1);
  // A middle label goes beside a leg no other line runs along: on a trunk it names either edge, and two edges' labels
  // stood side by side there ("runs runs" on kube-prometheus-stack's operator, which runs Prometheus and Alertmanager).
  const sharedLegs = legs.map((k) => label.placement === 'center' && lines.runAlong(points[k - 1]!, points[k]!, points));
  const shared = (k: number) => sharedLegs[k - 1]!;
  const own = legs.filter((k) => !shared(k));
  const first = label.placement === 'start' ? 1 : label.placement === 'end' ? points.length - 1 : (own.length > 0 ? own : legs).reduce((best, k) => (legLength(k) > legLength(best) ? k : best));
  const byLength = (p: number, q: number) => legLength(q) - legLength(p);
  const rest = legs.filter((k) => k !== first);
  // A label at an end reads only near it: its other legs nearest first, not longest (a dwelling's "1" at its end of a
  // curve, whose first legs had no room, was set by the window at the other end, beside that end's "many").
  const order =
    label.placement === 'center' ? [...rest.filter((k) => !shared(k)).sort(byLength), ...rest.filter(shared).sort(byLength)] : rest.sort((p, q) => Math.abs(p - first) - Math.abs(q - first));
  for (const leg of [first, ...order]) {
    const [a, b] = [points[leg - 1]!, points[leg]!];
    // Where along the leg: its middle, or a label's length in from the route's end; then further along.
    const near = leg !== first || label.placement === 'center' ? 0.5 : Math.min(0.5, (Math.max(label.width, label.height) / 2 + LABEL_GAP) / Math.max(1, legLength(leg)));
    // Beside its end's leg, an end label keeps clear of the end's marker, which spreads either side of the line.
    const gap = leg === first && label.placement !== 'center' ? END_LABEL_GAP : LABEL_GAP;
    for (const along of [near, 0.5, 0.25, 0.75, ...FURTHER_ALONG]) {
      const t = label.placement === 'end' ? 1 - along : along;
      const at = { x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t };
      const out = !further ? 0 : a.y === b.y ? label.height + LABEL_GAP : label.width + LABEL_GAP;
      if (a.y === b.y) {
        yield { ...label, x: at.x - label.width / 2, y: at.y - label.height - gap - out };
        yield { ...label, x: at.x - label.width / 2, y: at.y + gap + out };
      } else {
        yield { ...label, x: at.x + gap + out, y: at.y - label.height / 2 };
        yield { ...label, x: at.x - label.width - gap - out, y: at.y - label.height / 2 };
      }
    }
  }
}

/** Boxes a label may not cover: a list, or a BoxGrid where many places are tested against many boxes. */
export type Taken = readonly Box[] | BoxGrid;

const overlapsAny = (place: Box, taken: Taken): boolean => (taken instanceof BoxGrid ? taken.overlaps(place) : taken.some((box) => overlaps(place, box)));

/** Whether a place covers none of the boxes taken and no leg of the lines. */
export const clearOf = (place: Box, taken: Taken, lines: RouteLegs): boolean => !overlapsAny(place, taken) && !lines.cross(place);

/** Side of a BoxGrid's square cells, in px: about a label's width, so a place meets a few cells. */
const GRID_CELL = 128;

/**
 * Boxes kept by the cells of a square grid they cover, growing as labels are placed: each of a label's tens of places
 * was tested against every table and label placed before, the most of the labelling time of a large schema (Flowable's
 * 62 tables and 172 labels). Answers exactly as a test of every box would.
 */
export class BoxGrid {
  private readonly cells = new Map<number, Box[]>();

  constructor(boxes: readonly Box[] = []) {
    for (const box of boxes) this.add(box);
  }

  add(box: Box): void {
    this.forCells(box, (key) => {
      const cell = this.cells.get(key);
      if (cell === undefined) this.cells.set(key, [box]);
      else cell.push(box);
      return false;
    });
  }

  /** Whether the place overlaps a box added (boxesOverlap). */
  overlaps(place: Box): boolean {
    return this.forCells(place, (key) => this.cells.get(key)?.some((box) => overlaps(place, box)) ?? false);
  }

  /** Calls `visit` with each cell the box meets, until it answers true. */
  private forCells(box: Box, visit: (key: number) => boolean): boolean {
    const [x0, x1] = [Math.floor(box.x / GRID_CELL), Math.floor((box.x + box.width) / GRID_CELL)];
    const [y0, y1] = [Math.floor(box.y / GRID_CELL), Math.floor((box.y + box.height) / GRID_CELL)];
    // Cells keyed as one number: columns and rows within ±2^15 cells (4 million px) of the origin.
    for (let x = x0; x <= x1; x++) for (let y = y0; y <= y1; y++) if (visit(x * 65_536 + y)) return true;
    return false;
  }
}

type Line = readonly Point[];

/**
 * The legs of routes, indexed by their extent: a label's tens of places were each tested against every leg drawn,
 * most of the routing time of a large schema on Graphviz's placement. Answers exactly as a test of every leg would.
 */
export class RouteLegs {
  private readonly legs: { line: Line; a: Point; b: Point }[] = [];
  private readonly index: Flatbush | undefined;

  constructor(lines: readonly Line[]) {
    for (const line of lines) for (let k = 1; k < line.length; k++) this.legs.push({ line, a: line[k - 1]!, b: line[k]! });
    if (this.legs.length === 0) return;
    this.index = new Flatbush(this.legs.length);
    for (const { a, b } of this.legs) this.index.add(Math.min(a.x, b.x), Math.min(a.y, b.y), Math.max(a.x, b.x), Math.max(a.y, b.y));
    this.index.finish();
  }

  /** Whether a leg runs through the box (crosses). */
  cross(box: Box): boolean {
    return this.near(box.x, box.y, box.x + box.width, box.y + box.height).some((leg) => crosses(leg.a, leg.b, box));
  }

  /** Whether a leg of a line other than `own` runs along `a`–`b` (alongside, which allows 1 px). */
  runAlong(a: Point, b: Point, own: Line): boolean {
    return this.near(Math.min(a.x, b.x) - 1, Math.min(a.y, b.y) - 1, Math.max(a.x, b.x) + 1, Math.max(a.y, b.y) + 1).some((leg) => leg.line !== own && alongside(a, b, leg.a, leg.b));
  }

  /** How many legs of lines other than `own` the right-angle leg `a`–`b` cuts across. */
  crossings(a: Point, b: Point, own: ReadonlySet<Line>): number {
    return this.near(Math.min(a.x, b.x), Math.min(a.y, b.y), Math.max(a.x, b.x), Math.max(a.y, b.y)).filter((leg) => !own.has(leg.line) && cross(a, b, leg.a, leg.b)).length;
  }

  /** Whether a leg of a line not in `own`, running the same way as `a`–`b`, comes within `clearance` of it. */
  runsBeside(a: Point, b: Point, clearance: number, own: ReadonlySet<Line>): boolean {
    const around = { x: Math.min(a.x, b.x) - clearance, y: Math.min(a.y, b.y) - clearance, width: Math.abs(b.x - a.x) + 2 * clearance, height: Math.abs(b.y - a.y) + 2 * clearance };
    const sameWay = (p: Point, q: Point) => (a.x === b.x ? p.x === q.x : p.y === q.y);
    return this.near(around.x, around.y, around.x + around.width, around.y + around.height).some((leg) => !own.has(leg.line) && sameWay(leg.a, leg.b) && crosses(leg.a, leg.b, around));
  }

  private near(minX: number, minY: number, maxX: number, maxY: number) {
    return this.index === undefined ? [] : this.index.search(minX, minY, maxX, maxY).map((i) => this.legs[i]!);
  }
}

/** Whether the right-angle legs `a`–`b` and `c`–`d` run along one line for some length. */
function alongside(a: Point, b: Point, c: Point, d: Point): boolean {
  if (a.y === b.y && c.y === d.y && Math.abs(a.y - c.y) < 1) return Math.min(Math.max(a.x, b.x), Math.max(c.x, d.x)) - Math.max(Math.min(a.x, b.x), Math.min(c.x, d.x)) > 1;
  if (a.x === b.x && c.x === d.x && Math.abs(a.x - c.x) < 1) return Math.min(Math.max(a.y, b.y), Math.max(c.y, d.y)) - Math.max(Math.min(a.y, b.y), Math.min(c.y, d.y)) > 1;
  return false;
}

/**
 * Whether the leg from `p` to `q` runs through the box (touching its border is not crossing). A slanted leg (a note's
 * leader, a piece of a curve) is clipped to the box: its bounding box held off every label beside it.
 */
export function crosses(p: Point, q: Point, box: Box): boolean {
  const [left, right, top, bottom] = [box.x + 1, box.x + box.width - 1, box.y + 1, box.y + box.height - 1];
  if (p.x === q.x || p.y === q.y) return Math.max(p.x, q.x) > left && Math.min(p.x, q.x) < right && Math.max(p.y, q.y) > top && Math.min(p.y, q.y) < bottom;
  // Liang–Barsky: the share of the leg inside each slab, intersected.
  let [enter, leave] = [0, 1];
  for (const [delta, from, lo, hi] of [[q.x - p.x, p.x, left, right], [q.y - p.y, p.y, top, bottom]] as const) {
    const [t1, t2] = [(lo - from) / delta, (hi - from) / delta];
    [enter, leave] = [Math.max(enter, Math.min(t1, t2)), Math.min(leave, Math.max(t1, t2))];
  }
  return enter < leave;
}
