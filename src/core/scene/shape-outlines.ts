import { personFigure, roundFigure, type FigureShape, type ShapeType } from './constants.js';
import type { Point } from './schema.js';
import { dictionary } from '../dictionary.js';

/**
 * Outlines, in unit box coordinates (0..1), of the native shapes that Excalidraw draws only as a closed line.
 * The renderer draws these shapes itself; this table is for the Excalidraw export.
 */
const regular = (sides: number, rotation = -Math.PI / 2): Point[] =>
  Array.from({ length: sides }, (_, i) => {
    const t = rotation + (2 * Math.PI * i) / sides;
    return { x: 0.5 + 0.5 * Math.cos(t), y: 0.5 + 0.5 * Math.sin(t) };
  });

const star = (): Point[] =>
  Array.from({ length: 10 }, (_, i) => {
    const t = -Math.PI / 2 + (Math.PI * i) / 5;
    const r = i % 2 === 0 ? 0.5 : 0.2;
    return { x: 0.5 + r * Math.cos(t), y: 0.5 + r * Math.sin(t) };
  });

const pts = (...xy: number[]): Point[] => Array.from({ length: xy.length / 2 }, (_, i) => ({ x: xy[2 * i]!, y: xy[2 * i + 1]! }));
const arrowRight = pts(0, 0.25, 0.6, 0.25, 0.6, 0, 1, 0.5, 0.6, 1, 0.6, 0.75, 0, 0.75);
const turn = (points: Point[], f: (p: Point) => Point) => points.map(f);

export const SHAPE_OUTLINES: Partial<Record<ShapeType, Point[]>> = dictionary({
  triangle: pts(0.5, 0, 1, 1, 0, 1),
  'right-triangle': pts(0, 0, 1, 1, 0, 1),
  parallelogram: pts(0.2, 0, 1, 0, 0.8, 1, 0, 1),
  trapezoid: pts(0.2, 0, 0.8, 0, 1, 1, 0, 1),
  star: star(),
  hexagon: pts(0.25, 0, 0.75, 0, 1, 0.5, 0.75, 1, 0.25, 1, 0, 0.5),
  heptagon: regular(7),
  octagon: regular(8, -Math.PI / 2 + Math.PI / 8),
  cross: pts(1 / 3, 0, 2 / 3, 0, 2 / 3, 1 / 3, 1, 1 / 3, 1, 2 / 3, 2 / 3, 2 / 3, 2 / 3, 1, 1 / 3, 1, 1 / 3, 2 / 3, 0, 2 / 3, 0, 1 / 3, 1 / 3, 1 / 3),
  'speech-bubble': pts(0, 0, 1, 0, 1, 0.75, 0.45, 0.75, 0.2, 1, 0.25, 0.75, 0, 0.75),
  document: pts(0, 0, 1, 0, 1, 0.85, 0.75, 0.78, 0.5, 0.85, 0.25, 0.95, 0, 0.88),
  'manual-input': pts(0, 0.25, 1, 0, 1, 1, 0, 1),
  display: pts(0.15, 0, 0.85, 0, 1, 0.5, 0.85, 1, 0.15, 1, 0, 0.5),
  preparation: pts(0.2, 0, 0.8, 0, 1, 0.5, 0.8, 1, 0.2, 1, 0, 0.5),
  'arrow-right': arrowRight,
  'arrow-left': turn(arrowRight, (p) => ({ x: 1 - p.x, y: p.y })),
  'arrow-down': turn(arrowRight, (p) => ({ x: p.y, y: p.x })),
  'arrow-up': turn(arrowRight, (p) => ({ x: p.y, y: 1 - p.x })),
  step: pts(0, 0, 0.8, 0, 1, 0.5, 0.8, 1, 0, 1, 0.2, 0.5),
  folder: pts(0, 0, 0.35, 0, 0.4, 0.15, 1, 0.15, 1, 1, 0, 1),
  'box-3d': pts(0, 0.15, 0.1, 0, 1, 0, 1, 0.85, 0.9, 1, 0, 1),
  page: pts(0, 0, 0.85, 0, 1, 0.15, 1, 1, 0, 1),
  stacked: pts(0.06, 0, 1, 0, 1, 0.9, 0.94, 0.9, 0.94, 1, 0, 1, 0, 0.1, 0.06, 0.1),
});

/** Native shapes that map onto an Excalidraw shape: exact twins, then the closest shape for the rest. */
export const EXCALIDRAW_SHAPE_TWIN: Partial<Record<ShapeType, { type: 'rectangle' | 'ellipse' | 'diamond'; rounded?: boolean }>> = dictionary({
  rectangle: { type: 'rectangle' },
  ellipse: { type: 'ellipse' },
  diamond: { type: 'diamond' },
  cloud: { type: 'ellipse' },
  cylinder: { type: 'rectangle', rounded: true },
  'data-storage': { type: 'rectangle', rounded: true },
  'horizontal-cylinder': { type: 'rectangle', rounded: true },
  terminator: { type: 'rectangle', rounded: true },
  component: { type: 'rectangle' },
});

type Box = { x: number; y: number; width: number; height: number };

/** Once round a circle, from the angle `from` (0 is its rightmost point, π/2 its lowest). */
function loopRound(circle: Box, from: number): Point[] {
  const rx = circle.width / 2;
  const ry = circle.height / 2;
  return Array.from({ length: 13 }, (_, i) => {
    const t = from + (2 * Math.PI * i) / 12;
    return { x: circle.x + rx + rx * Math.cos(t), y: circle.y + ry + ry * Math.sin(t) };
  });
}

/**
 * A figure as one Excalidraw line, in scene coordinates. A line cannot branch, so it goes back over a stroke where it
 * must: a person runs along the arms, back to the shoulder, up round the head, down the body and along each leg; a
 * boundary down its bar, back up to the stem and round the circle; a control along its arrowhead and round; an entity
 * round its circle and along the line under it.
 */
export function figureTrace(type: FigureShape, box: Box): Point[] {
  if (type === 'person') {
    const { head, body, arms, legs } = personFigure(box);
    // From the neck (the head's lowest point) once round.
    return [arms[0], arms[1], { x: body[0].x, y: arms[0].y }, ...loopRound(head, Math.PI / 2), body[1], legs[0], legs[1], legs[2]];
  }
  const { circle, strokes } = roundFigure(type, box);
  if (type === 'boundary') {
    const [bar, stem] = strokes as [Point[], Point[]];
    return [bar[0]!, bar[1]!, stem[0]!, ...loopRound(circle, Math.PI)];
  }
  if (type === 'control') {
    const [head] = strokes as [Point[]];
    return [head[0]!, head[1]!, head[2]!, head[1]!, ...loopRound(circle, -Math.PI / 2)];
  }
  if (type === 'entity') return [...loopRound(circle, Math.PI / 2), ...strokes[0]!];
  return loopRound(circle, Math.PI / 2);
}
