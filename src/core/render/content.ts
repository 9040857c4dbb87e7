import { LINE_HEIGHT } from '../layout/measure.js';
import { IMAGE_DATA_URL_MAX_CHARS, IMAGE_MIME_TYPES } from '../scene/constants.js';
import { isWebUrl } from '../scene/schema.js';
import { EMBED_CARD } from './constants.js';
import type { RenderContext } from './context.js';
import { drawFigure } from './draw.js';
import type { FontMetrics } from './fonts.js';
import { cornerPath, type Box } from './outlines.js';
import { boxOf, drawStyleOf, grow, text, textStyleOf, union, type Drawn, type RenderElement } from './style.js';
import { attrs, fmt } from './svg.js';
import { drawTextBlock, textLines, type TextStyle } from './text.js';

/** Raster data URLs only (the schema's rule, checked again here: the renderer trusts no input). */
const RASTER_DATA_URL = new RegExp(`^data:(?:${IMAGE_MIME_TYPES.join('|').replaceAll('/', '\\/')});base64,[A-Za-z0-9+/]*={0,2}$`);
const isRasterDataUrl = (value: unknown): value is string =>
  typeof value === 'string' && value.length <= IMAGE_DATA_URL_MAX_CHARS && RASTER_DATA_URL.test(value);

/** Standalone text: its own lines only (no wrapping), from the top of its box, aligned across the box's width. */
export function drawText(ctx: RenderContext, element: RenderElement & { type: 'text' }): Drawn | undefined {
  const content = text(element.text);
  if (content === undefined) return undefined;
  const box = boxOf(element);
  const block = drawTextBlock(ctx, textLines(content), textStyleOf(element, { family: 'hand', size: 20, align: 'left' }), box, 'top');
  return { svg: block.svg, bounds: union([box, block.bounds]) };
}

/** An image from a raster data URL, letterboxed in its box; anything else becomes an empty crossed placeholder. */
export function drawImage(element: RenderElement & { type: 'image' }): Drawn {
  const box = boxOf(element);
  const position = [['x', box.x], ['y', box.y], ['width', box.width], ['height', box.height]] as const;
  if (isRasterDataUrl(element.dataUrl)) {
    return { svg: `<image${attrs([...position, ['preserveAspectRatio', 'xMidYMid meet'], ['href', element.dataUrl]])}/>`, bounds: box };
  }
  const [left, top, right, bottom] = [fmt(box.x), fmt(box.y), fmt(box.x + box.width), fmt(box.y + box.height)];
  const cross = `M${left} ${top} L${right} ${bottom} M${right} ${top} L${left} ${bottom}`;
  const svg =
    `<rect${attrs([...position, ['fill', '#f1f3f5'], ['stroke', '#adb5bd'], ['stroke-width', 1]])}/>` +
    `<path${attrs([['d', cross], ['fill', 'none'], ['stroke', '#adb5bd'], ['stroke-width', 1]])}/>`;
  return { svg, bounds: box };
}

/** `text` cut to fit `maxWidth`, with an ellipsis when something was cut. */
export function ellipsize(fonts: FontMetrics, value: string, maxWidth: number, style: Pick<TextStyle, 'family' | 'size' | 'face'>): string {
  if (fonts.lineWidth(value, style.family, style.size, style.face) <= maxWidth) return value;
  const chars = [...value];
  let low = 0;
  let high = chars.length;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (fonts.lineWidth(`${chars.slice(0, mid).join('')}…`, style.family, style.size, style.face) <= maxWidth) low = mid;
    else high = mid - 1;
  }
  return `${chars.slice(0, low).join('')}…`;
}

/** The page an embed shows is never fetched: a card names its site and address instead. */
export function drawEmbed(ctx: RenderContext, element: RenderElement & { type: 'embed' }): Drawn {
  const box = boxOf(element);
  const style = drawStyleOf(element);
  const radius = Math.min(EMBED_CARD.radius, box.width / 4, box.height / 4);
  const corners = [
    { x: box.x, y: box.y },
    { x: box.x + box.width, y: box.y },
    { x: box.x + box.width, y: box.y + box.height },
    { x: box.x, y: box.y + box.height },
  ];
  const card = { kind: 'path' as const, d: cornerPath(corners, 'rounded', corners.map(() => radius)), closed: true };
  let svg = drawFigure(card, { ...style, fill: style.fill ?? EMBED_CARD.fill, fillStyle: style.fill ? style.fillStyle : 'solid' });
  // Only web addresses are shown; anything else could only come from a forged scene.
  const url = typeof element.url === 'string' && isWebUrl(element.url) ? element.url : '';
  const site = url === '' ? 'no web address' : new URL(url).hostname;
  const inner: Box = grow(box, -EMBED_CARD.padding);
  const base = textStyleOf(element, { family: 'normal', size: EMBED_CARD.titleSize, align: 'left' });
  const title: TextStyle = { ...base, family: 'normal', size: EMBED_CARD.titleSize };
  const address: TextStyle = { ...title, size: EMBED_CARD.urlSize, color: EMBED_CARD.urlColor };
  const width = Math.max(0, inner.width);
  const titleHeight = title.size * LINE_HEIGHT;
  const addressHeight = address.size * LINE_HEIGHT;
  const top = inner.y + (inner.height - titleHeight - addressHeight) / 2;
  svg += drawTextBlock(ctx, [ellipsize(ctx.fonts, site, width, title)], title, { x: inner.x, y: top, width, height: titleHeight }, 'top').svg;
  svg += drawTextBlock(ctx, [ellipsize(ctx.fonts, url, width, address)], address, { x: inner.x, y: top + titleHeight, width, height: addressHeight }, 'top').svg;
  return { svg, bounds: grow(box, style.strokeWidth) };
}
