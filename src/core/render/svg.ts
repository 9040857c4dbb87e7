/**
 * The few SVG-writing primitives every part of the renderer shares: escaping, number formatting and attribute lists
 * in a fixed order (the order they are given), so the same scene always gives the same bytes.
 */

/** Characters XML 1.0 forbids (C0 controls but tab/LF/CR, lone surrogates, U+FFFE/FFFF): one would make the whole SVG unreadable. */
// eslint-disable-next-line no-control-regex
const NOT_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text and attribute values: escaped, and characters XML cannot carry replaced by U+FFFD. */
export const escapeXml = (value: string): string =>
  value.replace(NOT_XML, '\ufffd').replace(/[&<>"']/g, (char) => ESCAPES[char] ?? char);

/** Drops the characters XML cannot carry; what measuring and subsetting see is what gets written. */
export const xmlSafe = (value: string): string => value.replace(NOT_XML, '\ufffd');

/** Coordinates to two decimals (a hundredth of a pixel is invisible) and never `-0`, `NaN` or `Infinity`. */
export function fmt(value: number): string {
  if (!Number.isFinite(value)) return '0';
  const rounded = Math.round(value * 100) / 100;
  return rounded === 0 ? '0' : String(rounded);
}

export type AttributeValue = string | number | undefined;

/**
 * Attributes whose values the renderer writes itself from numbers and command letters only (path data, point
 * lists, transforms): escaping them is pure cost, and on a big scene path data is most of the bytes.
 */
const GEOMETRY = new Set(['d', 'points', 'transform', 'viewBox']);

/** ` name="value"` pairs in the given order; undefined values are left out, numbers go through `fmt`. */
export function attrs(pairs: ReadonlyArray<readonly [string, AttributeValue]>): string {
  let out = '';
  for (const [name, value] of pairs) {
    if (value === undefined) continue;
    out += ` ${name}="${typeof value === 'number' ? fmt(value) : GEOMETRY.has(name) ? value : escapeXml(value)}"`;
  }
  return out;
}

export const tag = (name: string, pairs: ReadonlyArray<readonly [string, AttributeValue]>, children?: string): string =>
  children === undefined ? `<${name}${attrs(pairs)}/>` : `<${name}${attrs(pairs)}>${children}</${name}>`;

/**
 * The same text as one flat string. Markup built with `+=` is a V8 rope of every small piece (each formatted number
 * its own string); kept as it is, a 10,000-element drawing holds millions of such pieces, and copying them at each
 * young-generation GC was a third of the render time. Reading a character makes V8 flatten the rope in place, so the
 * pieces die young. (`npm run bench` measures it: about 1.8 s → 1 s for 10,000 elements.)
 */
export function flatten(markup: string): string {
  markup.charCodeAt(0);
  return markup;
}
