import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { EmbeddedFonts, type FaceKey, type FontFamily, type FontFiles } from '../core/render/fonts.js';

/**
 * Loads the renderer's fonts from their npm packages (the I/O the pure core may not do). All three are Google Fonts
 * under the SIL Open Font License, shipped as full TrueType files by the @expo-google-fonts packages (the
 * @fontsource ones ship only WOFF/WOFF2, which the PNG rasteriser cannot read):
 * - hand: Kalam, a marker-pen handwriting close to a whiteboard's;
 * - normal: Inter, a neutral UI sans;
 * - code: JetBrains Mono.
 * Fallbacks for PNG text no family draws: Noto Sans SC (CJK ideographs, kana), Noto Sans KR (hangul, which SC lacks)
 * and Noto Emoji (the monochrome outline emoji; Noto Color Emoji is bitmaps, which have no outline to draw). 10.6, 6.2
 * and 0.9 MB, held in memory once parsed; fontkit reads a glyph only when a label needs it.
 */
const FACE_FILES: Record<FontFamily, string> = {
  hand: '@expo-google-fonts/kalam/400Regular/Kalam_400Regular.ttf',
  normal: '@expo-google-fonts/inter/400Regular/Inter_400Regular.ttf',
  code: '@expo-google-fonts/jetbrains-mono/400Regular/JetBrainsMono_400Regular.ttf',
};
/** Bold and italic faces from the same packages. Kalam has no italic: the renderer slants its upright faces. */
const VARIANT_FILES: Partial<Record<Exclude<FaceKey, FontFamily>, string>> = {
  'hand-bold': '@expo-google-fonts/kalam/700Bold/Kalam_700Bold.ttf',
  'normal-bold': '@expo-google-fonts/inter/700Bold/Inter_700Bold.ttf',
  'normal-italic': '@expo-google-fonts/inter/400Regular_Italic/Inter_400Regular_Italic.ttf',
  'normal-bold-italic': '@expo-google-fonts/inter/700Bold_Italic/Inter_700Bold_Italic.ttf',
  'code-bold': '@expo-google-fonts/jetbrains-mono/700Bold/JetBrainsMono_700Bold.ttf',
  'code-italic': '@expo-google-fonts/jetbrains-mono/400Regular_Italic/JetBrainsMono_400Regular_Italic.ttf',
  'code-bold-italic': '@expo-google-fonts/jetbrains-mono/700Bold_Italic/JetBrainsMono_700Bold_Italic.ttf',
};
const FALLBACK_FILES = [
  '@expo-google-fonts/noto-sans-sc/400Regular/NotoSansSC_400Regular.ttf',
  '@expo-google-fonts/noto-sans-kr/400Regular/NotoSansKR_400Regular.ttf',
  '@expo-google-fonts/noto-emoji/400Regular/NotoEmoji_400Regular.ttf',
];
const SUBSET_WASM = 'harfbuzzjs/dist/harfbuzz-subset.wasm';

const require = createRequire(import.meta.url);
const read = (specifier: string): Uint8Array<ArrayBuffer> => new Uint8Array(readFileSync(require.resolve(specifier)));

export function loadFontFiles(): FontFiles {
  return {
    faces: { hand: read(FACE_FILES.hand), normal: read(FACE_FILES.normal), code: read(FACE_FILES.code) },
    variants: Object.fromEntries(Object.entries(VARIANT_FILES).map(([key, file]) => [key, read(file)])),
    fallbacks: FALLBACK_FILES.map(read),
    subsetWasm: read(SUBSET_WASM),
  };
}

let fonts: EmbeddedFonts | undefined;

/** The process's fonts for `renderSvg(elements, { fonts })`, built on first use (about a megabyte, parsed once). */
export function loadRenderFonts(): EmbeddedFonts {
  fonts ??= new EmbeddedFonts(loadFontFiles());
  return fonts;
}
