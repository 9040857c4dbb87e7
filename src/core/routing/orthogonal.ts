/**
 * Obstacle-avoiding orthogonal connector routing: a sparse grid through the obstacles' margin lines and side middles
 * (an orthogonal visibility graph), searched with A* where every bend costs extra, so routes are short and straight.
 *
 * Written here rather than taken from libavoid-js (the library the spec names), because on Node 20 libavoid-js
 * 0.4.5 (LGPL, an Emscripten debug build) only loads asynchronously — the scene intake is synchronous — and it took
 * 2.7 s for 200 shapes × 300 connectors, where the spec asks for well under a second.
 */
import type { Point } from '../layout/types.js';
import { boundEnd, type Box } from '../scene/binding-geometry.js';
import { SAME_LINE } from './separate-runs.js';

/** Routes keep this far from the shapes they pass and leave or reach a shape straight for at least this long. */
export const ROUTE_MARGIN = 12;
/** What one bend costs, in pixels of route length: a detour shorter than this is taken to save a bend. */
export const BEND_PENALTY = 48;
/** What reaching an end at a side other than its preferred ones costs, in pixels of route length (RouteRequest). */
const OFF_SIDE_COST = 60;
/**
 * Grid lines kept for one shape can pass a neighbour a hair away, which reads as touching it (the checker's false
 * adjacency, under 3 px): a route keeps at least this clear of shapes it does not cross. Under LINE_MERGE, so a
 * shape's own merged exit lines (6 px or more away) stay open.
 */
const CLEARANCE = 5;

/** The sides of a box, in the order of `DIRS`: a side's index is the direction pointing away from the box. */
export type Side = 'right' | 'bottom' | 'left' | 'top';
const SIDES: readonly Side[] = ['right', 'bottom', 'left', 'top'];
/** Unit steps of the four directions: +x, +y, −x, −y (opposite = (d + 2) % 4). */
const DX = [1, 0, -1, 0] as const;
const DY = [0, 1, 0, -1] as const;

/** The middle of each side, as a focus (0..1 of the box, as bindings store it). */
export const SIDE_FOCUS: Record<Side, Point> = {
  right: { x: 1, y: 0.5 },
  bottom: { x: 0.5, y: 1 },
  left: { x: 0, y: 0.5 },
  top: { x: 0.5, y: 0 },
};

/**
 * Where one of several route ends on a side sits: `at` is the x of a point on the top or bottom, the y of one on the
 * left or right. The router adds a grid line through each port it is given.
 */
export interface Port {
  side: Side;
  at: number;
}

export interface RouteRequest {
  /** Obstacle indices of the two ends. */
  from: number;
  to: number;
  /** Obstacles this route may pass through (containers around an end, things inside an end). */
  through: readonly number[];
  /** The sides each end is best reached at: reaching another costs OFF_SIDE_COST more (any side is as good when absent). */
  fromSides?: readonly Side[];
  toSides?: readonly Side[];
  /** What reaching an end at another side costs instead of OFF_SIDE_COST, in pixels of route length. */
  offSideCost?: number;
  /** Where an end leaves or reaches its port's side, instead of the side's middle (other sides: at their middles). */
  fromPort?: Port;
  toPort?: Port;
}

export interface Route {
  /** From a side of `from` to a side of `to`, right angles only, no collinear points. */
  points: Point[];
  /** Where the ends attach, 0..1 of each end's box (near the side's middle). */
  startFocus: Point;
  endFocus: Point;
}

/**
 * Grid lines closer than this merge into the first of them. Hand-placed shapes are rarely aligned to the pixel, and
 * every stray pixel would add a grid line: merging keeps the grid (and the search) several times smaller. Less than
 * the margin, so a merged margin line still clears its shape.
 */
const LINE_MERGE = 6;

/** Sorted values, each at least LINE_MERGE past the one before. */
function gridLines(values: number[]): Float64Array {
  const sorted = Float64Array.from(values).sort();
  let n = 0;
  for (let i = 0; i < sorted.length; i++) if (n === 0 || sorted[i]! > sorted[n - 1]! + LINE_MERGE) sorted[n++] = sorted[i]!;
  return sorted.slice(0, n);
}

/** Index of the grid line a value merged into: the last one at or before it. */
const lineOf = (lines: Float64Array, value: number) => Math.max(0, firstAbove(lines, value) - 1);

/** First index whose value is > `value`. */
function firstAbove(values: Float64Array, value: number): number {
  let lo = 0;
  let hi = values.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (values[mid]! <= value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * A binary min-heap of search states in typed arrays. The key is f less a hair of g, so among equal estimates the
 * state furthest along goes first (fewer states explored); the heap is deterministic for the same pushes.
 */
class StateHeap {
  private keys = new Float64Array(1024);
  private states = new Int32Array(1024);
  size = 0;
  push(f: number, g: number, state: number): void {
    if (this.size === this.keys.length) {
      const keys = new Float64Array(this.size * 2);
      keys.set(this.keys);
      this.keys = keys;
      const states = new Int32Array(this.size * 2);
      states.set(this.states);
      this.states = states;
    }
    const { keys, states } = this;
    const key = f - g * 1e-7;
    let i = this.size++;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (keys[parent]! <= key) break;
      keys[i] = keys[parent]!;
      states[i] = states[parent]!;
      i = parent;
    }
    keys[i] = key;
    states[i] = state;
  }
  /** Removes the smallest entry and returns its state. */
  pop(): number {
    const { keys, states } = this;
    const top = states[0]!;
    const last = --this.size;
    const key = keys[last]!;
    const state = states[last]!;
    let i = 0;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= last) break;
      if (child + 1 < last && keys[child + 1]! < keys[child]!) child++;
      if (keys[child]! >= key) break;
      keys[i] = keys[child]!;
      states[i] = states[child]!;
      i = child;
    }
    keys[i] = key;
    states[i] = state;
    return top;
  }
  clear(): void {
    this.size = 0;
  }
}

/**
 * A router over fixed obstacles: build once per scene, then route any number of connectors between obstacles.
 * `terminals` are the obstacles connectors start or end at (their side middles become grid lines), `ports` the points
 * off the middles that requests will pin ends to.
 */
export class OrthogonalRouter {
  private readonly xs: Float64Array;
  private readonly ys: Float64Array;
  /** Per grid segment (horizontal: from node i to i+1; vertical: from node i to i+nx): how many obstacles it enters… */
  private readonly hCount: Uint16Array;
  private readonly vCount: Uint16Array;
  /** …the first of them, and all of them where there are several. */
  private readonly hFirst: Int32Array;
  private readonly vFirst: Int32Array;
  private readonly hMore = new Map<number, number[]>();
  private readonly vMore = new Map<number, number[]>();
  /**
   * Per grid segment, the routes found so far whose first or last leg runs along it (indices into `routeEnds`), and
   * the routes drawn already (`avoid`) with any leg along it. Routes of different ends that share a middle leg are
   * moved apart afterwards (separate-runs.ts); the legs attached to the shapes cannot be, nor any leg of a drawn route,
   * so a route does not run along another's unless there is no other way. (A cost instead of a ban made A* explore
   * most of the grid: 10× slower on the bench's 300 arrows.)
   */
  private readonly hEndLegs = new Map<number, number[]>();
  private readonly vEndLegs = new Map<number, number[]>();
  /** Per grid segment, 1 where its map above holds routes: the search asks for each step, and most segments hold none. */
  private readonly hHasEndLeg: Uint8Array;
  private readonly vHasEndLeg: Uint8Array;
  /** The two end obstacles of each route found. */
  private readonly routeEnds: [number, number][] = [];
  /** Search scratch, reused across routes; a state is node * 4 + direction of arrival. */
  private readonly g: Float64Array;
  private readonly seen: Int32Array;
  private readonly done: Int32Array;
  private readonly parent: Int32Array;
  private readonly allowed: Int32Array;
  private readonly heap = new StateHeap();
  private generation = 0;
  /**
   * With a crossing cost: per grid node, how many routes found so far pass straight through it vertically and
   * horizontally, and each route's grid path, so a route can be taken back (`forget`) and found again knowing the rest.
   */
  private readonly vThrough: Uint16Array | undefined;
  private readonly hThrough: Uint16Array | undefined;
  private readonly paths = new WeakMap<Route, { id: number; path: Point[] }>();
  private readonly forgotten = new Set<number>();

  constructor(
    private readonly obstacles: readonly Box[],
    terminals: Iterable<number>,
    /** What crossing a route found before costs, in pixels of route length (0: routes ignore each other's crossings). */
    private readonly crossingCost = 0,
    ports: readonly Port[] = [],
  ) {
    const m = ROUTE_MARGIN;
    const xs: number[] = [];
    const ys: number[] = [];
    for (const o of obstacles) xs.push(o.x - m, o.x + o.width + m), ys.push(o.y - m, o.y + o.height + m);
    for (const t of terminals) {
      const o = obstacles[t]!;
      xs.push(o.x + o.width / 2);
      ys.push(o.y + o.height / 2);
    }
    for (const port of ports) (port.side === 'top' || port.side === 'bottom' ? xs : ys).push(port.at);
    this.xs = gridLines(xs);
    this.ys = gridLines(ys);
    const nodes = this.xs.length * this.ys.length;
    this.hCount = new Uint16Array(nodes);
    this.vCount = new Uint16Array(nodes);
    this.hFirst = new Int32Array(nodes);
    this.vFirst = new Int32Array(nodes);
    this.hHasEndLeg = new Uint8Array(nodes);
    this.vHasEndLeg = new Uint8Array(nodes);
    obstacles.forEach((o, index) => this.block(o, index));
    this.g = new Float64Array(nodes * 4 + 4);
    this.seen = new Int32Array(nodes * 4 + 4);
    this.done = new Int32Array(nodes * 4);
    this.parent = new Int32Array(nodes * 4 + 4);
    this.allowed = new Int32Array(obstacles.length);
    if (crossingCost > 0) {
      this.vThrough = new Uint16Array(nodes);
      this.hThrough = new Uint16Array(nodes);
    }
  }

  /** Marks the grid segments that enter obstacle `index` or pass closer than CLEARANCE to it. */
  private block(box: Box, index: number): void {
    const { xs, ys } = this;
    const o = { x: box.x - CLEARANCE, y: box.y - CLEARANCE, width: box.width + 2 * CLEARANCE, height: box.height + 2 * CLEARANCE };
    const nx = xs.length;
    const mark = (count: Uint16Array, first: Int32Array, more: Map<number, number[]>, cell: number) => {
      if (count[cell] === 0) first[cell] = index;
      else if (count[cell] === 1) more.set(cell, [first[cell]!, index]);
      else more.get(cell)!.push(index);
      count[cell]!++;
    };
    const right = o.x + o.width;
    const bottom = o.y + o.height;
    // Columns/rows strictly inside the box, and segments whose span overlaps it.
    const colIn0 = firstAbove(xs, o.x);
    const rowIn0 = firstAbove(ys, o.y);
    for (let j = rowIn0; j < ys.length && ys[j]! < bottom; j++) {
      for (let i = Math.max(0, colIn0 - 1); i + 1 < nx && xs[i]! < right; i++) mark(this.hCount, this.hFirst, this.hMore, j * nx + i);
    }
    for (let i = colIn0; i < nx && xs[i]! < right; i++) {
      for (let j = Math.max(0, rowIn0 - 1); j + 1 < ys.length && ys[j]! < bottom; j++) mark(this.vCount, this.vFirst, this.vMore, j * nx + i);
    }
  }

  private passable(count: Uint16Array, first: Int32Array, more: Map<number, number[]>, cell: number): boolean {
    const n = count[cell]!;
    if (n === 0) return true;
    // The first is in `more` too: most segments it blocks are answered without the lookup.
    if (this.allowed[first[cell]!] !== this.generation) return false;
    if (n === 1) return true;
    return more.get(cell)!.every((index) => this.allowed[index] === this.generation);
  }

  /** Node index of the point `margin` away from a side, at its middle or at the port's `at`. */
  private exitNode(box: Box, side: number, port?: Port): number {
    const cx = port !== undefined && (side === 1 || side === 3) ? port.at : box.x + box.width / 2;
    const cy = port !== undefined && (side === 0 || side === 2) ? port.at : box.y + box.height / 2;
    const x = side === 0 ? box.x + box.width + ROUTE_MARGIN : side === 2 ? box.x - ROUTE_MARGIN : cx;
    const y = side === 1 ? box.y + box.height + ROUTE_MARGIN : side === 3 ? box.y - ROUTE_MARGIN : cy;
    return lineOf(this.ys, y) * this.xs.length + lineOf(this.xs, x);
  }

  /**
   * The cheapest route (length + bends) between two obstacles that enters no other obstacle, or undefined; along no
   * earlier route's end leg (of other ends) where there is another way.
   */
  route(request: RouteRequest): Route | undefined {
    return this.search(request, true) ?? this.search(request, false);
  }

  private search(request: RouteRequest, avoidEndLegs: boolean): Route | undefined {
    const { xs, ys, g, seen, done, parent, heap } = this;
    const nx = xs.length;
    const gen = ++this.generation;
    for (const index of request.through) this.allowed[index] = gen;
    const from = this.obstacles[request.from]!;
    const to = this.obstacles[request.to]!;
    // A loop back to the same shape leaves on the right and comes back on top, or it would "arrive" where it left.
    const loop = request.from === request.to;
    const { fromPort, toPort } = request;
    const on = (port: Port | undefined, side: number) => (port?.side === SIDES[side] ? port : undefined);
    const goals = [0, 1, 2, 3].map((side) => (loop && side !== 3 ? -1 : this.exitNode(to, side, on(toPort, side))));
    const offSide = (sides: readonly Side[] | undefined, side: number) => (sides === undefined || sides.includes(SIDES[side]!) ? 0 : (request.offSideCost ?? OFF_SIDE_COST));
    const goalX = goals.map((node) => xs[node % nx]!);
    const goalY = goals.map((node) => ys[Math.floor(node / nx)]!);
    /**
     * Lower bound of what is left from (x, y) heading `dir`: the distance to the nearest exit point plus the last leg,
     * and the bends no route can avoid (one to turn towards the side's inward direction, two to turn back or to
     * reach an exit that is not straight ahead). Consistent, so the first route found is the cheapest.
     */
    // Called for every state opened (most of the search's time): the sides with an exit, and branches for the bends.
    const exits = [0, 1, 2, 3].filter((side) => goals[side]! >= 0);
    const heuristic = (x: number, y: number, dir: number) => {
      let best = Infinity;
      for (const s of exits) {
        const dx = goalX[s]! - x;
        const dy = goalY[s]! - y;
        let bends: number;
        if (dir === ((s + 2) & 3)) {
          // Heading inward: straight in only from the exit's line, behind it.
          const straightIn = dir === 0 ? dy === 0 && dx >= 0 : dir === 2 ? dy === 0 && dx <= 0 : dir === 1 ? dx === 0 && dy >= 0 : dx === 0 && dy <= 0;
          bends = straightIn ? 0 : 2;
        } else bends = dir === s ? 2 : 1;
        const cost = Math.abs(dx) + Math.abs(dy) + bends * BEND_PENALTY;
        if (cost < best) best = cost;
      }
      return best + ROUTE_MARGIN;
    };
    /** Terminal states (one per side of `to`) sit after the node states. */
    const terminal = nx * ys.length * 4;
    heap.clear();
    const open = (state: number, cost: number, from: number, x: number, y: number) => {
      if (seen[state] === gen && g[state]! <= cost) return;
      seen[state] = gen;
      g[state] = cost;
      parent[state] = from;
      heap.push(cost + heuristic(x, y, state & 3), cost, state);
    };
    for (let side = 0; side < (loop ? 1 : 4); side++) {
      const node = this.exitNode(from, side, on(fromPort, side));
      open(node * 4 + side, ROUTE_MARGIN + offSide(request.fromSides, side), -1 - side, xs[node % nx]!, ys[Math.floor(node / nx)]!);
    }
    let found = -1;
    while (heap.size > 0) {
      const state = heap.pop();
      if (state >= terminal) {
        // Terminal states are pushed with f = g: with a consistent heuristic the first one out is the cheapest route.
        found = state;
        break;
      }
      if (done[state] === gen) continue;
      done[state] = gen;
      const cost = g[state]!;
      const node = state >> 2;
      const dir = state & 3;
      const i = node % nx;
      const j = (node - i) / nx;
      for (let side = 0; side < 4; side++) {
        if (goals[side] !== node) continue;
        // Arriving at a side's exit point: the last leg runs into the side, one bend more unless already heading in.
        const inward = (side + 2) % 4;
        const across = dir !== inward || this.vThrough === undefined ? 0 : (dir === 0 || dir === 2 ? this.vThrough : this.hThrough!)[node]!;
        const total = cost + ROUTE_MARGIN + (dir === inward ? 0 : dir === side ? 2 * BEND_PENALTY : BEND_PENALTY) + across * this.crossingCost + offSide(request.toSides, side);
        const end = terminal + side;
        if (seen[end] === gen && g[end]! <= total) continue;
        seen[end] = gen;
        g[end] = total;
        parent[end] = state;
        heap.push(total, total, end);
      }
      for (let d = 0; d < 4; d++) {
        if (d === (dir + 2) % 4) continue;
        const ni = i + DX[d]!;
        const nj = j + DY[d]!;
        if (ni < 0 || nj < 0 || ni >= nx || nj >= ys.length) continue;
        const next = nj * nx + ni;
        const level = d === 0 || d === 2;
        const segment = d === 0 || d === 1 ? node : next;
        const free = level ? this.passable(this.hCount, this.hFirst, this.hMore, segment) : this.passable(this.vCount, this.vFirst, this.vMore, segment);
        if (!free) continue;
        if (avoidEndLegs && (level ? this.hHasEndLeg : this.vHasEndLeg)[segment] === 1 && this.alongEndLeg(level ? this.hEndLegs : this.vEndLegs, segment, request)) continue;
        const length = Math.abs(xs[ni]! - xs[i]!) + Math.abs(ys[nj]! - ys[j]!);
        // Going straight on through a node that a route found before passes straight across is a crossing.
        const across = d !== dir || this.vThrough === undefined ? 0 : (d === 0 || d === 2 ? this.vThrough : this.hThrough!)[node]!;
        open(next * 4 + d, cost + length + (d === dir ? 0 : BEND_PENALTY) + across * this.crossingCost, state, xs[ni]!, ys[nj]!);
      }
    }
    if (found < 0) return undefined;
    const endSide = found - terminal;

    const path: Point[] = [];
    let state = parent[found]!;
    let startSide = 0;
    for (;;) {
      const node = state >> 2;
      path.push({ x: xs[node % nx]!, y: ys[Math.floor(node / nx)]! });
      const up = parent[state]!;
      if (up < 0) {
        startSide = -1 - up;
        break;
      }
      state = up;
    }
    path.reverse();
    const id = this.occupy(request, path);
    const start = this.attach(from, startSide, path[0]!);
    const end = this.attach(to, endSide, path[path.length - 1]!);
    const route = {
      points: simplifyPolyline([...start.points, ...path, ...end.points.reverse()]),
      startFocus: start.focus,
      endFocus: end.focus,
    };
    if (this.vThrough !== undefined) {
      // With the points on the sides, so the nodes where a route leaves and reaches the grid count as passed too.
      const through = [start.points[0]!, ...path, end.points[0]!];
      this.paths.set(route, { id, path: through });
      this.passThrough(through, 1);
    }
    return route;
  }

  /** Adds `by` to the counts of the grid nodes `path` (one grid step apart) passes straight through. */
  private passThrough(path: readonly Point[], by: number): void {
    const nx = this.xs.length;
    const node = (p: Point) => lineOf(this.ys, p.y) * nx + lineOf(this.xs, p.x);
    for (let k = 1; k + 1 < path.length; k++) {
      const [a, b, c] = [path[k - 1]!, path[k]!, path[k + 1]!];
      if (a.x === b.x && b.x === c.x) this.vThrough![node(b)]! += by;
      else if (a.y === b.y && b.y === c.y) this.hThrough![node(b)]! += by;
    }
  }

  /** How many times a route this router found crosses the routes found so far (with a crossing cost only). */
  crossings(route: Route): number {
    const found = this.paths.get(route);
    if (found === undefined) return 0;
    const nx = this.xs.length;
    let crossings = 0;
    const { path } = found;
    for (let k = 1; k + 1 < path.length; k++) {
      const [a, b, c] = [path[k - 1]!, path[k]!, path[k + 1]!];
      const at = lineOf(this.ys, b.y) * nx + lineOf(this.xs, b.x);
      if (a.x === b.x && b.x === c.x) crossings += this.hThrough![at]!;
      else if (a.y === b.y && b.y === c.y) crossings += this.vThrough![at]!;
    }
    return crossings;
  }

  /** Takes back a route this router found, so that it can be found again knowing the routes found after it. */
  forget(route: Route): void {
    const found = this.paths.get(route);
    if (found === undefined) return;
    this.paths.delete(route);
    this.passThrough(found.path, -1);
    this.forgotten.add(found.id);
  }

  /**
   * A route drawn already between obstacles `from` and `to` (−1: not an obstacle), which keeps its points: routes
   * found later keep off the grid lines its legs lie on (within the checker's 1.5 px), where there is another way.
   */
  avoid(points: readonly Point[], from: number, to: number): void {
    const id = this.routeEnds.push([from, to]) - 1;
    const { xs, ys } = this;
    const nx = xs.length;
    const mark = (endLegs: Map<number, number[]>, has: Uint8Array, cell: number) => {
      const list = endLegs.get(cell);
      has[cell] = 1;
      if (list === undefined) endLegs.set(cell, [id]);
      else if (list[list.length - 1] !== id) list.push(id);
    };
    for (let k = 1; k < points.length; k++) {
      const [a, b] = [points[k - 1]!, points[k]!];
      const vertical = a.x === b.x;
      if (!vertical && a.y !== b.y) continue;
      // The grid line the leg lies on (if any), and the grid steps along it within the leg's extent.
      const [lines, across] = vertical ? [xs, ys] : [ys, xs];
      const at = vertical ? a.x : a.y;
      const line = [lineOf(lines, at), lineOf(lines, at) + 1].find((i) => i < lines.length && Math.abs(lines[i]! - at) <= SAME_LINE);
      if (line === undefined) continue;
      const [lo, hi] = vertical ? [Math.min(a.y, b.y), Math.max(a.y, b.y)] : [Math.min(a.x, b.x), Math.max(a.x, b.x)];
      for (let step = firstAbove(across, lo - SAME_LINE - 1e-9); step + 1 < across.length && across[step + 1]! <= hi + SAME_LINE; step++) {
        // A horizontal segment is keyed by its left node, a vertical one by its top node (as `block` marks them).
        if (vertical) mark(this.vEndLegs, this.vHasEndLeg, step * nx + line);
        else mark(this.hEndLegs, this.hHasEndLeg, line * nx + step);
      }
    }
  }

  /** The grid segment `cell` carries an end leg of a route with other ends than `request`'s. */
  private alongEndLeg(endLegs: Map<number, number[]>, cell: number, request: RouteRequest): boolean {
    const users = endLegs.get(cell);
    if (users === undefined) return false;
    return users.some((user) => {
      if (this.forgotten.has(user)) return false;
      const [from, to] = this.routeEnds[user]!;
      return from !== request.from && from !== request.to && to !== request.from && to !== request.to;
    });
  }

  /** Records the grid segments of the first and last legs along `path` (grid points, one segment apart). */
  private occupy(request: RouteRequest, path: readonly Point[]): number {
    const id = this.routeEnds.push([request.from, request.to]) - 1;
    const nx = this.xs.length;
    const node = (p: Point) => lineOf(this.ys, p.y) * nx + lineOf(this.xs, p.x);
    const steps = path.slice(1).map((p, k) => [node(path[k]!), node(p)] as const);
    // The first and last legs: the steps before the first turn and after the last, which attach to the shapes.
    const turns = steps.map(([a, b], k) => k > 0 && b - a !== steps[k - 1]![1] - steps[k - 1]![0]);
    const firstTurn = turns.indexOf(true);
    const lastTurn = turns.lastIndexOf(true);
    steps.forEach(([a, b], k) => {
      if (firstTurn >= 0 && k >= firstTurn && k < lastTurn) return;
      // A horizontal segment is keyed by its left node, a vertical one by its top node (as `block` marks them).
      const level = Math.abs(a - b) === 1;
      const endLegs = level ? this.hEndLegs : this.vEndLegs;
      const cell = Math.min(a, b);
      (level ? this.hHasEndLeg : this.vHasEndLeg)[cell] = 1;
      const list = endLegs.get(cell);
      if (list === undefined) endLegs.set(cell, [id]);
      else list.push(id);
    });
    return id;
  }

  /**
   * Where a route through `exit` (a margin away from a side) meets the side: straight across on the exit's grid line
   * (a merged line may be a few pixels off the side's middle) where the outline is there (boxes), else at the middle
   * with a jog (round and pointed outlines, sides too short for the line). Returns the side point first, and its focus.
   */
  private attach(box: Box, side: number, exit: Point): { points: Point[]; focus: Point } {
    const middle = SIDE_FOCUS[SIDES[side]!];
    const horizontal = side === 0 || side === 2;
    const along = horizontal ? (exit.y - box.y) / box.height : (exit.x - box.x) / box.width;
    let focus = middle;
    if (along > 0 && along < 1) {
      const straight = horizontal ? { x: middle.x, y: along } : { x: along, y: middle.y };
      const point = { x: box.x + straight.x * box.width, y: box.y + straight.y * box.height };
      // The intake puts a bound end where the line from its neighbour meets the outline: it must be this point.
      const onOutline = boundEnd(box, straight, exit);
      if (Math.abs(onOutline.x - point.x) < 0.01 && Math.abs(onOutline.y - point.y) < 0.01) focus = straight;
    }
    const point = { x: box.x + focus.x * box.width, y: box.y + focus.y * box.height };
    const jog = horizontal ? { x: exit.x, y: point.y } : { x: point.x, y: exit.y };
    return { points: [point, jog], focus };
  }
}

/** Drops repeated points (within a hundredth of a pixel) and the middle one of three collinear points. */
export function simplifyPolyline(points: readonly Point[]): Point[] {
  const out: Point[] = [];
  for (const point of points) {
    const last = out[out.length - 1];
    if (last && Math.abs(last.x - point.x) < 0.01 && Math.abs(last.y - point.y) < 0.01) continue;
    const before = out[out.length - 2];
    if (before && last && ((before.x === last.x && last.x === point.x) || (before.y === last.y && last.y === point.y))) out.pop();
    out.push(point);
  }
  return out;
}
