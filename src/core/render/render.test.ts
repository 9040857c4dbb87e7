import { readFileSync } from 'node:fs';
import { Resvg } from '@resvg/resvg-js';
import { DomUtils, parseDocument } from 'htmlparser2';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { loadRenderFonts } from '../../infra/fonts.js';
import { isAppError } from '../errors.js';
import { stampIcons } from '../icons/index.js';
import { LINE_HEIGHT } from '../layout/measure.js';
import { FIGURE_SIZES, isFigure, SHAPE_TYPES } from '../scene/constants.js';
import { intakeScene } from '../scene/intake.js';
import type { ElementInput } from '../scene/schema.js';
import { arrowheadParts } from './arrowheads.js';
import { EmbeddedFonts, renderSvg, type RenderElement, type RenderOptions } from './index.js';
import { loadFontFiles } from '../../infra/fonts.js';
import { connectorGeometry } from './paths.js';
import { renderPng } from './png.js';

const fonts = loadRenderFonts();
const scene = (raw: ElementInput[], stamp = false): RenderElement[] => {
  const { elements } = intakeScene(raw);
  return stamp ? stampIcons(elements, { autoIcons: false }).elements : elements;
};
const render = (raw: ElementInput[], options: RenderOptions = {}) => renderSvg(scene(raw), { fonts, ...options });
const box = { x: 0, y: 0, width: 160, height: 80 };

/** resvg reads SVG with a strict XML parser: a document a browser would refuse (bad escaping, nesting) throws there. */
function parse(svg: string) {
  expect(() => new Resvg(svg, { font: { loadSystemFonts: false } })).not.toThrow();
  return parseDocument(svg, { xmlMode: true });
}
const elementsNamed = (svg: string, name: string) => DomUtils.getElementsByTagName(name, parse(svg));
const tspans = (svg: string) =>
  elementsNamed(svg, 'tspan')
    .filter((t) => t.attribs.x !== undefined)
    .map((t) => ({ x: Number(t.attribs.x), y: Number(t.attribs.y), text: DomUtils.textContent(t) }));

/** The box of every pixel drawn (rasterised, transparent background), in scene units. */
function inkBox(svg: string) {
  const origin = /viewBox="(-?[\d.]+) (-?[\d.]+)/.exec(svg)!;
  const png = PNG.sync.read(renderPng(svg));
  let [left, top, right, bottom] = [Infinity, Infinity, -Infinity, -Infinity];
  for (let y = 0; y < png.height; y++) {
    for (let x = 0; x < png.width; x++) {
      if (png.data[(y * png.width + x) * 4 + 3]! < 64) continue;
      [left, top, right, bottom] = [Math.min(left, x), Math.min(top, y), Math.max(right, x + 1), Math.max(bottom, y + 1)];
    }
  }
  return { x: left + Number(origin[1]), y: top + Number(origin[2]), width: right - left, height: bottom - top };
}

describe('renderSvg: the document', () => {
  it('is byte-identical for the same scene, also with freshly built fonts', () => {
    const raw: ElementInput[] = [
      { type: 'rectangle', id: 'a', x: 0, y: 0, width: 160, height: 80, text: 'API', fillStyle: 'hachure', fillColor: '#a5d8ff' },
      { type: 'cloud', id: 'b', x: 300, y: 0, width: 160, height: 90, text: 'Internet', roughness: 'scribble' },
      { type: 'arrow', id: 'c', startBinding: { elementId: 'a' }, endBinding: { elementId: 'b' }, text: 'calls' },
      { type: 'math', id: 'm', x: 0, y: 200, text: '\\frac{1}{2}' },
    ];
    const first = render(raw);
    expect(render(raw)).toBe(first);
    expect(renderSvg(scene(raw), { fonts: new EmbeddedFonts(loadFontFiles()) })).toBe(first);
  });

  it('is sized to the drawing plus padding and paints the background', () => {
    const svg = render([{ type: 'rectangle', x: 100, y: 50, width: 200, height: 100, strokeWidth: 2, roughness: 'clean' }], { padding: 10 });
    // The box grown by the stroke width, then by the padding: 100 - 2 - 10 = 88.
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="224" height="124" viewBox="88 38 224 124">/);
    expect(svg).toContain('<rect x="88" y="38" width="224" height="124" fill="#ffffff"/>');
    expect(render([{ type: 'ellipse', ...box }], { background: 'transparent' })).not.toContain('fill="#ffffff"');
  });

  it('renders an empty scene as an empty page', () => {
    const svg = renderSvg([], { fonts });
    expect(elementsNamed(svg, 'svg')[0]!.attribs.width).toBe('40');
    expect(svg).toBe('<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40" viewBox="-20 -20 40 40"><rect x="-20" y="-20" width="40" height="40" fill="#ffffff"/></svg>');
  });

  it('refuses bad options with a validation error', () => {
    for (const options of [{ background: 'red' }, { padding: -1 }, { idPrefix: '1x' }, { idPrefix: 'a"b' }]) {
      try {
        renderSvg([], options);
        expect.unreachable();
      } catch (error) {
        expect(isAppError(error) && error.code).toBe('validation_failed');
      }
    }
  });

  it('applies opacity, rotation about the centre and shadows', () => {
    const svg = render([
      { type: 'rectangle', id: 'r', x: 0, y: 0, width: 100, height: 50, opacity: 40, angle: Math.PI / 2, shadow: 'soft' },
      { type: 'rectangle', id: 'h', x: 200, y: 0, width: 100, height: 50, shadow: 'hard' },
    ]);
    expect(svg).toContain('<g data-id="r" opacity="0.4" filter="url(#db-shadow-soft)"><g transform="rotate(90 50 25)">');
    expect(svg).toContain('<g data-id="h" filter="url(#db-shadow-hard)">');
    expect(svg).toContain('<filter id="db-shadow-soft" filterUnits="userSpaceOnUse"');
    expect(svg).toMatch(/<filter id="db-shadow-hard"[^>]*><feDropShadow dx="5" dy="5" stdDeviation="0"/);
    // Turned a quarter, the 100 × 50 box stands 50 × 100 around its centre.
    expect(render([{ type: 'rectangle', x: 0, y: 0, width: 100, height: 50, angle: Math.PI / 2, strokeWidth: 1 }], { padding: 0 })).toContain(
      'viewBox="24 -26 52 102"',
    );
  });
});

describe('renderSvg: styles', () => {
  const rect = (fields: Partial<ElementInput & { type: 'rectangle' }>) => render([{ type: 'rectangle', id: 'r', ...box, ...fields }]);

  it('draws clean shapes as exact geometry and sketches as seeded rough.js strokes', () => {
    expect(rect({ roughness: 'clean', fillColor: '#a5d8ff' })).toContain('<path d="M0 0 H160 V80 H0 Z" fill="#a5d8ff" stroke="#1e1e1e" stroke-width="2"');
    const sketch = rect({ roughness: 'sketch', seed: 7 });
    expect(sketch).toMatch(/<path d="M[^"]*C[^"]*" fill="none" stroke="#1e1e1e"/);
    expect(rect({ roughness: 'sketch', seed: 7 })).toBe(sketch);
    expect(rect({ roughness: 'sketch', seed: 8 })).not.toBe(sketch);
    expect(rect({ roughness: 'scribble', seed: 7 })).not.toBe(sketch);
    expect(rect({ roughness: 'sketch', seed: 7, bowing: 'wavy' })).not.toBe(sketch);
  });

  it('gives each fill style its own pattern in the fill colour', () => {
    const fills = ['hachure', 'cross-hatch', 'solid', 'dots', 'zigzag', 'dashed', 'zigzag-line'] as const;
    const outputs = fills.map((fillStyle) => rect({ fillStyle, fillColor: '#ffc9c9', seed: 3 }));
    expect(new Set(outputs).size).toBe(fills.length);
    for (const svg of outputs) expect(svg).toContain('#ffc9c9');
    // Solid is a filled area; the patterns are strokes in the fill colour.
    expect(outputs[2]).toMatch(/fill="#ffc9c9" stroke="none"/);
    expect(outputs[0]).toMatch(/fill="none" stroke="#ffc9c9"/);
    // Patterns of clean shapes are straight lines.
    expect(rect({ fillStyle: 'hachure', fillColor: '#ffc9c9', roughness: 'clean' })).toMatch(/stroke="#ffc9c9"/);
    expect(rect({ fillColor: 'transparent' })).not.toContain('stroke="none"');
  });

  it('dashes and dots strokes, and draws them once', () => {
    expect(rect({ strokeStyle: 'dashed', roughness: 'clean' })).toContain('stroke-dasharray="10 11"');
    expect(rect({ strokeStyle: 'dotted', roughness: 'clean' })).toContain('stroke-dasharray="0 8"');
    expect(rect({ strokeStyle: 'solid', roughness: 'clean' })).not.toContain('stroke-dasharray');
    const count = (svg: string) => svg.split('stroke="#1e1e1e"').length - 1;
    expect(count(rect({ strokeStyle: 'dashed', seed: 1 }))).toBeLessThan(count(rect({ strokeStyle: 'solid', seed: 1 })) + 1);
  });

  it('rounds and bevels corners', () => {
    expect(rect({ corner: 'rounded', roughness: 'clean' })).toContain('Q160 0 160 20');
    expect(rect({ corner: 'beveled', roughness: 'clean' })).toContain('L160 20');
    expect(rect({ corner: 'sharp', roughness: 'clean' })).not.toMatch(/Q|L160 20/);
  });

  it('falls back to defaults for values that are not what the schema allows', () => {
    const hostile = scene([{ type: 'rectangle', ...box }]).map((e) => ({
      ...e,
      strokeColor: 'red" onload="x',
      fillColor: 'url(http://evil)',
      strokeWidth: Number.NaN,
      roughness: 'wild',
      opacity: 1e9,
    })) as unknown as RenderElement[];
    const svg = renderSvg(hostile, { fonts });
    parse(svg);
    expect(svg).toContain('stroke="#1e1e1e"');
    expect(svg).not.toMatch(/onload|evil|NaN/);
  });
});

describe('renderSvg: shapes', () => {
  // A figure (a person, an interface's circle) stands at the top of its box, over its label (below).
  const filling = SHAPE_TYPES.filter((type) => !isFigure(type));
  it.each(filling.flatMap((type) => [[type, 160, 80] as const, [type, 300, 40] as const, [type, 50, 200] as const]))(
    '%s fills its %i × %i box',
    (type, width, height) => {
      const svg = render([{ type, x: 10, y: 20, width, height, strokeWidth: 2, roughness: 'clean' }], { background: 'transparent' });
      const ink = inkBox(svg);
      // The outline touches all four sides of the box (the 2 px stroke straddles it), never further.
      expect(Math.abs(ink.x - 9)).toBeLessThanOrEqual(1);
      expect(Math.abs(ink.y - 19)).toBeLessThanOrEqual(1);
      expect(Math.abs(ink.width - (width + 2))).toBeLessThanOrEqual(2);
      expect(Math.abs(ink.height - (height + 2))).toBeLessThanOrEqual(2);
    },
  );

  it('draws a person as a stick figure centred at the top of its box, its label under the feet', () => {
    const person = { type: 'person' as const, x: 10, y: 20, width: 160, height: 100, strokeWidth: 2, roughness: 'clean' as const };
    // The figure alone: its natural 34 × 56 px, centred, at the top.
    const ink = inkBox(render([person], { background: 'transparent' }));
    expect(Math.abs(ink.x + ink.width / 2 - 90)).toBeLessThanOrEqual(1);
    expect(Math.abs(ink.y - 19)).toBeLessThanOrEqual(1);
    expect(Math.abs(ink.width - 36)).toBeLessThanOrEqual(2);
    expect(Math.abs(ink.height - 58)).toBeLessThanOrEqual(2);
    const [line] = tspans(render([{ ...person, text: 'Customer', fontSize: 20, fontFamily: 'normal' }]));
    expect(line).toMatchObject({ x: 90, text: 'Customer' });
    // The top of the line's glyphs is below the feet.
    expect(line!.y - fonts.vertical('normal').ascent * 20).toBeGreaterThan(20 + 56);
  });

  it.each(['lollipop', 'boundary', 'control', 'entity'] as const)('draws a %s as PlantUML does: its glyph at its natural size, centred at the top, the label under it', (type) => {
    const glyph = { type, x: 10, y: 20, width: 160, height: 80, strokeWidth: 2, roughness: 'clean' as const };
    const ink = inkBox(render([glyph], { background: 'transparent' }));
    const natural = FIGURE_SIZES[type];
    expect(Math.abs(ink.x + ink.width / 2 - 90)).toBeLessThanOrEqual(2);
    expect(Math.abs(ink.y - 19)).toBeLessThanOrEqual(1);
    // As tall as its natural size; as wide but for a control, whose circle is smaller by its arrowhead's reach.
    expect(ink.width).toBeLessThanOrEqual(natural.width + 3);
    expect(Math.abs(ink.height - (natural.height + 2))).toBeLessThanOrEqual(2);
    const [line] = tspans(render([{ ...glyph, text: 'BlobStore', fontSize: 16, fontFamily: 'normal' }]));
    expect(line).toMatchObject({ x: 90, text: 'BlobStore' });
    expect(line!.y - fonts.vertical('normal').ascent * 16).toBeGreaterThan(20 + natural.height);
  });

  it('draws a cylinder with the front rim of its top', () => {
    const svg = render([{ type: 'cylinder', ...box, roughness: 'clean' }]);
    expect(svg.match(/<path /g)).toHaveLength(2);
    expect(svg).toContain('M0 12 A80 12 0 0 0 160 12');
  });

  it('draws a queue as a cylinder lying on its side, the rim of its near end at the right, as D2 and PlantUML draw one', () => {
    const svg = render([{ type: 'horizontal-cylinder', ...box, roughness: 'clean' }]);
    expect(svg.match(/<path /g)).toHaveLength(2);
    // The right end's whole ellipse: its near half closes the outline, its far half is the rim drawn over the body.
    expect(svg).toContain('M144 0 A16 40 0 0 0 144 80');
  });
});

describe('renderSvg: text', () => {
  it('wraps a label to the shape, within its width, centred in its height', () => {
    const text = 'a label long enough to wrap onto several lines';
    const svg = render([{ type: 'rectangle', ...box, text, fontSize: 20, fontFamily: 'normal' }]);
    const lines = tspans(svg);
    expect(lines.length).toBeGreaterThan(1);
    expect(lines.map((l) => l.text).join(' ')).toBe(text);
    for (const line of lines) expect(fonts.lineWidth(line.text, 'normal', 20)).toBeLessThanOrEqual(160 - 16);
    expect(svg).toContain('text-anchor="middle"');
    expect(lines[0]!.x).toBe(80);
    // Line boxes of 25 px centred on y = 40: the baselines sit symmetrically about the middle.
    const { ascent, descent } = fonts.vertical('normal');
    const top = 40 - (lines.length * 20 * LINE_HEIGHT) / 2;
    expect(lines[0]!.y).toBeCloseTo(top + (25 - (ascent + descent) * 20) / 2 + ascent * 20, 1);
  });

  it('aligns labels left and right inside the padding', () => {
    expect(tspans(render([{ type: 'rectangle', ...box, text: 'x', textAlign: 'left' }]))[0]!.x).toBe(8);
    const right = render([{ type: 'rectangle', ...box, text: 'x', textAlign: 'right' }]);
    expect(tspans(right)[0]!.x).toBe(152);
    expect(right).toContain('text-anchor="end"');
  });

  it('breaks a word wider than the shape between characters', () => {
    const lines = tspans(render([{ type: 'rectangle', x: 0, y: 0, width: 80, height: 200, text: 'supercalifragilisticexpialidocious' }]));
    expect(lines.length).toBeGreaterThan(2);
    for (const line of lines) expect(fonts.lineWidth(line.text, 'hand', 20)).toBeLessThanOrEqual(64);
  });

  it('lays a stamped label out below the icon', () => {
    const elements = scene([{ type: 'rectangle', x: 0, y: 0, width: 160, height: 90, text: 'Bucket', iconRef: 'aws/Amazon S3' }], true);
    const icon = elements[0]!.icon!;
    const svg = renderSvg(elements, { fonts });
    const line = tspans(svg)[0]!;
    expect(line.y - 20).toBeGreaterThan(icon.y + icon.height);
    expect(line.y).toBeLessThan(90);
  });

  it('keeps standalone text on its own lines, at the top of its box, spaces kept', () => {
    const svg = render([{ type: 'text', x: 10, y: 10, text: 'first line\n  indented', fontFamily: 'code' }]);
    const lines = tspans(svg);
    expect(lines.map((l) => l.text)).toEqual(['first line', '  indented']);
    expect(svg).toContain('xml:space="preserve"');
    expect(lines[1]!.y - lines[0]!.y).toBeCloseTo(25);
  });

  it('embeds subsets of exactly the fonts used, and none without text', () => {
    const svg = render([
      { type: 'rectangle', ...box, text: 'Hand' },
      { type: 'text', x: 0, y: 100, text: 'Normal', fontFamily: 'normal' },
    ]);
    expect(svg.match(/@font-face/g)).toHaveLength(2);
    expect(svg).toContain('font-family="Kalam, Inter, &#39;JetBrains Mono&#39;, cursive"');
    expect(svg).toMatch(/@font-face\{font-family:Kalam;src:url\(data:font\/ttf;base64,/);
    expect(svg).not.toContain("font-family:'JetBrains Mono'");
    expect(render([{ type: 'rectangle', ...box }])).not.toContain('@font-face');
    // A small diagram stays small: subsets of a few glyphs, not whole fonts (hundreds of kilobytes).
    expect(svg.length).toBeLessThan(20_000);
  });

  it('draws bold and italic text with the bold and italic faces, measured wider when bold', () => {
    const svg = render([
      { type: 'text', x: 0, y: 0, text: 'Bold', fontFamily: 'normal', fontWeight: 'bold' },
      { type: 'text', x: 0, y: 50, text: 'Slant', fontFamily: 'normal', fontStyle: 'italic' },
      { type: 'text', x: 0, y: 100, text: 'Hand', fontStyle: 'italic' },
    ]);
    expect(svg).toContain('font-weight="bold"');
    expect(svg.match(/font-style="italic"/g)).toHaveLength(2);
    expect(svg).toMatch(/@font-face\{font-family:Inter;font-weight:bold;src:/);
    expect(svg).toMatch(/@font-face\{font-family:Inter;font-style:italic;src:/);
    // Kalam has no italic face: its upright face is embedded and slanted by the viewer.
    expect(svg).toMatch(/@font-face\{font-family:Kalam;src:/);
    expect(fonts.lineWidth('Bold', 'normal', 20, { bold: true })).toBeGreaterThan(fonts.lineWidth('Bold', 'normal', 20));
    const outlined = render([{ type: 'text', x: 0, y: 0, text: 'B', fontWeight: 'bold' }], { textAs: 'paths' });
    expect(outlined).not.toBe(render([{ type: 'text', x: 0, y: 0, text: 'B' }], { textAs: 'paths' }));
  });

  it('draws glyphs the hand font lacks (Cyrillic) from the normal font', () => {
    const svg = render([{ type: 'text', x: 0, y: 0, text: 'Жук' }]);
    expect(svg).toMatch(/@font-face\{font-family:Inter;/);
    expect(svg).not.toMatch(/@font-face\{font-family:Kalam;/);
  });

  it('outlines CJK, hangul and emoji for the PNG instead of tofu boxes (the D2 docs’ map of Japan, D2’s Korean e2e label, the ✅ of a Cluster API note)', () => {
    const japan = readFileSync(new URL('../../../test/fixtures/d2/d2-docs-japan.d2', import.meta.url), 'utf8');
    const hokkaido = /^12-12: "(.+)"/m.exec(japan)![1]!;
    const capi = readFileSync(new URL('../../../test/fixtures/conformance/plantuml/docs--proposals--images--machine-states-preboot--Figure3.puml', import.meta.url), 'utf8');
    const check = /✅/u.exec(capi)![0];
    const glyph = (char: string) => fonts.outline(char, 'normal', 20, 0, 20);
    // A character no face has (private use) is the .notdef box: before, every kanji and the emoji were that box too.
    const tofu = glyph('\u{10FFFD}');
    // D2's e2e test of unicode labels (e2etests/unicode_test.go): hangul, which the Chinese face lacks.
    const korean = '고생끝에낙이온다';
    const drawn = [...hokkaido, ...new Set(korean), check].map(glyph);
    for (const path of drawn) expect(path).not.toBe(tofu);
    expect(new Set(drawn).size).toBe(drawn.length);
  });

  it('outlines text as paths for rasterising, at the same places', () => {
    const raw: ElementInput[] = [{ type: 'rectangle', ...box, text: 'Outlined' }];
    const svg = render(raw, { textAs: 'paths' });
    expect(svg).not.toMatch(/<text|@font-face/);
    expect(svg).toMatch(/<path d="M[^"]+" fill="#1e1e1e"\/>/);
    // Without fonts there is nothing to outline: text stays text.
    expect(renderSvg(scene(raw), { textAs: 'paths' })).toContain('<text');
  });
});

describe('renderSvg: connectors', () => {
  it('points arrowheads along the path at each end', () => {
    const diagonal = connectorGeometry({ points: [{ x: 0, y: 0 }, { x: 100, y: 100 }], shape: 'straight', corner: 'sharp' });
    expect(diagonal.end.direction.x).toBeCloseTo(Math.SQRT1_2);
    expect(diagonal.end.direction.y).toBeCloseTo(Math.SQRT1_2);
    expect(diagonal.start.direction.x).toBeCloseTo(-Math.SQRT1_2);
    const [triangle] = arrowheadParts('triangle', diagonal.end, 20);
    const [tip, left, right] = (triangle!.figure as { points: Array<{ x: number; y: number }> }).points;
    expect(tip).toEqual({ x: 100, y: 100 });
    // The base is 20 back along the diagonal and square to it.
    const mid = { x: (left!.x + right!.x) / 2, y: (left!.y + right!.y) / 2 };
    expect(Math.hypot(100 - mid.x, 100 - mid.y)).toBeCloseTo(20);
    expect((right!.x - left!.x) * 1 + (right!.y - left!.y) * 1).toBeCloseTo(0);
  });

  it('aims curve ends along their control points', () => {
    const curved = connectorGeometry({ points: [{ x: 0, y: 0 }, { x: 100, y: 0 }], shape: 'curved', controlPoint: { x: 50, y: -50 }, corner: 'sharp' });
    expect(curved.end.direction.x).toBeCloseTo(Math.SQRT1_2);
    expect(curved.end.direction.y).toBeCloseTo(Math.SQRT1_2);
    const s = connectorGeometry({
      points: [{ x: 0, y: 0 }, { x: 100, y: 100 }],
      shape: 's-curve',
      controlPoint: { x: 50, y: 0 },
      controlPoint2: { x: 50, y: 100 },
      corner: 'sharp',
    });
    expect(s.end.direction).toEqual({ x: 1, y: 0 });
    expect(s.start.direction).toEqual({ x: -1, y: 0 });
  });

  it('passes a multipoint-curved path through every point', () => {
    const points = [{ x: 0, y: 0 }, { x: 50, y: 40 }, { x: 100, y: 0 }, { x: 150, y: 40 }];
    const { figure } = connectorGeometry({ points, shape: 'multipoint-curved', corner: 'sharp' });
    for (const p of points) expect((figure as { d: string }).d).toContain(`${p.x} ${p.y}`);
  });

  it('routes smart arrows in horizontal and vertical runs', () => {
    const { figure } = connectorGeometry({ points: [{ x: 0, y: 0 }, { x: 100, y: 60 }], shape: 'smart', corner: 'sharp' });
    expect((figure as { points: unknown }).points).toEqual([{ x: 0, y: 0 }, { x: 50, y: 0 }, { x: 50, y: 60 }, { x: 100, y: 60 }]);
  });

  it('draws all thirteen arrowheads differently, and a label on a paper patch halfway', () => {
    const heads = ['none', 'arrow', 'triangle', 'triangle-outline', 'circle', 'diamond', 'diamond-outline', 'bar', 'crows-foot', 'crows-foot-bar', 'double-bar', 'circle-bar', 'circle-crows-foot'] as const;
    const outputs = heads.map((endArrowhead) => render([{ type: 'arrow', points: [{ x: 0, y: 0 }, { x: 200, y: 0 }], endArrowhead, roughness: 'clean' }]));
    expect(new Set(outputs).size).toBe(heads.length);
    const labelled = render([{ type: 'arrow', points: [{ x: 0, y: 0 }, { x: 200, y: 0 }], text: 'yes', roughness: 'clean' }]);
    const label = tspans(labelled)[0]!;
    expect(label.x).toBe(100);
    expect(labelled).toMatch(/<rect x="[\d.]+" y="-[\d.]+" width="[\d.]+" height="[\d.]+" rx="4" fill="#ffffff"\/>/);
  });

  it('draws lines, closed filled lines, freehand strokes and translucent highlights', () => {
    const svg = render([
      { type: 'line', points: [{ x: 0, y: 0 }, { x: 50, y: 50 }, { x: 100, y: 0 }, { x: 0, y: 0 }], fillColor: '#ffd8a8', roughness: 'clean' },
      { type: 'freedraw', points: [{ x: 0, y: 100 }, { x: 10, y: 110 }, { x: 20, y: 100 }] },
      { type: 'highlight', id: 'hl', points: [{ x: 0, y: 200 }, { x: 100, y: 200 }] },
    ]);
    expect(svg).toContain('<path d="M0 0 L50 50 L100 0 Z" fill="#ffd8a8"');
    expect(svg).toContain('<path d="M0 100 Q10 110 15 105 L20 100" fill="none" stroke="#1e1e1e" stroke-width="2" stroke-linecap="round"');
    expect(svg).toMatch(/<g data-id="hl" opacity="0.5"><path d="M0 200 L100 200" fill="none" stroke="#ffec99" stroke-width="20"/);
  });
});

describe('renderSvg: content elements', () => {
  it('draws raster images from data URLs only', () => {
    const png = 'data:image/png;base64,iVBORw0KGgo=';
    expect(render([{ type: 'image', ...box, dataUrl: png }])).toContain(`<image x="0" y="0" width="160" height="80" preserveAspectRatio="xMidYMid meet" href="${png}"/>`);
    const forged = scene([{ type: 'image', ...box, dataUrl: png }]).map((e) => ({ ...e, dataUrl: 'data:image/svg+xml;base64,PHN2Zz4=' })) as RenderElement[];
    const svg = renderSvg(forged, { fonts });
    expect(svg).not.toContain('<image');
    expect(svg).toContain('fill="#f1f3f5"');
  });

  it('draws a frame dashed with its name above it', () => {
    const svg = render([{ type: 'frame', x: 0, y: 40, width: 300, height: 200, name: 'VPC', roughness: 'clean' }]);
    expect(svg).toContain('stroke-dasharray');
    const name = tspans(svg)[0]!;
    expect(name.text).toBe('VPC');
    expect(name.y).toBeLessThan(40);
  });

  it("puts a frame's name on paper, so a line drawn before it (a lifeline through a fragment's name) does not cross it", () => {
    const lifeline = { type: 'line' as const, x: 20, y: 0, points: [{ x: 0, y: 0 }, { x: 0, y: 300 }], roughness: 'clean' as const };
    const svg = render([lifeline, { type: 'frame', x: 0, y: 60, width: 300, height: 200, name: 'alt [ok]', roughness: 'clean' }]);
    const patch = /<rect x="([\d.-]+)" y="([\d.-]+)" width="([\d.]+)" height="([\d.]+)" rx="4" fill="#ffffff"\/>/.exec(svg);
    expect(patch).not.toBeNull();
    const [x, y, width, height] = patch!.slice(1).map(Number) as [number, number, number, number];
    expect(x).toBeLessThan(20);
    expect(x + width).toBeGreaterThan(20);
    expect(y + height).toBeLessThanOrEqual(62);
    expect(svg.indexOf('<rect x="' + patch![1])).toBeLessThan(svg.indexOf('>alt [ok]<'));
  });

  it('shows an embed as a card with its site and address, never a link or a fetch', () => {
    const svg = render([{ type: 'embed', x: 0, y: 0, width: 260, height: 90, url: 'https://www.example.com/a/very/long/path/that/cannot/fit/in/the/card' }]);
    const texts = tspans(svg).map((t) => t.text);
    expect(texts[0]).toBe('www.example.com');
    expect(texts[1]).toMatch(/^https:\/\/www\.example\.com\/.*…$/);
    expect(svg).not.toMatch(/<a |<image|<iframe/);
  });

  it('typesets LaTeX as paths, centred in the box, in the stroke colour', () => {
    const svg = render([{ type: 'math', x: 0, y: 0, width: 300, height: 100, text: 'x^2 + \\sqrt{y}', strokeColor: '#c2255c' }]);
    const inner = elementsNamed(svg, 'svg')[1]!;
    expect(inner.attribs.color).toBe('#c2255c');
    expect(DomUtils.getElementsByTagName('path', inner).length).toBeGreaterThan(3);
    expect(DomUtils.getElementsByTagName('text', inner)).toHaveLength(0);
    // Every glyph reference points at a definition inside this formula.
    const ids = new Set(DomUtils.findAll((e) => e.attribs.id !== undefined, [inner]).map((e) => e.attribs.id));
    const uses = DomUtils.getElementsByTagName('use', inner);
    expect(uses.length).toBeGreaterThan(0);
    for (const use of uses) expect(ids.has(use.attribs.href!.slice(1))).toBe(true);
  });

  it('shows the TeX error instead of a formula MathJax rejects', () => {
    const svg = render([{ type: 'math', ...box, text: '\\frac{1}{' }]);
    expect(tspans(svg)[0]!.text).toMatch(/missing|close brace|argument/i);
    expect(svg).toContain('fill="#e03131"');
  });

  it('highlights code with the theme colours in the monospace font', () => {
    const svg = render([{ type: 'code', x: 0, y: 0, text: 'def f(x):\n    return "hi"', language: 'python' }]);
    expect(svg).toContain('<tspan fill="#d73a49">def</tspan>');
    expect(svg).toContain('<tspan fill="#032f62">&quot;hi&quot;</tspan>');
    expect(svg).toContain('font-family="&#39;JetBrains Mono&#39;, Inter, Kalam, monospace"');
    expect(svg).toContain('    <tspan fill="#d73a49">return</tspan>');
    const plain = render([{ type: 'code', x: 0, y: 0, text: 'def f(x):', language: 'no-such-language' }]);
    expect(plain).not.toContain('<tspan fill=');
  });

  it('embeds each icon once as a symbol, its ids kept apart from other icons', () => {
    const elements = scene(
      [
        { type: 'rectangle', x: 0, y: 0, width: 160, height: 90, text: 'a', iconRef: 'aws/Amazon S3' },
        { type: 'rectangle', x: 200, y: 0, width: 160, height: 90, text: 'b', iconRef: 'aws/AWS Lambda' },
        { type: 'rectangle', x: 400, y: 0, width: 160, height: 90, text: 'c', iconRef: 'aws/Amazon S3' },
      ],
      true,
    );
    const svg = renderSvg(elements, { fonts });
    expect(elementsNamed(svg, 'symbol')).toHaveLength(2);
    expect(elementsNamed(svg, 'use')).toHaveLength(3);
    const ids = DomUtils.findAll((e) => e.attribs.id !== undefined, parse(svg).children).map((e) => e.attribs.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(svg).toContain('fill="url(#db-icon1-a)"');
    expect(svg).toContain('fill="url(#db-icon2-a)"');
    expect(renderSvg(elements, { fonts, idPrefix: 'x2' })).toContain('url(#x2-icon1-a)');
  });

  it('wraps a linked element in an anchor', () => {
    const svg = render([{ type: 'rectangle', id: 'l', ...box, link: 'https://example.com/docs?a=1&b=2' }]);
    expect(svg).toContain('<a href="https://example.com/docs?a=1&amp;b=2"><g data-id="l">');
  });
});

describe('renderSvg: hostile input', () => {
  const HOSTILE = '</text><script>alert(1)</script><foreignObject><img src=x onerror=alert(1)></foreignObject>"\'&\u0000\u0008\ufffe';

  function hostileScene(): RenderElement[] {
    const raw: ElementInput[] = [
      { type: 'rectangle', id: HOSTILE, ...box, text: HOSTILE, link: 'https://example.com/"><script>' },
      { type: 'text', x: 0, y: 100, text: HOSTILE },
      { type: 'frame', x: 0, y: 200, width: 200, height: 100, name: HOSTILE },
      { type: 'code', x: 0, y: 400, text: HOSTILE, language: 'html' },
      { type: 'math', x: 0, y: 500, text: '\\href{javascript:alert(1)}{x} \\style{background:url(http://evil)}{y} \\class{z}{w}' },
      { type: 'arrow', points: [{ x: 0, y: 600 }, { x: 100, y: 600 }], text: HOSTILE },
      { type: 'embed', x: 0, y: 700, width: 200, height: 80, url: 'https://example.com/<script>' },
      { type: 'image', x: 300, y: 0, width: 50, height: 50, dataUrl: 'data:image/png;base64,AAAA' },
    ];
    // Past the schema, as a forged stored scene could be: fields only the renderer stands between.
    return scene(raw).map((element, i) => {
      if (i === 0) return { ...element, link: 'javascript:alert(1)', icon: { ref: '"><script>', x: 0, y: 0, width: 10, height: 10 } };
      if (i === 1) return { ...element, link: ' https://evil' };
      if (i === 6) return { ...element, url: 'javascript:alert(1)' };
      if (i === 7) return { ...element, dataUrl: 'https://evil.example/x.png' };
      return element;
    }) as RenderElement[];
  }

  it.each(['text', 'paths'] as const)('lets no script, handler, foreignObject or outside reference through (text as %s)', (textAs) => {
    const svg = renderSvg(hostileScene(), { fonts, textAs });
    const names = DomUtils.findAll(() => true, parse(svg).children);
    expect(names.map((e) => e.name).filter((n) => /script|foreignobject|iframe|img|object|embed|animate|set/i.test(n))).toEqual([]);
    expect(names.flatMap((e) => Object.keys(e.attribs)).filter((a) => /^on/i.test(a))).toEqual([]);
    expect(svg).not.toMatch(/<script|<foreignObject|<iframe|<img/i);
    expect(svg).not.toMatch(/javascript:/i);
    expect(svg).not.toContain('evil');
    for (const [, href] of svg.matchAll(/\shref="([^"]*)"/g)) expect(href).toMatch(/^(#|data:image\/(png|jpeg|gif|webp);base64,|https:\/\/example\.com\/)/);
    for (const [, target] of svg.matchAll(/url\(([^)]{0,30})/g)) expect(target).toMatch(/^(#|data:font\/ttf;base64,)/);
    // The text survives as text, escaped.
    if (textAs === 'text') expect(svg).toContain('&lt;/text&gt;&lt;script&gt;alert(1)&lt;/script&gt;');
  });
});
