/**
 * Mind maps and work breakdown structures as one tree model, read from Mermaid `mindmap` and PlantUML
 * `@startmindmap`/`@startwbs`, and turned into GraphIR that the layered layout draws as a tree: the root, each branch
 * in a colour of its own (as both tools draw them), children beside or below their parent.
 */
import type { Direction, GraphEdge, GraphIR, GraphNode, GraphStyle } from '../graph/types.js';
import { FONT } from '../layout/drawing-rules.js';
import { wrapText } from '../layout/node-size.js';

/** The outlines both tools give a topic; `none` is text on a line (PlantUML `_`), `bang` Mermaid's `))bang((`. */
export type TopicShape = 'box' | 'rounded' | 'square' | 'circle' | 'cloud' | 'bang' | 'hexagon' | 'none';

export interface Topic {
  label: string;
  shape: TopicShape;
  children: Topic[];
  /** The side of the root it grows on (PlantUML `-` topics are on the left); undefined lets the tree balance itself. */
  side?: 'left' | 'right';
  /** The author's colour (PlantUML `[#Orange]`, Mermaid `:::` class styles are not read). */
  fillColor?: string;
  /** An icon the author named (Mermaid `::icon(fa fa-book)`), as a keyword for our icon search. */
  iconHint?: string;
}

/**
 * Branch fills, one per child of the root, as Mermaid's default theme gives each section a hue of its own (cScale);
 * light enough that the default dark text stays readable.
 */
const BRANCH_FILLS = ['#e0dcff', '#ffe6b3', '#c9f0d9', '#ffd6e7', '#cfe8ff', '#fff3b0', '#e6d9c9', '#d9f2f2', '#f0d9ff', '#e8f5c8', '#ffdcd0', '#dde3ea'];
const ROOT_FILL = '#ececff';

const OUTLINES: Record<TopicShape, { shape: string; corner?: 'rounded'; approximate?: true }> = {
  box: { shape: 'rectangle', corner: 'rounded' },
  rounded: { shape: 'rectangle', corner: 'rounded' },
  square: { shape: 'rectangle' },
  circle: { shape: 'ellipse' },
  cloud: { shape: 'cloud' },
  // An explosion outline: our star is the spiky shape nearest to it.
  bang: { shape: 'star', approximate: true },
  hexagon: { shape: 'hexagon' },
  none: { shape: 'rectangle' },
};

export interface TreeOptions {
  /** RIGHT: the root in the middle with branches to both sides (a mind map); DOWN: the root on top (a WBS). */
  direction: Extract<Direction, 'RIGHT' | 'DOWN'>;
  /** Give each of the root's branches a colour of its own. */
  branchColours: boolean;
}

/** Both tools wrap a topic at a fixed width (Mermaid's 200 px): a long one stays a box, not a banner across the map. */
const TOPIC_WIDTH = 200;

const leaves = (topic: Topic): number => (topic.children.length === 0 ? 1 : topic.children.reduce((sum, child) => sum + leaves(child), 0));

/**
 * The side of each of the root's branches: the author's where given, else each on the side with fewer leaves so far
 * (the first on the right), so the root sits in the middle as Mermaid's radial layout puts it.
 */
function sides(root: Topic): ('left' | 'right')[] {
  const written = root.children.map((child) => child.side);
  if (written.some((side) => side !== undefined)) return written.map((side) => side ?? 'right');
  const weight = { left: 0, right: 0 };
  return root.children.map((child) => {
    const side = weight.right <= weight.left ? 'right' : 'left';
    weight[side] += leaves(child);
    return side;
  });
}

/**
 * The tree as a graph. Each line says which side of its parent the child is on (`toward`): right, left for a branch
 * on the left, down in a WBS. That puts the root in the middle with branches on both sides, and has the tree laid
 * out by Graphviz, which keeps the author's order of siblings (the engine takes side hints there, layout/engine.ts);
 * lines have no arrowheads.
 */
export function treeToGraph(root: Topic, options: TreeOptions, warnings: string[] = []): GraphIR {
  const nodes: GraphNode[] = [];
  const edges: GraphEdge[] = [];
  const approximated = new Set<TopicShape>();
  const add = (topic: Topic, fill: string | undefined, depth: number): string => {
    const id = `t${nodes.length + 1}`;
    const outline = OUTLINES[topic.shape];
    if (outline.approximate) approximated.add(topic.shape);
    const label = topic.label.length > 24 ? wrapText(topic.label, TOPIC_WIDTH, FONT.label).join('\n') : topic.label;
    const node: GraphNode = { id, label, kind: 'generic', shape: outline.shape };
    const style: GraphStyle = {};
    const colour = topic.fillColor ?? fill;
    if (topic.shape === 'none') Object.assign(style, { strokeColor: '#00000000', fillColor: 'transparent', textColor: '#1e1e1e' });
    else if (colour !== undefined) style.fillColor = colour;
    if (outline.corner) style.corner = outline.corner;
    // Deeper topics in smaller type, as both tools draw them; the root largest.
    if (depth === 0) style.fontSize = 20;
    if (Object.keys(style).length > 0) node.style = style;
    if (topic.iconHint !== undefined) node.iconHint = topic.iconHint;
    nodes.push(node);
    return id;
  };
  const line = (from: string, to: string, toward: Direction) => edges.push({ id: `e${edges.length + 1}`, from, to, startArrowhead: 'none', endArrowhead: 'none', toward });
  const grow = (topic: Topic, id: string, fill: string | undefined, depth: number, toward: Direction) => {
    for (const child of topic.children) {
      const childId = add(child, child.fillColor ?? fill, depth + 1);
      line(id, childId, toward);
      grow(child, childId, child.fillColor ?? fill, depth + 1, toward);
    }
  };
  const rootId = add(root, root.fillColor ?? (options.branchColours ? ROOT_FILL : undefined), 0);
  const branchSides = options.direction === 'RIGHT' ? sides(root) : root.children.map(() => 'right' as const);
  root.children.forEach((branch, index) => {
    const fill = branch.fillColor ?? (options.branchColours ? BRANCH_FILLS[index % BRANCH_FILLS.length] : undefined);
    const toward = options.direction === 'DOWN' ? 'DOWN' : branchSides[index] === 'left' ? 'LEFT' : 'RIGHT';
    const branchId = add(branch, fill, 1);
    line(rootId, branchId, toward);
    grow(branch, branchId, fill, 1, toward);
  });
  for (const shape of approximated) warnings.push(`the ${shape} outline is drawn as our nearest shape (${OUTLINES[shape].shape})`);
  return { layout: 'layered', direction: options.direction, forcedDirection: true, nodes, edges, groups: [], warnings };
}
