/**
 * Transitions of a state machine that lead from one state to the same other state are drawn as one arrow listing
 * their triggers, one a line, as a UML transition may carry several: drawn apart they ran as parallel lines a few
 * pixels from each other, each label beside a line it could as well belong to (an auth token's two ways back to
 * Verified; an orchestrator stage's approve and reject_with_feedback back to IN_PROGRESS). Arrows that differ in
 * anything but their label (line, heads, a side) stay apart, as do those with end labels: they say different things.
 */
import type { GraphEdge } from './types.js';

/** What an arrow is apart from its label; arrows alike in it are one transition. */
const arrowOf = (edge: GraphEdge): string =>
  JSON.stringify([edge.from, edge.to, edge.startArrowhead, edge.endArrowhead, edge.toward, Object.entries(edge.style ?? {}).sort()]);

export function mergeParallelEdges(edges: readonly GraphEdge[]): GraphEdge[] {
  const kept = new Map<string, GraphEdge>();
  const out: GraphEdge[] = [];
  for (const edge of edges) {
    const separate = edge.hidden || edge.startLabel !== undefined || edge.endLabel !== undefined;
    const first = separate ? undefined : kept.get(arrowOf(edge));
    if (first === undefined) {
      const copy = { ...edge };
      if (!separate) kept.set(arrowOf(edge), copy);
      out.push(copy);
      continue;
    }
    const said = first.label?.split('\n') ?? [];
    if (edge.label !== undefined && !said.includes(edge.label)) first.label = [...said, edge.label].join('\n');
  }
  return out;
}
