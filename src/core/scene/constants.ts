/**
 * Spec constants of the native scene schema, defined once: the zod schema, the Excalidraw converters and the
 * capabilities guide all import them.
 */

/** Closed shapes drawn from their box; each carries an optional centred label in `text`. */
export const SHAPE_TYPES = [
  'rectangle',
  'ellipse',
  'diamond',
  'triangle',
  'right-triangle',
  'parallelogram',
  'trapezoid',
  'star',
  'hexagon',
  'heptagon',
  'octagon',
  'cross',
  'cloud',
  'cylinder',
  'speech-bubble',
  // Flowchart symbols.
  'document',
  'manual-input',
  'display',
  'terminator',
  'data-storage',
  'preparation',
  // Block arrows (shapes, not connectors).
  'arrow-right',
  'arrow-left',
  'arrow-up',
  'arrow-down',
] as const;

export const LINEAR_TYPES = ['arrow', 'line'] as const;
/** Freehand strokes: `points` only, no shape semantics. `highlight` is a translucent marker stroke. */
export const STROKE_TYPES = ['freedraw', 'highlight'] as const;
export const CONTENT_TYPES = ['text', 'image', 'frame', 'embed', 'math', 'code'] as const;

export const ELEMENT_TYPES = [...SHAPE_TYPES, ...CONTENT_TYPES, ...LINEAR_TYPES, ...STROKE_TYPES] as const;

export type ShapeType = (typeof SHAPE_TYPES)[number];

/** Vertical radius of a cylinder's top and bottom ellipses; its top cap, rim included, is twice this tall. */
export const cylinderRimRadius = (width: number, height: number): number => Math.min(height * 0.15, width * 0.2);

/**
 * The part of a shape below any cap an icon must not be stamped over: a cylinder's body under its top cap, the
 * whole box for every other shape.
 */
export function iconBody<T extends { type: string; y: number; width: number; height: number }>(element: T): T {
  if (element.type !== 'cylinder') return element;
  const cap = 2 * cylinderRimRadius(element.width, element.height);
  return { ...element, y: element.y + cap, height: element.height - cap };
}
export type ElementType = (typeof ELEMENT_TYPES)[number];

export const FILL_STYLES = ['hachure', 'cross-hatch', 'solid', 'dots', 'zigzag', 'dashed', 'zigzag-line'] as const;
export const STROKE_STYLES = ['solid', 'dashed', 'dotted'] as const;
export const ROUGHNESS = ['clean', 'sketch', 'scribble'] as const;
export const BOWING = ['straight', 'curved', 'wavy'] as const;
export const CORNERS = ['sharp', 'rounded', 'beveled'] as const;
export const FONT_FAMILIES = ['hand', 'normal', 'code'] as const;
export const TEXT_ALIGNS = ['left', 'center', 'right'] as const;
export const SHADOWS = ['none', 'soft', 'hard'] as const;
export const ARROW_SHAPES = ['straight', 'curved', 'elbow', 's-curve', 'smart', 'multipoint', 'multipoint-curved'] as const;
export const LINE_SHAPES = ['straight', 'multipoint', 'multipoint-curved'] as const;
export const ARROWHEADS = [
  'none',
  'arrow',
  'triangle',
  'triangle-outline',
  'circle',
  'diamond',
  'diamond-outline',
  'bar',
  'crows-foot',
  'crows-foot-bar',
  'double-bar',
  'circle-bar',
  'circle-crows-foot',
] as const;

export type ArrowShape = (typeof ARROW_SHAPES)[number];
export type Arrowhead = (typeof ARROWHEADS)[number];

export const STROKE_WIDTH = { min: 1, max: 8 } as const;

/**
 * Largest accepted image data URL, in characters (= bytes: data URLs are ASCII). 2 MiB of base64 holds a ~1.5 MiB
 * picture, plenty for a diagram icon or screenshot, and keeps one element well under the 10 MiB request limit.
 */
export const IMAGE_DATA_URL_MAX_CHARS = 2 * 1024 * 1024;
/** Raster formats only: SVG can carry script, so it is not accepted as an image. */
export const IMAGE_MIME_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;

