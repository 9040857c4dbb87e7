/**
 * Rows no wider than a cap, for Graphviz's placement of a flow running down: Graphviz ranks every node as high as its
 * edges let it, and a schema whose tables all point at a few others gets five or six of them in one row, wider than a
 * README column (the sakila schemas: 1,249–1,478 px), as ELK's default layering did before its MIN_WIDTH try.
 */
import type { Direction, GraphIR } from '../graph/types.js';
import { SPACING } from './drawing-rules.js';
import { backEdges, vertical } from './elk.js';
import { sizeNode } from './node-size.js';

/**
 * Each node's row (0 first along the flow): in order of its depth from the sources, the first row after all the
 * nodes it comes from where it still fits under `cap` (node widths across the flow plus the space between them), or
 * alone in a row when nothing else is there.
 */
export function cappedRanks(graph: GraphIR, direction: Direction, cap: number): Map<string, number> {
  const ids = graph.nodes.map((node) => node.id);
  const across = new Map(graph.nodes.map((node) => {
    const box = sizeNode(node, direction);
    return [node.id, (vertical(direction) ? box.width : box.height) + SPACING.nodeNode];
  }));
  const edges = graph.edges.filter((edge) => edge.from !== edge.to && across.has(edge.from) && across.has(edge.to));
  // As Graphviz is given them: back edges of a cycle reversed, so every other edge runs along the flow.
  const back = backEdges(ids, edges);
  const before = new Map(ids.map((id) => [id, [] as string[]]));
  edges.forEach((edge, index) => (back.has(index) ? before.get(edge.from)!.push(edge.to) : before.get(edge.to)!.push(edge.from)));
  const depth = new Map<string, number>();
  const depthOf = (id: string): number => {
    if (!depth.has(id)) {
      depth.set(id, 0);
      depth.set(id, Math.max(0, ...before.get(id)!.map((from) => depthOf(from) + 1)));
    }
    return depth.get(id)!;
  };
  const position = new Map(ids.map((id, i) => [id, i]));
  const order = [...ids].sort((a, b) => depthOf(a) - depthOf(b) || position.get(a)! - position.get(b)!);
  const rank = new Map<string, number>();
  for (let row = 0; rank.size < ids.length; row++) {
    let used = 0;
    for (const id of order) {
      if (rank.has(id) || !before.get(id)!.every((from) => (rank.get(from) ?? row) < row)) continue;
      if (used > 0 && used + across.get(id)! > cap) continue;
      rank.set(id, row);
      used += across.get(id)!;
    }
  }
  return rank;
}
