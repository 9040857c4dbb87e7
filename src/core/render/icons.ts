import { getIcon, type StampedIcon } from '../icons/index.js';
import type { RenderContext } from './context.js';
import { scopeSvg } from './scope.js';
import { finite } from './style.js';
import { attrs } from './svg.js';

/**
 * Stamped icons: each distinct icon becomes one `<symbol>` with its own viewBox, placed with `<use>`. The catalog
 * hands out sanitised SVG (local references only); its ids and classes are scoped per symbol (scope.ts).
 */

const ROOT = /^<svg\b([^>]*)>([\s\S]*)<\/svg>$/;
const ATTRIBUTE = /([^\s=]+)="([^"]*)"/g;
/** Root attributes that position or declare; the rest (fill, stroke, …) are inherited paint and move to a group. */
const ROOT_ONLY = new Set(['width', 'height', 'viewBox', 'x', 'y', 'id', 'preserveAspectRatio', 'version']);

/** The `<symbol>` for an icon, or undefined when the catalog has no such icon (any more). */
function symbolFor(ctx: RenderContext, ref: string): string | undefined {
  const key = `icon:${ref}`;
  const existing = ctx.symbols.get(key);
  if (existing !== undefined) return existing;
  const svg = getIcon(ref)?.svg;
  const match = svg === undefined ? null : ROOT.exec(svg);
  if (!match) return undefined;
  const root = new Map([...match[1]!.matchAll(ATTRIBUTE)].map((m) => [m[1]!, m[2]!]));
  const id = ctx.id('icon');
  const paint = [...root].filter(([name]) => !name.startsWith('xmlns') && !ROOT_ONLY.has(name));
  // Values come out of the sanitiser already escaped, so they are copied as they are.
  const group = scopeSvg(`<g${paint.map(([name, value]) => ` ${name}="${value}"`).join('')}>${match[2]!}</g>`, id);
  ctx.defs.set(id, `<symbol id="${id}" viewBox="${root.get('viewBox') ?? '0 0 24 24'}">${group}</symbol>`);
  ctx.symbols.set(key, id);
  return id;
}

export function drawIcon(ctx: RenderContext, icon: StampedIcon): string {
  if (typeof icon.ref !== 'string') return '';
  const id = symbolFor(ctx, icon.ref);
  if (id === undefined) return '';
  return `<use${attrs([
    ['href', `#${id}`],
    ['x', finite(icon.x, 0)],
    ['y', finite(icon.y, 0)],
    ['width', Math.max(0, finite(icon.width, 0))],
    ['height', Math.max(0, finite(icon.height, 0))],
  ])}/>`;
}
