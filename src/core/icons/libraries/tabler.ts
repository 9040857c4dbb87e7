import { icons as tablerSet } from '@iconify-json/tabler';
import { AppError } from '../../errors.js';
import { getIconData } from '@iconify/utils/lib/icon-set/get-icon';
import { iconToSVG } from '@iconify/utils/lib/svg/build';
import { iconToHTML } from '@iconify/utils/lib/svg/html';

/** Tabler Icons (MIT) from the Iconify JSON package; only the curated subsets named by the libraries are used. */
export function tablerSvg(name: string): string {
  const data = getIconData(tablerSet, name);
  if (!data) throw new AppError('internal', `tabler icon "${name}" is not in @iconify-json/tabler`);
  const { attributes, body } = iconToSVG(data);
  return iconToHTML(body, { viewBox: attributes.viewBox });
}

