import { z } from 'zod';
import { LIMITS } from '../limits.js';
import { ICON_NODE_BOUNDS, ICON_VENDORS } from '../icons/limits.js';
import { iconSearchQuery } from '../icons/query.js';
import { IMAGE_DATA_URL_MAX_CHARS, IMAGE_MIME_TYPES, SHAPE_TYPES, STROKE_WIDTH } from './constants.js';
import type { ElementInput } from './schema.js';
import {
  arrowSchema,
  codeSchema,
  embedSchema,
  frameSchema,
  freedrawSchema,
  highlightSchema,
  imageSchema,
  lineSchema,
  mathSchema,
  shapeSchema,
  textSchema,
} from './schema.js';

/**
 * The machine-readable drawing guide (REST /api-v1/capabilities, MCP resource). Types, fields and allowed values
 * are generated from the zod schema, so the guide cannot drift from what validation accepts.
 */

const GROUPS = [
  { types: SHAPE_TYPES, schema: shapeSchema, about: 'Closed shapes drawn from their box; `text` is a centred label.' },
  { types: ['text'], schema: textSchema, about: 'Free text; size is estimated when width/height are left out.' },
  { types: ['image'], schema: imageSchema, about: `Raster image from a data URL (${IMAGE_MIME_TYPES.join(', ')}).` },
  { types: ['frame'], schema: frameSchema, about: 'Labelled dashed section around other elements.' },
  { types: ['embed'], schema: embedSchema, about: 'A web page shown by the client (never fetched by the server).' },
  { types: ['math'], schema: mathSchema, about: 'LaTeX formula in `text`.' },
  { types: ['code'], schema: codeSchema, about: 'Source code in `text`, highlighted as `language`.' },
  { types: ['arrow'], schema: arrowSchema, about: 'Connector with arrowheads; ends bind to elements and follow them.' },
  { types: ['line'], schema: lineSchema, about: 'Connector or drawing without arrowheads.' },
  { types: ['freedraw'], schema: freedrawSchema, about: 'Freehand stroke through its points.' },
  { types: ['highlight'], schema: highlightSchema, about: 'Translucent marker stroke.' },
] as const;

const ARROW_RULES = [
  '2 points = straight, 3 = elbow (one bend), 4+ = routed polyline (multipoint); arrowShape defaults from the count.',
  'A right-angle connection (x1,y1)→(x2,y2) is the three points (x1,y1),(x2,y1),(x2,y2); an elbow arrow sent with 2 points gets that bend.',
  'straight, curved and s-curve arrows have exactly 2 points; curves bend through controlPoint (and controlPoint2 for s-curve).',
  'x, y, width and height of arrows, lines and strokes are derived from their points.',
  'startBinding/endBinding {elementId, focus:{x,y}} attach an end to an element; focus is in 0..1 of its box and is computed from the end point when left out.',
  'A bound end follows its element: on every create and update the server moves it onto the element, so moving or resizing a shape drags its arrows.',
  'With both ends bound, points may be left out: the arrow joins the two elements.',
  'arrowShape "smart" with both ends bound: the server routes the arrow at right angles around every other shape, on every write, so it re-routes when shapes move; its points and focus points are the router\'s.',
  'A binding to an element that is not in the scene is an error; arrows bind to shapes, text, images, frames and embeds, not to other arrows or lines.',
];

/** The icon search route's query parameters, read from its schema: the required ones in the URL, the rest named. */
function iconSearchHint(): string {
  const params = Object.entries(iconSearchQuery.shape as Record<string, z.ZodType>);
  const required = params.filter(([, schema]) => !schema.safeParse(undefined).success).map(([key]) => key);
  const optional = params.map(([key]) => key).filter((key) => !required.includes(key));
  const query = required.map((key) => `${key}=…`).join('&');
  return `Find icons with GET /api-v1/icons?${query}${optional.length > 0 ? ` (optional: ${optional.join(', ')})` : ''} or the search_icons tool.`;
}

const ICONS = {
  search: iconSearchHint(),
  iconRef: 'Set iconRef to "<library>/<Item Label>", e.g. "aws/Amazon S3" (or {library, label}).',
  stampedOn: `Icons are stamped only on node-sized boxes: ${ICON_NODE_BOUNDS.minWidth}–${ICON_NODE_BOUNDS.maxWidth} wide × ${ICON_NODE_BOUNDS.minHeight}–${ICON_NODE_BOUNDS.maxHeight} high.`,
  autoIcons: 'Best-guess icons are added from labels unless autoIcons:false is sent with the scene.',
  vendor: `A scene-level vendor hint (${ICON_VENDORS.join(' | ')}) picks the icon set for best guesses.`,
};

const DRAWING_RULES = [
  'Nest two or three levels at most: system → group → node.',
  `Containers are frames or shapes wider than ${ICON_NODE_BOUNDS.maxWidth}; give each a standalone title text above it, not a label inside.`,
  'Bind both ends of every arrow with 3 or more points, so routes follow the shapes.',
  'Colour by role: one fill per kind of thing (services, data stores, external systems), the same across the scene.',
  'Keep spacing consistent: equal gaps between siblings (e.g. 40–80 px), nodes aligned on a grid.',
  'Keep labels short (a name, an optional second line); put detail in a link or a note.',
];

/** Complete scenes a client can copy; each passes validation as is (tested). */
export const CAPABILITY_EXAMPLES: Array<{ title: string; elements: ElementInput[] }> = [
  {
    title: 'Two services and a database, arrows bound at both ends',
    elements: [
      { type: 'rectangle', id: 'web', x: 0, y: 0, width: 160, height: 80, text: 'Web app', fillColor: '#a5d8ff', corner: 'rounded' },
      { type: 'rectangle', id: 'api', x: 260, y: 0, width: 160, height: 80, text: 'API', fillColor: '#a5d8ff', corner: 'rounded' },
      { type: 'cylinder', id: 'db', x: 520, y: 0, width: 120, height: 80, text: 'Postgres', fillColor: '#b2f2bb' },
      { type: 'arrow', id: 'web-api', startBinding: { elementId: 'web' }, endBinding: { elementId: 'api' }, text: 'HTTPS' },
      { type: 'arrow', id: 'api-db', startBinding: { elementId: 'api' }, endBinding: { elementId: 'db' } },
    ],
  },
  {
    title: 'A frame with a title above it, icons and an elbow arrow',
    elements: [
      { type: 'text', id: 'title', x: 0, y: -40, text: 'AWS account', fontSize: 24, fontFamily: 'normal' },
      { type: 'frame', id: 'vpc', x: 0, y: 0, width: 560, height: 300, name: 'VPC' },
      { type: 'rectangle', id: 'lambda', x: 40, y: 40, width: 160, height: 90, text: 'Ingest', iconRef: 'aws/AWS Lambda', fillColor: '#ffd8a8' },
      { type: 'rectangle', id: 'bucket', x: 360, y: 180, width: 160, height: 90, text: 'Raw files', iconRef: { library: 'aws', label: 'Amazon S3' }, fillColor: '#b2f2bb' },
      {
        type: 'arrow',
        id: 'ingest-bucket',
        arrowShape: 'elbow',
        points: [
          { x: 200, y: 85 },
          { x: 440, y: 85 },
          { x: 440, y: 180 },
        ],
        startBinding: { elementId: 'lambda', focus: { x: 1, y: 0.5 } },
        endBinding: { elementId: 'bucket', focus: { x: 0.5, y: 0 } },
      },
    ],
  },
  {
    title: 'Flowchart with a decision and labelled branches',
    elements: [
      { type: 'terminator', id: 'start', x: 100, y: 0, width: 140, height: 60, text: 'Start' },
      { type: 'diamond', id: 'valid', x: 90, y: 120, width: 160, height: 100, text: 'Valid?' },
      { type: 'rectangle', id: 'save', x: 100, y: 290, width: 140, height: 60, text: 'Save' },
      { type: 'document', id: 'report', x: 340, y: 140, width: 140, height: 60, text: 'Error report' },
      { type: 'arrow', startBinding: { elementId: 'start' }, endBinding: { elementId: 'valid' } },
      { type: 'arrow', startBinding: { elementId: 'valid' }, endBinding: { elementId: 'save' }, text: 'yes' },
      { type: 'arrow', startBinding: { elementId: 'valid' }, endBinding: { elementId: 'report' }, text: 'no', strokeStyle: 'dashed' },
    ],
  },
];

export function buildCapabilities() {
  return {
    elementTypes: GROUPS.map((g) => ({
      types: [...g.types],
      description: g.about,
      schema: z.toJSONSchema(g.schema, { io: 'input', unrepresentable: 'any' }),
    })),
    arrowRules: ARROW_RULES,
    icons: ICONS,
    drawingRules: DRAWING_RULES,
    limits: {
      ...LIMITS,
      strokeWidth: STROKE_WIDTH,
      imageDataUrlMaxChars: IMAGE_DATA_URL_MAX_CHARS,
      iconBox: ICON_NODE_BOUNDS,
    },
    formats: {
      native: 'An array of elements as described here.',
      excalidraw: 'A .excalidraw file object, its clipboard form, or a bare Excalidraw elements array; converted on the server.',
    },
    examples: CAPABILITY_EXAMPLES,
  };
}

export type Capabilities = ReturnType<typeof buildCapabilities>;
