/** Mermaid's CSS-like style lists (`style`, `classDef`, `linkStyle`: `fill:#f9f,stroke:#333,stroke-width:4px`) → our styles. */
import type { GraphStyle } from '../../graph/types.js';
import { hex2, mapColor } from '../dot/style.js';

/**
 * A CSS colour as Mermaid takes it → `#rrggbb[aa]`: `rgb(238, 245, 255)` and `rgba(0, 0, 255, .1)` (what sequence
 * `rect` highlights and `box` colours are mostly written in), else a name or hex as Graphviz reads them.
 */
export function cssColor(value: string): string | undefined {
  const rgb = /^rgba?\(\s*([\d.]+)\s*,\s*([\d.]+)\s*,\s*([\d.]+)\s*(?:,\s*([\d.]+)\s*)?\)$/i.exec(value.trim());
  if (!rgb) return mapColor(value);
  const alpha = rgb[4] === undefined ? 1 : Number(rgb[4]);
  return `#${[rgb[1], rgb[2], rgb[3]].map((c) => hex2(Number(c))).join('')}${alpha < 1 ? hex2(alpha * 255) : ''}`;
}

/** The parts we draw: fill, stroke and text colours, width (px, clamped to the schema's 1–8) and dashes; the rest is presentation. */
export function cssStyle(declarations: readonly string[]): GraphStyle | undefined {
  const style: GraphStyle = {};
  for (const declaration of declarations) {
    const colon = declaration.indexOf(':');
    if (colon === -1) continue;
    const name = declaration.slice(0, colon).trim().toLowerCase();
    const value = declaration.slice(colon + 1).replace(/!important/i, '').trim();
    if (name === 'fill') {
      const color = cssColor(value);
      if (color !== undefined) style.fillColor = color;
    } else if (name === 'stroke') {
      const color = cssColor(value);
      if (color !== undefined) style.strokeColor = color;
    } else if (name === 'color') {
      const color = cssColor(value);
      if (color !== undefined) style.textColor = color;
    } else if (name === 'stroke-width') {
      const width = Number.parseFloat(value);
      if (Number.isFinite(width) && width > 0) style.strokeWidth = Math.min(8, Math.max(1, Math.round(width)));
    } else if (name === 'stroke-dasharray') {
      const dash = Number.parseFloat(value);
      // Short dashes read as dots (our export writes `2 4` for dotted and `8 4` for dashed).
      if (Number.isFinite(dash) && dash > 0) style.strokeStyle = dash <= 3 ? 'dotted' : 'dashed';
    }
  }
  return Object.keys(style).length === 0 ? undefined : style;
}
