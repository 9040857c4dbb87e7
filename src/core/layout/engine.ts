/**
 * Which engine lays out which graph, decided in this one place. DOT input is always laid out by Graphviz: its author
 * wrote it for Graphviz (rank=same rows, invisible nodes and edges, ordering, weights) and expects Graphviz's layout.
 * Every other notation is laid out by ELK, by measurement (bench/engines.ts, same sizes, same checker, 28 corpus
 * files): ELK broke 11 drawing rules where Graphviz broke 1,308, and crossed fewer edges on compose, Terraform and
 * PlantUML; Graphviz was even on Kubernetes and Helm. Graphviz is 3–22× faster per notation (warm CPU time, 9.6× over
 * all; issue 27 asks 3×): the price of ELK's drawings, as one ELK run per file alone is about 3.5× Graphviz's whole
 * layout, which only Graphviz placement with our own routing could lower: prototyped in graphviz-orthogonal.ts, 2.9×,
 * as few rule breaks as ELK only on Helm and Kubernetes and more crossings elsewhere (README), so it draws nothing yet. A graph whose author put
 * targets on a side of their sources (PlantUML `-r->`, C4 `Lay_R`) goes to Graphviz too, as PlantUML itself does: one
 * rank and an order in it say "to the right of", which ELK's layering cannot. The README says which engine draws what.
 */
import type { GraphIR } from '../graph/types.js';
import { hasBlocks, withBlocks } from './blocks.js';
import { layoutGraph } from './elk.js';
import { layoutWithGraphviz } from './graphviz.js';
import { hasSwimlanes, layoutSwimlanes } from './swimlanes.js';
import type { LayoutEngine } from './types.js';

/** DOT input, and a graph with edges put on a side of their sources: laid out by Graphviz. */
export const drawnByGraphviz = (graph: GraphIR): boolean => graph.dot !== undefined || graph.edges.some((edge) => edge.toward !== undefined);

export function layoutEngineFor(graph: GraphIR): LayoutEngine {
  const engine = drawnByGraphviz(graph) ? layoutWithGraphviz : layoutGraph;
  // Grids and containers with a direction of their own (D2) are laid out apart, then placed as one box.
  // A flow in swimlanes is laid out flat, then its lanes made columns (swimlanes.ts).
  if (engine === layoutGraph && hasSwimlanes(graph)) return layoutSwimlanes;
  return hasBlocks(graph) ? withBlocks(engine) : engine;
}
