/**
 * The canvas rule of issue 27: a graph we lay out takes no more room than Graphviz's `dot` takes for the same graph at
 * our node, label and title sizes (CANVAS_OVER_GRAPHVIZ). Both are measured as drawn, the extent of every element of
 * the scene, so the margins each engine leaves round the drawing do not count.
 */
import type { GraphIR } from '../graph/types.js';
import { hasBlocks, withBlocks } from '../layout/blocks.js';
import { drawnByGraphviz } from '../layout/engine.js';
import { layoutWithGraphviz } from '../layout/graphviz.js';
import { graphToScene } from '../scene/from-graph.js';
import { extentOf } from './check.js';

export interface CanvasComparison {
  /** Drawn area, px². */
  ours: number;
  graphviz: number;
  /** ours / graphviz */
  ratio: number;
}

/**
 * Our drawing of `graph` (its scene's elements) against Graphviz's layout of it. Undefined when there is nothing to
 * compare: Graphviz lays the graph out itself (DOT, edges put on a side), or it is not a layered graph (sequence).
 */
export async function compareCanvas(graph: GraphIR, drawn: ReadonlyArray<{ id: string; type: string }>): Promise<CanvasComparison | undefined> {
  if (graph.layout !== 'layered' || drawnByGraphviz(graph) || graph.nodes.length === 0) return undefined;
  const engine = hasBlocks(graph) ? withBlocks(layoutWithGraphviz) : layoutWithGraphviz;
  const area = (elements: ReadonlyArray<{ id: string; type: string }>) => {
    const { width, height } = extentOf(elements);
    return width * height;
  };
  const ours = area(drawn);
  const graphviz = area(graphToScene(graph, await engine(graph)).elements);
  return { ours, graphviz, ratio: ours / graphviz };
}
