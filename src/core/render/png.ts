import { Resvg } from '@resvg/resvg-js';
import { AppError } from '../errors.js';
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
  scale?: number;
}

export const PNG_SCALE = { min: 0.1, max: 8 } as const;

/** Rasterises an SVG; `<text>` is not drawn (no fonts are loaded): outline text first. */
export function renderPng(svg: string, options: PngOptions = {}): Buffer {
  const scale = options.scale ?? 1;
  if (!Number.isFinite(scale) || scale < PNG_SCALE.min || scale > PNG_SCALE.max) {
    throw new AppError('validation_failed', `scale must be between ${PNG_SCALE.min} and ${PNG_SCALE.max}, got ${scale}`);
  }
  let resvg: Resvg;
  try {
    resvg = new Resvg(svg, { fitTo: { mode: 'zoom', value: scale }, font: { loadSystemFonts: false }, logLevel: 'off' });
  } catch (error) {
    throw new AppError('validation_failed', `the SVG could not be read: ${error instanceof Error ? error.message : String(error)}`);
  }
  return resvg.render().asPng();
}

/** A scene straight to PNG: `renderSvg` with outlined text, then `renderPng`. */
export function renderScenePng(elements: readonly RenderElement[], options: RenderOptions & PngOptions = {}): Buffer {
  const { scale, ...svgOptions } = options;
  return renderPng(renderSvg(elements, { ...svgOptions, textAs: 'paths' }), { scale });
}
