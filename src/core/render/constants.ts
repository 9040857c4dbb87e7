import type { BOWING, ROUGHNESS, STROKE_STYLES } from '../scene/constants.js';

/** Numbers of the renderer's look, defined once. */

/** rough.js roughness per native level (the issue: sketch 1, scribble 2); `clean` is drawn as exact geometry. */
export const ROUGHNESS_LEVEL: Record<(typeof ROUGHNESS)[number], number> = { clean: 0, sketch: 1, scribble: 2 };
/** rough.js bowing (how far a stroke bends away from the straight line) per native level. */
export const BOWING_LEVEL: Record<(typeof BOWING)[number], number> = { straight: 0, curved: 1, wavy: 4 };

/** Dash patterns as multiples of the stroke width plus a constant, Excalidraw's proportions. */
export function dashArray(style: (typeof STROKE_STYLES)[number], strokeWidth: number): string | undefined {
  if (style === 'dashed') return `${8 + strokeWidth} ${8 + strokeWidth * 1.5}`;
  if (style === 'dotted') return `0 ${4 + strokeWidth * 2}`;
  return undefined;
}

/** Empty margin around the drawing, px. */
export const SCENE_PADDING = 20;
export const DEFAULT_BACKGROUND = '#ffffff';
/** Gap between a shape's outline and its label, px. */
export const LABEL_PADDING = 8;
/** Gap between a stamped icon and the label below it, px. */
export const ICON_LABEL_GAP = 4;
/** Labels of arrows and lines, and frame names, when the element has no font size. */
export const CONNECTOR_LABEL_SIZE = 16;
export const FRAME_NAME_SIZE = 14;
/** Rounded corners: a quarter of the shorter side, never more than this (Excalidraw's adaptive radius). */
export const CORNER_RADIUS_MAX = 32;
export const CORNER_RADIUS_SHARE = 0.25;
/** Bends of elbow, smart and multipoint connectors with rounded corners. */
export const BEND_RADIUS = 16;

/** Panel of `code` elements. */
export const CODE_PANEL = { padding: 12, fill: '#f6f8fa', border: '#d0d7de', radius: 8 } as const;
/** Card of `embed` elements. */
export const EMBED_CARD = { padding: 14, fill: '#f8f9fa', border: '#adb5bd', radius: 10, titleSize: 16, urlSize: 13, urlColor: '#1971c2' } as const;
