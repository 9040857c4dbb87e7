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
  // Glyphs at their natural size with the label under them (FIGURE_SIZES): an actor or person; UML's interface as a
  // lollipop's circle; Jacobson's robustness stereotypes, as PlantUML draws `boundary`, `control` and `entity`.
  'person',
  'lollipop',
  'boundary',
  'control',
  'entity',
  // A folder, its tab at the top left, and a box drawn in depth (UML's node), as PlantUML draws `folder` and `node`.
  'folder',
  'box-3d',
  // A page, its top right corner folded (PlantUML's `file` and `artifact`, Graphviz's `note`, D2's `page`), and a box with
  // copies stacked behind it (PlantUML's `collections`, Mermaid's `st-rect`, D2's `multiple`).
  'page',
  'stacked',
  // UML's component: a box with the component icon (a small box with two tabs) at its top right, as PlantUML draws one.
  'component',
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
 * The glyphs drawn at their natural size, standing at the top of their box with the label under it, as PlantUML,
 * Mermaid and D2 draw an actor and PlantUML an interface's circle and the robustness stereotypes.
 */
export const FIGURE_SIZES = {
  person: { width: 34, height: 56 },
  lollipop: { width: 20, height: 20 },
  // A bar, a short stem and a circle as tall as the bar.
  boundary: { width: 50, height: 34 },
  control: { width: 34, height: 34 },
  entity: { width: 34, height: 34 },
} as const;
export type FigureShape = keyof typeof FIGURE_SIZES;
/** Keeps the label off the figure's foot. */
export const FIGURE_LABEL_GAP = 4;

export const isFigure = (type: string): type is FigureShape => Object.hasOwn(FIGURE_SIZES, type);

/** The figure's height in its box: its natural height, smaller in a box too short or narrow for it. */
export function figureHeight(type: FigureShape, width: number, height: number): number {
  const natural = FIGURE_SIZES[type];
  return Math.min(natural.height, 0.7 * height, (width * natural.height) / natural.width);
}

type Box = { x: number; y: number; width: number; height: number };
type Spot = { x: number; y: number };

/** The figure's own box, centred at the top of the element's box, and the top of the label's band under it. */
export function figureBox(type: FigureShape, box: Box): Box & { labelTop: number } {
  const height = figureHeight(type, box.width, box.height);
  const width = (height * FIGURE_SIZES[type].width) / FIGURE_SIZES[type].height;
  return { x: box.x + (box.width - width) / 2, y: box.y, width, height, labelTop: box.y + height + FIGURE_LABEL_GAP };
}

/**
 * The stick figure in a person's box, centred at its top, in scene coordinates: the head's box and the strokes under
 * it (body, arms across, legs from the hip). The renderer sketches it; the Excalidraw export traces it.
 */
export function personFigure(box: Box): { head: Box; body: [Spot, Spot]; arms: [Spot, Spot]; legs: [Spot, Spot, Spot] } {
  const figure = figureBox('person', box);
  const at = (u: number, v: number): Spot => ({ x: figure.x + u * figure.width, y: figure.y + v * figure.height });
  const head = 0.28 * figure.height;
  return {
    head: { x: box.x + (box.width - head) / 2, y: box.y, width: head, height: head },
    body: [at(0.5, 0.28), at(0.5, 0.64)],
    arms: [at(0, 0.42), at(1, 0.42)],
    legs: [at(0.08, 1), at(0.5, 0.64), at(0.92, 1)],
  };
}

/**
 * A round glyph's circle and strokes, in scene coordinates: a boundary's bar and stem left of its circle, a control's
 * arrowhead on its circle's top, an entity's line under its circle.
 */
export function roundFigure(type: Exclude<FigureShape, 'person'>, box: Box): { circle: Box; strokes: Spot[][] } {
  const f = figureBox(type, box);
  const d = f.height;
  if (type === 'boundary') {
    const circle = { x: f.x + f.width - d, y: f.y, width: d, height: d };
    return { circle, strokes: [[{ x: f.x, y: f.y }, { x: f.x, y: f.y + d }], [{ x: f.x, y: f.y + d / 2 }, { x: circle.x, y: f.y + d / 2 }]] };
  }
  if (type === 'control') {
    // The arrowhead's arms reach above the circle's top: the circle sits that much lower, inside the box.
    const arm = 0.18 * d;
    const circle = { x: f.x + (f.width - d + arm) / 2, y: f.y + arm, width: d - arm, height: d - arm };
    const top = { x: circle.x + circle.width / 2, y: circle.y };
    return { circle, strokes: [[{ x: top.x + 1.2 * arm, y: top.y - arm }, top, { x: top.x + 1.2 * arm, y: top.y + arm }]] };
  }
  const circle = { x: f.x + (f.width - d) / 2, y: f.y, width: d, height: d };
  if (type === 'entity') return { circle, strokes: [[{ x: circle.x, y: f.y + d }, { x: circle.x + d, y: f.y + d }]] };
  return { circle, strokes: [] };
}

export const FILL_STYLES = ['hachure', 'cross-hatch', 'solid', 'dots', 'zigzag', 'dashed', 'zigzag-line'] as const;
export const STROKE_STYLES = ['solid', 'dashed', 'dotted'] as const;
export const ROUGHNESS = ['clean', 'sketch', 'scribble'] as const;
export const BOWING = ['straight', 'curved', 'wavy'] as const;
export const CORNERS = ['sharp', 'rounded', 'beveled'] as const;
export const FONT_FAMILIES = ['hand', 'normal', 'code'] as const;
export const TEXT_ALIGNS = ['left', 'center', 'right'] as const;
/** CSS's names, as `fontSize` and `fontFamily` follow it: drawn with the embedded family's bold / italic face. */
export const FONT_WEIGHTS = ['normal', 'bold'] as const;
export const FONT_STYLES = ['normal', 'italic'] as const;
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

