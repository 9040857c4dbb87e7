import { cylinderRimRadius, figureBox, personFigure, roundFigure, sideRimRadius, type CORNERS, type ShapeType } from '../scene/constants.js';
import type { Point } from '../scene/schema.js';
import { CORNER_RADIUS_MAX, CORNER_RADIUS_SHARE, LABEL_PADDING } from './constants.js';
import { fmt } from './svg.js';

/**
 * Geometry of every closed shape, in absolute scene coordinates, from its box. Proportions that would look wrong
 * when stretched (arrow heads, slants, caps, bevels) are tied to the shorter side, so shapes stay right at any
 * aspect ratio; regular figures (star, heptagon) fill their box.
 */

export type Corner = (typeof CORNERS)[number];

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** How an outline is handed to rough.js: its own primitives where one fits (they sketch better than a path). */
export type Outline =
  | { kind: 'rectangle'; box: Box }
  | { kind: 'ellipse'; box: Box }
  | { kind: 'polygon'; points: Point[] }
  /** `closed` paths are filled; open ones (a cylinder's rim) are only stroked. */
  | { kind: 'path'; d: string; closed: boolean };

export interface ShapeGeometry {
  /** Filled and stroked. */
  outline: Outline;
  /** Extra strokes drawn over the outline, never filled. */
  details: Outline[];
  /** Where the label is laid out. */
  textBox: Box;
  /** The label is centred in textBox unless it sits at its top (under a person's figure, however tall the box). */
  labelAt?: 'top';
}

const p = (x: number, y: number): Point => ({ x, y });
/** Open strokes, each through its points. */
const strokes = (lines: readonly (readonly Point[])[]): Outline => ({ kind: 'path', d: lines.map((line) => `M${line.map((q) => `${fmt(q.x)} ${fmt(q.y)}`).join(' L')}`).join(' '), closed: false });
const inset = (box: Box, dx: number, dy = dx): Box => ({
  x: box.x + dx,
  y: box.y + dy,
  width: Math.max(0, box.width - 2 * dx),
  height: Math.max(0, box.height - 2 * dy),
});
const sub = (box: Box, x0: number, y0: number, x1: number, y1: number): Box =>
  inset({ x: box.x + x0, y: box.y + y0, width: x1 - x0, height: y1 - y0 }, LABEL_PADDING);

/** Outline of a polygon with rounded (quadratic) or bevelled vertices; `radii[i]` 0 keeps vertex i sharp. */
export function cornerPath(points: readonly Point[], corner: Corner, radii: readonly number[]): string {
  const n = points.length;
  let d = '';
  for (let i = 0; i < n; i++) {
    const v = points[i]!;
    const prev = points[(i + n - 1) % n]!;
    const next = points[(i + 1) % n]!;
    const toPrev = Math.hypot(prev.x - v.x, prev.y - v.y);
    const toNext = Math.hypot(next.x - v.x, next.y - v.y);
    // A cut never takes more than half an edge, so neighbouring cuts never cross.
    const cut = Math.min(radii[i] ?? 0, toPrev / 2, toNext / 2);
    if (cut <= 0 || toPrev === 0 || toNext === 0) {
      d += `${i === 0 ? 'M' : 'L'}${fmt(v.x)} ${fmt(v.y)} `;
      continue;
    }
    const a = p(v.x + ((prev.x - v.x) / toPrev) * cut, v.y + ((prev.y - v.y) / toPrev) * cut);
    const b = p(v.x + ((next.x - v.x) / toNext) * cut, v.y + ((next.y - v.y) / toNext) * cut);
    d += `${i === 0 ? 'M' : 'L'}${fmt(a.x)} ${fmt(a.y)} `;
    d += corner === 'beveled' ? `L${fmt(b.x)} ${fmt(b.y)} ` : `Q${fmt(v.x)} ${fmt(v.y)} ${fmt(b.x)} ${fmt(b.y)} `;
  }
  return `${d}Z`;
}

/** The corner radius of a box: a quarter of the shorter side, capped. */
const cornerRadius = (box: Box): number => Math.min(CORNER_RADIUS_MAX, CORNER_RADIUS_SHARE * Math.min(box.width, box.height));

function polygon(points: Point[], corner: Corner, box: Box, radii?: number[]): Outline {
  if (corner === 'sharp') return { kind: 'polygon', points };
  const r = cornerRadius(box);
  return { kind: 'path', d: cornerPath(points, corner, radii ?? points.map(() => r)), closed: true };
}

const regular = (box: Box, sides: number, rotation: number): Point[] => {
  const raw = Array.from({ length: sides }, (_, i) => {
    const t = rotation + (2 * Math.PI * i) / sides;
    return p(Math.cos(t), Math.sin(t));
  });
  return fitPoints(raw, box);
};

/** Scales points so their bounding box is exactly `box`. */
function fitPoints(points: Point[], box: Box): Point[] {
  const xs = points.map((q) => q.x);
  const ys = points.map((q) => q.y);
  const minX = Math.min(...xs);
  const minY = Math.min(...ys);
  const spanX = Math.max(...xs) - minX || 1;
  const spanY = Math.max(...ys) - minY || 1;
  return points.map((q) => p(box.x + ((q.x - minX) / spanX) * box.width, box.y + ((q.y - minY) / spanY) * box.height));
}

/** Five points, inner radius of the regular star (0.382), stretched to fill the box. */
function star(box: Box): Point[] {
  const raw = Array.from({ length: 10 }, (_, i) => {
    const t = -Math.PI / 2 + (Math.PI * i) / 5;
    const r = i % 2 === 0 ? 1 : 0.382;
    return p(r * Math.cos(t), r * Math.sin(t));
  });
  return fitPoints(raw, box);
}

/**
 * A cloud: equal round bumps (circular arcs) on an ellipse, as many as fit its perimeter at about a fifth of the
 * shorter side each, so a wide or tall cloud gets more bumps rather than stretched or spiky ones. The ellipse is
 * shrunk by the bumps' height so the bumps reach the box.
 */
function cloud(box: Box): string {
  const bumpSize = 0.36 * Math.min(box.width, box.height);
  const SAMPLES = 256;
  let points: Point[] = [];
  let chord = bumpSize;
  // Two passes: the bump height depends on the chord, which depends on the shrunk ellipse.
  for (let pass = 0; pass < 2; pass++) {
    const rise = 0.27 * chord;
    const ex = Math.max(1, box.width / 2 - rise);
    const ey = Math.max(1, box.height / 2 - rise);
    const ring = Array.from({ length: SAMPLES + 1 }, (_, i) => {
      const t = -Math.PI / 2 + (2 * Math.PI * i) / SAMPLES;
      return p(box.x + box.width / 2 + ex * Math.cos(t), box.y + box.height / 2 + ey * Math.sin(t));
    });
    const lengths = [0];
    for (let i = 1; i <= SAMPLES; i++) lengths.push(lengths[i - 1]! + Math.hypot(ring[i]!.x - ring[i - 1]!.x, ring[i]!.y - ring[i - 1]!.y));
    const perimeter = lengths[SAMPLES]!;
    const bumps = Math.max(6, Math.round(perimeter / bumpSize));
    points = Array.from({ length: bumps }, (_, k) => {
      const target = (perimeter * k) / bumps;
      let i = 1;
      while (i < SAMPLES && lengths[i]! < target) i++;
      const f = (target - lengths[i - 1]!) / (lengths[i]! - lengths[i - 1]! || 1);
      return p(ring[i - 1]!.x + (ring[i]!.x - ring[i - 1]!.x) * f, ring[i - 1]!.y + (ring[i]!.y - ring[i - 1]!.y) * f);
    });
    chord = perimeter / bumps;
  }
  // Each bump is a circular arc of radius 0.6 × its chord, bulging outwards (sweep 1 on this clockwise ring). The
  // bumps' tips do not sit exactly on the box, so the whole is scaled per axis to fill it; a circle scaled that
  // way is an axis-aligned ellipse, so each arc stays an exact arc with radii r·sx and r·sy.
  const arcs = points.map((from, i) => {
    const to = points[(i + 1) % points.length]!;
    const chordLength = Math.hypot(to.x - from.x, to.y - from.y);
    const r = 0.6 * chordLength;
    const rise = Math.sqrt(r * r - (chordLength / 2) ** 2);
    // The centre lies right of travel (screen coordinates), the bump left of it.
    const nx = -(to.y - from.y) / chordLength;
    const ny = (to.x - from.x) / chordLength;
    const center = p((from.x + to.x) / 2 + nx * rise, (from.y + to.y) / 2 + ny * rise);
    const a0 = Math.atan2(from.y - center.y, from.x - center.x);
    let a1 = Math.atan2(to.y - center.y, to.x - center.x);
    if (a1 < a0) a1 += 2 * Math.PI;
    return { to, r, center, a0, a1 };
  });
  const extent = arcs.flatMap(({ r, center, a0, a1 }) =>
    Array.from({ length: 17 }, (_, k) => p(center.x + r * Math.cos(a0 + ((a1 - a0) * k) / 16), center.y + r * Math.sin(a0 + ((a1 - a0) * k) / 16))),
  );
  const minX = Math.min(...extent.map((q) => q.x));
  const minY = Math.min(...extent.map((q) => q.y));
  const sx = box.width / (Math.max(...extent.map((q) => q.x)) - minX || 1);
  const sy = box.height / (Math.max(...extent.map((q) => q.y)) - minY || 1);
  const map = (q: Point) => p(box.x + (q.x - minX) * sx, box.y + (q.y - minY) * sy);
  const start = map(points[0]!);
  let d = `M${fmt(start.x)} ${fmt(start.y)} `;
  for (const arc of arcs) {
    const to = map(arc.to);
    d += `A${fmt(arc.r * sx)} ${fmt(arc.r * sy)} 0 0 1 ${fmt(to.x)} ${fmt(to.y)} `;
  }
  return `${d}Z`;
}

/** Block arrow pointing right in a (length × thickness) frame; `turn` maps it onto the real direction. */
function blockArrow(box: Box, direction: 'right' | 'left' | 'up' | 'down', corner: Corner): ShapeGeometry {
  const horizontal = direction === 'right' || direction === 'left';
  const length = horizontal ? box.width : box.height;
  const thickness = horizontal ? box.height : box.width;
  const head = Math.min(length * 0.5, thickness * 0.8);
  const raw = [p(0, 0.25), p(length - head, 0.25), p(length - head, 0), p(length, 0.5), p(length - head, 1), p(length - head, 0.75), p(0, 0.75)].map(
    (q) => p(q.x, q.y * thickness),
  );
  const turn = (q: Point): Point => {
    switch (direction) {
      case 'right':
        return p(box.x + q.x, box.y + q.y);
      case 'left':
        return p(box.x + length - q.x, box.y + q.y);
      case 'down':
        return p(box.x + q.y, box.y + q.x);
      case 'up':
        return p(box.x + q.y, box.y + length - q.x);
    }
  };
  const points = raw.map(turn);
  // The label sits on the shaft and may run into the head's widest part.
  const shaftEnd = length - head * 0.4;
  const textBox = horizontal
    ? sub(box, direction === 'right' ? 0 : head * 0.4, thickness * 0.25, direction === 'right' ? shaftEnd : length, thickness * 0.75)
    : sub(box, thickness * 0.25, direction === 'down' ? 0 : head * 0.4, thickness * 0.75, direction === 'down' ? shaftEnd : length);
  return { outline: polygon(points, corner, box), details: [], textBox };
}

/** The geometry of a shape of `type` in `box`; `corner` rounds or bevels polygonal outlines (curved ones ignore it). */
export function shapeGeometry(type: ShapeType, box: Box, corner: Corner): ShapeGeometry {
  const { x, y, width: w, height: h } = box;
  const full = inset(box, LABEL_PADDING);
  switch (type) {
    case 'rectangle': {
      const outline: Outline =
        corner === 'sharp' ? { kind: 'rectangle', box } : polygon([p(x, y), p(x + w, y), p(x + w, y + h), p(x, y + h)], corner, box);
      return { outline, details: [], textBox: full };
    }
    case 'ellipse':
      // The largest box inside an ellipse spans 1/√2 of each axis.
      return { outline: { kind: 'ellipse', box }, details: [], textBox: sub(box, w * 0.1464, h * 0.1464, w * 0.8536, h * 0.8536) };
    case 'diamond':
      return {
        outline: polygon([p(x + w / 2, y), p(x + w, y + h / 2), p(x + w / 2, y + h), p(x, y + h / 2)], corner, box),
        details: [],
        textBox: sub(box, w / 4, h / 4, (3 * w) / 4, (3 * h) / 4),
      };
    case 'triangle':
      return {
        outline: polygon([p(x + w / 2, y), p(x + w, y + h), p(x, y + h)], corner, box),
        details: [],
        textBox: sub(box, w / 4, h / 2, (3 * w) / 4, h),
      };
    case 'right-triangle':
      return { outline: polygon([p(x, y), p(x + w, y + h), p(x, y + h)], corner, box), details: [], textBox: sub(box, 0, h / 2, w / 2, h) };
    case 'parallelogram': {
      const skew = Math.min(w * 0.3, h * 0.5);
      return {
        outline: polygon([p(x + skew, y), p(x + w, y), p(x + w - skew, y + h), p(x, y + h)], corner, box),
        details: [],
        textBox: sub(box, skew * 0.75, 0, w - skew * 0.75, h),
      };
    }
    case 'trapezoid': {
      const slant = Math.min(w * 0.25, h * 0.5);
      return {
        outline: polygon([p(x + slant, y), p(x + w - slant, y), p(x + w, y + h), p(x, y + h)], corner, box),
        details: [],
        textBox: sub(box, slant * 0.75, 0, w - slant * 0.75, h),
      };
    }
    case 'star':
      // The inner pentagon; the star's centre sits at 0.553 of the height once the star fills its box.
      return { outline: polygon(star(box), corner, box), details: [], textBox: sub(box, w * 0.3, h * 0.36, w * 0.7, h * 0.75) };
    case 'hexagon':
    case 'preparation': {
      // A hexagon keeps near-regular 60° sides; preparation (a flowchart symbol) has shallower points.
      const cut = type === 'hexagon' ? Math.min(w * 0.25, h * 0.2887) : Math.min(w * 0.2, h * 0.5);
      const points = [p(x + cut, y), p(x + w - cut, y), p(x + w, y + h / 2), p(x + w - cut, y + h), p(x + cut, y + h), p(x, y + h / 2)];
      return { outline: polygon(points, corner, box), details: [], textBox: sub(box, cut * 0.5, 0, w - cut * 0.5, h) };
    }
    case 'heptagon':
      return { outline: polygon(regular(box, 7, -Math.PI / 2), corner, box), details: [], textBox: sub(box, w * 0.15, h * 0.2, w * 0.85, h * 0.85) };
    case 'octagon': {
      const cut = Math.min(w, h) * 0.2929;
      const points = [
        p(x + cut, y),
        p(x + w - cut, y),
        p(x + w, y + cut),
        p(x + w, y + h - cut),
        p(x + w - cut, y + h),
        p(x + cut, y + h),
        p(x, y + h - cut),
        p(x, y + cut),
      ];
      return { outline: polygon(points, corner, box), details: [], textBox: sub(box, cut * 0.4, cut * 0.4, w - cut * 0.4, h - cut * 0.4) };
    }
    case 'cross': {
      const t = Math.min(w, h) / 3;
      const [x0, x1, y0, y1] = [x + (w - t) / 2, x + (w + t) / 2, y + (h - t) / 2, y + (h + t) / 2];
      const points = [p(x0, y), p(x1, y), p(x1, y0), p(x + w, y0), p(x + w, y1), p(x1, y1), p(x1, y + h), p(x0, y + h), p(x0, y1), p(x, y1), p(x, y0), p(x0, y0)];
      // The wider arm holds the label.
      const textBox = w >= h ? sub(box, 0, (h - t) / 2, w, (h + t) / 2) : sub(box, (w - t) / 2, 0, (w + t) / 2, h);
      return { outline: polygon(points, corner, box), details: [], textBox };
    }
    case 'cloud':
      return { outline: { kind: 'path', d: cloud(box), closed: true }, details: [], textBox: sub(box, w * 0.18, h * 0.2, w * 0.82, h * 0.8) };
    case 'cylinder': {
      const ry = cylinderRimRadius(w, h);
      const rx = w / 2;
      const d =
        `M${fmt(x)} ${fmt(y + ry)} A${fmt(rx)} ${fmt(ry)} 0 0 1 ${fmt(x + w)} ${fmt(y + ry)} ` +
        `L${fmt(x + w)} ${fmt(y + h - ry)} A${fmt(rx)} ${fmt(ry)} 0 0 1 ${fmt(x)} ${fmt(y + h - ry)} Z`;
      const rim = `M${fmt(x)} ${fmt(y + ry)} A${fmt(rx)} ${fmt(ry)} 0 0 0 ${fmt(x + w)} ${fmt(y + ry)}`;
      return { outline: { kind: 'path', d, closed: true }, details: [{ kind: 'path', d: rim, closed: false }], textBox: sub(box, 0, 2 * ry, w, h - ry) };
    }
    case 'horizontal-cylinder': {
      // The standing cylinder turned on its side: the near end, to the right, shows its whole rim.
      const rx = sideRimRadius(w, h);
      const ry = h / 2;
      const d =
        `M${fmt(x + rx)} ${fmt(y)} L${fmt(x + w - rx)} ${fmt(y)} A${fmt(rx)} ${fmt(ry)} 0 0 1 ${fmt(x + w - rx)} ${fmt(y + h)} ` +
        `L${fmt(x + rx)} ${fmt(y + h)} A${fmt(rx)} ${fmt(ry)} 0 0 1 ${fmt(x + rx)} ${fmt(y)} Z`;
      const rim = `M${fmt(x + w - rx)} ${fmt(y)} A${fmt(rx)} ${fmt(ry)} 0 0 0 ${fmt(x + w - rx)} ${fmt(y + h)}`;
      return { outline: { kind: 'path', d, closed: true }, details: [{ kind: 'path', d: rim, closed: false }], textBox: sub(box, rx, 0, w - 2 * rx, h) };
    }
    case 'person': {
      // The head is the outline (filled); body, arms and legs are strokes. The label is under the feet.
      const { head, body, arms, legs } = personFigure(box);
      return { outline: { kind: 'ellipse', box: head }, details: [strokes([body, arms, legs])], textBox: sub(box, 0, figureBox(type, box).labelTop - y, w, h), labelAt: 'top' };
    }
    case 'lollipop':
    case 'boundary':
    case 'control':
    case 'entity': {
      // The circle is the outline (filled); a bar, an arrowhead or an underline are strokes. The label is under it.
      const { circle, strokes: marks } = roundFigure(type, box);
      return { outline: { kind: 'ellipse', box: circle }, details: marks.length > 0 ? [strokes(marks)] : [], textBox: sub(box, 0, figureBox(type, box).labelTop - y, w, h), labelAt: 'top' };
    }
    case 'speech-bubble': {
      const tail = Math.min(h * 0.25, 40);
      const body = h - tail;
      const points = [
        p(x, y),
        p(x + w, y),
        p(x + w, y + body),
        p(x + w * 0.4, y + body),
        p(x + w * 0.15, y + h),
        p(x + w * 0.2, y + body),
        p(x, y + body),
      ];
      // Only the body's four corners round; the tail stays pointed.
      const r = cornerRadius({ x, y, width: w, height: body });
      const radii = [r, r, r, 0, 0, 0, r];
      const outline: Outline = corner === 'sharp' ? { kind: 'polygon', points } : { kind: 'path', d: cornerPath(points, corner, radii), closed: true };
      return { outline, details: [], textBox: sub(box, 0, 0, w, body) };
    }
    case 'document': {
      // A straight top and a one-period wave for the bottom edge; the wave's depth follows the shorter side.
      const a = Math.min(h * 0.08, w * 0.08, 12);
      const d =
        `M${fmt(x)} ${fmt(y)} L${fmt(x + w)} ${fmt(y)} L${fmt(x + w)} ${fmt(y + h - a)} ` +
        `Q${fmt(x + w * 0.75)} ${fmt(y + h - 3 * a)} ${fmt(x + w / 2)} ${fmt(y + h - a)} ` +
        `Q${fmt(x + w * 0.25)} ${fmt(y + h + a)} ${fmt(x)} ${fmt(y + h - a)} Z`;
      return { outline: { kind: 'path', d, closed: true }, details: [], textBox: sub(box, 0, 0, w, h - 2 * a) };
    }
    case 'manual-input': {
      const s = Math.min(h * 0.25, w * 0.25);
      return { outline: polygon([p(x, y + s), p(x + w, y), p(x + w, y + h), p(x, y + h)], corner, box), details: [], textBox: sub(box, 0, s, w, h) };
    }
    case 'display': {
      const s = Math.min(w * 0.15, h * 0.5);
      const r = Math.min(w * 0.15, h * 0.5);
      const d =
        `M${fmt(x)} ${fmt(y + h / 2)} L${fmt(x + s)} ${fmt(y)} L${fmt(x + w - r)} ${fmt(y)} ` +
        `A${fmt(r)} ${fmt(h / 2)} 0 0 1 ${fmt(x + w - r)} ${fmt(y + h)} L${fmt(x + s)} ${fmt(y + h)} Z`;
      return { outline: { kind: 'path', d, closed: true }, details: [], textBox: sub(box, s * 0.6, 0, w - r * 0.4, h) };
    }
    case 'terminator': {
      const r = Math.min(w, h) / 2;
      const points = [p(x, y), p(x + w, y), p(x + w, y + h), p(x, y + h)];
      return { outline: { kind: 'path', d: cornerPathArcs(points, r), closed: true }, details: [], textBox: sub(box, r * 0.4, 0, w - r * 0.4, h) };
    }
    case 'data-storage': {
      const r = Math.min(w * 0.15, h * 0.3);
      const d =
        `M${fmt(x + r)} ${fmt(y)} L${fmt(x + w)} ${fmt(y)} A${fmt(r)} ${fmt(h / 2)} 0 0 0 ${fmt(x + w)} ${fmt(y + h)} ` +
        `L${fmt(x + r)} ${fmt(y + h)} A${fmt(r)} ${fmt(h / 2)} 0 0 1 ${fmt(x + r)} ${fmt(y)} Z`;
      return { outline: { kind: 'path', d, closed: true }, details: [], textBox: sub(box, r * 0.5, 0, w - r, h) };
    }
    case 'folder': {
      // PlantUML's folder: a tab a third as wide as the folder (up to 80 px), a fifth as tall (up to 14 px).
      const tab = Math.min(h * 0.2, 14);
      const tabWidth = Math.min(w * 0.35, 80);
      const points = [p(x, y), p(x + tabWidth, y), p(x + tabWidth + tab, y + tab), p(x + w, y + tab), p(x + w, y + h), p(x, y + h)];
      return { outline: polygon(points, corner, box), details: [], textBox: sub(box, 0, tab, w, h) };
    }
    case 'box-3d': {
      // UML's node: the front face, and its top and right side going back by `depth`.
      const depth = Math.min(w * 0.1, h * 0.2, 12);
      const points = [p(x, y + depth), p(x + depth, y), p(x + w, y), p(x + w, y + h - depth), p(x + w - depth, y + h), p(x, y + h)];
      const edges = strokes([[p(x, y + depth), p(x + w - depth, y + depth), p(x + w, y)], [p(x + w - depth, y + depth), p(x + w - depth, y + h)]]);
      return { outline: polygon(points, corner, box), details: [edges], textBox: sub(box, 0, depth, w - depth, h) };
    }
    case 'page': {
      // A page with its top right corner folded down, the fold drawn, as PlantUML draws `file` (10 px at its size).
      const fold = Math.min(w * 0.2, h * 0.3, 12);
      const points = [p(x, y), p(x + w - fold, y), p(x + w, y + fold), p(x + w, y + h), p(x, y + h)];
      const edges = strokes([[p(x + w - fold, y), p(x + w - fold, y + fold), p(x + w, y + fold)]]);
      return { outline: polygon(points, corner, box), details: [edges], textBox: sub(box, 0, fold / 2, w - fold / 2, h) };
    }
    case 'stacked': {
      // PlantUML's collections: the front box, and one copy behind it showing at the top and right.
      const gap = Math.min(w * 0.08, h * 0.15, 8);
      const points = [p(x + gap, y), p(x + w, y), p(x + w, y + h - gap), p(x + w - gap, y + h - gap), p(x + w - gap, y + h), p(x, y + h), p(x, y + gap), p(x + gap, y + gap)];
      const edges = strokes([[p(x + gap, y + gap), p(x + w - gap, y + gap), p(x + w - gap, y + h - gap)]]);
      return { outline: polygon(points, corner, box), details: [edges], textBox: sub(box, 0, gap, w - gap, h) };
    }
    case 'component': {
      // The box, and at its top right PlantUML's component icon: 15 × 10 px with two tabs across its left side.
      const [iw, ih] = [Math.min(15, w * 0.2), Math.min(10, h * 0.2)];
      const [ix, iy] = [x + w - iw - Math.min(6, w * 0.05), y + Math.min(6, h * 0.1)];
      const tab = (ty: number) => [p(ix - iw / 4, ty), p(ix + iw / 4, ty), p(ix + iw / 4, ty + ih / 5), p(ix - iw / 4, ty + ih / 5), p(ix - iw / 4, ty)];
      const icon = strokes([[p(ix, iy), p(ix + iw, iy), p(ix + iw, iy + ih), p(ix, iy + ih), p(ix, iy)], tab(iy + ih / 5), tab(iy + (3 * ih) / 5)]);
      // The label keeps a tenth of the width off each side (node-size's TEXT_AREA), clear of the icon.
      return { outline: polygon([p(x, y), p(x + w, y), p(x + w, y + h), p(x, y + h)], corner, box), details: [icon], textBox: sub(box, w * 0.1, 0, w * 0.9, h) };
    }
    case 'step': {
      // D2's step: the notch and the point as deep as each other, shallow enough to leave the label its width.
      const cut = Math.min(w * 0.2, h * 0.5);
      const points = [p(x, y), p(x + w - cut, y), p(x + w, y + h / 2), p(x + w - cut, y + h), p(x, y + h), p(x + cut, y + h / 2)];
      return { outline: polygon(points, corner, box), details: [], textBox: sub(box, cut, 0, w - cut * 0.5, h) };
    }
    case 'arrow-right':
      return blockArrow(box, 'right', corner);
    case 'arrow-left':
      return blockArrow(box, 'left', corner);
    case 'arrow-up':
      return blockArrow(box, 'up', corner);
    case 'arrow-down':
      return blockArrow(box, 'down', corner);
  }
}

/** A box with circular corners of radius r (a stadium when r is half the shorter side). */
function cornerPathArcs(points: Point[], r: number): string {
  const [a, b, c, d] = points as [Point, Point, Point, Point];
  const arc = (to: Point) => `A${fmt(r)} ${fmt(r)} 0 0 1 ${fmt(to.x)} ${fmt(to.y)} `;
  return (
    `M${fmt(a.x + r)} ${fmt(a.y)} L${fmt(b.x - r)} ${fmt(b.y)} ${arc(p(b.x, b.y + r))}` +
    `L${fmt(c.x)} ${fmt(c.y - r)} ${arc(p(c.x - r, c.y))}L${fmt(d.x + r)} ${fmt(d.y)} ${arc(p(d.x, d.y - r))}` +
    `L${fmt(a.x)} ${fmt(a.y + r)} ${arc(p(a.x + r, a.y))}Z`
  );
}

/** The closed outline as an exact SVG path, for `clean` drawing. */
export function outlinePath(outline: Outline): string {
  switch (outline.kind) {
    case 'rectangle': {
      const { x, y, width, height } = outline.box;
      return `M${fmt(x)} ${fmt(y)} H${fmt(x + width)} V${fmt(y + height)} H${fmt(x)} Z`;
    }
    case 'ellipse': {
      const { x, y, width, height } = outline.box;
      const rx = fmt(width / 2);
      const ry = fmt(height / 2);
      return `M${fmt(x)} ${fmt(y + height / 2)} A${rx} ${ry} 0 1 0 ${fmt(x + width)} ${fmt(y + height / 2)} A${rx} ${ry} 0 1 0 ${fmt(x)} ${fmt(y + height / 2)} Z`;
    }
    case 'polygon':
      return `M${outline.points.map((q) => `${fmt(q.x)} ${fmt(q.y)}`).join(' L')} Z`;
    case 'path':
      return outline.d;
  }
}
