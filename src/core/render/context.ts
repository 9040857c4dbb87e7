import { type FaceKey, type FontFamily, type FontMetrics, faceKey, type TextFace } from './fonts.js';
import type { Shadow } from './shadows.js';

/** What one render shares across its elements: fonts, the glyphs used (for subsetting), defs and unique ids. */
export class RenderContext {
  /** Codepoints drawn per face; the embedded fonts hold exactly these. */
  readonly glyphs = new Map<FaceKey, Set<number>>();
  /** Shared definitions by id, written once into `<defs>` in first-use order. */
  readonly defs = new Map<string, string>();
  /** Ids of definitions made once per document (icon symbols), by what they define. */
  readonly symbols = new Map<string, string>();
  /** Shadow filters in use; written with the drawing's bounds once those are known. */
  readonly shadows = new Set<Shadow>();
  private counter = 0;

  constructor(
    readonly fonts: FontMetrics,
    /** Prefix of every id in the document, so several diagrams can sit in one HTML page. */
    readonly prefix: string,
    /** The background colour, or undefined when transparent. */
    readonly background: string | undefined,
    /** Text as glyph outlines (`<path>`) instead of `<text>` with embedded fonts. */
    readonly outlineText = false,
  ) {}

  /** A fresh id, stable for the same scene (ids are numbered in drawing order). */
  id(kind: string): string {
    this.counter += 1;
    return `${this.prefix}-${kind}${this.counter}`;
  }

  /** Records the glyphs of `text` drawn in `family` (bold, italic), each under the face that has it. */
  useGlyphs(family: FontFamily, text: string, face?: TextFace): void {
    for (const char of text) {
      const codepoint = char.codePointAt(0)!;
      const owner = faceKey(this.fonts.familyOf(family, codepoint), face);
      let set = this.glyphs.get(owner);
      if (!set) this.glyphs.set(owner, (set = new Set()));
      set.add(codepoint);
    }
  }

  /** What sits behind a label or inside an outlined arrowhead: the background, or white when it is transparent. */
  get paper(): string {
    return this.background ?? '#ffffff';
  }
}
