import { getIcon, type IconSearchOptions, listLibraries, searchIcons } from '../core/icons/index.js';
import { buildCapabilities } from '../core/scene/capabilities.js';

/**
 * The published catalog: the drawing guide and the icon libraries. Nothing in it belongs to a workspace, so any
 * valid token may read it (and the SVG of an icon is public, for exports that link to it). Built once: it only
 * changes with a new release.
 */
export class CatalogService {
  private capabilitiesDocument: ReturnType<typeof buildCapabilities> | undefined;

  capabilities() {
    this.capabilitiesDocument ??= buildCapabilities();
    return this.capabilitiesDocument;
  }

  libraries(options: { items?: boolean } = {}) {
    return { libraries: listLibraries(options) };
  }

  searchIcons(query: IconSearchOptions) {
    return { items: searchIcons(query) };
  }

  iconSvg(library: string, label: string): string | undefined {
    return getIcon({ library, label })?.svg;
  }
}
