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
  // A cylinder on its side: a queue, as D2 (`shape: queue`), PlantUML (`queue`) and Mermaid (`h-cyl`) draw one.
  'horizontal-cylinder',
  'speech-bubble',
  // An actor or person: a figure with its label under it.
  'person',
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
  // A chevron, pointed on the right and notched on the left: a process step (D2 `shape: step`).
  'step',
] as const;

export const LINEAR_TYPES = ['arrow', 'line'] as const;
/** Freehand strokes: `points` only, no shape semantics. `highlight` is a translucent marker stroke. */
export const STROKE_TYPES = ['freedraw', 'highlight'] as const;
export const CONTENT_TYPES = ['text', 'image', 'frame', 'embed', 'math', 'code'] as const;

export const ELEMENT_TYPES = [...SHAPE_TYPES, ...CONTENT_TYPES, ...LINEAR_TYPES, ...STROKE_TYPES] as const;

export type ShapeType = (typeof SHAPE_TYPES)[number];

/** Vertical radius of a cylinder's top and bottom ellipses; its top cap, rim included, is twice this tall. */
export const cylinderRimRadius = (width: number, height: number): number => Math.min(height * 0.15, width * 0.2);
/** A horizontal cylinder's end ellipses, as wide as a standing one's are tall: its right cap, rim included, is twice this wide. */
export const sideRimRadius = (width: number, height: number): number => cylinderRimRadius(height, width);

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

/**
 * A person's stick figure at its natural size, standing at the top of its box with the label under it, as PlantUML,
 * Mermaid and D2 draw an actor. `labelGap` keeps the label off the feet.
 */
export const PERSON_FIGURE = { width: 34, height: 56, labelGap: 4 } as const;

/** The figure's height in a person's box: its natural height, smaller in a box too short or narrow for it. */
export const personFigureHeight = (width: number, height: number): number =>
  Math.min(PERSON_FIGURE.height, 0.7 * height, (width * PERSON_FIGURE.height) / PERSON_FIGURE.width);

type Box = { x: number; y: number; width: number; height: number };
type Spot = { x: number; y: number };

/**
 * The stick figure in a person's box, centred at its top, in scene coordinates: the head's box, the strokes under it
 * (body, arms across, legs from the hip) and the top of the label's band under the feet. The renderer sketches it;
 * the Excalidraw export traces it.
 */
export function personFigure(box: Box): { head: Box; body: [Spot, Spot]; arms: [Spot, Spot]; legs: [Spot, Spot, Spot]; labelTop: number } {
  const fh = personFigureHeight(box.width, box.height);
  const fw = (fh * PERSON_FIGURE.width) / PERSON_FIGURE.height;
  const at = (u: number, v: number): Spot => ({ x: box.x + (box.width - fw) / 2 + u * fw, y: box.y + v * fh });
  const head = 0.28 * fh;
  return {
    head: { x: box.x + (box.width - head) / 2, y: box.y, width: head, height: head },
    body: [at(0.5, 0.28), at(0.5, 0.64)],
    arms: [at(0, 0.42), at(1, 0.42)],
    legs: [at(0.08, 1), at(0.5, 0.64), at(0.92, 1)],
    labelTop: box.y + fh + PERSON_FIGURE.labelGap,
  };
}

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

