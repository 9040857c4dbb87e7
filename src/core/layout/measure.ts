/**
 * Text measurement with the renderer's own font metrics: the advance widths of the embedded faces (Inter, Kalam,
 * JetBrains Mono), tabulated by scripts/font-advances.ts, so a label laid out to fit its box fits it when drawn. Like
 * the renderer (render/fonts.ts), it sums advances without kerning and takes a glyph a face lacks from the next face
 * in FONT_FALLBACKS. Only codepoints no face has (CJK, emoji, most scripts) are estimated, wide on purpose: a viewer
 * draws those in a system font the layout cannot know.
 */
import { FONT_ADVANCES } from './font-advances.js';

export interface TextSize {
  width: number;
  height: number;
}

/** Line height as a multiple of the font size (matches the renderer's 1.25). */
export const LINE_HEIGHT = 1.25;

type Family = 'hand' | 'normal' | 'code';
/** A tabulated face: a family's regular face, or its bold one (`normal-bold`). Italic is measured upright: Inter
 * Italic's advances are within 0.1% of Regular's, JetBrains Mono's are fixed, and Kalam's italic is slanted Regular. */
type Face = keyof typeof FONT_ADVANCES;
const FACES: readonly Face[] = ['hand', 'normal', 'code', 'hand-bold', 'normal-bold', 'code-bold'];

/**
 * Where a glyph missing from a family's face is looked for, in order: Kalam has no Cyrillic or Greek, Inter has the
 * most. The renderer (render/fonts.ts) measures and draws with this order; measure.test.ts checks every tabulated
 * codepoint against it.
 */
export const FONT_FALLBACKS: Readonly<Record<Family, readonly Family[]>> = {
  hand: ['hand', 'normal', 'code'],
  normal: ['normal', 'code', 'hand'],
  code: ['code', 'normal', 'hand'],
};

/** The renderer expands a tab to this many spaces (render/text.ts `textLines`). */
const TAB_SIZE = 4;
const REPLACEMENT = 0xfffd;

/** Estimates in em for codepoints no embedded face has (the old per-class table's): full-width glyphs, anything else. */
const ESTIMATE_EM = { wide: 1.05, other: 0.66 } as const;
/** A hand-drawn system font (the `cursive` fallback) runs wider than a sans font of the same size. */
const HAND_SCALE = 1.15;

/** A face's advances in em by codepoint, decoded from the runs in font-advances.ts. */
function decodeFace(face: Face): Map<number, number> {
  const { unitsPerEm, advances } = FONT_ADVANCES[face];
  const out = new Map<number, number>();
  for (const run of advances.split(' ')) {
    if (run === '') continue;
    const [first, values = ''] = run.split(':');
    let codepoint = Number.parseInt(first!, 16);
    for (const value of values.split(',')) {
      const [units = '', repeat] = value.split('*');
      const count = repeat === undefined ? 1 : Number(repeat);
      for (let i = 0; i < count; i++, codepoint++) if (units !== '') out.set(codepoint, Number(units) / unitsPerEm);
    }
  }
  return out;
}

const familyOf = (family: string): Family => (family === 'hand' || family === 'code' ? family : 'normal');
const faceOf = (family: string, fontWeight?: string): Face => (fontWeight === 'bold' ? `${familyOf(family)}-bold` : familyOf(family));
const familyOfFace = (face: Face): Family => face.replace('-bold', '') as Family;

/** What the renderer replaces with U+FFFD before measuring (render/svg.ts `xmlSafe`): C0 controls, lone surrogates, U+FFFE/FFFF. */
const isXmlForbidden = (codepoint: number): boolean =>
  (codepoint < 0x20 && codepoint !== 0x09 && codepoint !== 0x0a && codepoint !== 0x0d) || (codepoint >= 0xd800 && codepoint <= 0xdfff) || codepoint === 0xfffe || codepoint === 0xffff;

/** Per face, the advance of every codepoint some face has, taken from the first face in FONT_FALLBACKS (of the same weight) that has it. */
const ADVANCES = (() => {
  const decoded = Object.fromEntries(FACES.map((face) => [face, decodeFace(face)])) as Record<Face, Map<number, number>>;
  const resolve = (face: Face): Map<number, number> => {
    const bold = face.endsWith('-bold');
    const [own, ...fallbacks] = FONT_FALLBACKS[familyOfFace(face)].map((family) => faceOf(family, bold ? 'bold' : undefined));
    const out = new Map(decoded[own!]);
    for (const other of fallbacks) for (const [codepoint, em] of decoded[other]) if (!out.has(codepoint)) out.set(codepoint, em);
    return out;
  };
  return Object.fromEntries(FACES.map((face) => [face, resolve(face)])) as Record<Face, Map<number, number>>;
})();

/** The advance in em of `codepoint` in text of `family` as the renderer measures it, or undefined where no face has it. */
export function glyphAdvance(codepoint: number, family: string): number | undefined {
  return tabulated(codepoint, familyOf(family));
}

function tabulated(codepoint: number, face: Face): number | undefined {
  if (codepoint === 0x09) return TAB_SIZE * ADVANCES[face].get(0x20)!;
  return ADVANCES[face].get(isXmlForbidden(codepoint) ? REPLACEMENT : codepoint);
}

/** The first 0x250 codepoints (Latin, where nearly all label text lies) by array index rather than Map lookup; NaN where estimated. */
const DENSE_LIMIT = 0x250;
const DENSE = Object.fromEntries(
  FACES.map((face) => [face, Float64Array.from({ length: DENSE_LIMIT }, (_, codepoint) => tabulated(codepoint, face) ?? Number.NaN)]),
) as Record<Face, Float64Array>;

/** Symbols a viewer draws as emoji by default (✅ ❌ ⭐ ☕), a full em wide, though they sit among narrow symbols. */
const EMOJI_PRESENTATION = /^\p{Emoji_Presentation}$/u;
/** Variation selectors (the emoji/text switch after ⚠ in `⚠️`, ideographic variants) choose a glyph and take no room. */
const isVariationSelector = (codepoint: number): boolean => (codepoint >= 0xfe00 && codepoint <= 0xfe0f) || (codepoint >= 0xe0100 && codepoint <= 0xe01ef);

function estimate(codepoint: number, face: Face): number {
  if (isVariationSelector(codepoint)) return 0;
  // CJK, Hangul, full-width forms and emoji take a full em or more.
  const wide =
    (codepoint >= 0x1100 &&
      (codepoint <= 0x115f || (codepoint >= 0x2e80 && codepoint <= 0xa4cf) || (codepoint >= 0xac00 && codepoint <= 0xd7a3) || (codepoint >= 0xf900 && codepoint <= 0xfaff) || (codepoint >= 0xfe30 && codepoint <= 0xfe4f) || (codepoint >= 0xff00 && codepoint <= 0xff60) || codepoint >= 0x1f300)) ||
    EMOJI_PRESENTATION.test(String.fromCodePoint(codepoint));
  return (wide ? ESTIMATE_EM.wide : ESTIMATE_EM.other) * (familyOfFace(face) === 'hand' ? HAND_SCALE : 1);
}

/** Width of one line in em. */
function lineEm(line: string, face: Face): number {
  const dense = DENSE[face];
  let em = 0;
  for (let i = 0; i < line.length; ) {
    const codepoint = line.codePointAt(i)!;
    i += codepoint > 0xffff ? 2 : 1;
    const advance = codepoint < DENSE_LIMIT ? dense[codepoint] : tabulated(codepoint, face);
    em += advance === undefined || Number.isNaN(advance) ? estimate(codepoint, face) : advance;
  }
  return em;
}

/**
 * Width and height of `text` at `fontSize` px in a native font family (`normal`, `hand`, `code`; anything else is
 * measured as `normal`), in its bold face when `fontWeight` is `bold`. Lines break at LF, CR LF and CR, as the renderer breaks them. The width is rounded up to a
 * hundredth of a px (the scene's precision), the height is whole line boxes of LINE_HEIGHT, rounded up to a px.
 */
export function measureText(text: string, fontSize: number, fontFamily: string, fontWeight?: string): TextSize {
  const face = faceOf(fontFamily, fontWeight);
  const lines = text.includes('\r') ? text.split(/\r\n?|\n/) : text.split('\n');
  let widest = 0;
  for (const line of lines) widest = Math.max(widest, lineEm(line, face));
  return { width: Math.ceil(widest * fontSize * 100) / 100, height: Math.ceil(lines.length * fontSize * LINE_HEIGHT) };
}

/**
 * A paragraph's words for wrapping, split at spaces, except that a list mark opening it (`- `, `* `, `+ `, `• `)
 * stays with the word it marks: a bullet left alone at a line's end reads as a stray dash (a Mermaid label's
 * `<br/>- mobon-gateway-service-aggregation`).
 */
export const wrapWords = (paragraph: string): string[] => {
  // Spaces ending a line draw nothing; as an empty last word they opened a blank line where the line before filled
  // its width (a Mermaid decision's `enough state <br>based contract`).
  const words = paragraph.replace(/ +$/, '').split(' ');
  return /^[-*+•]$/.test(words[0] ?? '') && words.length > 1 ? [`${words[0]} ${words[1]}`, ...words.slice(2)] : words;
};

/**
 * A word too wide for its line, cut where a reader expects it to break: after a slash, hyphen, dot, underscore or
 * colon (an image reference, a resource name), each piece keeping its separators (a run such as `//` or `::` stays
 * whole), and between the words of a CamelCase name (`MachineDeployment|Reconciler`, `HTTP|Server`). A version
 * number's dots hold it together (`reviews-v3:|1.18.0`, never `1.|18.0`). Wrappers break a piece between characters
 * only when it alone is still too wide.
 */
export const wordPieces = (word: string): string[] =>
  word.split(/(?<=[/\-_:]|(?<!\d)\.|\.(?!\d))(?=[^/\-._:])|(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])/);
