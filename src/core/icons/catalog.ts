import { ICON_LIBRARIES } from './libraries/index.js';
import { sanitizeSvg } from './sanitize.js';
import type { IconItem, IconLibraryDefinition, IconRef } from './types.js';

/**
 * The icon catalog: every library's items, built once on first use (not at import) so that modules which only
 * import the stamping or search types pay nothing; the package data itself is parsed by the JSON/JS imports.
 */

export interface CatalogLibrary {
  definition: IconLibraryDefinition;
  items: IconItem[];
}

interface Catalog {
  libraries: CatalogLibrary[];
  items: IconItem[];
  byRef: Map<IconRef, IconItem>;
  /** Lower-cased refs, so `aws/amazon s3` resolves to `aws/Amazon S3`. */
  byFoldedRef: Map<string, IconItem>;
}

let catalog: Catalog | undefined;

export const iconRefOf = (library: string, label: string): IconRef => `${library}/${label}`;

export function iconCatalog(): Catalog {
  if (catalog) return catalog;
  const byRef = new Map<IconRef, IconItem>();
  const byFoldedRef = new Map<string, IconItem>();
  const libraries = ICON_LIBRARIES.map((definition): CatalogLibrary => {
    const items: IconItem[] = [];
    for (const source of definition.items()) {
      const ref = iconRefOf(definition.id, source.label);
      // Labels are the ref, so the first of two same-named package icons wins (e.g. a legacy duplicate).
      if (byFoldedRef.has(ref.toLowerCase())) continue;
      const item: IconItem = { library: definition.id, label: source.label, ref, aliases: source.aliases ?? [], svg: source.svg };
      items.push(item);
      byRef.set(ref, item);
      byFoldedRef.set(ref.toLowerCase(), item);
    }
    return { definition, items };
  });
  catalog = { libraries, items: libraries.flatMap((library) => library.items), byRef, byFoldedRef };
  return catalog;
}

export interface IconLibrarySummary {
  id: string;
  name: string;
  count: number;
  /** Present with `{ items: true }`: every item label, in catalog order. */
  items?: string[];
}

export function listLibraries(options: { items?: boolean } = {}): IconLibrarySummary[] {
  return iconCatalog().libraries.map(({ definition, items }) => ({
    id: definition.id,
    name: definition.name,
    count: items.length,
    ...(options.items ? { items: items.map((item) => item.label) } : {}),
  }));
}

/** An iconRef as elements carry it: `"lib/Label"` or `{ library, label }`. */
export type IconRefInput = string | { library: string; label: string };

/** The catalog item an iconRef names (label case-insensitive), or undefined. */
export function resolveIconRef(ref: IconRefInput): IconItem | undefined {
  const text = typeof ref === 'string' ? ref : iconRefOf(ref.library, ref.label);
  const { byRef, byFoldedRef } = iconCatalog();
  return byRef.get(text) ?? byFoldedRef.get(text.trim().toLowerCase());
}

export interface IconDocument {
  library: string;
  label: string;
  ref: IconRef;
  /** Sanitised SVG with a viewBox. */
  svg: string;
}

const sanitizedSvgs = new Map<IconRef, string | undefined>();

export function getIcon(ref: IconRefInput): IconDocument | undefined {
  const item = resolveIconRef(ref);
  if (!item) return undefined;
  if (!sanitizedSvgs.has(item.ref)) sanitizedSvgs.set(item.ref, sanitizeSvg(item.svg()));
  const svg = sanitizedSvgs.get(item.ref);
  return svg === undefined ? undefined : { library: item.library, label: item.label, ref: item.ref, svg };
}
