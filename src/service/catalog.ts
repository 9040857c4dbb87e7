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

  /** An empty result says what to try next instead of leaving the client to guess. */
  searchIcons(query: IconSearchOptions) {
    const items = searchIcons(query);
    if (items.length > 0) return { items };
    return {
      items,
      hint:
        `no icon matches ${JSON.stringify(query.query)}: try the kind of thing it is (database, queue, cache, server, api, user, ` +
        'cloud, storage, ai model), which the generic library has, or list every label with GET /api-v1/libraries?items=1 (MCP: drawbridge://libraries)',
    };
  }

  iconSvg(library: string, label: string): string | undefined {
    return getIcon({ library, label })?.svg;
  }
}
