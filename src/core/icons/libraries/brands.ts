import type { IconLibraryDefinition } from '../types.js';
import { DATABASE_LOGO_SLUGS } from './databases.js';
import { allSimpleIcons, simpleIconSvg } from './simple-icons.js';

/** Vendor marks that their own library already carries (kubernetes/Kubernetes, gcp/Google Cloud). */
const VENDOR_MARK_SLUGS: ReadonlySet<string> = new Set(['kubernetes', 'googlecloud']);

/**
 * Brand and technology logos: every mark of `simple-icons` (CC0-1.0 package; the marks remain their owners'
 * trademarks, and Simple Icons removes brands whose owners object). Database products live in the Databases library.
 */
export const brandsLibrary: IconLibraryDefinition = {
  id: 'brands',
  name: 'Brands & Tech',
  items: () =>
    [...allSimpleIcons().values()]
      .filter((icon) => !DATABASE_LOGO_SLUGS.has(icon.slug) && !VENDOR_MARK_SLUGS.has(icon.slug))
      .map((icon) => ({
        label: icon.title,
        // "Apache Kafka" is "Kafka" to most people.
        aliases: [icon.slug, ...(icon.title.startsWith('Apache ') ? [icon.title.slice('Apache '.length)] : [])],
        svg: () => simpleIconSvg(icon),
      })),
};
