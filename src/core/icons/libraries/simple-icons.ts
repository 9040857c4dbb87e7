import * as simpleIcons from 'simple-icons';
import type { SimpleIcon } from 'simple-icons';

/**
 * Brand marks from `simple-icons` (CC0-1.0 for the package; each mark stays its owner's trademark). Simple Icons
 * removes a brand whose owner asks, so a brand it carries is one whose policy allows the logo in such use.
 */

let bySlug: Map<string, SimpleIcon> | undefined;

export function allSimpleIcons(): Map<string, SimpleIcon> {
  // The namespace also holds a non-icon export, hence the shape check.
  const icons = Object.values(simpleIcons as Record<string, unknown>).filter(isSimpleIcon);
  bySlug ??= new Map(icons.map((icon) => [icon.slug, icon]));
  return bySlug;
}

const isSimpleIcon = (value: unknown): value is SimpleIcon =>
  typeof value === 'object' && value !== null && typeof (value as SimpleIcon).slug === 'string' && typeof (value as SimpleIcon).path === 'string';

export function simpleIcon(slug: string): SimpleIcon | undefined {
  return allSimpleIcons().get(slug);
}

/** A single-path mark in its brand colour; near-white brands are drawn dark so they show on a light node. */
export function simpleIconSvg(icon: SimpleIcon): string {
  const fill = relativeLuminance(icon.hex) > 0.85 ? '1E1E1E' : icon.hex;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><title>${icon.title}</title><path fill="#${fill}" d="${icon.path}"/></svg>`;
}

function relativeLuminance(hex: string): number {
  const channel = (offset: number) => {
    const value = Number.parseInt(hex.slice(offset, offset + 2), 16) / 255;
    return value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(0) + 0.7152 * channel(2) + 0.0722 * channel(4);
}
