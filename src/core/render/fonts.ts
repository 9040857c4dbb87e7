import * as fontkit from 'fontkit';
import { FONT_FALLBACKS, measureText } from '../layout/measure.js';
import type { FONT_FAMILIES } from '../scene/constants.js';
import { FontSubsetter } from './subset.js';
import { fmt } from './svg.js';

export type FontFamily = (typeof FONT_FAMILIES)[number];
export type FontVariant = 'bold' | 'italic' | 'bold-italic';
/** One face: a family's regular face (its name) or a variant of it (`normal-bold`). */
export type FaceKey = FontFamily | `${FontFamily}-${FontVariant}`;
/** Bold and italic text (the scene's `fontWeight: "bold"`, `fontStyle: "italic"`); regular when absent. */
export interface TextFace {
  bold?: boolean;
  italic?: boolean;
}

export const faceKey = (family: FontFamily, face?: TextFace): FaceKey =>
  face?.bold ? (face.italic ? `${family}-bold-italic` : `${family}-bold`) : face?.italic ? `${family}-italic` : family;
const familyOfKey = (key: FaceKey): FontFamily => key.split('-')[0] as FontFamily;
/** Kalam has no italic face: its italic is the upright face slanted, as a browser synthesises it (CSS `font-synthesis`). */
const OBLIQUE_SKEW = Math.tan((12 * Math.PI) / 180);

/** The bytes the renderer's fonts are made of; loaded from the font packages by `src/infra/fonts.ts`. */
export interface FontFiles {
  /** TrueType/OpenType bytes of each native family. */
  faces: Record<FontFamily, Uint8Array>;
  /** Bold and italic faces; a variant missing here is drawn with the nearest one there is (bold-italic with bold, slanted). */
  variants?: Partial<Record<Exclude<FaceKey, FontFamily>, Uint8Array>>;
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
  lineWidth(text: string, family: FontFamily, fontSize: number, face?: TextFace): number;
  /** Ascent above and descent below the baseline, as fractions of the font size (both positive). */
  vertical(family: FontFamily): { ascent: number; descent: number };
  /** The `font-family` value of a native family: its face, the other faces as fallbacks, a generic family last. */
  cssFamily(family: FontFamily): string;
  /** The family whose face draws `codepoint` in text of `family` (another one when `family` lacks the glyph). */
  familyOf(family: FontFamily, codepoint: number): FontFamily;
  /** `@font-face` rules carrying subsets of the faces with exactly the given codepoints, or '' without fonts. */
  fontFaceCss(used: ReadonlyMap<FaceKey, ReadonlySet<number>>): string;
  /** One line of text as path data, its baseline starting at (x, baseline); undefined when there are no outlines. */
  outline(text: string, family: FontFamily, fontSize: number, x: number, baseline: number, face?: TextFace): string | undefined;
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
  /** Slant of an italic drawn with an upright face (x shift per unit of height); 0 for a real italic. */
  skew: number;
}

/**
 * Real font metrics (fontkit) and embedding by subset (HarfBuzz). Build it once per process from the loaded files:
 * it keeps parsed faces, glyph caches and the wasm instance. Advances are summed without kerning, and the embedded
 * subsets carry no kerning either (subset.ts), so every viewer places glyphs exactly where they were measured.
 */
export class EmbeddedFonts implements FontMetrics {
  private readonly faces = new Map<FaceKey, Face>();
  private readonly files: FontFiles;
  private readonly fallbacks: fontkit.Font[];
  private readonly subsetter: FontSubsetter;
  private readonly subsets = new Map<string, string>();

  constructor(files: FontFiles) {
    this.subsetter = new FontSubsetter(files.subsetWasm);
    this.files = files;
    for (const family of ['hand', 'normal', 'code'] as const) this.face(family);
    this.fallbacks = (files.fallbacks ?? []).map((bytes) => fontkit.create(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)) as fontkit.Font);
  }

  /** A face, parsed on first use: most scenes draw no bold or italic text. */
  private face(key: FaceKey): Face {
    let face = this.faces.get(key);
    if (face !== undefined) return face;
    const family = familyOfKey(key);
    const variant = key === family ? undefined : (key.slice(family.length + 1) as FontVariant);
    const bytes = variant === undefined ? this.files.faces[family] : this.files.variants?.[key as Exclude<FaceKey, FontFamily>];
    if (bytes === undefined) {
      // No such face (Kalam has no italic): bold-italic falls back to bold, italic to regular, slanted.
      const upright = this.face(variant === 'bold-italic' ? `${family}-bold` : family);
      face = { ...upright, glyphs: new Map(), skew: OBLIQUE_SKEW };
    } else {
      const parsed = fontkit.create(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
      if (!('unitsPerEm' in parsed)) throw new Error(`the ${key} font is a collection, expected a single face`);
      this.subsetter.load(key, bytes);
      const font = parsed as fontkit.Font;
      face = { name: font.familyName, unitsPerEm: font.unitsPerEm, ascent: font.ascent, descent: Math.abs(font.descent), font, glyphs: new Map(), skew: 0 };
    }
    this.faces.set(key, face);
    return face;
  }

  private glyph(family: FontFamily, codepoint: number, variant?: TextFace): Glyph {
    const key = faceKey(family, variant);
    const face = this.face(key);
    let glyph = face.glyphs.get(codepoint);
    if (glyph === undefined) {
      // A glyph missing from a face comes from the next in the layout's order, as the CSS font-family lists say too.
      const owner = FONT_FALLBACKS[family].find((f) => this.face(faceKey(f, variant)).font.hasGlyphForCodePoint(codepoint));
      const ownerFace = this.face(faceKey(owner ?? family, variant));
      const fallback = owner === undefined ? this.fallbacks.findIndex((font) => font.hasGlyphForCodePoint(codepoint)) : -1;
      glyph = {
        family: owner ?? family,
        // No face has it (CJK, emoji): a viewer draws it in a system font, about an em wide, not the .notdef box's advance;
        // the outline from a fallback face keeps that advance, the one the layout measured.
        advance: owner === undefined ? measureText(String.fromCodePoint(codepoint), 1, family, variant?.bold ? 'bold' : undefined).width : ownerFace.font.glyphForCodePoint(codepoint).advanceWidth / ownerFace.unitsPerEm,
        ...(fallback !== -1 && { fallback }),
      };
      face.glyphs.set(codepoint, glyph);
    }
    return glyph;
  }

  familyOf(family: FontFamily, codepoint: number): FontFamily {
    return this.glyph(family, codepoint).family;
  }

  lineWidth(text: string, family: FontFamily, fontSize: number, face?: TextFace): number {
    let em = 0;
    for (const char of text) em += this.glyph(family, char.codePointAt(0)!, face).advance;
    return em * fontSize;
  }

  outline(text: string, family: FontFamily, fontSize: number, x: number, baseline: number, face?: TextFace): string {
    let d = '';
    let pen = x;
    for (const char of text) {
      const codepoint = char.codePointAt(0)!;
      const glyph = this.glyph(family, codepoint, face);
      const ownerFace = this.face(faceKey(glyph.family, face));
      const owner = glyph.fallback === undefined ? ownerFace.font : this.fallbacks[glyph.fallback]!;
      const skew = glyph.fallback === undefined ? ownerFace.skew : face?.italic ? OBLIQUE_SKEW : 0;
      glyph.outline ??= owner.glyphForCodePoint(codepoint).path.commands;
      const scale = fontSize / owner.unitsPerEm;
      for (const { command, args } of glyph.outline) {
        const points: string[] = [];
        for (let i = 0; i < args.length; i += 2) points.push(`${fmt(pen + (args[i]! + skew * args[i + 1]!) * scale)} ${fmt(baseline - args[i + 1]! * scale)}`);
        d += `${PATH_COMMANDS[command] ?? ''}${points.join(' ')}`;
      }
      pen += glyph.advance * fontSize;
    }
    return d;
  }

  vertical(family: FontFamily): { ascent: number; descent: number } {
    const face = this.face(family);
    return { ascent: face.ascent / face.unitsPerEm, descent: face.descent / face.unitsPerEm };
  }

  cssFamily(family: FontFamily): string {
    return `${FONT_FALLBACKS[family].map((f) => quoteFamily(this.face(f).name)).join(', ')}, ${GENERIC[family]}`;
  }

  fontFaceCss(usedByFace: ReadonlyMap<FaceKey, ReadonlySet<number>>): string {
    let css = '';
    // A slanted upright face embeds nothing of its own: the viewer slants the upright face, so that one gets its glyphs.
    const used = new Map<FaceKey, Set<number>>();
    for (const [key, codepoints] of usedByFace) {
      const face = this.face(key);
      const embedded = face.skew === 0 ? key : key.includes('bold') ? (`${familyOfKey(key)}-bold` as const) : familyOfKey(key);
      used.set(embedded, new Set([...(used.get(embedded) ?? []), ...codepoints]));
    }
    // Regular faces first, in the family order goldens were written with; then the variants in first-use order.
    const keys = [...(['hand', 'normal', 'code'] as const).filter((f) => used.has(f)), ...[...used.keys()].filter((k) => k.includes('-'))];
    for (const key of keys) {
      const family = familyOfKey(key);
      const codepoints = used.get(key);
      if (!codepoints || codepoints.size === 0) continue;
      const sorted = [...codepoints].sort((a, b) => a - b);
      const cacheKey = `${key}:${sorted.join(',')}`;
      let base64 = this.subsets.get(cacheKey);
      if (base64 === undefined) {
        base64 = Buffer.from(this.subsetter.subset(key, sorted)).toString('base64');
        if (this.subsets.size >= SUBSET_CACHE_SIZE) this.subsets.delete(this.subsets.keys().next().value!);
        this.subsets.set(cacheKey, base64);
      }
      const descriptors = `${key.includes('bold') ? 'font-weight:bold;' : ''}${key.includes('italic') ? 'font-style:italic;' : ''}`;
      css += `@font-face{font-family:${quoteFamily(this.face(family).name)};${descriptors}src:url(data:font/ttf;base64,${base64}) format("truetype");}`;
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
  lineWidth: (text, family, fontSize, face) => measureText(text, fontSize, family, face?.bold ? 'bold' : undefined).width,
  vertical: () => ({ ascent: 0.9, descent: 0.25 }),
  cssFamily: (family) => `${FALLBACK_NAMES[family]}, ${GENERIC[family]}`,
  familyOf: (family) => family,
  fontFaceCss: () => '',
  outline: () => undefined,
};
