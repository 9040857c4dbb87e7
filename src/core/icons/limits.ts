/** Constants of the icon rules of the interface spec, defined once: stamping, search and the capabilities guide import them. */

/** Vendor hints a scene or a search may carry; each names the library of that vendor's icon set. */
export const ICON_VENDORS = ['aws', 'azure', 'gcp', 'kubernetes'] as const;
export type IconVendor = (typeof ICON_VENDORS)[number];

export const isIconVendor = (value: unknown): value is IconVendor =>
  typeof value === 'string' && (ICON_VENDORS as readonly string[]).includes(value);

/** Icons only on node-sized boxes: 60–420 × 40–260 (inclusive). */
export const ICON_NODE_BOUNDS = {
  minWidth: 60,
  maxWidth: 420,
  minHeight: 40,
  maxHeight: 260,
} as const;

/** Element types that never carry an icon, whatever their size (frames are containers, the rest are not boxes). */
export const ICONLESS_TYPES: ReadonlySet<string> = new Set([
  'frame',
  // A figure (a person, an interface's circle, a robustness glyph) is its own picture.
  'person',
  'lollipop',
  'boundary',
  'control',
  'entity',
  'text',
  'arrow',
  'line',
  'freedraw',
  'highlight',
  'image',
  'embed',
  'math',
  'code',
]);

/** Icon size inside a node: min(48, 45% of the box height), never wider than 80% of the box. */
export const ICON_SIZE = {
  max: 48,
  heightShare: 0.45,
  widthShare: 0.8,
  /** Gap between the top edge of the box and the icon, as a share of the height, clamped to 4–10. */
  topGapShare: 0.08,
  minTopGap: 4,
  maxTopGap: 10,
} as const;

/**
 * A table's icon (a Deployment drawn as a table of its config, secrets and volumes): small, left of the title in its
 * header, so a table and an icon box beside it read as one family.
 */
export const HEADER_ICON = {
  size: 24,
  /** Between the icon and the title. */
  gap: 6,
} as const;

export const SEARCH_LIMIT_DEFAULT = 10;
export const SEARCH_LIMIT_MAX = 100;
/** Queries longer than this are cut: labels are short, and the cut bounds the work per query. */
export const SEARCH_QUERY_MAX_LENGTH = 200;
/** How many suggestions an unknown-iconRef warning lists. */
export const ICON_SUGGESTIONS = 3;
