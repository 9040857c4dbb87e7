import type { StampedIcon } from '../icons/index.js';
import {
  ARROWHEADS,
  BOWING,
  CORNERS,
  FILL_STYLES,
  FONT_FAMILIES,
  ROUGHNESS,
  STROKE_STYLES,
  STROKE_WIDTH,
  TEXT_ALIGNS,
} from '../scene/constants.js';
import type { Element } from '../scene/schema.js';
import type { DrawStyle } from './draw.js';
import type { FontFamily } from './fonts.js';
import type { Box, Corner } from './outlines.js';
import type { TextStyle } from './text.js';

/**
 * Reading an element's style for drawing. Scenes normally come validated from the intake, but the renderer takes
 * whatever it is given without trusting it: every value that reaches an attribute is checked here and falls back
 * to the schema default, so a hostile field can never break out of its attribute.
 */

/** A stored element as the renderer sees it: the schema's element plus what icon stamping adds. */
export type RenderElement = Element & {
  icon?: StampedIcon;
  labelPlacement?: 'below-icon';
};

/** Something drawn: its markup and the box it covers (unrotated, in scene coordinates). */
export interface Drawn {
  svg: string;
  bounds: Box;
}

const HEX = /^#(?:[0-9a-fA-F]{3,4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/;
export const color = (value: unknown, fallback: string): string => (typeof value === 'string' && HEX.test(value) ? value : fallback);
/** A fill colour, or undefined for `transparent` (and anything unreadable). */
export const fillColor = (value: unknown): string | undefined => (typeof value === 'string' && HEX.test(value) ? value : undefined);
export const finite = (value: unknown, fallback: number): number => (typeof value === 'number' && Number.isFinite(value) ? value : fallback);
export const oneOf = <T extends string>(values: readonly T[], value: unknown, fallback: T): T =>
  (values as readonly unknown[]).includes(value) ? (value as T) : fallback;
export const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

export const boxOf = (element: { x: unknown; y: unknown; width: unknown; height: unknown }): Box => ({
  x: finite(element.x, 0),
  y: finite(element.y, 0),
  width: Math.max(0, finite(element.width, 0)),
  height: Math.max(0, finite(element.height, 0)),
});

export const strokeColorOf = (element: RenderElement): string => color(element.strokeColor, '#1e1e1e');

export function drawStyleOf(element: RenderElement): DrawStyle {
  return {
    stroke: strokeColorOf(element),
    strokeWidth: Math.min(STROKE_WIDTH.max, Math.max(STROKE_WIDTH.min, finite(element.strokeWidth, 2))),
    strokeStyle: oneOf(STROKE_STYLES, element.strokeStyle, 'solid'),
    fill: fillColor(element.fillColor),
    fillStyle: oneOf(FILL_STYLES, element.fillStyle, 'solid'),
    roughness: oneOf(ROUGHNESS, element.roughness, 'sketch'),
    bowing: oneOf(BOWING, element.bowing, 'curved'),
    seed: finite(element.seed, 1),
  };
}

export const cornerOf = (element: RenderElement): Corner => oneOf(CORNERS, element.corner, 'sharp');
export const arrowheadOf = (value: unknown, fallback: (typeof ARROWHEADS)[number]) => oneOf(ARROWHEADS, value, fallback);

/** Font sizes beyond this are treated as this: a label a screen high is already unreadable as a label. */
const FONT_SIZE_MAX = 400;

export function textStyleOf(element: RenderElement, defaults: { family: FontFamily; size: number; align: TextStyle['align'] }): TextStyle {
  const size = finite(element.fontSize, defaults.size);
  return {
    family: oneOf(FONT_FAMILIES, element.fontFamily, defaults.family),
    size: size > 0 ? Math.min(size, FONT_SIZE_MAX) : defaults.size,
    color: strokeColorOf(element),
    align: oneOf(TEXT_ALIGNS, element.textAlign, defaults.align),
    ...((element.fontWeight === 'bold' || element.fontStyle === 'italic') && { face: { bold: element.fontWeight === 'bold', italic: element.fontStyle === 'italic' } }),
  };
}

export function union(boxes: readonly Box[]): Box {
  let left = Infinity;
  let top = Infinity;
  let right = -Infinity;
  let bottom = -Infinity;
  for (const b of boxes) {
    if (!Number.isFinite(b.x) || !Number.isFinite(b.y)) continue;
    left = Math.min(left, b.x);
    top = Math.min(top, b.y);
    right = Math.max(right, b.x + b.width);
    bottom = Math.max(bottom, b.y + b.height);
  }
  return left === Infinity ? { x: 0, y: 0, width: 0, height: 0 } : { x: left, y: top, width: right - left, height: bottom - top };
}

export const grow = (box: Box, by: number): Box => ({ x: box.x - by, y: box.y - by, width: box.width + 2 * by, height: box.height + 2 * by });
