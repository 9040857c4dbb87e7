/** LaidOutGraph: GraphIR with coordinates, the contract between a layout engine and scene building. */
import type { GraphIR } from '../graph/types.js';
import type { NodeBox } from './node-size.js';

export interface Point {
  x: number;
  y: number;
}

/** Absolute, top-left based, in scene pixels. */
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface LaidOutNode extends Box {
  id: string;
  /** What layout decided about the node's text and shape (wrapped label, cut rows, icon room). */
  box: NodeBox;
}

export interface LaidOutGroup extends Box {
  id: string;
  /** 0 for a top-level container, 1 inside it, … */
  depth: number;
  /** Where the standalone title text goes, inside the container's top padding. */
  title: { text: string } & Box;
}

export interface LaidOutLabel extends Box {
  text: string;
  /** Middle label, or the multiplicity/cardinality at the start or end. */
  placement: 'center' | 'start' | 'end';
  /** Text size in px when the edge sets one (FONT.edgeLabel otherwise). */
  fontSize?: number;
}

export interface LaidOutEdge {
  /** Index of the edge in `graph.edges` (edge ids are the parser's and need not be unique). */
  index: number;
  /** Route from the source's outline to the target's, absolute: right-angle bends, or points along a curve when `curved`. */
  points: Point[];
  /** The points lie on a smooth curve (Graphviz splines), drawn as a curve through them. */
  curved?: boolean;
  labels: LaidOutLabel[];
}

export interface LaidOutGraph {
  nodes: LaidOutNode[];
  groups: LaidOutGroup[];
  edges: LaidOutEdge[];
  /** What layout had to skip (edges to unknown ids, an edge into its own container). */
  warnings: string[];
  width: number;
  height: number;
}

/** STYLE: layout is a function type; ELK is one implementation. */
export type LayoutEngine = (graph: GraphIR) => Promise<LaidOutGraph>;
