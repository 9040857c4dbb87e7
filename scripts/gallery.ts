/**
 * Writes the gallery (every element type × style, test/fixtures/render/gallery.ts) to gallery-out/ as SVG and PNG,
 * for people to look at: `npm run gallery`, or `node --import tsx scripts/gallery.ts [scale]`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { renderSvg } from '../src/core/render/index.js';
import { renderScenePng } from '../src/core/render/png.js';
import { loadRenderFonts } from '../src/infra/fonts.js';
import { galleryElements } from '../test/fixtures/render/gallery.js';

const scale = Number(process.argv[2] ?? 1);
const out = new URL('../gallery-out/', import.meta.url);
mkdirSync(out, { recursive: true });
const fonts = loadRenderFonts();
const elements = galleryElements();
const svg = renderSvg(elements, { fonts });
writeFileSync(new URL('gallery.svg', out), svg);
writeFileSync(new URL('gallery.png', out), renderScenePng(elements, { fonts, scale }));
console.log(`${elements.length} elements → gallery-out/gallery.svg (${Math.round(svg.length / 1024)} KiB), gallery-out/gallery.png`);
