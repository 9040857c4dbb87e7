/**
 * The drawing rules of the interface spec, defined once: box bounds, spacing, fonts and colour by role.
 * Layout sizes boxes with them, scene building paints with them, and the quality checker asserts them.
 */
import type { NodeKind } from '../graph/types.js';
import { ICON_NODE_BOUNDS } from '../icons/limits.js';
import { dictionary } from '../dictionary.js';

/** "node-sized boxes (60–420 × 40–260)"; icons are only stamped on boxes inside these bounds. */
export const NODE_BOX = ICON_NODE_BOUNDS;

/** "containers wider than 420 px": a container is never mistaken for a node-sized box. */
export const CONTAINER_MIN_WIDTH = 440;

/** Arrowheads on one shape closer than this (and not at the same point) pile into a dark wedge: they share one point, or keep apart. */
export const CROWDED_HEADS = 8;

/**
 * Edges sharing an end may run into it as one trunk, but only for this long when they mean different things (another
 * label or line style): past it, a reader cannot tell which relation reaches the shared end (issue 27: eight secret
 * edges, nine foreign keys drawn as one line). Shorter, about half the gap between layers, it reads as edges fanning
 * out of one node.
 */
export const MIXED_TRUNK = 40;

/** Boxes with an icon are at least this tall, so the stamped icon (45% of the height) is big enough to read. */
export const ICON_NODE_MIN_HEIGHT = 80;

/** Graphviz works in points (1/72 in) and we in pixels: one point is drawn as one pixel. Sizes are given in inches. */
export const POINTS_PER_INCH = 72;

/** A README column: a diagram of up to READABLE_NODES nodes fits this width with text at READABLE_TEXT px or more. */
export const README_WIDTH = 880;
export const READABLE_TEXT = 11;
export const READABLE_NODES = 40;
/** A large graph (up to LARGE_NODES nodes) fitted to a wide page of LARGE_WIDTH px keeps its text at READABLE_TEXT px or more. */
export const LARGE_WIDTH = 1600;
export const LARGE_NODES = 100;
/** Beyond this aspect ratio (either way), a graph of more than ASPECT_NODES nodes with a free direction is too long. */
export const MAX_ASPECT = 3;
export const ASPECT_NODES = 12;
/**
 * A graph ELK lays out takes no more room than Graphviz's layout of the same graph at our sizes (issue 27), by drawn
 * area, within this margin: orthogonal edges take a channel per bend where splines cross a gap on a slant, up to 5 %
 * on corpus inputs that differ in nothing else (Helm's sentry values, the hexagonal-architecture classes).
 */
export const CANVAS_OVER_GRAPHVIZ = 1.1;

export const FONT = {
  /** The native schema's families are `normal` (sans), `hand` and `code`; generated diagrams use the sans. */
  family: 'normal',
  label: 16,
  row: 14,
  containerTitle: 16,
  /** The diagram's own title, above everything: a heading, larger than container titles. */
  diagramTitle: 24,
  edgeLabel: 14,
} as const;

export const SPACING = {
  /** Inner padding of a node box around its text. */
  nodePaddingX: 16,
  nodePaddingY: 10,
  rowGap: 8,
  /** Container padding; the top holds the standalone title text. */
  containerPadding: 24,
  containerTitleGap: 12,
  diagramTitleGap: 24,
  nodeNode: 40,
  betweenLayers: 70,
  /** Between layers inside a container, where a row of arrows needs room to read but the container not the root's. */
  containerBetweenLayers: 40,
  /** Between the layers of a flow of short steps (GraphIR.closeSteps): an arrow's length, as PlantUML draws it. */
  stepBetweenLayers: 36,
  edgeNode: 20,
  edgeEdge: 12,
  edgeLabelPadding: 4,
} as const;

export interface RoleColor {
  strokeColor: string;
  fillColor: string;
}

/** Colour by role: one hue per family of kinds, so a reader sees data stores, compute and config at a glance. */
const COMPUTE: RoleColor = { strokeColor: '#364fc7', fillColor: '#dbe4ff' };
const DATA: RoleColor = { strokeColor: '#2b8a3e', fillColor: '#d3f9d8' };
const MESSAGING: RoleColor = { strokeColor: '#d9480f', fillColor: '#ffe8cc' };
const EDGE_NET: RoleColor = { strokeColor: '#5f3dc4', fillColor: '#e5dbff' };
const CONFIG: RoleColor = { strokeColor: '#e67700', fillColor: '#fff3bf' };
const PEOPLE: RoleColor = { strokeColor: '#495057', fillColor: '#f1f3f5' };
const MODEL: RoleColor = { strokeColor: '#1864ab', fillColor: '#e7f5ff' };
const FLOW: RoleColor = { strokeColor: '#0b7285', fillColor: '#e3fafc' };
const NEUTRAL: RoleColor = { strokeColor: '#1e1e1e', fillColor: '#ffffff' };

export const ROLE_COLORS: Record<NodeKind, RoleColor> = dictionary({
  service: COMPUTE,
  workload: COMPUTE,
  component: COMPUTE,
  database: DATA,
  storage: DATA,
  cache: { strokeColor: '#c92a2a', fillColor: '#ffe3e3' },
  queue: MESSAGING,
  network: EDGE_NET,
  gateway: EDGE_NET,
  config: CONFIG,
  secret: CONFIG,
  user: PEOPLE,
  actor: PEOPLE,
  external: PEOPLE,
  entity: MODEL,
  class: MODEL,
  interface: MODEL,
  enum: MODEL,
  note: { strokeColor: '#f08c00', fillColor: '#fff9db' },
  usecase: FLOW,
  action: FLOW,
  decision: { strokeColor: '#e8590c', fillColor: '#fff4e6' },
  state: FLOW,
  start: { strokeColor: '#1e1e1e', fillColor: '#343a40' },
  end: { strokeColor: '#1e1e1e', fillColor: '#343a40' },
  fork: { strokeColor: '#1e1e1e', fillColor: '#343a40' },
  generic: NEUTRAL,
});

/** Containers get lighter the deeper they nest, so levels stay readable (two or three levels in practice). */
export const CONTAINER_FILLS = ['#f8f9fa', '#f1f3f5', '#e9ecef'] as const;
export const CONTAINER_STROKE = '#868e96';

/** Native shape used for a kind when the notation names none. */
export const DEFAULT_SHAPE: Partial<Record<NodeKind, string>> = dictionary({
  database: 'cylinder',
  storage: 'data-storage',
  note: 'document',
  config: 'document',
  secret: 'document',
  external: 'cloud',
  gateway: 'hexagon',
  user: 'ellipse',
  actor: 'person',
  usecase: 'ellipse',
  start: 'ellipse',
  end: 'ellipse',
  decision: 'diamond',
  state: 'rectangle',
});
