import type { SHADOWS } from '../scene/constants.js';
import type { Box } from './outlines.js';
import { attrs } from './svg.js';

export type Shadow = Exclude<(typeof SHADOWS)[number], 'none'>;

/** soft: a blurred, light shadow below; hard: an unblurred offset copy, the "sticker" look. */
const DROP: Record<Shadow, { dx: number; dy: number; blur: number; color: string; opacity: number }> = {
  soft: { dx: 2, dy: 4, blur: 4, color: '#000000', opacity: 0.25 },
  hard: { dx: 5, dy: 5, blur: 0, color: '#1e1e1e', opacity: 0.9 },
};

/** How far a shadow reaches beyond what casts it, px (for the drawing's bounds). */
export const SHADOW_REACH = 12;

export const shadowId = (prefix: string, shadow: Shadow): string => `${prefix}-shadow-${shadow}`;

/**
 * The filters of the shadows in use. Their region is the whole drawing in scene units: the default region is a
 * share of the element's box, which collapses to nothing for a straight horizontal or vertical line.
 */
export function shadowDefs(prefix: string, used: ReadonlySet<Shadow>, region: Box): string {
  let out = '';
  for (const shadow of ['soft', 'hard'] as const) {
    if (!used.has(shadow)) continue;
    const d = DROP[shadow];
    out +=
      `<filter${attrs([
        ['id', shadowId(prefix, shadow)],
        ['filterUnits', 'userSpaceOnUse'],
        ['x', region.x],
        ['y', region.y],
        ['width', region.width],
        ['height', region.height],
      ])}>` +
      `<feDropShadow${attrs([['dx', d.dx], ['dy', d.dy], ['stdDeviation', d.blur], ['flood-color', d.color], ['flood-opacity', d.opacity]])}/></filter>`;
  }
  return out;
}
