/** Plane geometry the graph recovery reads a drawing with: boxes, containment and distances to polylines. */
import type { Point } from '../scene/schema.js';

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export const boxArea = (box: Box): number => box.width * box.height;
export const boxCentre = (box: Box): Point => ({ x: box.x + box.width / 2, y: box.y + box.height / 2 });

/** The two boxes share some area (touching edges do not count). */
export const boxesOverlap = (a: Box, b: Box): boolean => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** `inner` lies within `outer`, allowing `slack` pixels of overlap at each side (hand-drawn boxes are not exact). */
export function boxContains(outer: Box, inner: Box, slack = 2): boolean {
  return (
    inner.x >= outer.x - slack &&
    inner.y >= outer.y - slack &&
    inner.x + inner.width <= outer.x + outer.width + slack &&
    inner.y + inner.height <= outer.y + outer.height + slack
  );
}

export function pointInBox(p: Point, box: Box, slack = 0): boolean {
  return p.x >= box.x - slack && p.x <= box.x + box.width + slack && p.y >= box.y - slack && p.y <= box.y + box.height + slack;
}

/** Distance from `p` to the box's outline (0 on it; measured to the nearest side from inside too). */
export function distanceToBoxOutline(p: Point, box: Box): number {
  const dx = Math.max(box.x - p.x, 0, p.x - (box.x + box.width));
  const dy = Math.max(box.y - p.y, 0, p.y - (box.y + box.height));
  if (dx > 0 || dy > 0) return Math.hypot(dx, dy);
  return Math.min(p.x - box.x, box.x + box.width - p.x, p.y - box.y, box.y + box.height - p.y);
}

/** Distance between a point and a box (0 when inside). */
export function distanceToBox(p: Point, box: Box): number {
  return Math.hypot(Math.max(box.x - p.x, 0, p.x - (box.x + box.width)), Math.max(box.y - p.y, 0, p.y - (box.y + box.height)));
}

export interface PolylineHit {
  /** Distance from the polyline to the box (0 when they touch). */
  distance: number;
  /** Where along the polyline the nearest point lies, 0 at its start and 1 at its end (by length). */
  along: number;
  /** The polyline's length. */
  length: number;
}

/** How near a box lies to a polyline, sampled finely enough for label placement. */
export function boxToPolyline(box: Box, points: readonly Point[]): PolylineHit {
  const lengths = points.slice(1).map((p, i) => Math.hypot(p.x - points[i]!.x, p.y - points[i]!.y));
  const total = lengths.reduce((a, b) => a + b, 0);
  let best: PolylineHit = { distance: Infinity, along: 0, length: total };
  let walked = 0;
  lengths.forEach((length, i) => {
    const a = points[i]!;
    const b = points[i + 1]!;
    const steps = Math.max(1, Math.ceil(length / 4));
    for (let s = 0; s <= steps; s++) {
      const t = s / steps;
      const distance = distanceToBox({ x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t }, box);
      if (distance < best.distance) best = { distance, along: total === 0 ? 0.5 : (walked + length * t) / total, length: total };
    }
    walked += length;
  });
  if (points.length === 1) best = { distance: distanceToBox(points[0]!, box), along: 0.5, length: 0 };
  return best;
}
