/**
 * Text contrast. The renderer draws a shape's label in its stroke colour, so a stroke that is fine as a border
 * (orange on pale yellow, white on white in DOT `node [style=filled,color=white]`) can leave the label unreadable.
 */

/** WCAG's minimum contrast for large text and UI parts: labels below it are hard to read. */
export const MIN_TEXT_CONTRAST = 3;

const DARK_TEXT = '#1e1e1e';
const LIGHT_TEXT = '#ffffff';

type Rgba = [number, number, number, number];

/** `#rgb`, `#rgba`, `#rrggbb`, `#rrggbbaa` or `transparent` → channels 0–255 and alpha 0–1; undefined if not a colour. */
export function parseColor(color: string): Rgba | undefined {
  if (color === 'transparent') return [255, 255, 255, 0];
  const match = /^#([0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/i.exec(color);
  if (!match) return undefined;
  let hex = match[1]!;
  if (hex.length <= 4) hex = [...hex].map((c) => c + c).join('');
  const channel = (i: number) => parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return [channel(0), channel(1), channel(2), hex.length === 8 ? channel(3) / 255 : 1];
}

/** `top` painted over the opaque `under`. */
const over = (top: Rgba, under: Rgba): Rgba => [0, 1, 2].map((i) => top[i]! * top[3] + under[i]! * (1 - top[3])).concat(1) as Rgba;

const luminance = ([r, g, b]: Rgba) => {
  const linear = (c: number) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
};

/** A colour as the grey of the same lightness (PlantUML's `skinparam monochrome`); undefined if not a colour. */
export function grayOf(color: string): string | undefined {
  const rgba = parseColor(color);
  if (rgba === undefined) return undefined;
  const [r, g, b] = rgba;
  const grey = Math.round(0.299 * r + 0.587 * g + 0.114 * b).toString(16).padStart(2, '0');
  return `#${grey}${grey}${grey}`;
}

const ratio = (a: Rgba, b: Rgba) => {
  const [high, low] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (high! + 0.05) / (low! + 0.05);
};

/** The fill as seen on the white canvas (a transparent or translucent fill shows the white through). */
const seenFill = (fill: string) => over(parseColor(fill) ?? [255, 255, 255, 0], [255, 255, 255, 1]);

/** Fully transparent: drawn, but not seen. */
export const isHidden = (color: string): boolean => parseColor(color)?.[3] === 0;

/**
 * WCAG contrast ratio (1–21) of text in `text` colour on a shape filled with `fill`; undefined if either is not a
 * colour, or the text is fully transparent: hidden by its author (D2 `opacity: 0`), not meant to be read.
 */
export function textContrast(text: string, fill: string): number | undefined {
  const ink = parseColor(text);
  if (!ink || ink[3] === 0 || parseColor(fill) === undefined) return undefined;
  const background = seenFill(fill);
  return ratio(over(ink, background), background);
}

/**
 * The stroke to give a labelled shape: `stroke` itself when its text reads on `fill` (contrast at least 3:1),
 * else a dark stroke, or a light one on a dark fill.
 */
export function readableStroke(stroke: string, fill: string): string {
  // A transparent border (D2 stroke-width 0) carries no text: the label gets a colour that reads. Text hidden on
  // purpose is the caller's to keep (isHidden).
  const contrast = isHidden(stroke) ? 1 : textContrast(stroke, fill);
  if (contrast === undefined || contrast >= MIN_TEXT_CONTRAST) return stroke;
  return textContrast(DARK_TEXT, fill)! >= textContrast(LIGHT_TEXT, fill)! ? DARK_TEXT : LIGHT_TEXT;
}
