/**
 * The author's DOT, kept for Graphviz to lay out: every attribute that shapes the layout stays as written (rank=same
 * subgraphs, invisible nodes and edges, ordering, constraint, weight, newrank, nodesep, ranksep). Two changes only:
 * the root graph's label goes (it is drawn as the diagram's title, above the drawing), and each edge statement becomes
 * one statement per edge carrying the id of its GraphIR edge, so layout can tell which spline draws which edge.
 */
import { createElement, stringify, type AttributeASTNode, type ClusterStatementASTNode, type EdgeASTNode, type GraphASTNode, type NodeRefASTNode } from '@ts-graphviz/ast';

/**
 * `edgeIds[k]` is the GraphIR id of the k-th edge the statements make, in the order the parser met them (a -> {b c}
 * -> d makes a->b, a->c, b->d, c->d), or undefined for an edge that is not drawn (invisible, or to an invisible node).
 */
export function dotLayoutSource(graph: GraphASTNode, edgeIds: readonly (string | undefined)[]): string {
  let next = 0;
  const rewrite = (statements: ClusterStatementASTNode[], root: boolean): ClusterStatementASTNode[] =>
    statements.flatMap((statement): ClusterStatementASTNode[] => {
      switch (statement.type) {
        case 'Attribute':
          return root && statement.key.value === 'label' ? [] : [statement];
        case 'AttributeList':
          if (!root || statement.kind !== 'Graph') return [statement];
          return [{ ...statement, children: statement.children.filter((child) => child.type !== 'Attribute' || child.key.value !== 'label') }];
        case 'Subgraph':
          return [{ ...statement, children: rewrite(statement.children, false) }];
        case 'Edge':
          return splitEdge(statement).map((edge) => withId(edge, edgeIds[next++]));
        default:
          return [statement];
      }
    });
  return stringify({ ...graph, children: rewrite(graph.children, true) });
}

/** One statement per edge, in the order Graphviz (and the parser) create them. */
function splitEdge(statement: EdgeASTNode): EdgeASTNode[] {
  const ends: NodeRefASTNode[][] = statement.targets.map((target) => (target.type === 'NodeRef' ? [target] : target.children));
  const edges: EdgeASTNode[] = [];
  for (let i = 1; i < ends.length; i++) {
    for (const from of ends[i - 1]!) for (const to of ends[i]!) edges.push({ ...statement, targets: [from, to] });
  }
  return edges;
}

function withId(edge: EdgeASTNode, id: string | undefined): EdgeASTNode {
  if (id === undefined) return edge;
  const literal = (value: string) => createElement('Literal', { value, quoted: true }, []);
  const others = edge.children.filter((child) => child.type !== 'Attribute' || child.key.value !== 'id');
  const attribute = { type: 'Attribute', key: literal('id'), value: literal(id), children: [] } as unknown as AttributeASTNode;
  return { ...edge, children: [...others, attribute] };
}
