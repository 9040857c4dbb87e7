/**
 * Which engine lays out which graph, decided in this one place. DOT input is always laid out by Graphviz: its author
 * wrote it for Graphviz (rank=same rows, invisible nodes and edges, ordering, weights) and expects Graphviz's layout.
 */
import type { GraphIR } from '../graph/types.js';
import { layoutGraph } from './elk.js';
import { layoutWithGraphviz } from './graphviz.js';
import type { LayoutEngine } from './types.js';

export function layoutEngineFor(graph: GraphIR): LayoutEngine {
  if (graph.dot !== undefined) return layoutWithGraphviz;
  return layoutGraph;
}
