/**
 * Text measurement by an average-advance table. Stands in for real font metrics until the renderer ships fonts; it
 * errs wide on purpose (labels must never overflow their box), so swapping in real metrics only makes boxes tighter.
 */

export interface TextSize {
  width: number;
  height: number;
}

/** Line height as a multiple of the font size (matches the renderer's 1.25). */
export const LINE_HEIGHT = 1.25;

/** Advance widths in em for a proportional sans font, grouped by glyph class; each is at or above Helvetica's widest in its class. */
const ADVANCE_EM = {
  narrow: 0.34, // i j l ! | . , : ; ' ` and similar
  space: 0.34,
  lower: 0.6,
  wide: 0.92, // m w M W @ and full-width punctuation
  upper: 0.74,
  digit: 0.6,
  cjk: 1.05, // CJK and other full-width glyphs
  other: 0.66,
} as const;

/** Monospace fonts advance every glyph by the same width (0.6 em in the common coding fonts). */
const MONO_EM = 0.62;
/** The hand-drawn font runs wider than a sans font of the same size. */
const HAND_SCALE = 1.15;

const NARROW = new Set("ijlI!|.,:;'`()[]{}tf/\\".split(''));
const WIDE = new Set('mwMW@%&'.split(''));

function advanceOf(char: string): number {
  if (char === ' ') return ADVANCE_EM.space;
  if (NARROW.has(char)) return ADVANCE_EM.narrow;
  if (WIDE.has(char)) return ADVANCE_EM.wide;
  if (char >= '0' && char <= '9') return ADVANCE_EM.digit;
  if (char >= 'a' && char <= 'z') return ADVANCE_EM.lower;
  if (char >= 'A' && char <= 'Z') return ADVANCE_EM.upper;
  const code = char.codePointAt(0) ?? 0;
  // CJK, Hangul, full-width forms and emoji take a full em or more.
  if (code >= 0x1100 && (code <= 0x115f || (code >= 0x2e80 && code <= 0xa4cf) || (code >= 0xac00 && code <= 0xd7a3) || (code >= 0xf900 && code <= 0xfaff) || (code >= 0xfe30 && code <= 0xfe4f) || (code >= 0xff00 && code <= 0xff60) || code >= 0x1f300)) {
    return ADVANCE_EM.cjk;
  }
  return ADVANCE_EM.other;
}

/** Width and height of `text` (lines split on \n) at `fontSize` px in a native font family (`normal`, `hand`, `code`). */
export function measureText(text: string, fontSize: number, fontFamily: string): TextSize {
  const lines = text.split('\n');
  const mono = fontFamily === 'code';
  const scale = fontFamily === 'hand' ? HAND_SCALE : 1;
  let widest = 0;
  for (const line of lines) {
    let em = 0;
    for (const char of line) em += mono ? MONO_EM : advanceOf(char);
    widest = Math.max(widest, em);
  }
  return { width: Math.ceil(widest * scale * fontSize), height: Math.ceil(lines.length * fontSize * LINE_HEIGHT) };
}
