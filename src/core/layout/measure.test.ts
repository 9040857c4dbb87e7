import { readFileSync } from 'node:fs';
import * as fontkit from 'fontkit';
import { describe, expect, it } from 'vitest';
import { fontAdvancesModule, isTabulated } from '../../../scripts/font-advances.js';
import { loadFontFiles, loadRenderFonts } from '../../infra/fonts.js';
import { renderSvg } from '../render/index.js';
import { textLines } from '../render/text.js';
import { FONT_FAMILIES } from '../scene/constants.js';
import { intakeScene } from '../scene/intake.js';
import { FONT } from './drawing-rules.js';
import { glyphAdvance, LINE_HEIGHT, measureText, wordPieces } from './measure.js';
import { sizeNode, wrapText } from './node-size.js';

const fonts = loadRenderFonts();

describe('font-advances.ts', () => {
  it('is what scripts/font-advances.ts writes from the installed font packages (run it after a font update)', () => {
    const committed = readFileSync(new URL('./font-advances.ts', import.meta.url), 'utf8');
    expect(committed).toBe(fontAdvancesModule(loadFontFiles()));
  });

  it('gives every codepoint a face maps, in every family, the advance the renderer measures', () => {
    const files = loadFontFiles();
    const mapped = new Set<number>();
    for (const family of FONT_FAMILIES) {
      const bytes = files.faces[family];
      const font = fontkit.create(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)) as fontkit.Font;
      for (const codepoint of font.characterSet) if (isTabulated(codepoint) && font.hasGlyphForCodePoint(codepoint)) mapped.add(codepoint);
    }
    expect(mapped.size).toBeGreaterThan(2000);
    for (const family of FONT_FAMILIES) {
      const wrong = [...mapped].filter((codepoint) => glyphAdvance(codepoint, family) !== fonts.lineWidth(String.fromCodePoint(codepoint), family, 1));
      expect(wrong.map((codepoint) => codepoint.toString(16)), family).toEqual([]);
    }
    // No face has these: left to the estimate.
    for (const codepoint of [0x6570, 0xac00, 0x1f600, 0x0627, 0xe000]) expect(glyphAdvance(codepoint, 'normal')).toBeUndefined();
  });
});

describe('measureText', () => {
  const labels = [
    'a → b',
    'Ünïcödé',
    'Ελληνικά',
    'Кириллица',
    'x ≤ y',
    'orders-db ⇒ payments ↔ ledger (v2.1)',
    'Prix : 12,50 € — « devis »',
    'const total = items.reduce((sum, x) => sum + x, 0);',
    '└── src/core/layout/measure.ts',
    'Sketch: login ✓ → dashboard!',
    'WWW.iii.MMM',
  ];

  for (const size of [14, 20]) {
    it(`measures labels as the renderer does at ${size} px, in every family`, () => {
      for (const family of FONT_FAMILIES) {
        for (const label of labels) {
          const measured = measureText(label, size, family).width;
          const rendered = fonts.lineWidth(label, family, size);
          expect(Math.abs(measured - rendered), `${family} "${label}": ${measured} vs ${rendered}`).toBeLessThanOrEqual(0.5);
          // Rounded up, never down (but for the last bits of a float).
          expect(measured).toBeGreaterThanOrEqual(rendered - 1e-9);
        }
      }
    });
  }

  it('reads tabs and CR LF as the renderer draws them, and characters XML cannot carry as the U+FFFD drawn instead', () => {
    expect(measureText('bell\u0007 here', 20, 'normal')).toEqual(measureText('bell\ufffd here', 20, 'normal'));
    for (const text of ['if x:\n\treturn y', 'one\r\ntwo\rthree']) {
      const lines = textLines(text);
      const size = measureText(text, 20, 'code');
      expect(size.width).toBeCloseTo(Math.max(...lines.map((line) => fonts.lineWidth(line, 'code', 20))), 1);
      expect(size.height).toBe(Math.ceil(lines.length * 20 * LINE_HEIGHT));
    }
  });

  it('measures one line box of LINE_HEIGHT per line, as the renderer stacks lines', () => {
    expect(measureText('one', 20, 'hand').height).toBe(25);
    expect(measureText('one\ntwo\nthree', 14, 'normal').height).toBe(Math.ceil(3 * 14 * LINE_HEIGHT));
  });

  it('errs wide on glyphs no embedded face has, which a viewer draws in a font of its own', () => {
    for (const family of FONT_FAMILIES) {
      expect(measureText('数据库', 20, family).width).toBeGreaterThanOrEqual(60);
      expect(measureText('🚀', 20, family).width).toBeGreaterThanOrEqual(20);
      // The renderer wraps such text with the same estimate, not with the .notdef glyph's narrower advance.
      expect(fonts.lineWidth('数据库 🚀', family, 20)).toBeCloseTo(measureText('数据库 🚀', 20, family).width, 0);
    }
  });

  it('gives emoji among the symbols an em and a variation selector no room (a sequence diagram’s “alt ✅ Valid”, “⚠️ Show error”)', () => {
    // ✅ ❌ ⭐ ☕ are drawn as emoji, as wide as 🚀: measured as narrow symbols, their glyph ran over the next letter.
    for (const emoji of ['✅', '❌', '⭐', '☕']) expect(measureText(emoji, 20, 'normal').width).toBe(measureText('🚀', 20, 'normal').width);
    // U+FE0F only asks for the emoji glyph of ⚠: it was measured as a blank two thirds of an em wide.
    expect(measureText('⚠️ Show', 20, 'normal').width).toBe(measureText('⚠ Show', 20, 'normal').width);
    expect(fonts.lineWidth('⚠️ ✅ Set', 'normal', 20)).toBeCloseTo(measureText('⚠️ ✅ Set', 20, 'normal').width, 0);
  });
});

describe('a label sized by the layout', () => {
  // Arrows are far wider than digits in Inter: the old per-class estimate planned two lines here and the renderer drew three.
  const labels = [
    Array.from({ length: 20 }, (_, i) => i + 1).join(' → '),
    'Checkout → Payment → Fraud check → Ledger → Fulfilment → Shipping → Notification → Archive',
  ];
  for (const shape of ['rectangle', 'ellipse', 'diamond', 'hexagon']) {
    it(`renders on the lines the layout planned (${shape})`, () => {
      for (const label of labels) {
        const box = sizeNode({ id: 'n', kind: 'service', label, shape });
        const planned = box.label.split('\n');
        expect(planned.length).toBeGreaterThan(1);
        const { elements } = intakeScene([
          { type: shape, id: 'n', x: 0, y: 0, width: box.width, height: box.height, text: box.label, fontSize: FONT.label, fontFamily: FONT.family },
        ]);
        const drawn = [...renderSvg(elements, { fonts }).matchAll(/<tspan[^>]*>([^<]*)<\/tspan>/g)].map((match) => match[1]);
        expect(drawn).toEqual(planned);
      }
    });
  }
});

describe('wordPieces', () => {
  it('cuts an image reference at its separators but keeps a version number whole (Istio bookinfo: reviews-v3:|1.18.0)', () => {
    expect(wordPieces('docker.io/istio/examples-bookinfo-reviews-v3:1.18.0')).toEqual(['docker.', 'io/', 'istio/', 'examples-', 'bookinfo-', 'reviews-', 'v3:', '1.18.0']);
    // Whatever the box's width, no line ends inside the version (`…reviews-v3:1.` over `18.0`).
    for (let width = 200; width <= 420; width += 10) {
      const lines = wrapText('docker.io/istio/examples-bookinfo-reviews-v3:1.18.0', width, FONT.label);
      expect(lines.join('')).toBe('docker.io/istio/examples-bookinfo-reviews-v3:1.18.0');
      expect(lines.filter((line) => /\d\.$/.test(line)), `${width} px`).toEqual([]);
    }
    expect(wordPieces('example.com')).toEqual(['example.', 'com']);
  });
});

describe('wrapText', () => {
  it('keeps a line that fits as written but for the spaces leading and ending it, as word by word', () => {
    // A SQL column as the parser writes it (key marks padded with spaces), a paragraph indented, one ending in spaces.
    expect(wrapText('PK   payment_id integer', 400, FONT.label)).toEqual(['PK   payment_id integer']);
    expect(wrapText('    lead\nend   ', 400, FONT.label)).toEqual(['lead', 'end']);
    expect(wrapText('- a bullet', 400, FONT.label)).toEqual(['- a bullet']);
  });
});
