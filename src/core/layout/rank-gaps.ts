/**
 * Legs across the gaps between ranks, each on a track of its own, the gap as wide as its tracks need. Graphviz keeps
 * one `ranksep` between every two ranks, room for its splines, which fan out across the gap; routes drawn at right
 * angles cross it on legs along the router's few grid lines there instead (sentry: 57 legs on one line, 45 on the next,
 * 1,135 pairs run together, more than moving them apart in place could part). So, as a channel router does, each gap's
 * legs are put in an order that crosses their neighbouring legs least and given tracks RUN_SPACING or more apart over
 * the whole gap, which is opened along the flow where the tracks need more room than it has.
 */
import { edgeMeaning, type Direction, type GraphIR } from '../graph/types.js';
import { ROUTE_MARGIN } from '../routing/orthogonal.js';
import { RUN_SPACING } from '../routing/separate-runs.js';
import type { Box, LaidOutGraph, LaidOutLabel, Point } from './types.js';

/** Tracks are spread this far apart at most, so a gap's legs stay grouped near its middle. */
const TRACK_SPREAD = 2 * RUN_SPACING;

/** A leg across the flow: points[at]..points[at + 1] of edge `edge`, at `along`, spanning lo..hi across. */
interface Leg {
  edge: number;
  at: number;
  along: number;
  lo: number;
  hi: number;
  /** Where the legs before and after it go across (their coordinate) and whether towards lower along. */
  ends: { across: number; before: boolean }[];
}

/** Legs on one line that share an end node and mean the same: a hub's trunk, kept on one track. */
type Bundle = Leg[];

/**
 * `endLabels`: each edge's labels at its ends, by edge index, set beside its routes afterwards (graphviz-orthogonal.ts):
 * a gap is opened, and its tracks kept off the ends, so that each end leg is as long as its label along the flow.
 * Graphviz keeps no room for them (`headlabel` is drawn over whatever lies there): a health check's three relations
 * into AsynchronousHealthChecker ran in a 52 px gap, and "-asynchronousHealthChecker" lay over both classes' members.
 */
export function spreadRankGaps(laid: LaidOutGraph, graph: GraphIR, direction: Direction, endLabels: ReadonlyMap<number, readonly LaidOutLabel[]> = new Map()): LaidOutGraph {
  const downward = direction === 'DOWN' || direction === 'UP';
  const along = (p: Point) => (downward ? p.y : p.x);
  const across = (p: Point) => (downward ? p.x : p.y);
  const startOf = (box: Box) => (downward ? box.y : box.x);
  const sizeOf = (box: Box) => (downward ? box.height : box.width);
  let out: LaidOutGraph = { ...laid, edges: laid.edges.map((edge) => ({ ...edge, points: edge.points.map((p) => ({ ...p })) })) };

  // Ranks: nodes whose extents along the flow overlap; gaps lie between them, cut further by container borders.
  const spans = laid.nodes.map((node) => [startOf(node), startOf(node) + sizeOf(node)] as const).sort((a, b) => a[0] - b[0]);
  const bands: [number, number][] = [];
  for (const [lo, hi] of spans) {
    const last = bands[bands.length - 1];
    if (last && lo < last[1]) last[1] = Math.max(last[1], hi);
    else bands.push([lo, hi]);
  }
  const borders = laid.groups.flatMap((group) => [startOf(group), startOf(group) + sizeOf(group), startOf(group.title), startOf(group.title) + sizeOf(group.title)]);
  const slots: [number, number][] = [];
  for (let i = 0; i + 1 < bands.length; i++) {
    const [from, to] = [bands[i]![1], bands[i + 1]![0]];
    const cuts = [from, ...borders.filter((b) => b > from && b < to).sort((a, b) => a - b), to];
    for (let k = 0; k + 1 < cuts.length; k++) if (cuts[k + 1]! - cuts[k]! > 1) slots.push([cuts[k]!, cuts[k + 1]!]);
  }
  // From the far end back, so opening a gap moves only the gaps already done, all of a piece.
  for (const [from, to] of slots.reverse()) {
    const bundles = bundlesIn(out, graph, from, to, along, across);
    // Only across a flow to the side does a label lie along the gap; down the page, it is a line high beside its leg.
    const { near, far } = downward ? { near: 0, far: 0 } : endLabelRoom(out, endLabels, from, to, along, across);
    if (bundles.length < 2 && near + far === 0) continue;
    const order = bundles.length < 2 ? bundles : orderTracks(bundles);
    const track = bundles.length < 2 ? bundles.map(() => 0) : assignTracks(order);
    const tracks = Math.max(0, ...track) + (bundles.length > 0 ? 1 : 0);
    // The tracks run between the end labels' rooms: past them, the legs into the ends are long enough to hold them.
    const room = to - from - near - far - (tracks > 0 ? 2 * ROUTE_MARGIN : 0);
    const spacing = Math.min(TRACK_SPREAD, tracks > 1 ? room / (tracks - 1) : TRACK_SPREAD);
    const grow = Math.max(0, spacing < RUN_SPACING ? (tracks - 1) * RUN_SPACING - room : -room);
    const pitch = Math.max(spacing, RUN_SPACING);
    const first = (from + near + to - far + grow) / 2 - ((Math.max(1, tracks) - 1) * pitch) / 2;
    if (grow > 0) out = opened(out, (from + to) / 2, grow, downward);
    order.forEach((bundle, j) => {
      for (const leg of bundle) {
        const points = out.edges[leg.edge]!.points;
        for (const p of [points[leg.at]!, points[leg.at + 1]!]) {
          if (downward) p.y = first + track[j]! * pitch;
          else p.x = first + track[j]! * pitch;
        }
      }
    });
  }
  return out;
}

/** Room between a label and the route it is set beside (detours.ts sets end labels that far along their legs). */
const END_LABEL_GAP = 4;

/**
 * How far into a gap across a sideways flow from `from` (near) and back from `to` (far) the labels at the ends of legs
 * entering it need: the label's width and its gaps, less what its end leg already runs before the gap (a node narrower
 * than its rank ends short of it).
 */
function endLabelRoom(
  laid: LaidOutGraph,
  endLabels: ReadonlyMap<number, readonly LaidOutLabel[]>,
  from: number,
  to: number,
  along: (p: Point) => number,
  across: (p: Point) => number,
): { near: number; far: number } {
  let [near, far] = [0, 0];
  for (const edge of laid.edges) {
    if (edge.curved) continue;
    for (const label of endLabels.get(edge.index) ?? []) {
      if (label.placement === 'center' || edge.points.length < 2) continue;
      const [end, next] = label.placement === 'start' ? [edge.points[0]!, edge.points[1]!] : [edge.points.at(-1)!, edge.points.at(-2)!];
      // A leg leaving across the flow holds its label beside it, not along the gap.
      if (across(end) !== across(next)) continue;
      const size = label.width + 2 * END_LABEL_GAP;
      if (along(end) <= from && along(next) > from) near = Math.max(near, size - (from - along(end)));
      else if (along(end) >= to && along(next) < to) far = Math.max(far, size - (along(end) - to));
    }
  }
  return { near, far };
}

/** The middle legs across the flow lying strictly between `from` and `to`, bundled. */
function bundlesIn(laid: LaidOutGraph, graph: GraphIR, from: number, to: number, along: (p: Point) => number, across: (p: Point) => number): Bundle[] {
  const legs: Leg[] = [];
  laid.edges.forEach((edge, e) => {
    if (edge.curved) return;
    const points = edge.points;
    for (let at = 1; at + 2 < points.length; at++) {
      const [a, b] = [points[at]!, points[at + 1]!];
      if (along(a) !== along(b) || across(a) === across(b) || along(a) <= from || along(a) >= to) continue;
      const [before, after] = [points[at - 1]!, points[at + 2]!];
      legs.push({
        edge: e,
        at,
        along: along(a),
        lo: Math.min(across(a), across(b)),
        hi: Math.max(across(a), across(b)),
        ends: [
          { across: across(a), before: along(before) < along(a) },
          { across: across(b), before: along(after) < along(b) },
        ],
      });
    }
  });
  const endsOf = (leg: Leg) => {
    const edge = graph.edges[laid.edges[leg.edge]!.index]!;
    return { nodes: [edge.from, edge.to], meaning: edgeMeaning(edge) };
  };
  const bundles: Bundle[] = [];
  for (const leg of legs) {
    const mine = endsOf(leg);
    const trunk = bundles.find((bundle) =>
      bundle.some((other) => {
        const theirs = endsOf(other);
        return Math.abs(other.along - leg.along) < 0.5 && Math.min(other.hi, leg.hi) > Math.max(other.lo, leg.lo) && theirs.meaning === mine.meaning && theirs.nodes.some((node) => mine.nodes.includes(node));
      }),
    );
    if (trunk) trunk.push(leg);
    else bundles.push([leg]);
  }
  return bundles;
}

const spanOf = (bundle: Bundle) => [Math.min(...bundle.map((leg) => leg.lo)), Math.max(...bundle.map((leg) => leg.hi))] as const;

/**
 * Crossings when bundle `a` runs before `b` (nearer the lower coordinate along the flow): each of a's ends that goes on
 * past the gap's far side within b's span, and each of b's ends that comes from the near side within a's span.
 */
function crossingsBefore(a: Bundle, b: Bundle): number {
  const [alo, ahi] = spanOf(a);
  const [blo, bhi] = spanOf(b);
  let count = 0;
  for (const leg of a) for (const end of leg.ends) if (!end.before && end.across > blo && end.across < bhi) count++;
  for (const leg of b) for (const end of leg.ends) if (end.before && end.across > alo && end.across < ahi) count++;
  return count;
}

/** Bundle `a` holds a leg of some edge that crosses the gap before another leg of that edge in `b`. */
const precedes = (a: Bundle, b: Bundle): boolean => a.some((first) => b.some((then) => first.edge === then.edge && first.along < then.along));

/**
 * Bundles in track order: each next the one that, put before all the others left, crosses them least. An edge that
 * crosses the gap twice keeps its legs in their order: swapped, the route ran back against the flow and drew a loop
 * (pubsub's `Service4 → Gateway`, stepping round the trunk of the other three edges into the gateway).
 */
function orderTracks(bundles: readonly Bundle[]): Bundle[] {
  const left = [...bundles].sort((a, b) => a[0]!.along - b[0]!.along || spanOf(a)[0] - spanOf(b)[0]);
  // What putting i before j costs over putting j before i; each bundle's sum over the bundles still left.
  const gain = left.map((a) => left.map((b) => (a === b ? 0 : crossingsBefore(a, b) - crossingsBefore(b, a))));
  const cost = gain.map((row) => row.reduce((sum, d) => sum + d, 0));
  const open = left.map((_, i) => i);
  const ready = (i: number) => open.every((j) => j === i || !precedes(left[j]!, left[i]!));
  const order: Bundle[] = [];
  while (open.length > 0) {
    // Legs of one bundle share one line, so `precedes` follows the lines' order and some open bundle is always ready.
    let best = open.findIndex(ready);
    open.forEach((i, k) => {
      if (ready(i) && cost[i]! < cost[open[best]!]!) best = k;
    });
    const [chosen] = open.splice(best, 1);
    for (const i of open) cost[i]! -= gain[i]![chosen!]!;
    order.push(left[chosen!]!);
  }
  return order;
}

/**
 * Track of each bundle in order: past the tracks of every earlier bundle it overlaps (with room to tell them apart),
 * and past an earlier leg of one of its edges, which would else fold back onto it.
 */
function assignTracks(order: readonly Bundle[]): number[] {
  const track: number[] = [];
  order.forEach((bundle, j) => {
    const [lo, hi] = spanOf(bundle);
    let t = 0;
    for (let k = 0; k < j; k++) {
      const [olo, ohi] = spanOf(order[k]!);
      if (Math.min(hi, ohi) + RUN_SPACING > Math.max(lo, olo) || precedes(order[k]!, bundle)) t = Math.max(t, track[k]! + 1);
    }
    track.push(t);
  });
  return track;
}

/** The layout opened by `by` at `at` along the flow: everything past it moves on, containers across it grow. */
function opened(laid: LaidOutGraph, at: number, by: number, downward: boolean): LaidOutGraph {
  const shift = (value: number) => (value > at ? value + by : value);
  const moved = <T extends Point>(p: T): T => (downward ? { ...p, y: shift(p.y) } : { ...p, x: shift(p.x) });
  const stretched = <T extends Box>(box: T): T => {
    const [lo, hi] = downward ? [shift(box.y), shift(box.y + box.height)] : [shift(box.x), shift(box.x + box.width)];
    return downward ? { ...box, y: lo, height: hi - lo } : { ...box, x: lo, width: hi - lo };
  };
  return {
    ...laid,
    nodes: laid.nodes.map(moved),
    groups: laid.groups.map((group) => ({ ...stretched(group), title: moved(group.title) })),
    edges: laid.edges.map((edge) => ({ ...edge, points: edge.points.map(moved), labels: edge.labels.map(moved) })),
    ...(downward ? { height: laid.height + by } : { width: laid.width + by }),
  };
}
