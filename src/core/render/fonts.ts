import * as fontkit from 'fontkit';
import { FONT_FALLBACKS, measureText } from '../layout/measure.js';
import type { FONT_FAMILIES } from '../scene/constants.js';
import { FontSubsetter } from './subset.js';
import { fmt } from './svg.js';

export type FontFamily = (typeof FONT_FAMILIES)[number];

/** The bytes the renderer's fonts are made of; loaded from the font packages by `src/infra/fonts.ts`. */
export interface FontFiles {
  /** TrueType/OpenType bytes of each native family. */
  faces: Record<FontFamily, Uint8Array>;
  /**
   * Faces for what no native family draws (CJK, emoji), in order, used only to outline text (PNG): an SVG viewer
   * draws those characters in its own system fonts, but the PNG rasteriser is given no fonts at all.
   */
  fallbacks?: Uint8Array[];
  /** harfbuzzjs's `harfbuzz-subset.wasm`. */
  subsetWasm: Uint8Array<ArrayBuffer>;
}

/** What text layout needs from a font: advance widths, where the baseline sits, and how to embed or outline it. */
export interface FontMetrics {
  /** Width in px of one line of text (no line breaks). */
  lineWidth(text: string, family: FontFamily, fontSize: number): number;
  /** Ascent above and descent below the baseline, as fractions of the font size (both positive). */
  vertical(family: FontFamily): { ascent: number; descent: number };
  /** The `font-family` value of a native family: its face, the other faces as fallbacks, a generic family last. */
  cssFamily(family: FontFamily): string;
  /** The family whose face draws `codepoint` in text of `family` (another one when `family` lacks the glyph). */
  familyOf(family: FontFamily, codepoint: number): FontFamily;
  /** `@font-face` rules carrying subsets of the faces with exactly the given codepoints, or '' without fonts. */
  fontFaceCss(used: ReadonlyMap<FontFamily, ReadonlySet<number>>): string;
  /** One line of text as path data, its baseline starting at (x, baseline); undefined when there are no outlines. */
  outline(text: string, family: FontFamily, fontSize: number, x: number, baseline: number): string | undefined;
}

const GENERIC: Record<FontFamily, string> = { hand: 'cursive', normal: 'sans-serif', code: 'monospace' };
/** fontkit's path commands as SVG path letters. */
const PATH_COMMANDS: Record<string, string> = { moveTo: 'M', lineTo: 'L', quadraticCurveTo: 'Q', bezierCurveTo: 'C', closePath: 'Z' };
/** Subsets are deterministic and a scene is often rendered again (share links, PNG after SVG): keep the last few. */
const SUBSET_CACHE_SIZE = 64;

const quoteFamily = (name: string): string => (/^[A-Za-z]+$/.test(name) ? name : `'${name.replace(/[^A-Za-z0-9 -]/g, '')}'`);

interface Glyph {
  /** The family whose face has the glyph. */
  family: FontFamily;
  /** When no native face has it: the fallback face that draws it (index into `fallbacks`). */
  fallback?: number;
  /** Advance in em. */
  advance: number;
  /** Outline in font units (y up); built on first use, only outlined text needs it. */
  outline?: Array<{ command: string; args: number[] }>;
}

interface Face {
  name: string;
  unitsPerEm: number;
  ascent: number;
  descent: number;
  font: fontkit.Font;
  /** Per codepoint of text set in this family. fontkit builds a glyph object per lookup, far too slow for 10,000 labels. */
  glyphs: Map<number, Glyph>;
}

/**
 * Real font metrics (fontkit) and embedding by subset (HarfBuzz). Build it once per process from the loaded files:
 * it keeps parsed faces, glyph caches and the wasm instance. Advances are summed without kerning, and the embedded
 * subsets carry no kerning either (subset.ts), so every viewer places glyphs exactly where they were measured.
 */
export class EmbeddedFonts implements FontMetrics {
  private readonly faces: Record<FontFamily, Face>;
  private readonly fallbacks: fontkit.Font[];
  private readonly subsetter: FontSubsetter;
  private readonly subsets = new Map<string, string>();

  constructor(files: FontFiles) {
    this.subsetter = new FontSubsetter(files.subsetWasm);
    const face = (family: FontFamily): Face => {
      const bytes = files.faces[family];
      const parsed = fontkit.create(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
      if (!('unitsPerEm' in parsed)) throw new Error(`the ${family} font is a collection, expected a single face`);
      this.subsetter.load(family, bytes);
      const font = parsed as fontkit.Font;
      return { name: font.familyName, unitsPerEm: font.unitsPerEm, ascent: font.ascent, descent: Math.abs(font.descent), font, glyphs: new Map() };
    };
    this.faces = { hand: face('hand'), normal: face('normal'), code: face('code') };
    this.fallbacks = (files.fallbacks ?? []).map((bytes) => fontkit.create(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)) as fontkit.Font);
  }

  private glyph(family: FontFamily, codepoint: number): Glyph {
    const face = this.faces[family];
    let glyph = face.glyphs.get(codepoint);
    if (glyph === undefined) {
      // A glyph missing from a face comes from the next in the layout's order, as the CSS font-family lists say too.
      const owner = FONT_FALLBACKS[family].find((f) => this.faces[f].font.hasGlyphForCodePoint(codepoint));
      const ownerFace = this.faces[owner ?? family];
      const fallback = owner === undefined ? this.fallbacks.findIndex((font) => font.hasGlyphForCodePoint(codepoint)) : -1;
      glyph = {
        family: owner ?? family,
        // No face has it (CJK, emoji): a viewer draws it in a system font, about an em wide, not the .notdef box's advance;
        // the outline from a fallback face keeps that advance, the one the layout measured.
        advance: owner === undefined ? measureText(String.fromCodePoint(codepoint), 1, family).width : ownerFace.font.glyphForCodePoint(codepoint).advanceWidth / ownerFace.unitsPerEm,
        ...(fallback !== -1 && { fallback }),
      };
      face.glyphs.set(codepoint, glyph);
    }
    return glyph;
  }

  familyOf(family: FontFamily, codepoint: number): FontFamily {
    return this.glyph(family, codepoint).family;
  }

  lineWidth(text: string, family: FontFamily, fontSize: number): number {
    let em = 0;
    for (const char of text) em += this.glyph(family, char.codePointAt(0)!).advance;
    return em * fontSize;
  }

  outline(text: string, family: FontFamily, fontSize: number, x: number, baseline: number): string {
    let d = '';
    let pen = x;
    for (const char of text) {
      const codepoint = char.codePointAt(0)!;
      const glyph = this.glyph(family, codepoint);
      const owner = glyph.fallback === undefined ? this.faces[glyph.family].font : this.fallbacks[glyph.fallback]!;
      glyph.outline ??= owner.glyphForCodePoint(codepoint).path.commands;
      const scale = fontSize / owner.unitsPerEm;
      for (const { command, args } of glyph.outline) {
        const points: string[] = [];
        for (let i = 0; i < args.length; i += 2) points.push(`${fmt(pen + args[i]! * scale)} ${fmt(baseline - args[i + 1]! * scale)}`);
        d += `${PATH_COMMANDS[command] ?? ''}${points.join(' ')}`;
      }
      pen += glyph.advance * fontSize;
    }
    return d;
  }

  vertical(family: FontFamily): { ascent: number; descent: number } {
    const face = this.faces[family];
    return { ascent: face.ascent / face.unitsPerEm, descent: face.descent / face.unitsPerEm };
  }

  cssFamily(family: FontFamily): string {
    return `${FONT_FALLBACKS[family].map((f) => quoteFamily(this.faces[f].name)).join(', ')}, ${GENERIC[family]}`;
  }

  fontFaceCss(used: ReadonlyMap<FontFamily, ReadonlySet<number>>): string {
    let css = '';
    for (const family of ['hand', 'normal', 'code'] as const) {
      const codepoints = used.get(family);
      if (!codepoints || codepoints.size === 0) continue;
      const sorted = [...codepoints].sort((a, b) => a - b);
      const key = `${family}:${sorted.join(',')}`;
      let base64 = this.subsets.get(key);
      if (base64 === undefined) {
        base64 = Buffer.from(this.subsetter.subset(family, sorted)).toString('base64');
        if (this.subsets.size >= SUBSET_CACHE_SIZE) this.subsets.delete(this.subsets.keys().next().value!);
        this.subsets.set(key, base64);
      }
      css += `@font-face{font-family:${quoteFamily(this.faces[family].name)};src:url(data:font/ttf;base64,${base64}) format("truetype");}`;
    }
    return css;
  }
}

/** Families named as the embedded fonts are, so a viewer that has them installed still gets the intended look. */
const FALLBACK_NAMES: Record<FontFamily, string> = { hand: 'Kalam', normal: 'Inter', code: "'JetBrains Mono'" };

/**
 * Without font files (a caller that passed none): the layout's measurement (the embedded faces' advances), so wrapping
 * matches the layout, and no embedding; viewers then draw the text in whatever font they have, perhaps wider.
 */
export const ESTIMATED_FONTS: FontMetrics = {
  lineWidth: (text, family, fontSize) => measureText(text, fontSize, family).width,
  vertical: () => ({ ascent: 0.9, descent: 0.25 }),
  cssFamily: (family) => `${FALLBACK_NAMES[family]}, ${GENERIC[family]}`,
  familyOf: (family) => family,
  fontFaceCss: () => '',
  outline: () => undefined,
};
