import { AppError } from '../errors.js';
import { SHADOWS } from '../scene/constants.js';
import { isSafeLink } from '../scene/schema.js';
import { drawFreehand, drawConnector } from './connectors.js';
import { DEFAULT_BACKGROUND, SCENE_PADDING } from './constants.js';
import { drawEmbed, drawImage, drawText } from './content.js';
import { drawCode } from './code.js';
import { RenderContext } from './context.js';
import { ESTIMATED_FONTS, type FontMetrics } from './fonts.js';
import { drawMath } from './math.js';
import type { Box } from './outlines.js';
import { drawFrame, drawShape, isShapeType } from './shapes.js';
import { SHADOW_REACH, shadowDefs, shadowId } from './shadows.js';
import { finite, grow, oneOf, union, type Drawn, type RenderElement } from './style.js';
import { attrs, flatten, fmt } from './svg.js';

export interface RenderOptions {
  /** Real metrics and embedded fonts: `loadRenderFonts()` from `src/infra/fonts.ts`. Without them text is measured by estimate and no font is embedded. */
  fonts?: FontMetrics;
  /** A hex colour, or `transparent`. Default white. */
  background?: string;
  /** Empty margin around the drawing, px. Default 20. */
  padding?: number;
  /**
   * `text` (default): `<text>` with the fonts embedded as subsets, selectable and small. `paths`: glyph outlines,
   * for rasterising (`renderPng`), where no font needs loading. Needs `fonts`; without them text stays `text`.
   */
  textAs?: 'text' | 'paths';
  /** Prefix of every id in the document (letters, digits, `-`, `_`), so several diagrams can share one HTML page. Default `db`. */
  idPrefix?: string;
}

const HEX = /^#(?:[0-9a-fA-F]{3,4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/;
const ID_PREFIX = /^[A-Za-z][A-Za-z0-9_-]{0,31}$/;
const MAX_PADDING = 1000;

function readOptions(options: RenderOptions) {
  const background = options.background ?? DEFAULT_BACKGROUND;
  if (background !== 'transparent' && !HEX.test(background)) {
    throw new AppError('validation_failed', `background must be a hex colour like #ffffff or "transparent", got ${JSON.stringify(background)}`);
  }
  const padding = options.padding ?? SCENE_PADDING;
  if (!Number.isFinite(padding) || padding < 0 || padding > MAX_PADDING) {
    throw new AppError('validation_failed', `padding must be between 0 and ${MAX_PADDING}, got ${padding}`);
  }
  const prefix = options.idPrefix ?? 'db';
  if (!ID_PREFIX.test(prefix)) {
    throw new AppError('validation_failed', `idPrefix must be a letter then up to 31 letters, digits, "-" or "_", got ${JSON.stringify(prefix)}`);
  }
  return { background: background === 'transparent' ? undefined : background, padding, prefix };
}

function drawElement(ctx: RenderContext, element: RenderElement): Drawn | undefined {
  const type: string = element.type;
  if (isShapeType(type)) return drawShape(ctx, element as RenderElement & { type: typeof type });
  switch (element.type) {
    case 'text':
      return drawText(ctx, element);
    case 'image':
      return drawImage(element);
    case 'frame':
      return drawFrame(ctx, element);
    case 'embed':
      return drawEmbed(ctx, element);
    case 'math':
      return drawMath(ctx, element);
    case 'code':
      return drawCode(ctx, element);
    case 'arrow':
    case 'line':
      return drawConnector(ctx, element);
    case 'freedraw':
    case 'highlight':
      return drawFreehand(element);
    default:
      return undefined;
  }
}

/** The axis-aligned box of `box` turned by `angle` around `center`. */
function rotatedBounds(box: Box, angle: number, center: { x: number; y: number }): Box {
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  const corners = [
    [box.x, box.y],
    [box.x + box.width, box.y],
    [box.x, box.y + box.height],
    [box.x + box.width, box.y + box.height],
  ].map(([x, y]) => {
    const dx = x! - center.x;
    const dy = y! - center.y;
    return { x: center.x + dx * cos - dy * sin, y: center.y + dx * sin + dy * cos, width: 0, height: 0 };
  });
  return union(corners);
}

/**
 * The element's group: rotation about its box centre (an inner group, so a shadow keeps falling down-right whatever
 * the angle), opacity, shadow, and the link around it all.
 */
function place(ctx: RenderContext, element: RenderElement, drawn: Drawn): Drawn {
  let svg = drawn.svg;
  let bounds = drawn.bounds;
  const angle = finite(element.angle, 0) % (2 * Math.PI);
  if (angle !== 0) {
    const center = {
      x: finite(element.x, 0) + finite(element.width, 0) / 2,
      y: finite(element.y, 0) + finite(element.height, 0) / 2,
    };
    svg = `<g${attrs([['transform', `rotate(${fmt((angle * 180) / Math.PI)} ${fmt(center.x)} ${fmt(center.y)})`]])}>${svg}</g>`;
    bounds = rotatedBounds(bounds, angle, center);
  }
  const opacity = Math.min(100, Math.max(0, finite(element.opacity, 100)));
  const shadow = oneOf(SHADOWS, element.shadow, 'none');
  if (shadow !== 'none') ctx.shadows.add(shadow);
  svg = `<g${attrs([
    ['data-id', typeof element.id === 'string' ? element.id : undefined],
    ['opacity', opacity === 100 ? undefined : fmt(opacity / 100)],
    ['filter', shadow === 'none' ? undefined : `url(#${shadowId(ctx.prefix, shadow)})`],
  ])}>${svg}</g>`;
  if (shadow !== 'none') bounds = union([bounds, grow(bounds, SHADOW_REACH)]);
  if (typeof element.link === 'string' && isSafeLink(element.link)) svg = `<a${attrs([['href', element.link]])}>${svg}</a>`;
  return { svg, bounds };
}

/**
 * A scene as a standalone SVG document: every element in array order (later ones on top), the fonts its text uses
 * embedded as subsets, sized to the drawing plus padding. Pure and deterministic: the same elements and options give
 * the same bytes. Elements are expected as the intake stores them; any value that would reach the markup is still
 * checked, and all text is escaped.
 */
export function renderSvg(elements: readonly RenderElement[], options: RenderOptions = {}): string {
  const { background, padding, prefix } = readOptions(options);
  const ctx = new RenderContext(options.fonts ?? ESTIMATED_FONTS, prefix, background, options.fonts !== undefined && options.textAs === 'paths');
  let body = '';
  const boxes: Box[] = [];
  for (const element of elements) {
    if (typeof element !== 'object' || element === null) continue;
    const drawn = drawElement(ctx, element);
    if (!drawn || drawn.svg === '') continue;
    const placed = place(ctx, element, drawn);
    body += flatten(placed.svg);
    boxes.push(placed.bounds);
  }
  const content = union(boxes);
  const x = Math.floor(content.x - padding);
  const y = Math.floor(content.y - padding);
  const width = Math.ceil(content.x + content.width + padding) - x;
  const height = Math.ceil(content.y + content.height + padding) - y;
  const viewBox = { x, y, width, height };

  const css = ctx.fonts.fontFaceCss(ctx.glyphs);
  let defs = css === '' ? '' : `<style>${css}</style>`;
  defs += shadowDefs(prefix, ctx.shadows, viewBox);
  for (const markup of ctx.defs.values()) defs += markup;
  return (
    `<svg${attrs([
      ['xmlns', 'http://www.w3.org/2000/svg'],
      ['width', width],
      ['height', height],
      ['viewBox', `${x} ${y} ${width} ${height}`],
    ])}>` +
    (defs === '' ? '' : `<defs>${defs}</defs>`) +
    (background === undefined ? '' : `<rect${attrs([['x', x], ['y', y], ['width', width], ['height', height], ['fill', background]])}/>`) +
    body +
    '</svg>'
  );
}
