/** Icon libraries: the catalog, ranked search and stamping icons onto diagram elements. */
export { getIcon, listLibraries, resolveIconRef, type IconDocument, type IconLibrarySummary, type IconRefInput } from './catalog.js';
export { ICON_NODE_BOUNDS, ICON_VENDORS, ICONLESS_TYPES, isIconVendor, type IconVendor } from './limits.js';
export { sanitizeSvg } from './sanitize.js';
export { guessIcon } from './guess.js';
export { searchIcons, type IconSearchOptions, type IconSearchResult } from './search.js';
export {
  iconBox,
  isNodeSized,
  LABEL_BELOW_ICON,
  stampIcons,
  type StampableElement,
  type StampedIcon,
  type StampOptions,
  type StampResult,
} from './stamp.js';
export type { IconRef } from './types.js';
