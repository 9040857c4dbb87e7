/**
 * Graphviz's iteration limits for graphs its defaults would not lay out within the job time limit. With its defaults,
 * dot's network simplex placing nodes along their rank (`nslimit`: passes × nodes) and its mincross ordering them
 * (`mclimit`: scales its passes) run until they converge: about a second for a 1,000-function call graph, 45 s of CPU
 * for 5,000, and over 300 s for 300 nodes with 600 edges in a pseudo-random cyclic pattern (tests' heavy graph).
 * Ordinary graphs are left alone, so DOT input lays out exactly as Graphviz would lay it out.
 */
import type { GraphIR } from '../graph/types.js';

/**
 * The caps: on the 5,000-function call graph Graphviz took 12 s of CPU instead of 45, with 1.05× its crossings.
 * nslimit=1 costs the least crossings (1.04×; 0.5 cost 1.12×), mclimit=0.2 halves the rest of the time.
 */
const CAPS = { nslimit: 1, mclimit: 0.2 } as const;

/**
 * Above this many nodes to place (the graph's own and one dummy for each rank an edge passes, as `placedNodes`
 * estimates), the caps apply. Measured: the bench graph (~1,700) and a 1,000-function call graph (~3,200) lay out in
 * about a second with the defaults and keep them, as does every corpus file (the largest, gallery-gd-1994-2007, ~5,100);
 * the heavy graph at 200 nodes (~7,000) took 14 s of CPU, at 300 (~19,600) over 300 s; a 5,000-function call graph
 * (~14,900) 45 s.
 */
const CAPPED_ABOVE = 6_000;

/**
 * Nodes dot will place, estimated: edges follow a depth-first order (edges closing a cycle turned round, as dot
 * breaks cycles), nodes are ranked by longest path, and every rank an edge passes adds a dummy node. An upper bound of
 * dot's own count, which shortens edges further; linear time.
 */
export function placedNodes(nodes: number, ends: ReadonlyArray<readonly [string, string]>): number {
  const next = new Map<string, string[]>();
  for (const [tail, head] of ends) {
    if (!next.has(tail)) next.set(tail, []);
    if (!next.has(head)) next.set(head, []);
    next.get(tail)!.push(head);
  }
  const seen = new Set<string>();
  const postorder: string[] = [];
  for (const root of next.keys()) {
    if (seen.has(root)) continue;
    seen.add(root);
    const stack = [{ node: root, edge: 0 }];
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!;
      const child = next.get(top.node)![top.edge++];
      if (child === undefined) {
        postorder.push(top.node);
        stack.pop();
      } else if (!seen.has(child)) {
        seen.add(child);
        stack.push({ node: child, edge: 0 });
      }
    }
  }
  const position = new Map(postorder.reverse().map((node, i) => [node, i]));
  const forward = ends
    .filter(([tail, head]) => tail !== head)
    .map(([tail, head]) => (position.get(tail)! < position.get(head)! ? [tail, head] : [head, tail]))
    .sort((a, b) => position.get(a[0]!)! - position.get(b[0]!)!);
  // Sorted by tail, every edge into a node is met before the edges out of it: its rank is final when it is used.
  const rank = new Map<string, number>();
  for (const [tail, head] of forward) rank.set(head!, Math.max(rank.get(head!) ?? 0, (rank.get(tail!) ?? 0) + 1));
  return forward.reduce((sum, [tail, head]) => sum + rank.get(head!)! - (rank.get(tail!) ?? 0) - 1, nodes);
}

/** The caps to add to this graph's DOT: none for a graph of ordinary size, nor any the author set. */
export function graphvizCaps(graph: GraphIR): Partial<Record<keyof typeof CAPS, number>> {
  // DOT's own edge list holds the invisible edges too, which Graphviz lays out as any other.
  const ends = graph.dot ? graph.dot.edges.map((edge) => [edge.tail, edge.head] as const) : graph.edges.map((edge) => [edge.from, edge.to] as const);
  if (placedNodes(graph.nodes.length, ends) <= CAPPED_ABOVE) return {};
  // A mention anywhere (even in a label) counts as set: keeping Graphviz's default is the safe side of a wrong guess.
  const written = graph.dot?.source ?? '';
  return Object.fromEntries(Object.entries(CAPS).filter(([name]) => !new RegExp(`\\b${name}\\b`).test(written)));
}
