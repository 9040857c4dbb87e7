import type { IconVendor } from './limits.js';

/** One icon as a library definition produces it: the SVG is read (and later sanitised) only when asked for. */
export interface IconSource {
  /** The human label, unique within its library: `Amazon S3`, `PostgreSQL`, `Pod`. */
  label: string;
  /** Other names people use for it (abbreviations, former names); they feed search, never the ref. */
  aliases?: readonly string[];
  /** The raw SVG markup from the package (unsanitised). */
  svg: () => string;
}

export interface IconLibraryDefinition {
  id: string;
  name: string;
  /** Set for a cloud vendor's own set: a scene or search vendor hint prefers this library. */
  vendor?: IconVendor;
  /** Words that name the vendor in a query ("amazon", "k8s"): they match every item of the library. */
  vendorWords?: readonly string[];
  items: () => IconSource[];
}

/** `<library>/<Item Label>`, e.g. `aws/Amazon S3`. */
export type IconRef = string;

export interface IconItem {
  library: string;
  label: string;
  ref: IconRef;
  aliases: readonly string[];
  svg: () => string;
}
