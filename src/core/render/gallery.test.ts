import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import pixelmatch from 'pixelmatch';
import { chromium } from 'playwright-core';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { galleryElements } from '../../../test/fixtures/render/gallery.js';
import { loadRenderFonts } from '../../infra/fonts.js';
import { ARROWHEADS, ARROW_SHAPES, BOWING, CORNERS, ELEMENT_TYPES, FILL_STYLES, ROUGHNESS, SHADOWS, STROKE_STYLES } from '../scene/constants.js';
import { renderSvg } from './index.js';
import { renderPng, renderScenePng } from './png.js';

/**
 * The gallery (every element type × style) against its golden PNG, and the same SVG as a browser draws it against
 * what the rasteriser draws. Regenerate the golden on purpose only: UPDATE_GOLDEN=1 npx vitest run src/core/render
 */
const GOLDEN = new URL('../../../test/fixtures/render/gallery.png', import.meta.url);
/** Half size keeps the golden small; geometry and fills still show at that size. */
const GOLDEN_SCALE = 0.5;
const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

const fonts = loadRenderFonts();
const elements = galleryElements();

/** Share of pixels that differ beyond pixelmatch's colour threshold. */
function mismatch(a: Buffer, b: Buffer): number {
  const left = PNG.sync.read(a);
  const right = PNG.sync.read(b);
  expect([right.width, right.height]).toEqual([left.width, left.height]);
  return pixelmatch(left.data, right.data, undefined, left.width, left.height, { threshold: 0.2 }) / (left.width * left.height);
}

describe('the gallery', () => {
  it('holds every element type and every value of every style field', () => {
    const seen = (field: string) => new Set(elements.map((e) => (e as unknown as Record<string, unknown>)[field]));
    expect([...seen('type')].sort()).toEqual([...ELEMENT_TYPES].sort());
    for (const [field, values] of [
      ['fillStyle', FILL_STYLES],
      ['strokeStyle', STROKE_STYLES],
      ['roughness', ROUGHNESS],
      ['bowing', BOWING],
      ['corner', CORNERS],
      ['shadow', SHADOWS],
      ['arrowShape', ARROW_SHAPES],
      ['endArrowhead', ARROWHEADS],
    ] as const) {
      for (const value of values) expect(seen(field), `${field} ${value}`).toContain(value);
    }
    expect(elements.some((e) => e.icon)).toBe(true);
  });

  it('renders to the same bytes every time', () => {
    expect(renderSvg(elements, { fonts })).toBe(renderSvg(elements, { fonts }));
  });

  it('rasterises like the golden PNG', () => {
    const png = renderScenePng(elements, { fonts, scale: GOLDEN_SCALE });
    if (process.env.UPDATE_GOLDEN || !existsSync(GOLDEN)) writeFileSync(GOLDEN, png);
    // Anti-aliasing may differ by a shade between CPUs; a moved or missing shape changes thousands of pixels.
    expect(mismatch(readFileSync(GOLDEN), png)).toBeLessThan(0.001);
  });

  // In CI a missing browser fails the run (.ci/run installs it); elsewhere the comparison is skipped.
  it.skipIf(!existsSync(CHROMIUM) && process.env.CI !== 'true')(
    'looks the same in Chromium (embedded fonts, as an <img>) as in resvg (outlined text)',
    async () => {
      const svg = renderSvg(elements, { fonts });
      const [width, height] = [Number(/ width="(\d+)"/.exec(svg)![1]), Number(/ height="(\d+)"/.exec(svg)![1])];
      const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
      try {
        const page = await browser.newPage({ viewport: { width, height }, deviceScaleFactor: 1 });
        await page.setContent(`<body style="margin:0"><img id="diagram" src="data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}"></body>`);
        await page.waitForFunction(() => {
          const img = document.getElementById('diagram') as { complete?: boolean; naturalWidth?: number } | null;
          return img?.complete === true && (img.naturalWidth ?? 0) > 0;
        });
        const shot = await page.locator('#diagram').screenshot();
        // Text is where the two differ most (hinting, gamma); a font that failed to load would differ by far more.
        expect(mismatch(shot, renderPng(renderSvg(elements, { fonts, textAs: 'paths' })))).toBeLessThan(0.005);
      } finally {
        await browser.close();
      }
    },
    60_000,
  );
});
