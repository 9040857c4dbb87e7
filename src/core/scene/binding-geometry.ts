import { figureBox, isFigure, roundFigure } from './constants.js';
import type { Point } from './schema.js';

/**
 * Where bound arrow ends meet shapes. A binding's focus is a point of the target's box (0..1 each way); the arrow
 * aims at it and stops where it first meets the shape's outline. Rotation is ignored: arrows bind to the unrotated
 * box, as Excalidraw's v2 fixed points do.
 */

export interface Box {
  type: string;
  x: number;
  y: number;
  width: number;
  height: number;
}
export interface Focus {
  x: number;
  y: number;
}

const ELLIPSE_SEGMENTS = 64;

/**
 * The outline as a closed polygon: exact for boxes and diamonds, a fine polygon for ellipses. A round glyph (an
 * interface's circle, a robustness glyph) is its circle: lines meet the glyph, as PlantUML draws them, not the label under it.
 */
export function outlineOf(box: Box): Point[] {
  if (isFigure(box.type) && box.type !== 'person') return outlineOf({ ...roundFigure(box.type, box).circle, type: 'ellipse' });
  const { x, y, width: w, height: h } = box;
  if (box.type === 'person') {
    // The figure over its label: a line from above or the side meets the figure, not the air round it where the box
    // is as wide as a long name (a C4 person's "email" and "SMS" ended 40 px either side of the figure's head).
    const figure = figureBox('person', box);
    const shoulders = Math.min(figure.labelTop, y + h);
    return [
      { x: figure.x, y },
      { x: figure.x + figure.width, y },
      { x: figure.x + figure.width, y: shoulders },
      { x: x + w, y: shoulders },
      { x: x + w, y: y + h },
      { x, y: y + h },
      { x, y: shoulders },
      { x: figure.x, y: shoulders },
    ];
  }
  if (box.type === 'ellipse') {
    return Array.from({ length: ELLIPSE_SEGMENTS }, (_, i) => {
      const t = (2 * Math.PI * i) / ELLIPSE_SEGMENTS;
      return { x: x + w / 2 + (w / 2) * Math.cos(t), y: y + h / 2 + (h / 2) * Math.sin(t) };
    });
  }
  if (box.type === 'diamond') {
    return [
      { x: x + w / 2, y },
      { x: x + w, y: y + h / 2 },
      { x: x + w / 2, y: y + h },
      { x, y: y + h / 2 },
    ];
  }
  return [
    { x, y },
    { x: x + w, y },
    { x: x + w, y: y + h },
    { x, y: y + h },
  ];
}

export const focusPoint = (box: Box, focus: Focus): Point => ({ x: box.x + focus.x * box.width, y: box.y + focus.y * box.height });

const clamp01 = (v: number) => Math.min(1, Math.max(0, v));
const ratio = (box: Box, p: Point): Focus => ({
  x: box.width === 0 ? 0.5 : clamp01((p.x - box.x) / box.width),
  y: box.height === 0 ? 0.5 : clamp01((p.y - box.y) / box.height),
});

export function isInside(polygon: Point[], p: Point): boolean {
  let inside = false;
  for (let i = 0, j = polygon.length - 1; i < polygon.length; j = i++) {
    const a = polygon[i]!;
    const b = polygon[j]!;
    if (a.y > p.y !== b.y > p.y && p.x < ((b.x - a.x) * (p.y - a.y)) / (b.y - a.y) + a.x) inside = !inside;
  }
  return inside;
}

/** The point where the segment from → to first meets the polygon, or undefined when it never does. */
export function firstCrossing(from: Point, to: Point, polygon: Point[]): Point | undefined {
  const dx = to.x - from.x;
  const dy = to.y - from.y;
  let best: number | undefined;
  for (let i = 0; i < polygon.length; i++) {
    const a = polygon[i]!;
    const b = polygon[(i + 1) % polygon.length]!;
    const ex = b.x - a.x;
    const ey = b.y - a.y;
    const denom = dx * ey - dy * ex;
    if (denom === 0) continue;
    const t = ((a.x - from.x) * ey - (a.y - from.y) * ex) / denom;
    const u = ((a.x - from.x) * dy - (a.y - from.y) * dx) / denom;
    if (t >= 0 && t <= 1 && u >= 0 && u <= 1 && (best === undefined || t < best)) best = t;
  }
  return best === undefined ? undefined : { x: from.x + best * dx, y: from.y + best * dy };
}

/**
 * The bound end: aim from `towards` at the focus point and stop where the line first meets the outline (at the focus
 * when coming from inside). A focus off the outline (a box corner of an ellipse) whose line misses the shape aims at
 * the centre instead, so the end always touches the shape.
 */
export function boundEnd(box: Box, focus: Focus, towards: Point): Point {
  const aim = focusPoint(box, focus);
  const outline = outlineOf(box);
  if (isInside(outline, towards)) return aim;
  // The middle of what is drawn: a glyph's circle, else the box's centre.
  const drawn = boundsOf(outline);
  const centre = { x: drawn.x + drawn.width / 2, y: drawn.y + drawn.height / 2 };
  return (
    firstCrossing(towards, aim, outline) ??
    firstCrossing(towards, beyond(towards, aim, box), outline) ??
    firstCrossing(towards, centre, outline) ??
    aim
  );
}

/** A point on the ray from → to, far enough past `to` to cross the whole box. */
function beyond(from: Point, to: Point, box: Box): Point {
  const length = Math.hypot(to.x - from.x, to.y - from.y);
  if (length === 0) return to;
  const reach = 2 * (Math.hypot(box.width, box.height) + Math.hypot(to.x - box.x, to.y - box.y));
  return { x: to.x + ((to.x - from.x) / length) * reach, y: to.y + ((to.y - from.y) / length) * reach };
}

/**
 * The focus that reproduces an existing end: follow the arrow's last segment (from → end) on into the shape and
 * take the point where it meets the outline; an end that points past the shape falls back to its nearest box point.
 */
export function focusFromEnd(box: Box, end: Point, from: Point): Focus {
  const outline = outlineOf(box);
  if (isInside(outline, end)) return ratio(box, end);
  const hit = firstCrossing(end, beyond(from, end, box), outline);
  return ratio(box, hit ?? end);
}

/** A loop, not Math.min(...xs): spreading a long stroke's points overflows the call stack. */
export function boundsOf(points: readonly Point[]): { x: number; y: number; width: number; height: number } {
  let [minX, minY, maxX, maxY] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const p of points) {
    minX = Math.min(minX, p.x);
    minY = Math.min(minY, p.y);
    maxX = Math.max(maxX, p.x);
    maxY = Math.max(maxY, p.y);
  }
  return { x: minX, y: minY, width: maxX - minX, height: maxY - minY };
}
