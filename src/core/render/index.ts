/** Scene → SVG: the renderer's public surface. PNG rasterising lives in `png.ts` (it loads a native addon). */
export { renderSvg, type RenderOptions } from './scene.js';
export type { RenderElement } from './style.js';
export { EmbeddedFonts, ESTIMATED_FONTS, type FontFamily, type FontFiles, type FontMetrics } from './fonts.js';
