import { Resvg } from '@resvg/resvg-js';
import { AppError } from '../errors.js';
import { LIMITS } from '../limits.js';
import { renderSvg, type RenderOptions } from './scene.js';
import type { RenderElement } from './style.js';

/**
 * SVG → PNG with resvg (its native addon ships in the npm package). The addon takes fonts only as files on disk,
 * so it is given none: the SVG it rasterises carries its text as glyph outlines (`renderSvg` with `textAs: 'paths'`),
 * the same glyphs at the same places as the fonts a browser gets embedded. No I/O, no system fonts: the same SVG
 * gives the same pixels on every machine.
 */

export interface PngOptions {
  /** Pixels per SVG unit. Default 1. */
  scale?: number | undefined;
  /** Longest side in pixels: the scale is lowered to fit it (previews), never raised. */
  fitWithin?: number | undefined;
}

export const PNG_SCALE = { min: 0.1, max: 8 } as const;

/** Rasterises an SVG; `<text>` is not drawn (no fonts are loaded): outline text first. */
export function renderPng(svg: string, options: PngOptions = {}): Buffer {
  let scale = options.scale ?? 1;
  if (!Number.isFinite(scale) || scale < PNG_SCALE.min || scale > PNG_SCALE.max) {
    throw new AppError('validation_failed', `scale must be between ${PNG_SCALE.min} and ${PNG_SCALE.max}, got ${scale}`);
  }
  const read = (zoom: number) => {
    try {
      return new Resvg(svg, { fitTo: { mode: 'zoom', value: zoom }, font: { loadSystemFonts: false }, logLevel: 'off' });
    } catch (error) {
      throw new AppError('validation_failed', `the SVG could not be read: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  let resvg = read(scale);
  if (options.fitWithin !== undefined && Math.max(resvg.width, resvg.height) * scale > options.fitWithin) {
    scale = options.fitWithin / Math.max(resvg.width, resvg.height);
    resvg = read(scale);
  }
  const [width, height] = [Math.ceil(resvg.width * scale), Math.ceil(resvg.height * scale)];
  const side = Math.max(width, height);
  if (side > LIMITS.renderSidePx || width * height > LIMITS.renderPixels) {
    const fit = Math.min(LIMITS.renderSidePx / Math.max(resvg.width, resvg.height), Math.sqrt(LIMITS.renderPixels / (resvg.width * resvg.height)));
    const advice = fit >= PNG_SCALE.min ? `ask for scale ${Math.floor(fit * 100) / 100} or less, or` : 'the drawing is too large to rasterise;';
    throw new AppError(
      'too_complex',
      `the PNG would be ${width} × ${height} px; renders are limited to ${LIMITS.renderSidePx} px a side and ${LIMITS.renderPixels / 1e6} megapixels: ${advice} export SVG`,
      { limit: 'render pixels', width, height, maxSide: LIMITS.renderSidePx, maxPixels: LIMITS.renderPixels },
    );
  }
  return resvg.render().asPng();
}

/** A scene straight to PNG: `renderSvg` with outlined text, then `renderPng`. */
export function renderScenePng(elements: readonly RenderElement[], options: RenderOptions & PngOptions = {}): Buffer {
  const { scale, fitWithin, ...svgOptions } = options;
  return renderPng(renderSvg(elements, { ...svgOptions, textAs: 'paths' }), { scale, fitWithin });
}
