import { renderSvg } from '../core/render/index.js';
import { renderScenePng } from '../core/render/png.js';
import type { Renderer } from '../service/diagrams.js';
import { loadRenderFonts } from './fonts.js';

/** The renderer with the embedded fonts, which are read from their packages on the first render, not at start-up. */
export function createRenderer(): Renderer {
  return {
    svg: (elements) => renderSvg(elements, { fonts: loadRenderFonts() }),
    png: (elements, scale) => renderScenePng(elements, { fonts: loadRenderFonts(), scale }),
  };
}
