import type { IconSource } from '../types.js';

/** The shape of one `@isoflow/isopacks` collection (`dist/<vendor>.js`). */
export interface IsopackCollection {
  id: string;
  name: string;
  icons: ReadonlyArray<{ id: string; url: string; isIsometric: boolean }>;
}

/**
 * The isopacks collections are webpack CommonJS bundles whose `module.exports` is `{ default: collection }`; their
 * .d.ts files describe only the inner object, so the default import must be unwrapped at run time.
 */
export function unwrapIsopack(module: unknown): IsopackCollection {
  const value = module as IsopackCollection | { default: IsopackCollection };
  return 'icons' in value ? value : value.default;
}

const SVG_DATA_URL = 'data:image/svg+xml;base64,';

/** The icons ship as base64 data URLs; decoding is deferred to the first getIcon of each. */
function decodeSvgDataUrl(url: string): string {
  if (!url.startsWith(SVG_DATA_URL)) return '';
  const binary = atob(url.slice(SVG_DATA_URL.length));
  return new TextDecoder().decode(Uint8Array.from(binary, (char) => char.charCodeAt(0)));
}

export interface IsopackNaming {
  label: string;
  aliases?: readonly string[];
}

/** Turns a collection into library items; `name` returns undefined for icons the library leaves out. */
export function isopackItems(
  collection: IsopackCollection,
  name: (slug: string) => IsopackNaming | undefined,
): IconSource[] {
  return collection.icons.flatMap((icon) => {
    const naming = icon.isIsometric ? undefined : name(icon.id);
    return naming ? [{ ...naming, svg: () => decodeSvgDataUrl(icon.url) }] : [];
  });
}
