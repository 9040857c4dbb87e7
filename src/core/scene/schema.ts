import { z } from 'zod';
import {
  ARROWHEADS,
  ARROW_SHAPES,
  BOWING,
  CORNERS,
  FILL_STYLES,
  FONT_FAMILIES,
  FONT_STYLES,
  FONT_WEIGHTS,
  IMAGE_DATA_URL_MAX_CHARS,
  IMAGE_MIME_TYPES,
  LINE_SHAPES,
  ROUGHNESS,
  SHADOWS,
  SHAPE_TYPES,
  STROKE_STYLES,
  STROKE_WIDTH,
  TEXT_ALIGNS,
  type ElementType,
} from './constants.js';
import { LIMITS } from '../limits.js';
import { dictionary } from '../dictionary.js';
import { NODE_KINDS } from '../graph/types.js';

/**
 * The native element schema: the single source of truth for validation, defaults, the inferred `Element` type,
 * the OpenAPI/MCP tool schemas and the capabilities guide. Messages are the tail of a sentence the intake prefixes
 * with the element and field: `elements[3] (id "db"): strokeWidth must be between 1 and 8`.
 */

type Tuple = readonly [string, ...string[]];
const needs = (what: string) => (issue: { input?: unknown }) => (issue.input === undefined ? `is required (${what})` : `must be ${what}`);

const oneOf = <T extends Tuple>(values: T) => z.enum(values, { error: `must be one of: ${values.join(', ')}` });
const num = () => z.number({ error: (issue) => (issue.input === undefined ? 'is required (a number)' : typeof issue.input === 'number' ? 'must be a finite number' : 'must be a number') });
const between = (min: number, max: number) =>
  num().min(min, `must be between ${min} and ${max}`).max(max, `must be between ${min} and ${max}`);
const size = () => num().min(0, 'must be 0 or more').max(LIMITS.sizeMax, `must be at most ${LIMITS.sizeMax}`);
/** Positions are bounded so that every sum of them stays exact and every drawing fits a renderable canvas. */
const coordinate = () => between(-LIMITS.coordinateMax, LIMITS.coordinateMax);
const str = (what = 'a string') => z.string({ error: needs(what) });

const HEX = '#(?:[0-9a-fA-F]{3,4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})';
const color = str().regex(new RegExp(`^${HEX}$`), 'must be a hex colour like #1e1e1e');
const fillColor = str().regex(new RegExp(`^(?:transparent|${HEX})$`), 'must be a hex colour like #a5d8ff or "transparent"');

/**
 * Links are followed by whoever views the diagram: only web, mail and same-site relative targets. A relative link is
 * a path, query or fragment of this site (RFC 3986 relative-path, absolute-path, query or fragment reference):
 * - `//host/…` is refused: it is a link to another site (network-path reference), not a relative one. Reading it as
 *   https would guess; a client that means another site writes `https://host/…`.
 * - A colon before the first `/`, `?` or `#` is refused: RFC 3986 forbids it in a relative reference's first segment,
 *   and there it can only be a scheme in disguise (`javascript :…`, `java\u00a0script:…`).
 * - HTML character references (`javascript&colon;…`, `&#58;`, `&#x3a;`) are refused: whoever puts the link in HTML
 *   unescaped would have them decoded into a scheme. (In an http(s) or mailto link they cannot change the scheme.)
 * Control and invisible formatting characters are refused in every link (browsers strip tabs and newlines from URLs;
 * bidi and zero-width marks disguise them), and so are backslashes (browsers read them as `/`).
 */
export function isSafeLink(value: string): boolean {
  if (value.trim() !== value || value === '' || /[\u0000-\u001f\u007f-\u009f\\]|\p{Cf}/u.test(value)) return false;
  const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(value)?.[1]?.toLowerCase();
  if (scheme === undefined) return !value.startsWith('//') && !/^[^/?#]*:/.test(value) && !/&(?:#|[a-z][a-z0-9]*;)/i.test(value);
  if (scheme === 'mailto') return true;
  return (scheme === 'http' || scheme === 'https') && URL.canParse(value);
}

/** Embeds are shown in an iframe by the client and never fetched by the server: web URLs only. */
export const isWebUrl = (value: string): boolean =>
  URL.canParse(value) && ['http:', 'https:'].includes(new URL(value).protocol) && value.trim() === value;

const IMAGE_DATA_URL = new RegExp(`^data:(?:${IMAGE_MIME_TYPES.join('|').replaceAll('/', '\\/')});base64,[A-Za-z0-9+/]*={0,2}$`);

export const point = z.object({ x: coordinate(), y: coordinate() });
export type Point = z.infer<typeof point>;

/** Where an arrow end attaches: `focus` is a point of the bound element's box, both coordinates in 0..1. */
export const binding = z.object({
  elementId: str('the id of an element of this scene').min(1, 'must not be empty'),
  focus: z
    .object({ x: between(0, 1), y: between(0, 1) })
    .optional()
    .describe('Attach point in the bound element box, 0..1 each way ({x:1,y:0.5} = middle of the right side); computed from the end point when missing'),
});
export type Binding = z.infer<typeof binding>;

/** `"<library>/<Item Label>"` or `{library, label}`; stored as the string form. Resolved by icon stamping, not here. */
const iconRef = z
  .union(
    [
      str().regex(/^[^/\s][^/]*\/\S.*$/, 'must be "<library>/<Item Label>", e.g. "aws/Amazon S3"'),
      z.object({ library: str().min(1).regex(/^[^/]+$/, 'must not contain "/"'), label: str().min(1) }),
    ],
    { error: 'must be "<library>/<Item Label>" or {library, label}' },
  )
  .transform((ref) => (typeof ref === 'string' ? ref : `${ref.library}/${ref.label}`))
  .describe('Icon to stamp on the shape, e.g. "aws/Amazon S3" (find names with the icon search)');

function elementRef(what: string) {
  return str(what).min(1, 'must not be empty').max(200, 'must be at most 200 characters').optional().describe(what);
}

/** Style and text fields every element type has. */
const common = {
  id: str().min(1, 'must not be empty').max(200, 'must be at most 200 characters').optional(),
  strokeColor: color.default('#1e1e1e'),
  fillColor: fillColor.default('transparent'),
  fillStyle: oneOf(FILL_STYLES).default('solid'),
  strokeWidth: between(STROKE_WIDTH.min, STROKE_WIDTH.max).default(2),
  strokeStyle: oneOf(STROKE_STYLES).default('solid'),
  roughness: oneOf(ROUGHNESS).default('sketch'),
  bowing: oneOf(BOWING).default('curved'),
  corner: oneOf(CORNERS).default('sharp'),
  opacity: between(0, 100).default(100),
  /** rough.js seed; when missing it is derived from the id, so a shape looks the same on every render. */
  seed: num().int('must be an integer').optional().describe('rough.js seed; derived from the id when missing'),
  text: str().optional(),
  fontSize: num().positive('must be more than 0').max(1000, 'must be at most 1000').optional(),
  fontFamily: oneOf(FONT_FAMILIES).optional(),
  textAlign: oneOf(TEXT_ALIGNS).optional(),
  fontWeight: oneOf(FONT_WEIGHTS).optional(),
  fontStyle: oneOf(FONT_STYLES).optional(),
  groupIds: z.array(str().min(1, 'must not be empty'), { error: needs('an array of group ids') }).default([]),
  /** Radians, clockwise, around the centre. */
  angle: num().default(0).describe('Rotation in radians, clockwise, around the centre'),
  link: str()
    .max(2048, 'must be at most 2048 characters')
    .refine(isSafeLink, 'must be an http(s), mailto or relative URL')
    .optional()
    .describe('http(s), mailto or relative URL opened from the element'),
  shadow: oneOf(SHADOWS).default('none'),
  iconRef: iconRef.optional(),
  /**
   * Written by icon stamping (the resolved icon box, and the label moved below it). Accepted so that a stored scene
   * can be sent back as it was read, and always recomputed by the stamper, whatever was sent.
   */
  icon: z
    .object({ ref: z.string(), x: z.number(), y: z.number(), width: z.number(), height: z.number(), auto: z.literal(true).optional() })
    .optional()
    .catch(undefined)
    .describe('Server-computed from iconRef: the icon box {ref, x, y, width, height}; recomputed on every write'),
  labelPlacement: z.literal('below-icon').optional().catch(undefined).describe('Server-computed: "below-icon" when an icon is stamped'),
  /**
   * The scene's structure, kept on every write so that edits and layout work from what the author said, not from
   * geometry: containment (`parentId`; `frameId` for a frame), which element a standalone text labels (a container's
   * title, an arrow's label: it moves and is deleted with it), and what a shape is (`role`, the palette key).
   */
  parentId: elementRef('Id of the container it sits in'),
  frameId: elementRef('Id of the frame it sits in'),
  labelOf: elementRef('Id of the container this text titles or the arrow it labels (moves and goes with it)'),
  role: oneOf(NODE_KINDS).optional().describe('What the shape is (alias kind); colours it when no colour is sent'),
};

const at = { x: coordinate(), y: coordinate() };
const box = { ...at, width: size(), height: size() };
/** Text-like elements may leave their size out; the intake estimates it from the text. */
const optionalBox = { ...at, width: size().optional(), height: size().optional() };
/** Linear elements: x/y/width/height are derived from the points, so anything sent is replaced. */
const derivedBox = { x: coordinate().optional(), y: coordinate().optional(), width: size().optional(), height: size().optional() };
const points = (min: number) =>
  z
    .array(point, { error: needs('an array of {x, y} points') })
    .min(min, `must have at least ${min} point${min === 1 ? '' : 's'}`)
    .max(LIMITS.pointsPerElement, `must have at most ${LIMITS.pointsPerElement} points`);

export const shapeSchema = z.object({ type: oneOf(SHAPE_TYPES), ...common, ...box });

export const textSchema = z.object({
  type: z.literal('text'),
  ...common,
  ...optionalBox,
  text: str(),
  fontSize: common.fontSize.default(20),
  fontFamily: common.fontFamily.default('hand'),
  textAlign: common.textAlign.default('left'),
});

export const imageSchema = z.object({
  type: z.literal('image'),
  ...common,
  ...box,
  dataUrl: str('a data URL')
    .max(IMAGE_DATA_URL_MAX_CHARS, `must be at most ${IMAGE_DATA_URL_MAX_CHARS} characters`)
    .regex(IMAGE_DATA_URL, `must be a base64 data URL of type ${IMAGE_MIME_TYPES.join(', ')}`)
    .describe(`data:image/(png|jpeg|gif|webp);base64,… at most ${IMAGE_DATA_URL_MAX_CHARS} characters`),
});

export const frameSchema = z.object({
  type: z.literal('frame'),
  ...common,
  ...box,
  strokeStyle: common.strokeStyle.default('dashed'),
  name: str().max(200, 'must be at most 200 characters').default(''),
});

export const embedSchema = z.object({
  type: z.literal('embed'),
  ...common,
  ...box,
  url: str('an http(s) URL')
    .max(2048, 'must be at most 2048 characters')
    .refine(isWebUrl, 'must be an http(s) URL')
    .describe('http(s) page shown by the client; the server never fetches it'),
});

export const mathSchema = z.object({ type: z.literal('math'), ...common, ...optionalBox, text: str('LaTeX source') });

export const codeSchema = z.object({
  type: z.literal('code'),
  ...common,
  ...optionalBox,
  text: str('source code'),
  language: str().max(40, 'must be at most 40 characters').default('text'),
  fontFamily: common.fontFamily.default('code'),
  textAlign: common.textAlign.default('left'),
});

export const arrowSchema = z.object({
  type: z.literal('arrow'),
  ...common,
  ...derivedBox,
  /** When missing: 2 points = straight, 3 = elbow, 4+ = multipoint. */
  arrowShape: oneOf(ARROW_SHAPES).optional().describe('Defaults from the points: 2 = straight, 3 = elbow, 4+ = multipoint'),
  /** Absolute, first to last. May be left out when both ends are bound (the arrow then joins the two centres). */
  points: points(2).optional().describe('Absolute {x,y} points, first to last; optional when both ends are bound'),
  controlPoint: point.optional(),
  controlPoint2: point.optional(),
  startArrowhead: oneOf(ARROWHEADS).default('none'),
  endArrowhead: oneOf(ARROWHEADS).default('arrow'),
  startBinding: binding.optional(),
  endBinding: binding.optional(),
});

export const lineSchema = z.object({
  type: z.literal('line'),
  ...common,
  ...derivedBox,
  lineShape: oneOf(LINE_SHAPES).optional(),
  points: points(2),
});

export const freedrawSchema = z.object({ type: z.literal('freedraw'), ...common, ...derivedBox, points: points(1) });

export const highlightSchema = z.object({
  type: z.literal('highlight'),
  ...common,
  ...derivedBox,
  points: points(1),
  strokeColor: color.default('#ffec99'),
  strokeWidth: common.strokeWidth.default(8),
  opacity: common.opacity.default(50),
});

/** One schema per type, for precise errors and for telling which fields are unknown. */
export const ELEMENT_SCHEMAS = dictionary({
  ...(Object.fromEntries(SHAPE_TYPES.map((t) => [t, shapeSchema])) as Record<(typeof SHAPE_TYPES)[number], typeof shapeSchema>),
  text: textSchema,
  image: imageSchema,
  frame: frameSchema,
  embed: embedSchema,
  math: mathSchema,
  code: codeSchema,
  arrow: arrowSchema,
  line: lineSchema,
  freedraw: freedrawSchema,
  highlight: highlightSchema,
});

/** The input form of one element (what clients send): the union over `type`. */
export const elementInputSchema = z.discriminatedUnion('type', [
  shapeSchema,
  textSchema,
  imageSchema,
  frameSchema,
  embedSchema,
  mathSchema,
  codeSchema,
  arrowSchema,
  lineSchema,
  freedrawSchema,
  highlightSchema,
]);

export type ElementInput = z.input<typeof elementInputSchema>;
type Parsed = z.output<typeof elementInputSchema>;

/** What the intake guarantees beyond the schema: an id, a seed, a box; linear elements also their shape. */
type Complete<T> = T extends { type: 'arrow' }
  ? Omit<T, 'id' | 'seed' | 'x' | 'y' | 'width' | 'height' | 'points' | 'arrowShape'> &
      Placed & { points: Point[]; arrowShape: (typeof ARROW_SHAPES)[number] }
  : T extends { type: 'line' }
    ? Omit<T, 'id' | 'seed' | 'x' | 'y' | 'width' | 'height' | 'lineShape'> & Placed & { lineShape: (typeof LINE_SHAPES)[number] }
    : Omit<T, 'id' | 'seed' | 'x' | 'y' | 'width' | 'height'> & Placed;
/** A type alias, not an interface, so elements stay assignable to loose `{ [field: string]: unknown }` shapes. */
type Placed = {
  id: string;
  seed: number;
  x: number;
  y: number;
  width: number;
  height: number;
};

/** A complete, validated element as stored and returned. */
export type Element = Complete<Parsed>;
export type ArrowElement = Extract<Element, { type: 'arrow' }>;
export type LineElement = Extract<Element, { type: 'line' }>;
export type LinearElement = ArrowElement | LineElement | Extract<Element, { type: 'freedraw' | 'highlight' }>;

/**
 * The element's fields in its schema's order, as the next write's parse gives them back: a field filled in or stamped
 * on the way in (a seed, a text's size, an icon) would otherwise move on that write, and an element nobody touched
 * would store other bytes and count as changed in the version history.
 */
export function inSchemaOrder<T extends { type: ElementType }>(element: T): T {
  const ordered: Record<string, unknown> = {};
  for (const key of Object.keys(ELEMENT_SCHEMAS[element.type].shape)) if (Object.hasOwn(element, key)) ordered[key] = element[key as keyof T];
  return Object.assign(ordered, element) as T;
}
