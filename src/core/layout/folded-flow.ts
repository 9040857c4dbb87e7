/**
 * A sideways flow of containers, each a sideways flow of its own, folded: the containers stacked top-down and each
 * keeping its author's direction inside. D2 draws `direction: right` as one row however long (dagre or ELK), so the
 * Codex platform's CI/CD pipeline, four workflows of five or six steps, came out 4,634 px wide, its text 5 px at a
 * README's width. Folded, each workflow stays a row read left to right and the workflows follow each other down the page.
 */
import type { GraphIR } from '../graph/types.js';
import { readmeCost } from './elk.js';
import type { LayoutEngine } from './types.js';

/** Fewer top-level containers than this are not a flow of containers (one wide container is narrowed by other tries). */
const FOLDED_CONTAINERS = 2;

/**
 * The top-level containers to keep sideways: those holding a flow of their own, an edge between two things inside. One
 * of loose nodes flows down with the rest, its nodes in a row, where kept sideways they stood in a column and the edges
 * leaving them ran past each other (the pipeline's three trigger events).
 */
function sidewaysContainers(graph: GraphIR): Set<string> {
  const parent = new Map<string, string | undefined>([...graph.groups.map((group) => [group.id, group.parent] as const), ...graph.nodes.map((node) => [node.id, node.parent] as const)]);
  const topOf = (id: string): string | undefined => {
    const seen = new Set<string>();
    let at: string | undefined = parent.get(id);
    if (at === undefined) return undefined;
    while (parent.get(at) !== undefined && !seen.has(at)) {
      seen.add(at);
      at = parent.get(at)!;
    }
    return at;
  };
  const tops = new Set<string>();
  for (const edge of graph.edges) {
    const top = topOf(edge.from);
    if (top !== undefined && top === topOf(edge.to)) tops.add(top);
  }
  const groups = new Map(graph.groups.map((group) => [group.id, group]));
  return new Set([...tops].filter((id) => groups.get(id)?.grid === undefined));
}

/** Whether `graph` runs sideways through top-level containers that folding could stack. */
export function foldsSideways(graph: GraphIR): boolean {
  return (graph.direction === 'RIGHT' || graph.direction === 'LEFT') && graph.grid === undefined && sidewaysContainers(graph).size >= FOLDED_CONTAINERS;
}

/** `graph` with its top level flowing down and each top-level container with a flow inside keeping the diagram's direction. */
export function foldedFlow(graph: GraphIR): GraphIR {
  const sideways = sidewaysContainers(graph);
  return {
    ...graph,
    direction: 'DOWN',
    forcedDirection: true,
    groups: graph.groups.map((group) => (sideways.has(group.id) && group.direction === undefined ? { ...group, direction: graph.direction } : group)),
  };
}

/**
 * `engine` (which must lay out containers of their own direction, blocks.ts), trying the folded flow when the plain
 * layout misses a README column, kept only when it misses less: a flow whose containers are short rows already fits.
 */
export function withFoldedFlow(engine: LayoutEngine): LayoutEngine {
  return async (graph) => {
    const plain = await engine(graph);
    const nodes = graph.nodes.length;
    const plainCost = readmeCost(plain, nodes);
    if (plainCost === 0) return plain;
    const folded = await engine(foldedFlow(graph));
    return readmeCost(folded, nodes) < plainCost ? folded : plain;
  };
}
