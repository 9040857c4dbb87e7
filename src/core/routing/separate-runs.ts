/**
 * Separating runs: right-angle routes of different ends that lie on one line for a stretch read as one line joining
 * the wrong shapes (issue 13). Routers lead them through one channel because it is the shortest way; this pass moves
 * such middle legs a few pixels apart, in the free room between the shapes on either side, as libavoid's nudging
 * does. Legs of routes sharing an end may stay together (a trunk into one node reads right), but routes that mean
 * different things only for a short merge (MIXED_TRUNK), as the quality checker allows.
 */
import { CROWDED_HEADS, MIXED_TRUNK } from '../layout/drawing-rules.js';
import type { Box, Point } from '../layout/types.js';

export interface RoutedLine {
  /** Right-angle polyline; its first and last legs (attached to the shapes) move only when `slideEnds`. */
  points: readonly Point[];
  /** Ids of the shapes it joins. */
  ends: readonly string[];
  /**
   * Its ends may slide along the box side they sit on (a layout's ends, placed anew from the points), moving the
   * first and last legs with them; not where the ends' focus points are stored with the route (smart arrows).
   */
  slideEnds?: boolean;
  /**
   * What it says (its label and line style): routes sharing an end but meaning different things run together only
   * for a short merge. Lines without one all mean the same.
   */
  meaning?: string;
  /**
   * Its own labels: they move with it (the caller shifts them with its legs), so they never bound where its legs go.
   * Two relations between one pair of tables, routed alike with their labels hugging the shared leg on either side,
   * had no room to move apart (AdventureWorks' BillToAddressID and ShipToAddressID: one line for 1,141 px).
   */
  own?: readonly Box[];
  /**
   * The box of the largest label at its ends (a cardinality), set beside the end after separating: ends slid apart
   * along one side keep its extent along that side between them where there is room, so each label sits by its own
   * end (Chinook's track: three foreign keys' "0..*" at ends 10 px apart, one on another).
   */
  endLabel?: { width: number; height: number };
  /**
   * Already drawn and staying as it is (a stored arrow that keeps its route while new ones are routed): none of its
   * legs moves, and the others' legs move off it. Two fixed lines are never separated from each other.
   */
  fixed?: boolean;
}

/** Room wanted between neighbouring legs in one channel, and the least the channel may squeeze it to. */
export const RUN_SPACING = 8;
/**
 * Room wanted between ends slid apart along one side: past the checker's crowded arrowheads (CROWDED_HEADS), which
 * ends exactly that far apart missed once the intake put them back from their rounded focus (a schema's five foreign
 * keys into one table: heads 7.995 px apart on Graphviz's placement, whose routes all reach a side at its middle).
 */
export const END_SPACING = CROWDED_HEADS + 2;
/** Room between the labels of neighbouring ends, past their extent. */
const LABEL_ROOM = 4;
const MIN_SPACING = 3;
/**
 * Room wanted, where the channel has it, between the two ways of a back-and-forth pair (A to B, B to A): at
 * RUN_SPACING each arrowhead touched the other line, and the pair read as one line with two heads (an orchestrator
 * stage's pause and resume, 8 px apart).
 */
export const PAIR_SPACING = 20;
/**
 * Room wanted between arrows that leave or reach one side of a shape saying different things, spread along the side
 * as far as it allows: an ER device's runs, carries, emits and produces left its bottom in 24 px of its 190, one wall.
 */
export const FAN_SPACING = 40;
/** Legs within this of one line are on it: the checker's own tolerance for running together. */
export const SAME_LINE = 1.5;
/** A moved leg keeps this far from shapes, past the checker's false-adjacency distance (3 px). */
const SHAPE_CLEARANCE = 6;
/** A sliding end keeps this far from the corners of its side (a quarter of the side at most). */
const CORNER_ROOM = 12;

interface Leg {
  line: number;
  /** Index of its first point: the leg runs from points[at] to points[at + 1]. */
  at: number;
  /** Its coordinate across (x of a vertical leg) and its extent along. */
  across: number;
  lo: number;
  hi: number;
  /** Where its neighbouring legs head, −1/0/+1 each way across summed: it breaks ties in the order of a channel. */
  turn: number;
  /** How far across it may go: its end's side, for an end leg; unbounded for a middle one. */
  min: number;
  max: number;
}

/**
 * Returns the lines' points with middle legs of different-ended routes moved apart where they run together;
 * `obstacles` are the shapes the legs must keep clear of (any box a leg lies inside, such as a container it crosses,
 * bounds it from within). Lines with nothing to separate keep their points.
 */
export function separateRuns(lines: readonly RoutedLine[], obstacles: readonly Box[], levelFirst = false): Point[][] {
  const out = lines.map((line) => line.points.map((p) => ({ ...p })));
  // Neighbouring lines of a channel are arranged together, so moving one does not put it onto the next; where that
  // finds no room, the legs on each line alone. Upright legs first, unless `levelFirst`: each pass orders its legs
  // knowing where the other axis's legs are, so the legs that end on the shapes' sides go second.
  const [first, second] = levelFirst ? [false, true] : [true, false];
  for (const vertical of [first, second]) for (const gap of [RUN_SPACING, SAME_LINE]) separateAxis(out, lines, obstacles, vertical, gap);
  // Parting the second axis's legs moves the ends of the first's, and two legs meeting end to end on one line may then
  // overlap (a Terraform VPC: a route into a subnet and one into a route table, 8 px on one line, read as one line).
  separateAxis(out, lines, obstacles, first, SAME_LINE);
  return out;
}

function separateAxis(out: Point[][], lines: readonly RoutedLine[], obstacles: readonly Box[], vertical: boolean, gap: number): void {
  const across = (p: Point) => (vertical ? p.x : p.y);
  const along = (p: Point) => (vertical ? p.y : p.x);
  const legs: Leg[] = [];
  out.forEach((points, line) => {
    for (let at = 0; at + 1 < points.length; at++) {
      const [a, b] = [points[at]!, points[at + 1]!];
      if (Math.abs(across(a) - across(b)) > 0.01 || along(a) === along(b)) continue;
      const c = across(a);
      const before = points[at - 1];
      const after = points[at + 2];
      const turn = (before ? Math.sign(across(before) - c) : 0) + (after ? Math.sign(across(after) - c) : 0);
      // A middle leg moves freely; an end leg with its end sliding along the side, or not at all.
      let [min, max] = [-Infinity, Infinity];
      for (const end of [before === undefined ? a : undefined, after === undefined ? b : undefined]) {
        if (end === undefined) continue;
        const side = lines[line]!.slideEnds ? sideUnder(end, obstacles, vertical) : undefined;
        [min, max] = side ? [Math.max(min, side[0]), Math.min(max, side[1])] : [c, c];
      }
      if (lines[line]!.fixed) [min, max] = [c, c];
      if (min > max) [min, max] = [c, c];
      legs.push({ line, at, across: c, lo: Math.min(along(a), along(b)), hi: Math.max(along(a), along(b)), turn, min, max });
    }
  });
  legs.sort((s, t) => s.across - t.across);
  const shareEnd = (s: Leg, t: Leg) => lines[s.line]!.ends.some((end) => lines[t.line]!.ends.includes(end));
  const sameMeaning = (s: Leg, t: Leg) => (lines[s.line]!.meaning ?? '') === (lines[t.line]!.meaning ?? '');
  const fixed = (leg: Leg) => lines[leg.line]!.fixed === true;
  // Ends that each carry a label keep apart however short their shared leg: at one point their labels pile up.
  const labelledAtOnePoint = (s: Leg, t: Leg) => lines[s.line]!.endLabel !== undefined && lines[t.line]!.endLabel !== undefined && endKey(s) !== undefined && endKey(s) === endKey(t);
  /**
   * The two ways of a back-and-forth pair: one line between them reads as a line with two heads, however short. Two
   * loops on one shape are no pair (their ends read the same either way) and may share their last leg into it.
   */
  const loop = (leg: Leg) => lines[leg.line]!.ends[0] === lines[leg.line]!.ends[1];
  const reversed = (s: Leg, t: Leg) => {
    const [a, b] = [lines[s.line]!.ends, lines[t.line]!.ends];
    return s.line !== t.line && !loop(s) && a.join('\u0000') === [...b].reverse().join('\u0000');
  };
  /** One arrives at a point of a shape the other leaves from: a line through the shape, not a trunk (a loop is none). */
  const through = (s: Leg, t: Leg) => {
    const [a, b] = [endOf(s), endOf(t)];
    return a !== undefined && b !== undefined && a.key === b.key && a.leaving !== b.leaving && !loop(s) && !loop(t);
  };
  const conflict = (s: Leg, t: Leg) => {
    if (s.line === t.line || (fixed(s) && fixed(t))) return false;
    const overlap = Math.min(s.hi, t.hi) - Math.max(s.lo, t.lo);
    return overlap > SAME_LINE && (!shareEnd(s, t) || reversed(s, t) || through(s, t) || labelledAtOnePoint(s, t) || ((overlap > MIXED_TRUNK || !fanning(s, t)) && !sameMeaning(s, t)));
  };
  /**
   * A short merge of different relations reads as a fan only where one of the two legs is attached to a shape; two
   * middle legs on one line, away from the end they share, read as one line going on to either (Northwind: orders'
   * ship_via jogged onto employee_id's line beside shippers and left it again).
   */
  const fanning = (s: Leg, t: Leg) => endKey(s) !== undefined || endKey(t) !== undefined;
  /** Where a leg that may not move across lies: a fixed line's, or an end leg's whose end cannot slide. */
  const pinnedAt = (leg: Leg) => (leg.min === leg.max ? leg.min : undefined);
  /**
   * Legs that may share a track: not in conflict, and two pinned ones only where they already lie on one line (a
   * pinned end put on another's track stayed at its point and left its leg slanted).
   */
  const together = (s: Leg, t: Leg) => {
    const [a, b] = [pinnedAt(s), pinnedAt(t)];
    return !conflict(s, t) && !(a !== undefined && b !== undefined && Math.abs(a - b) > 0.01);
  };
  /** The end point a leg reaches a shape at, if it is an end leg, and whether the line leaves the shape there. */
  const endOf = (leg: Leg) => {
    const points = out[leg.line]!;
    const end = leg.at === 0 ? points[0] : leg.at + 2 === points.length ? points[leg.at + 1] : undefined;
    return end && { key: `${Math.round(end.x * 10)},${Math.round(end.y * 10)}`, leaving: leg.at === 0 };
  };
  /** Legs meeting at one end point move as one. */
  const endKey = (leg: Leg) => endOf(leg)?.key;

  // Channels: legs on neighbouring lines (chained within `gap`) whose extents overlap (chained too).
  const channels: Leg[][] = [];
  for (let first = 0; first < legs.length; ) {
    let last = first + 1;
    while (last < legs.length && legs[last]!.across - legs[last - 1]!.across <= gap) last++;
    const line = legs.slice(first, last).sort((s, t) => s.lo - t.lo);
    first = last;
    let reach = -Infinity;
    for (const leg of line) {
      if (leg.lo >= reach) channels.push([]);
      channels[channels.length - 1]!.push(leg);
      reach = Math.max(reach, leg.hi);
    }
  }
  for (const channel of channels) {
    if (!channel.some((s, i) => channel.some((t, j) => j > i && Math.abs(s.across - t.across) <= SAME_LINE && conflict(s, t)))) continue;
    // Bundles: legs meeting at one end point (a hub's trunk) stay together if they mean the same, and one fixed leg
    // pins its bundle.
    const bundles = new Map<string, Leg[]>();
    channel.forEach((leg, i) => {
      const end = endKey(leg);
      // Which way it goes there too: the two ways of a pair alike in meaning are still two arrows.
      const key = end === undefined ? `leg ${i}` : `${end}\u0000${lines[leg.line]!.meaning ?? ''}\u0000${leg.at === 0 ? 'out' : 'in'}`;
      bundles.set(key, [...(bundles.get(key) ?? []), leg]);
    });
    const pinned = (bundle: Leg[]) => bundle.some((leg) => pinnedAt(leg) !== undefined);
    // Tracks: each bundle joins the first track (pinned ones first) where it conflicts with no leg (wherever it is
    // across: on one track they will be on one line).
    const tracks: Leg[][] = [];
    for (const bundle of [...bundles.values()].sort((s, t) => Number(pinned(t)) - Number(pinned(s)))) {
      const track = tracks.find((legsOn) => bundle.every((leg) => legsOn.every((other) => together(leg, other))));
      if (track) track.push(...bundle);
      else tracks.push([...bundle]);
    }
    // Of two tracks, the lower goes where moving them crosses or overlaps their neighbouring legs least; on a tie,
    // the one whose neighbours head to lower coordinates.
    const meanTurn = (track: Leg[]) => track.reduce((sum, leg) => sum + leg.turn, 0) / track.length;
    const tangle = (low: Leg[], high: Leg[]) => {
      let count = 0;
      for (const s of low) for (const t of high) count += tangled(out, s, t, vertical);
      return count;
    };
    const fixedAt = (track: Leg[]) => track.map(pinnedAt).find((at) => at !== undefined);
    tracks.sort((s, t) => (fixedAt(s) ?? NaN) - (fixedAt(t) ?? NaN) || tangle(s, t) - tangle(t, s) || meanTurn(s) - meanTurn(t));
    const centre = channel.reduce((sum, leg) => sum + leg.across, 0) / channel.length;
    // Only what lies beside the channel's extent can bound it: filtered once for all its legs.
    const [from, to] = [Math.min(...channel.map((leg) => leg.lo)) - SHAPE_CLEARANCE, Math.max(...channel.map((leg) => leg.hi)) + SHAPE_CLEARANCE];
    const beside = (box: Box) => (vertical ? box.y <= to && box.y + box.height >= from : box.x <= to && box.x + box.width >= from);
    const others = walls(out, channel, vertical, from, to);
    const near = obstacles.filter(beside);
    // Where each track may go: the room of all its legs, narrowed to the sides its ends slide on (a point where one
    // is fixed).
    const bounds = tracks.map((track): [number, number] => {
      let [lo, hi] = [-Infinity, Infinity];
      for (const leg of track) {
        const own = lines[leg.line]!.own;
        const [min, max] = legRoom(leg, own === undefined ? near : near.filter((box) => !own.includes(box)), vertical, others);
        [lo, hi] = [Math.max(lo, min, leg.min), Math.min(hi, max, leg.max)];
      }
      const fixed = fixedAt(track);
      return fixed === undefined ? [lo, hi] : [fixed, fixed];
    });
    const pair = channel.some((s, i) => channel.some((t, j) => j > i && reversed(s, t)));
    // Every leg sliding along the side of a shape it attaches to: a fan out of (or into) that side.
    const fan = channel.every((leg) => Number.isFinite(leg.min) && Number.isFinite(leg.max) && leg.min < leg.max);
    const wanted = fan ? FAN_SPACING : pair ? PAIR_SPACING : RUN_SPACING;
    // Ends reaching a shape are parted by END_SPACING at least where there is room (a few pixels apart their heads
    // make a wedge), and by their labels' extent along the side where there is room for that.
    const sliding = channel.filter((leg) => endKey(leg) !== undefined && leg.min < leg.max);
    const labelled = Math.max(0, ...sliding.map((leg) => lines[leg.line]!.endLabel).map((box) => (box === undefined ? 0 : (vertical ? box.width : box.height) + LABEL_ROOM)));
    const placed =
      (labelled > END_SPACING ? placeTracks(bounds, centre, Math.max(wanted, labelled), labelled) : undefined) ??
      (sliding.length > 0 ? placeTracks(bounds, centre, Math.max(wanted, END_SPACING), END_SPACING) : undefined) ??
      placeTracks(bounds, centre, wanted);
    // Too narrow to tell the legs apart without grazing a shape, or pinned in the way: left as they are.
    if (placed === undefined) continue;
    tracks.forEach((track, j) => {
      for (const leg of track) {
        if (fixed(leg)) continue;
        const points = out[leg.line]!;
        for (const p of [points[leg.at]!, points[leg.at + 1]!]) {
          if (vertical) p.x = placed[j]!;
          else p.y = placed[j]!;
        }
      }
    });
  }
}

/**
 * Positions for tracks in order, evenly spaced (`wanted`, squeezed down to `least` where room is short), each within
 * its bounds, centred on `centre` as far as the bounds allow; undefined when no spacing fits.
 */
function placeTracks(bounds: readonly (readonly [number, number])[], centre: number, wanted: number, least = MIN_SPACING): number[] | undefined {
  const k = bounds.length;
  for (let spacing = wanted; spacing >= least; spacing -= 0.5) {
    // Track j sits at start + j·spacing: each bound limits where the first may start.
    let [lo, hi] = [-Infinity, Infinity];
    bounds.forEach(([min, max], j) => {
      lo = Math.max(lo, min - j * spacing);
      hi = Math.min(hi, max - j * spacing);
    });
    if (lo > hi + 1e-9) continue;
    const start = Math.min(Math.max(centre - (spacing * (k - 1)) / 2, lo), hi);
    return bounds.map((_, j) => start + j * spacing);
  }
  return undefined;
}

/** The span across a leg's end may slide along the side of the box it sits on (leaving the corners), if any. */
function sideUnder(end: Point, obstacles: readonly Box[], vertical: boolean): [number, number] | undefined {
  for (const o of obstacles) {
    const [lo, size] = vertical ? [o.x, o.width] : [o.y, o.height];
    const [edge, depth] = vertical ? [o.y, o.height] : [o.x, o.width];
    const c = vertical ? end.x : end.y;
    const at = vertical ? end.y : end.x;
    if (c <= lo || c >= lo + size || (Math.abs(at - edge) > 0.5 && Math.abs(at - edge - depth) > 0.5)) continue;
    const room = Math.min(CORNER_ROOM, size / 4);
    return [lo + room, lo + size - room];
  }
  return undefined;
}

/**
 * The other legs along this axis whose extent along it meets `from`–`to` (beside the channel), where they are now
 * (channels moved before included), as thin boxes: the extent is tested first, as most legs of a large drawing lie
 * elsewhere.
 */
function walls(out: Point[][], channel: readonly Leg[], vertical: boolean, from: number, to: number): Box[] {
  const boxes: Box[] = [];
  const inChannel = new Set(channel.map((leg) => `${leg.line} ${leg.at}`));
  out.forEach((points, line) => {
    for (let at = 0; at + 1 < points.length; at++) {
      const [a, b] = [points[at]!, points[at + 1]!];
      if (vertical ? a.x !== b.x : a.y !== b.y) continue;
      const [x, y, width, height] = [Math.min(a.x, b.x), Math.min(a.y, b.y), Math.abs(a.x - b.x), Math.abs(a.y - b.y)];
      const [lo, length] = vertical ? [y, height] : [x, width];
      if (lo > to || lo + length < from || inChannel.has(`${line} ${at}`)) continue;
      boxes.push({ x, y, width, height });
    }
  });
  return boxes;
}

/**
 * Where a leg may go across: clear of shapes by SHAPE_CLEARANCE and of other legs (`legs`, thin boxes) by
 * MIN_SPACING, always including where it is.
 */
function legRoom(leg: Leg, obstacles: readonly Box[], vertical: boolean, legs: readonly Box[]): [number, number] {
  let below = -Infinity;
  let above = Infinity;
  for (const o of legs) {
    const [c, from, to] = vertical ? [o.x, o.y, o.y + o.height] : [o.y, o.x, o.x + o.width];
    if (Math.min(to, leg.hi) - Math.max(from, leg.lo) <= SAME_LINE) continue;
    if (c < leg.across) below = Math.max(below, c + MIN_SPACING);
    else above = Math.min(above, c - MIN_SPACING);
  }
  for (const o of obstacles) {
    const [lo, hi] = vertical ? [o.x, o.x + o.width] : [o.y, o.y + o.height];
    const [from, to] = vertical ? [o.y, o.y + o.height] : [o.x, o.x + o.width];
    // Only shapes beside the leg (or at its ends, where its neighbouring legs run) bound it.
    if (to < leg.lo - SHAPE_CLEARANCE || from > leg.hi + SHAPE_CLEARANCE) continue;
    if (hi <= leg.across) below = Math.max(below, hi + SHAPE_CLEARANCE);
    else if (lo >= leg.across) above = Math.min(above, lo - SHAPE_CLEARANCE);
    else if (from <= leg.lo && to >= leg.hi) {
      // Inside the box all along (a container it crosses): its walls bound it.
      below = Math.max(below, lo + SHAPE_CLEARANCE);
      above = Math.min(above, hi - SHAPE_CLEARANCE);
    }
  }
  return [Math.min(below, leg.across), Math.max(above, leg.across)];
}

/**
 * Crossings (1 each) and overlaps (2 each, worse: they hide an edge) between the neighbourhoods of legs `low` and
 * `high` (each with the legs before and after it) once both are moved to where they meet, `low` just below `high`.
 */
function tangled(out: Point[][], low: Leg, high: Leg, vertical: boolean): number {
  const moved = (leg: Leg, shift: number) => {
    const points = out[leg.line]!;
    const from = Math.max(0, leg.at - 1);
    return points.slice(from, leg.at + 3).map((p, i) => (from + i === leg.at || from + i === leg.at + 1 ? (vertical ? { x: leg.across + shift, y: p.y } : { x: p.x, y: leg.across + shift }) : p));
  };
  const centre = (low.across + high.across) / 2;
  const a = moved(low, centre - 1 - low.across);
  const b = moved(high, centre + 1 - high.across);
  let count = 0;
  for (let i = 1; i < a.length; i++) for (let j = 1; j < b.length; j++) count += meet(a[i - 1]!, a[i]!, b[j - 1]!, b[j]!);
  return count;
}

/** 1 when two right-angle segments cross, 2 when they overlap on one line, else 0. */
function meet(a: Point, b: Point, c: Point, d: Point): number {
  const [ax0, ax1, ay0, ay1] = [Math.min(a.x, b.x), Math.max(a.x, b.x), Math.min(a.y, b.y), Math.max(a.y, b.y)];
  const [cx0, cx1, cy0, cy1] = [Math.min(c.x, d.x), Math.max(c.x, d.x), Math.min(c.y, d.y), Math.max(c.y, d.y)];
  if (ay0 === ay1 && cy0 === cy1) return Math.abs(ay0 - cy0) <= SAME_LINE && Math.min(ax1, cx1) - Math.max(ax0, cx0) > SAME_LINE ? 2 : 0;
  if (ax0 === ax1 && cx0 === cx1) return Math.abs(ax0 - cx0) <= SAME_LINE && Math.min(ay1, cy1) - Math.max(ay0, cy0) > SAME_LINE ? 2 : 0;
  return ax0 < cx1 && cx0 < ax1 && ay0 < cy1 && cy0 < ay1 ? 1 : 0;
}
