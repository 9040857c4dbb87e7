import type { ArrowShape } from '../scene/constants.js';
import type { Point } from '../scene/schema.js';
import { BEND_RADIUS } from './constants.js';
import type { Figure } from './draw.js';
import type { Corner } from './outlines.js';
import { fmt } from './svg.js';

/**
 * Geometry of connectors (arrows, lines) and freehand strokes: the drawn figure, the direction at each end (for
 * arrowheads) and a polyline approximation (for bounds and for placing the label halfway along).
 */

export interface PathEnd {
  point: Point;
  /** Unit vector of travel at this end, pointing out of the path (the way an arrowhead there points). */
  direction: Point;
}

export interface ConnectorGeometry {
  figure: Figure;
  start: PathEnd;
  end: PathEnd;
  /** The path as a fine polyline. */
  samples: Point[];
}

const p = (x: number, y: number): Point => ({ x, y });
const same = (a: Point, b: Point) => a.x === b.x && a.y === b.y;
const SAMPLES_PER_CURVE = 16;

function unit(from: Point, to: Point): Point {
  const length = Math.hypot(to.x - from.x, to.y - from.y);
  return length === 0 ? p(1, 0) : p((to.x - from.x) / length, (to.y - from.y) / length);
}

/** The end's direction from the nearest point before it that differs from it. */
function endOf(path: readonly Point[], atEnd: boolean): PathEnd {
  const ordered = atEnd ? path : [...path].reverse();
  const point = ordered[ordered.length - 1]!;
  const before = [...ordered].reverse().find((q) => !same(q, point)) ?? p(point.x - 1, point.y);
  return { point, direction: unit(before, point) };
}

const dedupe = (points: readonly Point[]): Point[] => points.filter((q, i) => i === 0 || !same(q, points[i - 1]!));

/** Turns every slanted step of a route into horizontal and vertical runs, bending halfway along the longer axis. */
function orthogonalRoute(points: readonly Point[]): Point[] {
  const out: Point[] = [points[0]!];
  for (let i = 1; i < points.length; i++) {
    const a = out[out.length - 1]!;
    const b = points[i]!;
    if (a.x !== b.x && a.y !== b.y) {
      if (Math.abs(b.x - a.x) >= Math.abs(b.y - a.y)) {
        const mx = (a.x + b.x) / 2;
        out.push(p(mx, a.y), p(mx, b.y));
      } else {
        const my = (a.y + b.y) / 2;
        out.push(p(a.x, my), p(b.x, my));
      }
    }
    out.push(b);
  }
  return dedupe(out);
}

/** An open polyline with its bends rounded (quadratic, through the corner) or bevelled. */
function bentPath(points: readonly Point[], corner: Corner): string {
  let d = `M${fmt(points[0]!.x)} ${fmt(points[0]!.y)}`;
  for (let i = 1; i < points.length - 1; i++) {
    const [a, v, b] = [points[i - 1]!, points[i]!, points[i + 1]!];
    const toA = Math.hypot(a.x - v.x, a.y - v.y);
    const toB = Math.hypot(b.x - v.x, b.y - v.y);
    const cut = Math.min(BEND_RADIUS, toA / 2, toB / 2);
    const inA = p(v.x + ((a.x - v.x) / toA) * cut, v.y + ((a.y - v.y) / toA) * cut);
    const outB = p(v.x + ((b.x - v.x) / toB) * cut, v.y + ((b.y - v.y) / toB) * cut);
    d += ` L${fmt(inA.x)} ${fmt(inA.y)}`;
    d += corner === 'beveled' ? ` L${fmt(outB.x)} ${fmt(outB.y)}` : ` Q${fmt(v.x)} ${fmt(v.y)} ${fmt(outB.x)} ${fmt(outB.y)}`;
  }
  const last = points[points.length - 1]!;
  return `${d} L${fmt(last.x)} ${fmt(last.y)}`;
}

function polylineGeometry(points: readonly Point[], corner: Corner): ConnectorGeometry {
  const clean = dedupe(points);
  const path = clean.length === 1 ? [clean[0]!, clean[0]!] : clean;
  const figure: Figure =
    corner === 'sharp' || path.length < 3 ? { kind: 'polyline', points: path } : { kind: 'path', d: bentPath(path, corner), closed: false };
  return { figure, start: endOf(path, false), end: endOf(path, true), samples: path };
}

const cubicAt = (a: Point, c1: Point, c2: Point, b: Point, t: number): Point => {
  const u = 1 - t;
  return p(
    u * u * u * a.x + 3 * u * u * t * c1.x + 3 * u * t * t * c2.x + t * t * t * b.x,
    u * u * u * a.y + 3 * u * u * t * c1.y + 3 * u * t * t * c2.y + t * t * t * b.y,
  );
};

interface Cubic {
  from: Point;
  c1: Point;
  c2: Point;
  to: Point;
}

function curvesGeometry(curves: readonly Cubic[]): ConnectorGeometry {
  const first = curves[0]!;
  const last = curves[curves.length - 1]!;
  let d = `M${fmt(first.from.x)} ${fmt(first.from.y)}`;
  const samples: Point[] = [first.from];
  for (const c of curves) {
    d += ` C${fmt(c.c1.x)} ${fmt(c.c1.y)} ${fmt(c.c2.x)} ${fmt(c.c2.y)} ${fmt(c.to.x)} ${fmt(c.to.y)}`;
    for (let i = 1; i <= SAMPLES_PER_CURVE; i++) samples.push(cubicAt(c.from, c.c1, c.c2, c.to, i / SAMPLES_PER_CURVE));
  }
  // At an end the tangent runs along its nearest distinct control point (or the other end of a flat curve).
  const startAway = [first.c1, first.c2, first.to].find((q) => !same(q, first.from)) ?? p(first.from.x + 1, first.from.y);
  const endAway = [last.c2, last.c1, last.from].find((q) => !same(q, last.to)) ?? p(last.to.x - 1, last.to.y);
  return {
    figure: { kind: 'path', d, closed: false },
    start: { point: first.from, direction: unit(startAway, first.from) },
    end: { point: last.to, direction: unit(endAway, last.to) },
    samples,
  };
}

/** A quadratic as the equivalent cubic, so every curve goes through one code path. */
const quadratic = (a: Point, c: Point, b: Point): Cubic => ({
  from: a,
  c1: p(a.x + (2 / 3) * (c.x - a.x), a.y + (2 / 3) * (c.y - a.y)),
  c2: p(b.x + (2 / 3) * (c.x - b.x), b.y + (2 / 3) * (c.y - b.y)),
  to: b,
});

/**
 * A smooth curve through every point: a Catmull-Rom spline as cubic Béziers (each control point a sixth of the
 * neighbours' chord away), the curve rough.js's own `curve` draws.
 */
function catmullRom(points: readonly Point[]): Cubic[] {
  const pts = dedupe(points);
  if (pts.length < 2) return [{ from: pts[0]!, c1: pts[0]!, c2: pts[0]!, to: pts[0]! }];
  return pts.slice(0, -1).map((from, i) => {
    const before = pts[i - 1] ?? from;
    const to = pts[i + 1]!;
    const after = pts[i + 2] ?? to;
    return {
      from,
      c1: p(from.x + (to.x - before.x) / 6, from.y + (to.y - before.y) / 6),
      c2: p(to.x - (after.x - from.x) / 6, to.y - (after.y - from.y) / 6),
      to,
    };
  });
}

/** Default bend of a curved arrow without a control point: a fifth of its length to the left of travel. */
function defaultControl(a: Point, b: Point): Point {
  return p((a.x + b.x) / 2 + (b.y - a.y) * 0.2, (a.y + b.y) / 2 - (b.x - a.x) * 0.2);
}

/** Default S: leave and arrive along the dominant axis, turning halfway. */
function defaultSControls(a: Point, b: Point): [Point, Point] {
  if (Math.abs(b.x - a.x) >= Math.abs(b.y - a.y)) {
    const mx = (a.x + b.x) / 2;
    return [p(mx, a.y), p(mx, b.y)];
  }
  const my = (a.y + b.y) / 2;
  return [p(a.x, my), p(b.x, my)];
}

export interface ConnectorInput {
  points: readonly Point[];
  shape: ArrowShape;
  controlPoint?: Point;
  controlPoint2?: Point;
  corner: Corner;
}

export function connectorGeometry(input: ConnectorInput): ConnectorGeometry {
  const { points, corner } = input;
  const a = points[0]!;
  const b = points[points.length - 1]!;
  switch (input.shape) {
    case 'curved':
      return curvesGeometry([quadratic(a, input.controlPoint ?? defaultControl(a, b), b)]);
    case 's-curve': {
      const [d1, d2] = defaultSControls(a, b);
      return curvesGeometry([{ from: a, c1: input.controlPoint ?? d1, c2: input.controlPoint2 ?? d2, to: b }]);
    }
    case 'multipoint-curved':
      return points.length < 3 ? polylineGeometry(points, 'sharp') : curvesGeometry(catmullRom(points));
    case 'smart':
      return polylineGeometry(orthogonalRoute(points), corner);
    case 'straight':
      return polylineGeometry([a, b], 'sharp');
    case 'elbow':
    case 'multipoint':
      return polylineGeometry(points, corner);
  }
}

/** The point halfway along a polyline. */
export function halfway(samples: readonly Point[]): Point {
  let total = 0;
  for (let i = 1; i < samples.length; i++) total += Math.hypot(samples[i]!.x - samples[i - 1]!.x, samples[i]!.y - samples[i - 1]!.y);
  let left = total / 2;
  for (let i = 1; i < samples.length; i++) {
    const [s, e] = [samples[i - 1]!, samples[i]!];
    const length = Math.hypot(e.x - s.x, e.y - s.y);
    if (length >= left && length > 0) return p(s.x + ((e.x - s.x) * left) / length, s.y + ((e.y - s.y) * left) / length);
    left -= length;
  }
  return samples[0]!;
}

export const pathLength = (samples: readonly Point[]): number =>
  samples.reduce((sum, q, i) => (i === 0 ? 0 : sum + Math.hypot(q.x - samples[i - 1]!.x, q.y - samples[i - 1]!.y)), 0);

/**
 * A freehand stroke through its points: quadratic curves through the midpoints (the usual smoothing of pointer
 * input), so a dense stroke stays smooth and a sparse one stays close to its points.
 */
export function freehandPath(points: readonly Point[]): string {
  const pts = dedupe(points);
  const first = pts[0]!;
  if (pts.length === 1) return `M${fmt(first.x)} ${fmt(first.y)} L${fmt(first.x)} ${fmt(first.y)}`;
  let d = `M${fmt(first.x)} ${fmt(first.y)}`;
  for (let i = 1; i < pts.length - 1; i++) {
    const q = pts[i]!;
    const next = pts[i + 1]!;
    d += ` Q${fmt(q.x)} ${fmt(q.y)} ${fmt((q.x + next.x) / 2)} ${fmt((q.y + next.y) / 2)}`;
  }
  const last = pts[pts.length - 1]!;
  return `${d} L${fmt(last.x)} ${fmt(last.y)}`;
}
