/**
 * Separating runs: right-angle routes of different ends that lie on one line for a stretch read as one line joining
 * the wrong shapes (issue 13). Routers lead them through one channel because it is the shortest way; this pass moves
 * such middle legs a few pixels apart, in the free room between the shapes on either side, as libavoid's nudging
 * does. Legs of routes sharing an end may stay together (a trunk into one node reads right).
 */
import type { Box, Point } from '../layout/types.js';

export interface RoutedLine {
  /** Right-angle polyline; its first and last legs (attached to the shapes) are never moved. */
  points: readonly Point[];
  /** Ids of the shapes it joins. */
  ends: readonly string[];
}

/** Room wanted between neighbouring legs in one channel, and the least the channel may squeeze it to. */
export const RUN_SPACING = 8;
const MIN_SPACING = 3;
/** Legs within this of one line are on it: the checker's own tolerance for running together. */
const SAME_LINE = 1.5;
/** A moved leg keeps this far from shapes, past the checker's false-adjacency distance (3 px). */
const SHAPE_CLEARANCE = 6;

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
}

/**
 * Returns the lines' points with middle legs of different-ended routes moved apart where they run together;
 * `obstacles` are the shapes the legs must keep clear of (any box a leg lies inside, such as a container it crosses,
 * bounds it from within). Lines with nothing to separate keep their points.
 */
export function separateRuns(lines: readonly RoutedLine[], obstacles: readonly Box[]): Point[][] {
  const out = lines.map((line) => line.points.map((p) => ({ ...p })));
  for (const vertical of [true, false]) separateAxis(out, lines, obstacles, vertical);
  return out;
}

function separateAxis(out: Point[][], lines: readonly RoutedLine[], obstacles: readonly Box[], vertical: boolean): void {
  const across = (p: Point) => (vertical ? p.x : p.y);
  const along = (p: Point) => (vertical ? p.y : p.x);
  const legs: Leg[] = [];
  out.forEach((points, line) => {
    for (let at = 1; at + 2 < points.length; at++) {
      const [a, b] = [points[at]!, points[at + 1]!];
      if (Math.abs(across(a) - across(b)) > 0.01 || along(a) === along(b)) continue;
      const c = across(a);
      const turn = Math.sign(across(points[at - 1]!) - c) + Math.sign(across(points[at + 2]!) - c);
      legs.push({ line, at, across: c, lo: Math.min(along(a), along(b)), hi: Math.max(along(a), along(b)), turn });
    }
  });
  legs.sort((s, t) => s.across - t.across || s.lo - t.lo);
  const shareEnd = (s: Leg, t: Leg) => lines[s.line]!.ends.some((end) => lines[t.line]!.ends.includes(end));
  const conflict = (s: Leg, t: Leg) => s.line !== t.line && Math.min(s.hi, t.hi) - Math.max(s.lo, t.lo) > SAME_LINE && !shareEnd(s, t);

  for (let first = 0; first < legs.length; ) {
    let last = first + 1;
    while (last < legs.length && legs[last]!.across - legs[last - 1]!.across <= SAME_LINE) last++;
    const channel = legs.slice(first, last);
    first = last;
    if (channel.length < 2) continue;
    // Tracks: each leg joins the first track with no leg it conflicts with, so legs of one trunk stay together.
    const tracks: Leg[][] = [];
    for (const leg of channel) {
      const track = tracks.find((legsOn) => legsOn.every((other) => !conflict(leg, other)));
      if (track) track.push(leg);
      else tracks.push([leg]);
    }
    if (tracks.length < 2) continue;
    // Of two tracks, the lower goes where moving them crosses or overlaps their neighbouring legs least; on a tie,
    // the one whose neighbours head to lower coordinates.
    const meanTurn = (track: Leg[]) => track.reduce((sum, leg) => sum + leg.turn, 0) / track.length;
    const tangle = (low: Leg[], high: Leg[]) => {
      let count = 0;
      for (const s of low) for (const t of high) count += tangled(out, s, t, vertical);
      return count;
    };
    tracks.sort((s, t) => tangle(s, t) - tangle(t, s) || meanTurn(s) - meanTurn(t));
    const centre = channel.reduce((sum, leg) => sum + leg.across, 0) / channel.length;
    const [below, above] = freeRoom(channel, centre, obstacles, vertical, walls(out, channel, vertical));
    const k = tracks.length;
    const spacing = Math.min(RUN_SPACING, (above - below) / (k - 1));
    // Too narrow to tell the legs apart without grazing a shape: left as they are.
    if (spacing < MIN_SPACING) continue;
    const span = spacing * (k - 1);
    // Centred on the channel, slid into the free room where it fits.
    const start = Math.min(Math.max(-span / 2, below), above - span);
    tracks.forEach((track, j) => {
      for (const leg of track) {
        const target = centre + start + j * spacing;
        const points = out[leg.line]!;
        for (const p of [points[leg.at]!, points[leg.at + 1]!]) {
          if (vertical) p.x = target;
          else p.y = target;
        }
      }
    });
  }
}

/** The other legs along this axis, where they are now (channels moved before included), as thin boxes. */
function walls(out: Point[][], channel: readonly Leg[], vertical: boolean): Box[] {
  const boxes: Box[] = [];
  out.forEach((points, line) => {
    for (let at = 0; at + 1 < points.length; at++) {
      const [a, b] = [points[at]!, points[at + 1]!];
      if (vertical ? a.x !== b.x : a.y !== b.y) continue;
      if (channel.some((leg) => leg.line === line && leg.at === at)) continue;
      const c = vertical ? a.x : a.y;
      // A leg the channel could not take (an end leg on its line) cannot be kept apart from by moving it.
      if (channel.some((leg) => Math.abs(leg.across - c) <= SAME_LINE)) continue;
      boxes.push({ x: Math.min(a.x, b.x), y: Math.min(a.y, b.y), width: Math.abs(a.x - b.x), height: Math.abs(a.y - b.y) });
    }
  });
  return boxes;
}

/**
 * How far the channel may move each way from `centre` (≤ 0, ≥ 0) before a leg comes too near a shape, or nearer
 * than MIN_SPACING to another leg (`legs`, thin boxes).
 */
function freeRoom(channel: readonly Leg[], centre: number, obstacles: readonly Box[], vertical: boolean, legs: readonly Box[]): [number, number] {
  let below = -Infinity;
  let above = Infinity;
  for (const o of legs) {
    const [c, from, to] = vertical ? [o.x, o.y, o.y + o.height] : [o.y, o.x, o.x + o.width];
    for (const leg of channel) {
      if (Math.min(to, leg.hi) - Math.max(from, leg.lo) <= SAME_LINE) continue;
      if (c < leg.across) below = Math.max(below, c + MIN_SPACING - centre);
      else above = Math.min(above, c - MIN_SPACING - centre);
    }
  }
  for (const o of obstacles) {
    const [lo, hi] = vertical ? [o.x, o.x + o.width] : [o.y, o.y + o.height];
    const [from, to] = vertical ? [o.y, o.y + o.height] : [o.x, o.x + o.width];
    for (const leg of channel) {
      // Only shapes beside the leg (or at its ends, where its neighbouring legs run) bound it.
      if (to < leg.lo - SHAPE_CLEARANCE || from > leg.hi + SHAPE_CLEARANCE) continue;
      if (hi <= leg.across) below = Math.max(below, hi + SHAPE_CLEARANCE - centre);
      else if (lo >= leg.across) above = Math.min(above, lo - SHAPE_CLEARANCE - centre);
      else if (from <= leg.lo && to >= leg.hi) {
        // Inside the box all along (a container it crosses): its walls bound it.
        below = Math.max(below, lo + SHAPE_CLEARANCE - centre);
        above = Math.min(above, hi - SHAPE_CLEARANCE - centre);
      }
    }
  }
  return [Math.min(below, 0), Math.max(above, 0)];
}

/**
 * Crossings (1 each) and overlaps (2 each, worse: they hide an edge) between the neighbourhoods of legs `low` and
 * `high` (each with the legs before and after it) once `low` is moved just below `high` across the channel.
 */
function tangled(out: Point[][], low: Leg, high: Leg, vertical: boolean): number {
  const moved = (leg: Leg, shift: number) =>
    out[leg.line]!.slice(leg.at - 1, leg.at + 3).map((p, i) => (i === 1 || i === 2 ? (vertical ? { x: leg.across + shift, y: p.y } : { x: p.x, y: leg.across + shift }) : p));
  const a = moved(low, -1);
  const b = moved(high, 1);
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
