/**
 * Test support: what a drawing says, independent of ids and coordinates (node labels with shapes, rows and
 * container; edges by their ends' labels with heads, label and line style; groups), for round-trip comparisons.
 */
import type { RecoveredGraph } from '../../src/core/export/graph-recovery.js';

export function structureOf(graph: RecoveredGraph) {
  const label = new Map([...graph.nodes, ...graph.groups].map((item) => [item.id, item.label]));
  return {
    nodes: graph.nodes.map((n) => `${n.label}|${n.shape}|${(n.rows ?? []).join(';')}|${label.get(n.parent ?? '') ?? ''}`).sort(),
    edges: graph.edges.map((e) => `${label.get(e.from)}>${label.get(e.to)}|${e.startArrowhead}|${e.endArrowhead}|${e.label ?? ''}|${e.style.strokeStyle}`).sort(),
    groups: graph.groups.map((g) => `${g.label}|${label.get(g.parent ?? '') ?? ''}`).sort(),
  };
}
