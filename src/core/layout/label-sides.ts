/**
 * Label sides: ELK sets an edge's middle label beside one of its legs, on whichever side its label layer has room, and
 * another edge's leg may run just past the label's far side. The label then stands between two lines and reads as
 * naming either (a print job's "User closes without stapling" between its own long back edge and the Warming up →
 * Rendering line; an ID generator's "emit ID" between its edge and another state's). Such a label moves along its own
 * leg, or to its other side, as far from it as it was, to the nearest place with LABEL_ROOM to the next line that covers
 * nothing and keeps within the drawing.
 */
import { boxContains, boxesOverlap as overlaps } from '../export/geometry.js';
import { LABEL_ROOM } from './hubs.js';
import type { Box, LaidOutGraph, LaidOutLabel, Point } from './types.js';

/** Step between the places along its leg a label is tried at. */
const PLACE_STEP = 8;

/** A leg straight along one axis: `across` its fixed coordinate, `lo`–`hi` its extent along. */
interface Leg {
  edge: number;
  upright: boolean;
  across: number;
  lo: number;
  hi: number;
}

function legsOf(points: readonly Point[], edge: number): Leg[] {
  const legs: Leg[] = [];
  for (let i = 1; i < points.length; i++) {
    const [a, b] = [points[i - 1]!, points[i]!];
    if (Math.abs(a.x - b.x) < 0.5) legs.push({ edge, upright: true, across: a.x, lo: Math.min(a.y, b.y), hi: Math.max(a.y, b.y) });
    else if (Math.abs(a.y - b.y) < 0.5) legs.push({ edge, upright: false, across: a.y, lo: Math.min(a.x, b.x), hi: Math.max(a.x, b.x) });
  }
  return legs;
}

/** The label's extent across a leg's direction ([start, end]) and along it. */
const acrossOf = (box: Box, upright: boolean): [number, number] => (upright ? [box.x, box.x + box.width] : [box.y, box.y + box.height]);
const alongOf = (box: Box, upright: boolean): [number, number] => (upright ? [box.y, box.y + box.height] : [box.x, box.x + box.width]);

/** Room from the label's side facing away from `leg` (by `outward`, ±1) to the nearest other leg beside it. */
function roomBeyond(box: Box, leg: Leg, outward: number, legs: readonly Leg[]): number {
  const [start, end] = acrossOf(box, leg.upright);
  const [lo, hi] = alongOf(box, leg.upright);
  const face = outward > 0 ? end : start;
  let room = Infinity;
  for (const other of legs) {
    if (other === leg || other.upright !== leg.upright || other.hi <= lo || other.lo >= hi) continue;
    const gap = (other.across - face) * outward;
    if (gap >= 0) room = Math.min(room, gap);
  }
  return room;
}

/** Distance from a leg to a box (0 where it touches or crosses it). */
function legToBox(leg: Leg, box: Box): number {
  const [start, end] = acrossOf(box, leg.upright);
  const [lo, hi] = alongOf(box, leg.upright);
  const across = Math.max(0, start - leg.across, leg.across - end);
  const along = Math.max(0, lo - leg.hi, leg.lo - hi);
  return Math.hypot(across, along);
}

/** Moves middle labels hemmed in by another edge's leg to the other side of their own leg (see above). */
export function keepLabelsBesideOwnEdges(laid: LaidOutGraph): LaidOutGraph {
  const legs = laid.edges.flatMap((edge, i) => legsOf(edge.points, i));
  const labels = laid.edges.flatMap((edge) => edge.labels);
  const solids: Box[] = [...laid.nodes, ...laid.groups.map((group) => group.title)];
  const { width, height } = laid;
  const edges = laid.edges.map((edge, i) => {
    if (edge.curved) return edge;
    const moved = edge.labels.map((label): LaidOutLabel => {
      if (label.placement !== 'center') return label;
      // Its own leg: the nearest one it stands beside.
      let own: Leg | undefined;
      let gap = Infinity;
      for (const leg of legs) {
        if (leg.edge !== i) continue;
        const [lo, hi] = alongOf(label, leg.upright);
        if (leg.hi <= lo || leg.lo >= hi) continue;
        const [start, end] = acrossOf(label, leg.upright);
        const distance = leg.across <= start ? start - leg.across : leg.across >= end ? leg.across - end : -1;
        if (distance >= 0 && distance < gap) [own, gap] = [leg, distance];
      }
      if (own === undefined) return label;
      const [start, end] = acrossOf(label, own.upright);
      const outward = own.across <= start ? 1 : -1;
      if (roomBeyond(label, own, outward, legs) >= LABEL_ROOM) return label;
      const size = end - start;
      const length = alongOf(label, own.upright)[1] - alongOf(label, own.upright)[0];
      const at = alongOf(label, own.upright)[0];
      // Places beside the leg, as far from it as now, on either side and anywhere along it, nearest first; the first
      // LABEL_ROOM from every other edge that covers nothing and stays within the drawing (the canvas does not grow).
      const places: { box: LaidOutLabel; shift: number }[] = [];
      for (const side of [outward, -outward]) {
        const across = side > 0 ? own.across + gap : own.across - gap - size;
        for (let along = own.lo; along + length <= own.hi; along += PLACE_STEP) {
          const box = own.upright ? { ...label, x: across, y: along } : { ...label, x: along, y: across };
          places.push({ box, shift: Math.abs(along - at) + (side === outward ? 0 : size) });
        }
      }
      places.sort((p, q) => p.shift - q.shift);
      const margin = (box: Box): Box => ({ x: box.x - gap / 2, y: box.y - gap / 2, width: box.width + gap, height: box.height + gap });
      const free = ({ box }: (typeof places)[number]): boolean =>
        box.x >= 0 &&
        box.y >= 0 &&
        box.x + box.width <= width &&
        box.y + box.height <= height &&
        legs.every((leg) => leg.edge === i || legToBox(leg, box) >= LABEL_ROOM) &&
        !solids.some((solid) => overlaps(margin(box), solid)) &&
        !labels.some((other) => other !== label && overlaps(margin(box), other)) &&
        !legs.some((leg) => overlaps(margin(box), leg.upright ? { x: leg.across, y: leg.lo, width: 0.01, height: leg.hi - leg.lo } : { x: leg.lo, y: leg.across, width: leg.hi - leg.lo, height: 0.01 })) &&
        !laid.groups.some((group) => overlaps(label, group) !== overlaps(box, group) || (overlaps(box, group) && !boxContains(group, box, 0)));
      const mirrored = places.find(free)?.box;
      if (mirrored === undefined) return label;
      labels[labels.indexOf(label)] = mirrored;
      return mirrored;
    });
    return moved.every((label, j) => label === edge.labels[j]) ? edge : { ...edge, labels: moved };
  });
  return { ...laid, edges };
}
