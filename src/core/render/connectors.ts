import { LINE_HEIGHT } from '../layout/measure.js';
import { ARROW_SHAPES, LINE_SHAPES } from '../scene/constants.js';
import type { Point } from '../scene/schema.js';
import { arrowheadParts, headSize } from './arrowheads.js';
import { CONNECTOR_LABEL_SIZE, dashArray } from './constants.js';
import type { RenderContext } from './context.js';
import { drawFigure, type DrawStyle } from './draw.js';
import { connectorGeometry, freehandPath, halfway, pathLength } from './paths.js';
import {
  arrowheadOf,
  color,
  cornerOf,
  drawStyleOf,
  finite,
  grow,
  oneOf,
  text,
  textStyleOf,
  union,
  type Drawn,
  type RenderElement,
} from './style.js';
import { attrs } from './svg.js';
import { drawTextBlock, paperPatch, textLines } from './text.js';

/** Gap between a connector label and the paper patch behind it, px. */

const pointsOf = (value: unknown): Point[] =>
  Array.isArray(value)
    ? value.filter((q): q is Point => typeof q === 'object' && q !== null).map((q) => ({ x: finite(q.x, 0), y: finite(q.y, 0) }))
    : [];
const pointOf = (value: unknown): Point | undefined =>
  typeof value === 'object' && value !== null ? { x: finite((value as Point).x, 0), y: finite((value as Point).y, 0) } : undefined;

const boundsOf = (points: readonly Point[]) => union(points.map((q) => ({ x: q.x, y: q.y, width: 0, height: 0 })));

/**
 * Arrows and lines: the body in the element's style, arrowheads (always solid strokes: a dashed head reads as
 * noise), and the label halfway along on a patch of paper that interrupts the line.
 */
export function drawConnector(ctx: RenderContext, element: RenderElement & { type: 'arrow' | 'line' }): Drawn | undefined {
  const points = pointsOf(element.points);
  if (points.length === 0) return undefined;
  const style = drawStyleOf(element);
  const isArrow = element.type === 'arrow';
  const shape = isArrow
    ? oneOf(ARROW_SHAPES, element.arrowShape, points.length === 2 ? 'straight' : points.length === 3 ? 'elbow' : 'multipoint')
    : oneOf(LINE_SHAPES, element.lineShape, points.length === 2 ? 'straight' : 'multipoint');
  const geometry = connectorGeometry({
    points,
    shape,
    controlPoint: isArrow ? pointOf(element.controlPoint) : undefined,
    controlPoint2: isArrow ? pointOf(element.controlPoint2) : undefined,
    corner: cornerOf(element),
  });
  const first = points[0]!;
  const last = points[points.length - 1]!;
  // A line that comes back to where it started is a closed figure and takes the fill.
  const closed = !isArrow && points.length > 3 && first.x === last.x && first.y === last.y;
  const body = closed && geometry.figure.kind === 'polyline' ? { kind: 'polygon' as const, points: points.slice(0, -1) } : geometry.figure;
  let svg = drawFigure(body, closed ? style : { ...style, fill: undefined });
  const bounds = [grow(boundsOf(geometry.samples), style.strokeWidth)];

  if (isArrow) {
    const size = Math.min(headSize(style.strokeWidth), pathLength(geometry.samples) * 0.4);
    const ends = [
      [arrowheadOf(element.startArrowhead, 'none'), geometry.start],
      [arrowheadOf(element.endArrowhead, 'arrow'), geometry.end],
    ] as const;
    ends.forEach(([kind, end], i) => {
      for (const part of arrowheadParts(kind, end, size)) {
        const headStyle: DrawStyle = {
          ...style,
          strokeStyle: 'solid',
          fill: part.fill === 'ink' ? style.stroke : part.fill === 'paper' ? ctx.paper : undefined,
          fillStyle: 'solid',
          seed: style.seed + 2 + i,
        };
        svg += drawFigure(part.figure, headStyle);
      }
      bounds.push(grow({ x: end.point.x, y: end.point.y, width: 0, height: 0 }, size * 1.6));
    });
  }

  const label = text(element.text);
  if (label !== undefined) {
    const textStyle = textStyleOf(element, { family: 'hand', size: CONNECTOR_LABEL_SIZE, align: 'center' });
    const lines = textLines(label);
    // reduce, not Math.max(...): a label of a few hundred thousand lines would overflow the call stack.
    const width = lines.reduce((widest, line) => Math.max(widest, ctx.fonts.lineWidth(line, textStyle.family, textStyle.size, textStyle.face)), 0);
    const height = lines.length * textStyle.size * LINE_HEIGHT;
    const mid = halfway(geometry.samples);
    const box = { x: mid.x - width / 2, y: mid.y - height / 2, width, height };
    const patch = paperPatch(ctx, box);
    svg += patch.svg + drawTextBlock(ctx, lines, textStyle, box, 'middle').svg;
    bounds.push(patch.bounds);
  }
  return { svg, bounds: union(bounds) };
}

/**
 * Freehand strokes are already hand-drawn: a smooth path through the points with round ends, never roughened.
 * A highlight is the same stroke as a translucent marker (its opacity defaults to 50 in the schema), 2.5 times as
 * wide: stroke widths stop at 8, thin for a marker.
 */
export function drawFreehand(element: RenderElement & { type: 'freedraw' | 'highlight' }): Drawn | undefined {
  const points = pointsOf(element.points);
  if (points.length === 0) return undefined;
  const style = drawStyleOf(element);
  const marker = element.type === 'highlight';
  const width = marker ? style.strokeWidth * 2.5 : style.strokeWidth;
  const svg = `<path${attrs([
    ['d', freehandPath(points)],
    ['fill', 'none'],
    ['stroke', color(element.strokeColor, marker ? '#ffec99' : '#1e1e1e')],
    ['stroke-width', width],
    ['stroke-linecap', 'round'],
    ['stroke-linejoin', 'round'],
    ['stroke-dasharray', dashArray(style.strokeStyle, width)],
  ])}/>`;
  return { svg, bounds: grow(boundsOf(points), width) };
}
