import { z } from 'zod';
import { DETAIL_FOLD_NODES, FOLD_NODES, FOLDING_NOTATIONS } from '../graph/fold.js';
import { LIMITS } from '../limits.js';
import { ICON_NODE_BOUNDS, ICON_VENDORS } from '../icons/limits.js';
import { iconSearchQuery } from '../icons/query.js';
import { ARROWHEADS, IMAGE_DATA_URL_MAX_CHARS, IMAGE_MIME_TYPES, SHAPE_TYPES, STROKE_WIDTH } from './constants.js';
import type { ElementInput } from './schema.js';
import {
  arrowSchema,
  binding,
  codeSchema,
  embedSchema,
  frameSchema,
  freedrawSchema,
  highlightSchema,
  imageSchema,
  lineSchema,
  mathSchema,
  point,
  shapeSchema,
  textSchema,
} from './schema.js';

/**
 * The machine-readable drawing guide (REST /api-v1/capabilities, MCP resource). Types, fields and allowed values
 * are generated from the zod schema, so the guide cannot drift from what validation accepts.
 */

const GROUPS = [
  { types: SHAPE_TYPES, schema: shapeSchema, about: 'Closed shapes; `text` is a centred label (under a figure).' },
  { types: ['text'], schema: textSchema, about: 'Free text; size is estimated when width/height are left out.' },
  { types: ['image'], schema: imageSchema, about: `Raster image from a data URL (${IMAGE_MIME_TYPES.join(', ')}).` },
  { types: ['frame'], schema: frameSchema, about: 'Labelled dashed section around elements.' },
  { types: ['embed'], schema: embedSchema, about: 'A web page shown by the client (never fetched by the server).' },
  { types: ['math'], schema: mathSchema, about: 'LaTeX formula in `text`.' },
  { types: ['code'], schema: codeSchema, about: 'Source code in `text`, highlighted as `language`.' },
  { types: ['arrow'], schema: arrowSchema, about: 'Connector with arrowheads; ends bind to elements and follow them.' },
  { types: ['line'], schema: lineSchema, about: 'A line without arrowheads.' },
  { types: ['freedraw'], schema: freedrawSchema, about: 'Freehand stroke.' },
  { types: ['highlight'], schema: highlightSchema, about: 'Translucent marker stroke.' },
] as const;

const ARROW_RULES = [
  '2 points = straight, 3 = elbow (one bend), 4+ = routed polyline (multipoint); arrowShape defaults from the count.',
  'A right-angle connection (x1,y1)→(x2,y2) is (x1,y1),(x2,y1),(x2,y2); an elbow arrow sent with 2 points gets that bend.',
  'straight, curved and s-curve arrows have exactly 2 points; curves bend through controlPoint (and controlPoint2 for s-curve).',
  'Arrows\', lines\' and strokes\' x, y, width and height come from their points.',
  'startBinding/endBinding {elementId, focus:{x,y}} attach an end to an element; focus is in 0..1 of its box and is computed from the end point when left out.',
  'A bound end follows its element on every write; with both ends bound, points may be omitted.',
  'arrowShape "smart" with both ends bound: the server routes the arrow at right angles around every other shape, on every write, so it re-routes when shapes move; its points and focus points are the router\'s.',
  'Arrows bind to any element but arrows and lines.',
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

/**
 * Structure first: the client says what there is and the server says where. Its example goes through layout auto and
 * its Mermaid through diagram-from-code in the tests, and both pass the quality checker.
 */
export const STRUCTURE_FIRST = {
  rules: [
    'Easiest: send no x/y and layout:"auto" (create_diagram, update_diagram; REST body field). The server sizes and places shapes, routes arrows, places labels; x/y given are kept. On update, layout:"all" redraws all, keeping ids, styles, labels.',
    'Membership: parentId (or frameId) = the container id. A frame\'s name, or a container shape\'s text, is drawn as its title above its members.',
    'Arrows: startBinding/endBinding {elementId} only; text is the label. Arrowheads: triangle-outline = UML generalization, diamond = composition, diamond-outline = aggregation, crows-foot family = ER cardinality.',
    'role (service, database, queue, cache, network, user, …) colours a shape like from-code drawings. Structure is kept on every write: parentId, labelOf (titles, arrow labels), role, vendor; update_diagram code redraws a from-code diagram, keeping hand edits.',
    'Edit by element, not resending: update_diagram / PATCH with operations [{op:"add",element},{op:"update",id,set:{…}},{op:"remove",id},{op:"move",id,parentId}]. Removing a shape removes its title and bound arrows; a moved container takes its members. New ones without x/y go inside their container, which grows.',
    'Or write Mermaid or D2 to diagram_from_code (icons: Mermaid A@{ icon: "aws:lambda" }, D2 icon: …/icons/aws/AWS Lambda.svg): flowchart, sequenceDiagram, classDiagram (<|-- inheritance, *-- composition, o-- aggregation, --> association, ..> dependency), erDiagram (||--o{ crow\'s feet; attributes become table rows), stateDiagram-v2, mindmap, C4Context/C4Container/C4Component/C4Dynamic/C4Deployment, architecture-beta, requirementDiagram, block-beta (columns grid); charts in their own fixed layout: gitGraph, gantt, timeline, pie, journey, quadrantChart, xychart, kanban, sankey, packet, treemap, radar-beta (PlantUML @startgantt too).',
    `Large infrastructure code (${[...FOLDING_NOTATIONS].join(', ')}; over ${FOLD_NODES} nodes, or over ${DETAIL_FOLD_NODES} when a third is volumes, config or secrets) is drawn folded: those become rows on the services that use them, services wired alike merge, and warnings say what. detail:"full" (diagram_from_code, or update_diagram with code) draws every node; a redraw keeps the detail asked for.`,
  ],
  example: [
    { type: 'frame', id: 'aws', name: 'AWS' },
    { type: 'rectangle', id: 'vpc', text: 'VPC', parentId: 'aws' },
    { type: 'rectangle', id: 'api', text: 'API', iconRef: 'aws/AWS Lambda', parentId: 'vpc' },
    { type: 'cylinder', id: 'db', text: 'Orders', parentId: 'vpc' },
    { type: 'ellipse', id: 'user', text: 'User' },
    { type: 'arrow', startBinding: { elementId: 'user' }, endBinding: { elementId: 'api' }, text: 'HTTPS' },
    { type: 'arrow', startBinding: { elementId: 'api' }, endBinding: { elementId: 'db' } },
  ],
  mermaid: 'erDiagram\n  CUSTOMER ||--o{ ORDER : places\n  ORDER {\n    int id PK\n    int customer_id FK\n  }',
};

/** Undo: every write keeps a version (service/history.ts), whichever door made it. */
const HISTORY =
  'Every write keeps a version. Undo: list_versions, then restore_version (REST: GET …/documents/:id/versions, POST …/versions/:n/restore).';

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
];

type JsonSchema = { properties?: Record<string, unknown>; required?: string[]; [key: string]: unknown };

const toJson = (schema: z.ZodType) => {
  const { $schema: _dialect, ...json } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  return json;
};

/** Shapes used by many fields, defined once under `definitions` and referred to as `{"$ref": "#/definitions/…"}`. */
const DEFINITIONS = {
  coordinate: toJson(point.shape.x),
  point: toJson(point),
  binding: toJson(binding),
  arrowhead: toJson(z.enum(ARROWHEADS)),
};
const DEFINITION_TEXT = Object.entries(DEFINITIONS).map(([name, json]) => [name, JSON.stringify(json)] as const);

/** Replaces each subschema equal to a definition (its default and description aside) by a reference to it. */
function referToDefinitions(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(referToDefinitions);
  if (typeof node !== 'object' || node === null) return node;
  const { default: fallback, description, ...rest } = node as Record<string, unknown>;
  const text = JSON.stringify(rest);
  const match = DEFINITION_TEXT.find(([, json]) => json === text);
  if (match) return { $ref: `#/definitions/${match[0]}`, ...(fallback !== undefined ? { default: fallback } : {}), ...(description ? { description } : {}) };
  return Object.fromEntries(Object.entries(node as Record<string, unknown>).map(([key, value]) => [key, referToDefinitions(value)]));
}

/**
 * Each field is defined once: fields every type takes in `commonFields`, fields several types take alike in
 * `sharedFields` (each type names the ones it takes), and only a type's own fields under it. The eleven full schemas
 * repeated the same fields over and over: 95 % of a guide a model reads before drawing.
 */
const SERVER_COMPUTED = ['icon', 'labelPlacement'];

function elementSchemas() {
  const schemas = GROUPS.map((g) => referToDefinitions(z.toJSONSchema(g.schema, { io: 'input', unrepresentable: 'any' })) as JsonSchema);
  // Defaults differ by type (a highlight's stroke is yellow): they are listed per type, the field defined once.
  const defaultsOf = schemas.map((schema) =>
    Object.fromEntries(Object.entries(schema.properties ?? {}).flatMap(([key, value]) => ((value as { default?: unknown }).default !== undefined ? [[key, (value as { default: unknown }).default]] : []))),
  );
  for (const schema of schemas) {
    // Written by the server on every write (the stamped icon box): a client has nothing to send there.
    for (const key of SERVER_COMPUTED) delete schema.properties?.[key];
    for (const [key, value] of Object.entries(schema.properties ?? {})) {
      const { default: _default, ...rest } = value as Record<string, unknown>;
      schema.properties![key] = rest;
    }
  }
  const definitions = new Map<string, string[]>();
  for (const schema of schemas) {
    for (const [key, value] of Object.entries(schema.properties ?? {})) definitions.set(key, [...(definitions.get(key) ?? []), JSON.stringify(value)]);
  }
  const everywhere = (key: string) => definitions.get(key)!.length === schemas.length;
  const alike = (key: string) => key !== 'type' && new Set(definitions.get(key)).size === 1 && definitions.get(key)!.length > 1;
  // A field's usual default goes with its definition; a type lists only the defaults it has otherwise.
  const usualDefault = new Map<string, unknown>();
  for (const key of definitions.keys()) {
    const votes = new Map<string, number>();
    for (const defaults of defaultsOf) if (key in defaults) votes.set(JSON.stringify(defaults[key]), (votes.get(JSON.stringify(defaults[key])) ?? 0) + 1);
    const [winner] = [...votes].sort((a, b) => b[1] - a[1])[0] ?? [];
    if (winner !== undefined) usualDefault.set(key, JSON.parse(winner));
  }
  const pick = (keys: string[]) =>
    Object.fromEntries(keys.map((key) => [key, { ...(JSON.parse(definitions.get(key)![0]!) as object), ...(usualDefault.has(key) ? { default: usualDefault.get(key) } : {}) }]));
  const keys = [...definitions.keys()];
  const commonFields = pick(keys.filter((key) => alike(key) && everywhere(key)));
  const sharedFields = pick(keys.filter((key) => alike(key) && !everywhere(key)));
  const elementTypes = GROUPS.map((g, i) => {
    const { properties = {}, required = [] } = schemas[i]!;
    const names = Object.keys(properties);
    return {
      types: [...g.types],
      description: g.about,
      required,
      defaults: Object.fromEntries(Object.entries(defaultsOf[i]!).filter(([key, value]) => !(key in commonFields || key in sharedFields) || JSON.stringify(value) !== JSON.stringify(usualDefault.get(key)))),
      sharedFields: names.filter((key) => key in sharedFields),
      // `types` names the type values: the `type` enum again would double the shape list.
      properties: Object.fromEntries(Object.entries(properties).filter(([key]) => key !== 'type' && !(key in commonFields) && !(key in sharedFields))),
    };
  });
  return { commonFields, sharedFields, elementTypes };
}

export function buildCapabilities() {
  const { commonFields, sharedFields, elementTypes } = elementSchemas();
  return {
    definitions: DEFINITIONS,
    commonFields,
    sharedFields,
    elementTypes,
    arrowRules: ARROW_RULES,
    icons: ICONS,
    drawingRules: DRAWING_RULES,
    structureFirst: STRUCTURE_FIRST,
    history: HISTORY,
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
