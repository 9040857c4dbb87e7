/**
 * Mind maps and work breakdown structures as one tree model, read from Mermaid `mindmap` and PlantUML
 * `@startmindmap`/`@startwbs`, and turned into GraphIR that the layered layout draws as a tree: the root, each branch
 * in a colour of its own (as both tools draw them), children beside or below their parent.
 */
import type { Direction, GraphEdge, GraphIR, GraphNode, GraphStyle } from '../graph/types.js';

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

const leaves = (topic: Topic): number => (topic.children.length === 0 ? 1 : topic.children.reduce((sum, child) => sum + leaves(child), 0));

/**
 * The side of each of the root's branches: the author's where given, else the first branches to the right until about
 * half the leaves are there, the rest to the left, so the root sits in the middle as Mermaid's radial layout puts it.
 */
function sides(root: Topic): ('left' | 'right')[] {
  const written = root.children.map((child) => child.side);
  if (written.some((side) => side !== undefined)) return written.map((side) => side ?? 'right');
  const total = leaves(root);
  let right = 0;
  return root.children.map((child, index) => {
    if (index === 0 || right + leaves(child) / 2 <= total / 2) {
      right += leaves(child);
      return 'right';
    }
    return 'left';
  });
}

/**
 * The tree as a graph. A branch on the left is written child → parent, so the layered layout ranks it before the
 * root: the root lands in the middle, its branches on both sides; lines have no arrowheads, so their direction is
 * not seen.
 */
export function treeToGraph(root: Topic, options: TreeOptions, warnings: string[] = []): GraphIR {
  const nodes: GraphNode[] = [];
  const edges: GraphEdge[] = [];
  const approximated = new Set<TopicShape>();
  const add = (topic: Topic, fill: string | undefined, depth: number): string => {
    const id = `t${nodes.length + 1}`;
    const outline = OUTLINES[topic.shape];
    if (outline.approximate) approximated.add(topic.shape);
    const node: GraphNode = { id, label: topic.label, kind: 'generic', shape: outline.shape };
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
  const grow = (topic: Topic, id: string, fill: string | undefined, depth: number, left: boolean) => {
    for (const child of topic.children) {
      const childId = add(child, child.fillColor ?? fill, depth + 1);
      const [from, to] = left ? [childId, id] : [id, childId];
      edges.push({ id: `e${edges.length + 1}`, from, to, startArrowhead: 'none', endArrowhead: 'none' });
      grow(child, childId, child.fillColor ?? fill, depth + 1, left);
    }
  };
  const rootId = add(root, root.fillColor ?? (options.branchColours ? ROOT_FILL : undefined), 0);
  const branchSides = options.direction === 'RIGHT' ? sides(root) : root.children.map(() => 'right' as const);
  root.children.forEach((branch, index) => {
    const fill = branch.fillColor ?? (options.branchColours ? BRANCH_FILLS[index % BRANCH_FILLS.length] : undefined);
    const left = branchSides[index] === 'left';
    const branchId = add(branch, fill, 1);
    edges.push({ id: `e${edges.length + 1}`, from: left ? branchId : rootId, to: left ? rootId : branchId, startArrowhead: 'none', endArrowhead: 'none' });
    grow(branch, branchId, fill, 1, left);
  });
  for (const shape of approximated) warnings.push(`the ${shape} outline is drawn as our nearest shape (${OUTLINES[shape].shape})`);
  return { layout: 'layered', direction: options.direction, forcedDirection: true, nodes, edges, groups: [], warnings };
}
