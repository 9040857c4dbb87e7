/**
 * Issue 27's third way: Graphviz places the nodes and containers (same node sizes), and every edge between two nodes
 * or containers (not one holding the other) is drawn again at right angles by the orthogonal router of smart arrows,
 * off the other shapes and, at a cost (CROSSING_COST), off the routes found before, each route that still crosses one
 * found again knowing all the others
 * (Graphviz's placement leaves room for a drawing without crossings that routes found one by one missed); hub ends are merged,
 * each rank gap's legs given tracks of their own and legs of different edges on one line moved apart, as on the ELK
 * path, then labels go beside the routes; a drawing that misses a README column is tried turned and with capped rows,
 * as ELK's is. The service draws the graphs engine.ts's placedByGraphviz names this way; bench/engines.ts measures
 * it beside ELK and Graphviz on every notation (README).
 */
import type { Direction, GraphIR, GraphNode } from '../graph/types.js';
import { boxContains } from '../export/geometry.js';
import { BEND_PENALTY, OrthogonalRouter, ROUTE_MARGIN, type RouteRequest, type Side } from '../routing/orthogonal.js';
import { sidePorts } from '../routing/ports.js';
import { firstCrossing, isInside, outlineOf } from '../scene/binding-geometry.js';
import { cappedRanks } from './capped-ranks.js';
import { besideRoute, BoxGrid, clearOf, crosses, placesAlong, RouteLegs } from './detours.js';
import { FONT, READABLE_NODES, SPACING } from './drawing-rules.js';
import { drawnExtent, layoutPacked, narrowingLengthens, READABLE_WIDTH, readableWidth, readmeCost, separateEdgeRuns, spreadsWithoutFitting, stackingWidens, vertical } from './elk.js';
import { type GraphvizShape, layoutWithGraphviz, placeWithGraphviz } from './graphviz.js';
import { HUB_MIN_EDGES, mergeHubEnds } from './hubs.js';
import { measureText } from './measure.js';
import { wrapText } from './node-size.js';
import { spreadRankGaps } from './rank-gaps.js';
import { stackedRanks } from './stacked-ranks.js';
import type { Box, LaidOutGraph, LaidOutLabel, LayoutEngine, Point } from './types.js';

/**
 * What crossing another route costs the router, in pixels of route length: a detour of up to this much is taken
 * to cross one route fewer, as ELK's crossing minimisation would order the edges.
 */
const CROSSING_COST = 160;
/** Room kept between two labels set beside routes. */
const LABEL_ROOM = 6;
/**
 * What reaching a node further along the flow on another side than the one facing back costs, in pixels of route
 * length: three bends, enough for the bend and the step across that the facing side takes (76 px and a bend from
 * Payment_Pending to Payment_Failed's top), not for a detour round a shape.
 */
const FACING_COST = 3 * BEND_PENALTY;

/**
 * The same for a round or pointed outline (a decision, a state's circle), which has one point a side, not a side to
 * spread along: an edge from upstream ended at a diamond's side corner reads as running through it when the branch
 * leaves that corner (a search's "no" into its threshold decision, whose "yes" went on down from the same point).
 */
const POINTED_FACING_COST = 8 * BEND_PENALTY;
/** Edges routed with a crossing cost at most. */
const CROSSING_COST_EDGES = 150;

/**
 * What ending an edge between next ranks on a side not facing along the flow costs, in pixels of route length: at the
 * router's own 60, a hub's fan still left by its sides, a bend (48) saved; at 200, Mermaid's flowcharts crossed 3 more.
 */
const FLOW_SIDE_COST = 100;

/** Rows capped at these shares of a README column: Graphviz spreads rows to straighten long edges, beyond the cap. */
const ROW_CAPS = [1, 0.75];
/**
 * The least share of Graphviz's plain top-down width that capped rows came to on the corpus was 0.64 (pagila 1,494 →
 * 954 px; sqlite sakila 0.66, C4 message bus 0.68): a plain placement wider than a README column over this share is not
 * tried capped. Those were the slowest runs of a drawing (ratio=compress), and missed (Bank of Anthos 2,794 px capped
 * to 2,527 and 2,659; microservices-demo 3,328 to 1,744 and 1,523).
 */
const CAPPED_NARROWING = 0.6;

export const layoutGraphvizOrthogonal: LayoutEngine = async (graph: GraphIR): Promise<LaidOutGraph> => {
  const nodes = graph.nodes.length;
  // Tries are judged on Graphviz's placement, a few ms each, and only the one kept is routed: routing is most of the
  // time, and moves the extent a little (rank gaps opened for their legs).
  const placedTo = (part: GraphIR, direction: Direction, cut = false) => placedWith(part, direction, { looseInGrid: readableWidth(nodes) }, { cut });
  // A part to pack is as large as its boxes (cutToBoxes): its routes are drawn again once the parts are packed.
  const partPlaced = (part: GraphIR, direction: Direction) => placedTo(part, direction, true);
  // Rows of components no wider than the text stays readable at: a README column, or the wide page a large graph is read on.
  // Components laid out apart and packed in rows, as ELK packs them: Graphviz ranks loose nodes side by side in one row
  // (robot-shop's twelve Helm services: a strip of 15.5:1). Graphviz's own layout first, and packing only where it
  // misses, cost each try a Graphviz run more (Kubernetes 2.1× → 3.3× Graphviz's time) for a tenth less canvas on two
  // Kubernetes files (README). Nodes joined to nothing make one part, set in Graphviz's grid; not in a large graph,
  // where a rigid block of them left a schema 3,442 px wide (Camunda's 27 unrelated tables) and, one by one, they fill
  // the skyline round the rest.
  const placed = async (direction: Direction): Promise<Placed> => {
    const packed = await layoutPacked(graph, direction, readableWidth(nodes), partPlaced, { looseTogether: nodes <= READABLE_NODES });
    if (packed === undefined) return { laid: await placedTo(graph, direction), direction };
    // A small schema's parts share Graphviz's ranks in one run, as ELK's layers set them: packed in rows, petclinic's
    // vets under its pets took 1.18 × Graphviz's canvas. Kept where it misses no more and is smaller (a Graphviz run
    // of a few tables, a millisecond).
    if (nodes > READABLE_NODES || !graph.nodes.every(isTable)) return { laid: packed, direction };
    const whole = await placedTo(graph, direction);
    const smaller = readmeCost(whole, nodes) <= readmeCost(packed, nodes) && whole.width * whole.height < packed.width * packed.height;
    return { laid: smaller ? whole : packed, direction };
  };
  let best = await placed(graph.direction);
  const plain = new Map([[best.direction, best.laid]]);
  // ELK's README-fit tries: turned (when the direction is free), the one that misses least; then, where width counts
  // and rows lie across it, rows capped at a README column, as ELK's narrower layerings: kept only when one fits, as
  // there (a capped try that still misses crossed microservices-demo's edges five times as often).
  const cost = (candidate: Placed) => readmeCost(candidate.laid, nodes);
  const turned: Direction = vertical(graph.direction) ? 'RIGHT' : 'DOWN';
  if (cost(best) > 0 && !graph.forcedDirection) {
    const other = await placed(turned);
    plain.set(turned, other.laid);
    if (cost(other) < cost(best)) best = other;
  }
  const directions = graph.forcedDirection ? [graph.direction] : [graph.direction, turned];
  // Each container's parts stacked along the flow, as ELK's stacked try: Graphviz sets parts joined by no edge side by
  // side (Mermaid's C4 context: three boundaries and three systems in a row, 1,985 px wide, text 6.2 px at 880). Where
  // it still misses, kept as ELK keeps a try: when it misses less, on no more paper (spreadsWithoutFitting: BlazeMeter's
  // packages stacked in a column, 1.58 × the area, their relations run together for 1,400 px down it, where the author
  // had set them side by side). The hexagonal architecture's packages, in one row 6,249 px wide as Graphviz ranks each
  // class by its own edges, come to 2,970 px stacked. Misses are measured on the boxes alone: Graphviz's labels of
  // straight edges, placed again after routing, made the onion architecture's column 1,486 px wide where drawn it is
  // 949 × 4,209 (beyond 3:1).
  const boxesCost = (laid: LaidOutGraph) => readmeCost({ ...laid, ...drawnExtent({ ...laid, edges: [] }) }, nodes);
  /** Stacked tries that turn an edge against the flow, tried after the capped rows. */
  const againstFlow: { direction: Direction; ranks: ReadonlyMap<string, number> }[] = [];
  const stackedFits = async (direction: Direction, ranks: ReadonlyMap<string, number>) => {
    const laid = await placedWith(graph, direction, { ranks });
    if (readmeCost(laid, nodes) === 0) return laid;
    if (boxesCost(laid) < boxesCost(best.laid) && !spreadsWithoutFitting(laid, best.laid, nodes)) best = { laid, direction };
    return undefined;
  };
  for (const direction of cost(best) > 0 && graph.groups.length > 0 && nodes <= READABLE_NODES ? directions : []) {
    // As for ELK's: not along a sideways flow whose plain layout is landscape and misses, which stacking only widens.
    if (stackingWidens(direction, plain.get(direction), nodes, best.laid)) continue;
    const stacked = stackedRanks(graph, direction);
    if (stacked === undefined) break;
    // Containers that refer to each other both ways, stacked, turn an edge against the flow: Nextcloud's proxy tier
    // under its default network, web → app running up and the whole drawing read bottom to top. Tried last.
    if (stacked.turnsBack) {
      againstFlow.push({ direction, ranks: stacked.ranks });
      continue;
    }
    const fits = await stackedFits(direction, stacked.ranks);
    if (fits !== undefined) return drawnAtRightAngles(fits, { ...graph, direction });
  }
  for (const direction of cost(best) > 0 && nodes <= READABLE_NODES ? directions.filter(vertical) : []) {
    // As for ELK's: not where the plain layout this way is too large for capped rows to fit, nor too wide.
    const before = plain.get(direction)!;
    if (narrowingLengthens(before, nodes) || before.width * CAPPED_NARROWING > READABLE_WIDTH) continue;
    let missed: ReadonlyMap<string, number> | undefined;
    for (const cap of ROW_CAPS) {
      const ranks = cappedRanks(graph, direction, cap * READABLE_WIDTH);
      // The same rows as the cap before (no row held a node between the two caps) are placed the same, and miss again.
      if (missed !== undefined && sameRanks(ranks, missed)) continue;
      const laid = await placedWith(graph, direction, { ranks, width: READABLE_WIDTH, looseInGrid: READABLE_WIDTH });
      if (readmeCost(laid, nodes) === 0) return drawnAtRightAngles(laid, { ...graph, direction });
      missed = ranks;
    }
  }
  for (const { direction, ranks } of againstFlow) {
    const fits = await stackedFits(direction, ranks);
    if (fits !== undefined) return drawnAtRightAngles(fits, { ...graph, direction });
  }
  const rows = cost(best) > 0 && nodes <= READABLE_NODES ? chainRows(graph, best) : undefined;
  if (rows !== undefined) {
    const laid = alignedLeft(await placedWith(graph, 'DOWN', { ranks: rows }), rows);
    if (readmeCost(laid, nodes) < cost(best)) return drawnAtRightAngles(laid, { ...graph, direction: 'DOWN' });
  }
  return drawnAtRightAngles(best.laid, { ...graph, direction: best.direction });
};

/** Whether two rankings put every node in the same rank. */
const sameRanks = (a: ReadonlyMap<string, number>, b: ReadonlyMap<string, number>): boolean => a.size === b.size && [...a].every(([id, rank]) => b.get(id) === rank);

/**
 * A long sideways chain (one step a column, no containers: a CI pipeline of eleven steps, 2,925 px wide, its text 5 px
 * at a README's width) cut into rows that read left to right, each as wide as a README column, as ELK wraps a long
 * flow and as text wraps: each row's first step under the one before's first. Each node's row, or undefined where the
 * flow is not such a chain flowing right.
 */
function chainRows(graph: GraphIR, placed: Placed): Map<string, number> | undefined {
  // Rows read left to right, as Graphviz sets a row's flat edges: a right-to-left chain keeps its one row.
  if (placed.direction !== 'RIGHT' || graph.groups.length > 0 || graph.nodes.length < 3) return undefined;
  const along = (box: Box) => box.x;
  const order = [...placed.laid.nodes].sort((a, b) => along(a) - along(b));
  // One node a column: no two overlap across the flow's axis.
  if (order.some((node, i) => i > 0 && along(node) < along(order[i - 1]!) + order[i - 1]!.width)) return undefined;
  // Rows a README column wide; a chain too long for that in rows no taller than wide (39 tables of 30 columns each:
  // rows a README column wide stacked 8:1), the text then no larger than in one row, but no strip.
  const length = along(order.at(-1)!) + order.at(-1)!.width - along(order[0]!);
  const pitch = Math.max(...order.map((node) => node.height)) + SPACING.betweenLayers;
  const width = Math.max(READABLE_WIDTH, Math.sqrt(length * pitch));
  const rows = new Map<string, number>();
  let row = 0;
  let start = along(order[0]!);
  for (const node of order) {
    if (along(node) + node.width - start > width && rows.size > 0) {
      row++;
      start = along(node);
    }
    rows.set(node.id, row);
  }
  return row > 0 ? rows : undefined;
}

/** Rows moved sideways to start where the leftmost does (Graphviz centres each on the edges into it). */
function alignedLeft(laid: LaidOutGraph, rows: ReadonlyMap<string, number>): LaidOutGraph {
  const starts = new Map<number, number>();
  for (const node of laid.nodes) starts.set(rows.get(node.id)!, Math.min(starts.get(rows.get(node.id)!) ?? Infinity, node.x));
  const left = Math.min(...starts.values());
  const nodes = laid.nodes.map((node) => ({ ...node, x: node.x - starts.get(rows.get(node.id)!)! + left }));
  return { ...laid, nodes, width: Math.max(...nodes.map((node) => node.x + node.width)) + left };
}

/**
 * Graphviz's placement of a graph flowing `direction`, its edges straight where each is routed again (none is a self
 * loop or joins a container to what it holds: those keep Graphviz's curve); `cut`: its extent cut to its boxes then.
 */
async function placedWith(graph: GraphIR, direction: Direction, shape: GraphvizShape, { cut = false } = {}): Promise<LaidOutGraph> {
  const parent = new Map([...graph.groups.map((group): [string, string | undefined] => [group.id, group.parent]), ...graph.nodes.map((node): [string, string | undefined] => [node.id, node.parent])]);
  const holds = (outer: string, id: string) => {
    for (let up = parent.get(id), depth = 0; up !== undefined && depth <= graph.groups.length; up = parent.get(up), depth++) if (up === outer) return true;
    return false;
  };
  const straight = graph.edges.every((edge) => edge.from !== edge.to && parent.has(edge.from) && parent.has(edge.to) && !holds(edge.from, edge.to) && !holds(edge.to, edge.from));
  const placed = await placeWithGraphviz({ ...graph, direction }, { ...shape, straight });
  return cut && straight ? cutToBoxes(placed) : placed;
}

/**
 * A placement whose every edge is routed again, its extent cut to its boxes, with the margin it has at their top left
 * at the right and bottom too: Graphviz's bounding box also holds its own routes and label ranks, which are drawn and
 * placed again. A Mermaid flowchart's splines ran 384 px under its lowest box, and the part packed under it sat 466 px
 * below that box.
 */
function cutToBoxes(placed: LaidOutGraph): LaidOutGraph {
  const boxes = [...placed.nodes, ...placed.groups];
  if (boxes.length === 0) return placed;
  // The margin is the least of the two: a label rank of Graphviz's may leave the top empty too.
  const margin = Math.max(0, Math.min(...boxes.map((box) => Math.min(box.x, box.y))));
  const [right, bottom] = [Math.max(...boxes.map((box) => box.x + box.width)), Math.max(...boxes.map((box) => box.y + box.height))];
  return { ...placed, width: Math.min(placed.width, right + margin), height: Math.min(placed.height, bottom + margin) };
}

/** A table: an entity with rows, whose keys the router leads to the sides along the flow. */
const isTable = (node: GraphNode): boolean => node.kind === 'entity' && (node.rows?.length ?? 0) > 0;

/** The side a flowing `direction` leaves a node by, and the side it reaches the next by. */
function flowSideOf(direction: Direction): [Side, Side] {
  if (direction === 'DOWN') return ['bottom', 'top'];
  if (direction === 'UP') return ['top', 'bottom'];
  return direction === 'RIGHT' ? ['right', 'left'] : ['left', 'right'];
}

/** Whether `b` lies further along `direction` than `a` (centre to centre). */
function downstream(a: Box, b: Box, direction: Direction): boolean {
  const along = (box: Box) => (vertical(direction) ? box.y + box.height / 2 : box.x + box.width / 2);
  return direction === 'DOWN' || direction === 'RIGHT' ? along(b) > along(a) : along(b) < along(a);
}

/** Graphviz's placement of a try, and the direction it flows. */
interface Placed {
  laid: LaidOutGraph;
  direction: Direction;
}

/** Graphviz's placement with every edge between two nodes or containers drawn again at right angles. */
function drawnAtRightAngles(placed: LaidOutGraph, graph: GraphIR): LaidOutGraph {
  const { routed, labels } = routeAtRightAngles(placed, graph);
  // Labels go on last, beside the routes as they end up: placed first, they hemmed in the legs that separating runs
  // moves apart (two foreign keys of one table, labelled at its side, stayed on one line).
  return labelRoutes(endLegsLengthened(straightWhereFacing(separateEdgeRuns(spreadRankGaps(mergeHubEnds(routed, graph), graph, graph.direction, labels), graph, true), graph), graph), labels);
}

/**
 * A table's key ends with a leg at least this long where there is room: the router turns where the search reaches
 * first, often the target's own margin line, and a crow's foot or bar (about 20 px) then sat on the turn (petclinic's
 * pets → types and owners: each key ran up its table's side 7 px from it and stepped in).
 */
const END_LEG_MIN = 28;
/** A leg shortened to lengthen the end leg keeps at least this much. */
const END_LEG_KEEP = 16;

/**
 * Each route ending at a table on a leg shorter than END_LEG_MIN, whose leg before the end's runs across the flow
 * between two legs along it, has that leg moved back to halfway between where the leg before it starts and the end
 * (the gap's middle, as ELK's layers and the router's own straight lines draw it), else to END_LEG_MIN from the end, where the moved legs meet no other
 * node nor a container's title, cross no more routes and run beside none.
 */
function endLegsLengthened(laid: LaidOutGraph, graph: GraphIR): LaidOutGraph {
  const tables = new Set(graph.nodes.filter(isTable).map((node) => node.id));
  const edges = [...laid.edges];
  const blockers = [...laid.nodes, ...laid.groups.map((group) => group.title)];
  let routes = new RouteLegs(edges.map((edge) => edge.points));
  const crossed = (points: readonly Point[], own: ReadonlySet<readonly Point[]>) => points.slice(1).reduce((sum, point, k) => sum + routes.crossings(points[k]!, point, own), 0);
  edges.forEach((edge, i) => {
    const { from, to } = graph.edges[edge.index]!;
    for (const atEnd of [true, false]) {
      if (edge.curved || !tables.has(atEnd ? to : from) || edge.points.length < 4) continue;
      const points = atEnd ? [...edges[i]!.points] : [...edges[i]!.points].reverse();
      const n = points.length - 1;
      const [before, bend, turn, end] = [points[n - 3]!, points[n - 2]!, points[n - 1]!, points[n]!];
      const level = turn.y === end.y;
      const along = (point: Point) => (level ? point.x : point.y);
      // The end leg, the leg across before it, and the one before that along the flow again.
      if (level ? bend.x !== turn.x || before.y !== bend.y : bend.y !== turn.y || before.x !== bend.x) continue;
      if (Math.abs(along(end) - along(turn)) >= END_LEG_MIN) continue;
      // The gap's middle, else just far enough from the end where the middle meets another route (on the corpus's 11
      // schemas, ends under 24 px: 50 → 43; stop 44's code had 82).
      const toward = Math.sign(along(turn) - along(end));
      const tried = [Math.round((along(before) + along(end)) / 2), along(end) + toward * END_LEG_MIN].flatMap((at) => {
        if (Math.abs(along(end) - at) <= Math.abs(along(end) - along(turn)) || Math.abs(at - along(before)) < END_LEG_KEEP) return [];
        if (Math.sign(at - along(end)) !== toward || Math.sign(at - along(before)) !== Math.sign(along(bend) - along(before))) return [];
        const moved = (point: Point): Point => (level ? { x: at, y: point.y } : { x: point.x, y: at });
        const own = new Set([edges[i]!.points]);
        const legs: [Point, Point][] = [[before, moved(bend)], [moved(bend), moved(turn)], [moved(turn), end]];
        const meets = legs.some(([p, q]) => blockers.some((box) => crosses(p, q, box)) || routes.runsBeside(p, q, STRAIGHT_CLEARANCE, own));
        const drawn = [...points.slice(0, n - 2), moved(bend), moved(turn), end];
        return meets || crossed(drawn, own) > crossed(points, own) ? [] : [drawn];
      })[0];
      if (tried === undefined) continue;
      edges[i] = { ...edges[i]!, points: atEnd ? tried : tried.reverse() };
      routes = new RouteLegs(edges.map((other) => other.points));
    }
  });
  return { ...laid, edges };
}

/** Every edge between two nodes or containers routed anew, without its labels (kept by edge index). */
function routeAtRightAngles(laid: LaidOutGraph, graph: GraphIR): { routed: LaidOutGraph; labels: Map<number, LaidOutLabel[]> } {
  const nodeIndex = new Map(laid.nodes.map((node, index) => [node.id, index]));
  // Nodes, then containers (indexed after the nodes, as ends), then the room each self loop and its label take.
  const obstacles = [
    ...laid.nodes.map((node) => ({ ...node, type: node.box.shape })),
    ...laid.groups.map((group) => ({ ...group, type: 'rectangle' })),
    ...laid.edges.flatMap((edge) => selfLoopExtent(edge, laid, graph)),
  ];
  // Containers' titles, last: a route entering a container went in across its title where Graphviz left no room
  // beside it (Terraform's two-tier: the load balancer's edge through "default (aws_subnet)"). Allowed only where a
  // route cannot be found otherwise.
  const titles = laid.groups.map((group) => obstacles.push({ ...group.title, type: 'rectangle' }) - 1);
  // A container is an end as a node is, reached at its border from outside, as ELK draws it: Graphviz's curves to the
  // subnets of Terraform's VPC module ran along and across the routes drawn at right angles (5 pairs run together).
  const obstacleIndex = new Map([...laid.groups.map((group, g): [string, number] => [group.id, laid.nodes.length + g]), ...nodeIndex]);
  const ends = (index: number): [number, number] | undefined => {
    const { from, to } = graph.edges[index]!;
    const [a, b] = [obstacleIndex.get(from), obstacleIndex.get(to)];
    if (a === undefined || b === undefined || a === b) return undefined;
    // Not between a container and what it holds: one end would be reached from inside the other.
    return boxContains(obstacles[a]!, obstacles[b]!, 0) || boxContains(obstacles[b]!, obstacles[a]!, 0) ? undefined : [a, b];
  };
  // A note's dashed leader runs straight to its state where nothing is in the way, as Mermaid draws it: routed at
  // right angles it ran along the border of the composite state between them, or round a state as a dashed frame.
  const leaders = new Map(laid.edges.flatMap((edge) => {
    const line = leaderLine(edge.index, graph, laid, nodeIndex);
    return line === undefined ? [] : [[edge.index, line] as const];
  }));
  const terminals = laid.edges.flatMap((edge) => (leaders.has(edge.index) ? [] : (ends(edge.index) ?? [])));
  // A table's foreign keys leave and reach it on the sides that face along the flow, beside its rows, as ELK's layers
  // and DBeaver draw them: Graphviz's placement let the router end them on a table's top or bottom too (Northwind's
  // products and orders: keys into their headers from above and below).
  const flowSides: readonly Side[] = vertical(graph.direction) ? ['top', 'bottom'] : ['left', 'right'];
  const tables = new Set(graph.nodes.filter(isTable).map((node) => node.id));
  // An edge between ends Graphviz set in next ranks leaves its source on the side facing the target and reaches the
  // target on the side facing back, as ELK's layers draw it: free to use any side, a hub's fan ran out of its sides
  // along its own row and into its targets from the side (opentelemetry-demo's frontend). Not over ranks between: there
  // it runs beside their nodes, where Graphviz routed it; forced along the flow, it crossed their fans.
  const [outSide, inSide] = flowSideOf(graph.direction);
  const span = (box: Box): [number, number] => (vertical(graph.direction) ? [box.y, box.y + box.height] : [box.x, box.x + box.width]);
  const spans = laid.nodes.map(span);
  const apart = (a: Box, b: Box) => {
    const [first, second] = [span(a), span(b)].sort((p, q) => p[0] - q[0]);
    const [end, start] = [first![1], second![0]];
    return end < start && !spans.some(([from, to]) => from > end && to < start);
  };
  const sidesOf = (end: number, other: number, side: Side): readonly Side[] | undefined =>
    tables.has(laid.nodes[end]?.id ?? '') ? flowSides : apart(obstacles[end]!, obstacles[other]!) ? [side] : undefined;
  const around = (end: number) => laid.groups.flatMap((group, g) => (laid.nodes.length + g !== end && boxContains(group, obstacles[end]!, 0) ? [laid.nodes.length + g] : []));
  // An edge to a node wholly further along the flow, ranks between them, still reaches it on the side that faces back
  // up the flow, as Graphviz and Mermaid draw it: ended on a side to save a bend, two transitions out of one state to
  // its neighbours below ran down side by side a few px apart and turned away into the sides that face each other (an
  // order's Payment_Pending). Only its target's side: its source's, forced too, crossed the fans of the ranks between.
  const further = (from: Box, to: Box) =>
    ({ DOWN: to.y >= from.y + from.height, UP: to.y + to.height <= from.y, RIGHT: to.x >= from.x + from.width, LEFT: to.x + to.width <= from.x })[graph.direction];
  const pointed = (end: number) => ['ellipse', 'diamond'].includes(obstacles[end]!.type);
  const request = ([from, to]: [number, number]) => {
    // The side facing along the flow when the target lies downstream, the other when the edge runs back.
    const forward = downstream(obstacles[from]!, obstacles[to]!, graph.direction);
    const through = [...new Set([...around(from), ...around(to)])];
    const fromSides = sidesOf(from, to, forward ? outSide : inSide);
    const toSides = sidesOf(to, from, forward ? inSide : outSide);
    if (tables.has(laid.nodes[from]?.id ?? '') || tables.has(laid.nodes[to]?.id ?? '')) return { from, to, through, fromSides, toSides };
    if (fromSides === undefined && toSides === undefined && to < laid.nodes.length && further(obstacles[from]!, obstacles[to]!)) {
      return { from, to, through, toSides: [inSide], offSideCost: pointed(to) ? POINTED_FACING_COST : FACING_COST };
    }
    return { from, to, through, fromSides, toSides, offSideCost: forward && toSides !== undefined && pointed(to) ? POINTED_FACING_COST : FLOW_SIDE_COST };
  };
  const requests = laid.edges.map((edge) => {
    const pair = leaders.has(edge.index) ? undefined : ends(edge.index);
    return pair && request(pair);
  });
  // Ends meant for one side each get a port of their own there, in the order of their other ends: at the side's middle,
  // a fan-in's routes met in one point. Not a table's keys, which its rows space out, nor a round or pointed outline's.
  const spreads = (end: number) => end < laid.nodes.length + laid.groups.length && !tables.has(laid.nodes[end]?.id ?? '') && !pointed(end);
  const only = (sides: readonly Side[] | undefined) => (sides?.length === 1 ? sides[0] : undefined);
  const ports = sidePorts(obstacles, requests.map((req) => req && { from: req.from, to: req.to, fromSide: only(req.fromSides), toSide: only(req.toSides) }), spreads);
  const portList = ports.flatMap((end) => [end.fromPort, end.toPort].filter((port) => port !== undefined));
  // Not on a wall of hundreds of edges (sentry's 293 depends_on drawn in full): there routes kept off crossings by
  // running along others' lines, 476 pairs run together that separating runs could not part, in three times the time.
  const router = new OrthogonalRouter(obstacles, terminals, terminals.length / 2 <= CROSSING_COST_EDGES ? CROSSING_COST : 0, portList);
  const ported = requests.map((req, i) => req && { ...req, ...ports[i] });
  const routed = (req: RouteRequest) => router.route(req) ?? router.route({ ...req, through: [...req.through, ...titles] });
  const routes = ported.map((req) => req && routed(req));
  // A route found early knew none of the later ones: each that crosses another is found again knowing them all.
  routes.forEach((route, i) => {
    if (route === undefined || router.crossings(route) === 0) return;
    router.forget(route);
    routes[i] = routed(ported[i]!);
  });
  const labels = new Map<number, LaidOutLabel[]>();
  const edges = laid.edges.map((edge, i) => {
    const route = routes[i];
    const { from, to } = graph.edges[edge.index]!;
    // A self loop keeps Graphviz's curve and middle label; its end labels are placed beside it as the others are:
    // Graphviz set the cardinalities of a table's foreign keys to itself over the table (Camunda's executions).
    const leader = leaders.get(edge.index);
    if (leader !== undefined) return { ...edge, points: leader, curved: false };
    const ends = edge.labels.filter((label) => label.placement !== 'center');
    if (route === undefined && from === to && nodeIndex.has(from) && ends.length > 0) {
      labels.set(edge.index, ends);
      return { ...edge, labels: edge.labels.filter((label) => label.placement === 'center') };
    }
    // An edge between a container and what it holds ends on the container's border, inside it.
    const [a, b] = [obstacleIndex.get(from), obstacleIndex.get(to)];
    if (route === undefined && a !== undefined && b !== undefined && a !== b) {
      const [inner, outer] = boxContains(obstacles[a]!, obstacles[b]!, 0) ? [b, a] : [a, b];
      const group = laid.groups[outer - laid.nodes.length];
      if (group !== undefined && boxContains(group, obstacles[inner]!, 0)) {
        const others = routes.filter((other) => other !== undefined).flatMap((other) => legBoxes(other.points, STUB_CLEARANCE));
        const blockers = [...obstacles.slice(0, laid.nodes.length).filter((_, k) => k !== inner), ...laid.groups.map((other) => other.title), ...others];
        const stub = stubToBorder(obstacles[inner]!, group, blockers);
        labels.set(edge.index, edge.labels);
        return { ...edge, points: inner === a ? stub : [...stub].reverse(), curved: false, labels: [] };
      }
    }
    // A self loop without end labels: Graphviz's curve and labels stay.
    if (route === undefined) return edge;
    labels.set(edge.index, edge.labels);
    return { ...edge, points: route.points, curved: false, labels: [] };
  });
  return { routed: { ...laid, edges }, labels };
}

/**
 * A table's keys are spaced on its side by their cardinalities (the router's rule): one is drawn straight only where its
 * route steps no more than this across and shares no end, or SEATS' keys into airport crowded their labels onto lines.
 */
const TABLE_JOG_MAX = 32;
/** Straight lines between one pair of facing nodes stand this far apart where their shared span leaves room… */
const STRAIGHT_SPREAD = 40;
/** …and at least this far, else the pair's edges keep their routes (they would read as one line). */
const STRAIGHT_MIN_SPACING = 20;
/** Another route's leg this close along a straight line would run together with it. */
const STRAIGHT_CLEARANCE = 8;

/**
 * Every edge between two nodes that face each other across the flow (their spans overlap, room for a straight line
 * between), drawn as that straight line where it meets no other node, no container's title and no other route along
 * it, as ELK, Graphviz and Mermaid draw it: routed from side middle to side middle, a state machine's chain Executed →
 * Receipted → Broadcasted stepped sideways at each link, and the four relations of two classes to the one below them
 * (java-design-patterns' promise) crossed in a knot over its middle. Several edges of one pair are spread across the
 * span, in the order their routes had; an end merged with a hub's others (HUB_MIN_EDGES at one point) keeps its route,
 * and so do a pair's edges whose straight lines would cross more routes than theirs do.
 */
function straightWhereFacing(laid: LaidOutGraph, graph: GraphIR): LaidOutGraph {
  const byId = new Map(laid.nodes.map((node) => [node.id, node]));
  const key = (point: Point) => `${point.x},${point.y}`;
  const ends = new Map<string, number>();
  for (const edge of laid.edges) for (const point of [edge.points[0], edge.points.at(-1)]) if (point) ends.set(key(point), (ends.get(key(point)) ?? 0) + 1);
  const alongY = vertical(graph.direction);
  const across = (point: Point) => (alongY ? point.x : point.y);
  const span = (box: Box): [number, number] => (alongY ? [box.x, box.x + box.width] : [box.y, box.y + box.height]);
  const centre = (box: Box): Point => ({ x: box.x + box.width / 2, y: box.y + box.height / 2 });
  const tables = new Set(graph.nodes.filter(isTable).map((node) => node.id));
  const pairs = new Map<string, number[]>();
  laid.edges.forEach((edge, i) => {
    const { from, to } = graph.edges[edge.index]!;
    const [a, b] = [byId.get(from), byId.get(to)];
    const [p, t] = [edge.points[0], edge.points.at(-1)];
    if (edge.curved || edge.points.length < 3 || a === undefined || b === undefined || a === b || p === undefined || t === undefined) return;
    if ((ends.get(key(p)) ?? 0) >= HUB_MIN_EDGES || (ends.get(key(t)) ?? 0) >= HUB_MIN_EDGES) return;
    if (tables.has(from) || tables.has(to)) {
      const acrosses = edge.points.map(across);
      if ((ends.get(key(p)) ?? 0) > 1 || (ends.get(key(t)) ?? 0) > 1 || Math.max(...acrosses) - Math.min(...acrosses) > TABLE_JOG_MAX) return;
      pairs.set(`${i}`, [i]);
      return;
    }
    const pair = [from, to].sort().join('\u0000');
    pairs.set(pair, [...(pairs.get(pair) ?? []), i]);
  });
  const edges = [...laid.edges];
  const routes = new RouteLegs(laid.edges.map((edge) => edge.points));
  const crossings = (points: readonly Point[], own: ReadonlySet<readonly Point[]>) => points.slice(1).reduce((sum, point, k) => sum + routes.crossings(points[k]!, point, own), 0);
  for (const group of pairs.values()) {
    const { from, to } = graph.edges[laid.edges[group[0]!]!.index]!;
    const [a, b] = [byId.get(from)!, byId.get(to)!];
    const [lo, hi] = [Math.max(span(a)[0], span(b)[0]) + ROUTE_MARGIN, Math.min(span(a)[1], span(b)[1]) - ROUTE_MARGIN];
    if (lo > hi) continue;
    const middle = (i: number) => (across(laid.edges[i]!.points[0]!) + across(laid.edges[i]!.points.at(-1)!)) / 2;
    const ordered = [...group].sort((i, j) => middle(i) - middle(j));
    const spacing = ordered.length === 1 ? 0 : Math.min(STRAIGHT_SPREAD, (hi - lo) / (ordered.length - 1));
    if (ordered.length > 1 && spacing < STRAIGHT_MIN_SPACING) continue;
    const half = (spacing * (ordered.length - 1)) / 2;
    const mean = ordered.reduce((sum, i) => sum + middle(i), 0) / ordered.length;
    const others = [...laid.nodes.filter((node) => node !== a && node !== b), ...laid.groups.map((container) => container.title)];
    const own = new Set(group.map((i) => laid.edges[i]!.points));
    const linesAt = (centreAt: number) =>
      ordered.map((i, j): [Point, Point] | undefined => {
        const at = Math.round(centreAt + (j - (ordered.length - 1) / 2) * spacing);
        const onLine = (point: Point): Point => (alongY ? { x: at, y: point.y } : { x: point.x, y: at });
        const [ca, cb] = [onLine(centre(a)), onLine(centre(b))];
        const start = firstCrossing(ca, cb, outlineOf({ ...a, type: a.box.shape }));
        const end = firstCrossing(cb, ca, outlineOf({ ...b, type: b.box.shape }));
        if (start === undefined || end === undefined) return undefined;
        const line = { x: Math.min(start.x, end.x), y: Math.min(start.y, end.y), width: Math.abs(end.x - start.x), height: Math.abs(end.y - start.y) };
        const meets = (box: Box) => line.x < box.x + box.width && box.x < line.x + line.width + 1 && line.y < box.y + box.height && box.y < line.y + line.height + 1;
        if (others.some(meets) || routes.runsBeside(start, end, STRAIGHT_CLEARANCE, own)) return undefined;
        return graph.edges[laid.edges[i]!.index]!.from === from ? [start, end] : [end, start];
      });
    // Not where the straight lines cut across more routes than the routes they replace (a gap crossed by other fans):
    // where the routes had them, then towards either end of the shared span (clear of a fan entering its other end).
    const crossed = (lines: readonly (readonly Point[])[]) => lines.reduce((sum, line) => sum + crossings(line, own), 0);
    const before = crossed(group.map((i) => laid.edges[i]!.points));
    let lines: [Point, Point][] | undefined;
    for (const centreAt of new Set([Math.min(hi - half, Math.max(lo + half, mean)), lo + half, hi - half])) {
      const tried = linesAt(centreAt);
      if (tried.some((line) => line === undefined)) continue;
      const drawn = tried as [Point, Point][];
      if (crossed(drawn) <= before && (lines === undefined || crossed(drawn) < crossed(lines))) lines = drawn;
    }
    if (lines === undefined) continue;
    const chosen = lines;
    ordered.forEach((i, j) => (edges[i] = { ...edges[i]!, points: [...chosen[j]!] }));
  }
  return { ...laid, edges };
}

/**
 * The straight line between a note and what it annotates, from outline to outline, when it meets no other node nor a
 * container's title; undefined for any other edge.
 */
function leaderLine(index: number, graph: GraphIR, laid: LaidOutGraph, nodeIndex: ReadonlyMap<string, number>): [Point, Point] | undefined {
  const { from, to } = graph.edges[index]!;
  const kinds = new Map(graph.nodes.map((node) => [node.id, node.kind]));
  if (from === to || (kinds.get(from) !== 'note' && kinds.get(to) !== 'note')) return undefined;
  const [a, b] = [laid.nodes[nodeIndex.get(from) ?? -1], laid.nodes[nodeIndex.get(to) ?? -1]];
  if (a === undefined || b === undefined) return undefined;
  const centre = (box: Box): Point => ({ x: box.x + box.width / 2, y: box.y + box.height / 2 });
  const [p, q] = [firstCrossing(centre(a), centre(b), outlineOf({ ...a, type: a.box.shape })), firstCrossing(centre(b), centre(a), outlineOf({ ...b, type: b.box.shape }))];
  if (p === undefined || q === undefined) return undefined;
  const others = [...laid.nodes.filter((node) => node !== a && node !== b), ...laid.groups.map((group) => group.title)];
  const meets = (box: Box) => isInside(outlineOf({ ...box, type: 'rectangle' }), p) || firstCrossing(p, q, outlineOf({ ...box, type: 'rectangle' })) !== undefined;
  return others.some(meets) ? undefined : [p, q];
}

/** How far a line to a container's border keeps from other routes, in px. */
const STUB_CLEARANCE = 6;
/** A line to a container's border shorter than this hides its arrowhead in the node's border (12 px under a query). */
const STUB_MIN = 20;

/** Each leg of a route as a box, `margin` wider all round. */
const legBoxes = (points: readonly Point[], margin: number): Box[] =>
  points.slice(1).map((q, i) => {
    const p = points[i]!;
    return { x: Math.min(p.x, q.x) - margin, y: Math.min(p.y, q.y) - margin, width: Math.abs(q.x - p.x) + 2 * margin, height: Math.abs(q.y - p.y) + 2 * margin };
  });

/**
 * The shortest straight line from a box to the border of a container round it that meets none of `blockers` and is
 * STUB_MIN long: from the middle of one of its sides, or a quarter along it (else the shortest that meets none, else
 * the shortest).
 */
export function stubToBorder(inner: Box, outer: Box, blockers: readonly Box[]): [Point, Point] {
  const candidates: { points: [Point, Point]; length: number }[] = [];
  for (const share of [0.5, 0.25, 0.75]) {
    const x = inner.x + inner.width * share;
    const y = inner.y + inner.height * share;
    candidates.push(
      { points: [{ x, y: inner.y }, { x, y: outer.y }], length: inner.y - outer.y },
      { points: [{ x, y: inner.y + inner.height }, { x, y: outer.y + outer.height }], length: outer.y + outer.height - inner.y - inner.height },
      { points: [{ x: inner.x, y }, { x: outer.x, y }], length: inner.x - outer.x },
      { points: [{ x: inner.x + inner.width, y }, { x: outer.x + outer.width, y }], length: outer.x + outer.width - inner.x - inner.width },
    );
  }
  const meets = ([p, q]: [Point, Point]) =>
    blockers.some((box) => Math.max(p.x, q.x) > box.x && Math.min(p.x, q.x) < box.x + box.width && Math.max(p.y, q.y) > box.y && Math.min(p.y, q.y) < box.y + box.height);
  const byLength = [...candidates].sort((c, d) => c.length - d.length);
  const clear = byLength.filter((candidate) => !meets(candidate.points));
  return (clear.find((candidate) => candidate.length >= STUB_MIN) ?? clear[0] ?? byLength[0]!).points;
}

/**
 * The ground a self loop keeps (Graphviz's curve and its label) outside its node, kept off by the other routes: routed
 * without it they left the node through the loop and over its label (an auth token's `authenticated request` loop,
 * crossed by three transitions leaving the same side).
 */
function selfLoopExtent(edge: LaidOutGraph['edges'][number], laid: LaidOutGraph, graph: GraphIR): (Box & { type: string })[] {
  const { from, to } = graph.edges[edge.index]!;
  const node = laid.nodes.find((candidate) => candidate.id === from);
  if (from !== to || node === undefined || edge.points.length === 0) return [];
  const parts: Box[] = [...edge.points.map((point) => ({ x: point.x, y: point.y, width: 0, height: 0 })), ...edge.labels];
  const x = Math.min(...parts.map((part) => part.x));
  const y = Math.min(...parts.map((part) => part.y));
  const extent = { x, y, width: Math.max(...parts.map((part) => part.x + part.width)) - x, height: Math.max(...parts.map((part) => part.y + part.height)) - y };
  // Only what lies beyond the node's side the loop is on, so the node's other sides stay open.
  const right = node.x + node.width;
  const beyond = extent.x >= right - 1 ? { ...extent, x: right + 1, width: extent.x + extent.width - right - 1 } : extent;
  return beyond.width > 0 && beyond.height > 0 ? [{ ...beyond, type: 'rectangle' }] : [];
}

/**
 * Graphviz's own layout of a graph from another notation (edges put on a side of their sources), its end labels set
 * beside the curves as labelRoutes sets them beside ours: Graphviz is handed no `headlabel` (it would set one by angle
 * and distance from the end, over whatever lies there), so they stood on the ends themselves, over the classes' names
 * (a Cluster API resource diagram's 31 cardinalities on 20 classes; a dwelling's "many" windows and doors).
 */
export const layoutWithGraphvizEndLabels: LayoutEngine = async (graph: GraphIR): Promise<LaidOutGraph> => {
  const laid = await layoutWithGraphviz(graph);
  const ends = new Map<number, LaidOutLabel[]>();
  const edges = laid.edges.map((edge) => {
    const [middle, atEnds] = [edge.labels.filter((label) => label.placement === 'center'), edge.labels.filter((label) => label.placement !== 'center')];
    if (atEnds.length === 0) return edge;
    ends.set(edge.index, atEnds);
    return { ...edge, labels: middle };
  });
  return ends.size === 0 ? laid : labelRoutes({ ...laid, edges }, ends);
};

/** The shares of its width a middle label is wrapped to, in turn, when it finds no room beside its route. */
const NARROWER_LABEL = [0.7, 0.5];
/** A label is not wrapped narrower than this: a column of single words reads worse than a label further out. */
const NARROW_LABEL_MIN = 70;

/**
 * Each routed edge's labels beside its route, clear of the nodes, the labels placed before (LABEL_ROOM apart where
 * there is room) and every route: first every label that has such a place beside its route, its end labels before the
 * middle ones; then the others, a label's depth further out where that is clear, else as besideRoute finds.
 */
function labelRoutes(laid: LaidOutGraph, labels: ReadonlyMap<number, LaidOutLabel[]>): LaidOutGraph {
  const fixed: Box[] = [...laid.nodes, ...laid.groups.map((group) => group.title), ...laid.edges.flatMap((edge) => edge.labels)];
  const taken = new BoxGrid(fixed);
  // The same with each label placed here grown by LABEL_ROOM: set edge to edge, a cardinality and a column name
  // read as one word (Chinook's "0..1genre_id").
  const spaced = new BoxGrid(fixed);
  // Its own route too: a label beside one leg was crossed by its route's next leg.
  const routes = new RouteLegs(laid.edges.map((edge) => edge.points));
  // The first place clear of `spaced`, else the first clear of `taken`, in one pass over the places: making them
  // twice was most of the labelling time. A place clear of `spaced` is clear of `taken`, whose boxes it holds grown.
  const clearPlace = (places: Iterable<LaidOutLabel>) => {
    let clearOfTaken: LaidOutLabel | undefined;
    for (const place of places) {
      if (!clearOf(place, taken, routes)) continue;
      if (!spaced.overlaps(place)) return place;
      clearOfTaken ??= place;
    }
    return clearOfTaken;
  };
  const placed = new Map<LaidOutLabel, LaidOutLabel>();
  const take = (label: LaidOutLabel, place: LaidOutLabel) => {
    placed.set(label, place);
    taken.add(place);
    spaced.add({ x: place.x - LABEL_ROOM, y: place.y - LABEL_ROOM, width: place.width + 2 * LABEL_ROOM, height: place.height + 2 * LABEL_ROOM });
  };
  // A middle label with no room beside its route at its width takes more, shorter lines where that finds it room: set
  // a depth further out instead, it stood beside another route, 200 px from its own (a print job's "User selects
  // "Paper loaded"", in the gap between two transitions).
  const narrowerBeside = (label: LaidOutLabel, points: readonly Point[]) => {
    if (label.placement !== 'center') return undefined;
    const fontSize = label.fontSize ?? FONT.edgeLabel;
    for (const share of NARROWER_LABEL) {
      const text = wrapText(label.text, Math.max(NARROW_LABEL_MIN, label.width * share), fontSize).join('\n');
      const size = measureText(text, fontSize, FONT.family);
      if (size.width >= label.width) continue;
      const place = clearPlace(placesAlong({ ...label, text, ...size }, points, routes, false));
      if (place !== undefined) return place;
    }
    return undefined;
  };
  const each = laid.edges.flatMap((edge) => (labels.get(edge.index) ?? []).map((label) => ({ label, points: edge.points })));
  // A cardinality reads only beside its end, a name anywhere along its route: placed first, Chinook's genre_id took
  // the short last leg and sent its "0..1" 120 px up the line.
  const ordered = [...each.filter(({ label }) => label.placement !== 'center'), ...each.filter(({ label }) => label.placement === 'center')];
  // Labels with a clear place beside their route first: set a depth further out first, a label between two routes
  // took the place of the next route's own (three foreign keys side by side between two tables).
  const left = ordered.filter(({ label, points }) => {
    const place = clearPlace(placesAlong(label, points, routes, false)) ?? narrowerBeside(label, points);
    if (place !== undefined) take(label, place);
    return place === undefined;
  });
  // A depth further out only within the shapes' extent: past it, a label widened the drawing (sqlite sakila's
  // manager_staff_id, 120 px left of every table: 1,117 → 1,236 px, text under 11 px at 880).
  const [left0, top0] = [Math.min(...laid.nodes.map((node) => node.x)), Math.min(...laid.nodes.map((node) => node.y))];
  const [right0, bottom0] = [Math.max(...laid.nodes.map((node) => node.x + node.width)), Math.max(...laid.nodes.map((node) => node.y + node.height))];
  const within = (place: Box) => place.x >= left0 && place.y >= top0 && place.x + place.width <= right0 && place.y + place.height <= bottom0;
  for (const { label, points } of left) take(label, clearPlace([...placesAlong(label, points, routes, true)].filter(within)) ?? besideRoute(label, points, taken, routes));
  const edges = laid.edges.map((edge) => {
    const moved = (labels.get(edge.index) ?? []).map((label) => placed.get(label)!);
    // Beside the labels it kept (a self loop's middle one).
    return moved.length === 0 ? edge : { ...edge, labels: [...edge.labels, ...moved] };
  });
  return { ...laid, edges };
}
