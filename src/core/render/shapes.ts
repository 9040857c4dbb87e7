import { SHAPE_TYPES, type ShapeType } from '../scene/constants.js';
import type { RenderContext } from './context.js';
import { LINE_HEIGHT } from '../layout/measure.js';
import { FRAME_NAME_SIZE, ICON_LABEL_GAP, LABEL_PADDING } from './constants.js';
import { drawFigure } from './draw.js';
import { drawIcon } from './icons.js';
import { shapeGeometry, type Box } from './outlines.js';
import { boxOf, cornerOf, drawStyleOf, finite, grow, text, textStyleOf, union, type Drawn, type RenderElement } from './style.js';
import { drawTextBlock, paperPatch, wrapText } from './text.js';

export const isShapeType = (type: string): type is ShapeType => (SHAPE_TYPES as readonly string[]).includes(type);

/** The part of the label box below a stamped icon. */
function belowIcon(textBox: Box, icon: { y: number; height: number }): Box {
  const top = finite(icon.y, textBox.y) + finite(icon.height, 0) + ICON_LABEL_GAP;
  const bottom = Math.max(top, textBox.y + textBox.height);
  return { x: textBox.x, y: top, width: textBox.width, height: bottom - top };
}

/** A closed shape: outline, details (a cylinder's rim), stamped icon, and its label wrapped inside. */
export function drawShape(ctx: RenderContext, element: RenderElement & { type: ShapeType }): Drawn {
  const box = boxOf(element);
  const style = drawStyleOf(element);
  const geometry = shapeGeometry(element.type, box, cornerOf(element));
  let svg = drawFigure(geometry.outline, style);
  for (const detail of geometry.details) svg += drawFigure(detail, { ...style, fill: undefined, seed: style.seed + 1 });
  const bounds = [grow(box, style.strokeWidth)];
  const icon = element.icon;
  if (icon) svg += drawIcon(ctx, icon);
  const label = text(element.text);
  if (label !== undefined) {
    const textStyle = textStyleOf(element, { family: 'hand', size: 20, align: 'center' });
    const area = icon && element.labelPlacement === 'below-icon' ? belowIcon(geometry.textBox, icon) : geometry.textBox;
    // A box narrower than one character still gets one character a line rather than nothing.
    const lines = wrapText(ctx.fonts, label, Math.max(area.width, textStyle.size), textStyle, box.width - 2 * LABEL_PADDING);
    const block = drawTextBlock(ctx, lines, textStyle, area, geometry.labelAt ?? 'middle');
    svg += block.svg;
    bounds.push(block.bounds);
  }
  return { svg, bounds: union(bounds) };
}

/**
 * The frame's name sits above its top-left corner, outside the frame, in the normal font, on a patch of paper: a line
 * passing there (a sequence diagram's lifeline through a fragment's name) does not strike through it.
 */
export function drawFrame(ctx: RenderContext, element: RenderElement & { type: 'frame' }): Drawn {
  const box = boxOf(element);
  const style = drawStyleOf(element);
  let svg = drawFigure({ kind: 'rectangle', box }, style);
  const bounds = [grow(box, style.strokeWidth)];
  const name = text(element.name);
  if (name !== undefined) {
    const textStyle = { ...textStyleOf(element, { family: 'normal', size: FRAME_NAME_SIZE, align: 'left' }), family: 'normal' as const, align: 'left' as const };
    const lines = [name.replace(/\s+/g, ' ')];
    const height = textStyle.size * LINE_HEIGHT;
    const block = drawTextBlock(ctx, lines, { ...textStyle, color: style.stroke ?? textStyle.color }, { x: box.x, y: box.y - height - LABEL_PADDING / 2, width: box.width, height }, 'top');
    const patch = paperPatch(ctx, block.bounds);
    svg += patch.svg + block.svg;
    bounds.push(patch.bounds);
  }
  return { svg, bounds: union(bounds) };
}
