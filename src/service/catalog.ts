import { getIcon, type IconSearchOptions, listLibraries, searchIcons } from '../core/icons/index.js';
import { AppError } from '../core/errors.js';
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

  /** One part of the guide (`elementTypes`, `examples`, …), for a client that needs only that. */
  capabilitiesSection(section: string): Record<string, unknown> {
    const guide = this.capabilities() as Record<string, unknown>;
    if (!Object.hasOwn(guide, section)) {
      throw new AppError('validation_failed', `section must be one of ${Object.keys(guide).join(', ')}; got ${JSON.stringify(section)}`);
    }
    return { [section]: guide[section] };
  }

  sections(): string[] {
    return Object.keys(this.capabilities());
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
