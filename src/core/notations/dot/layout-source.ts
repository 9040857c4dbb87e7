/**
 * The author's DOT, kept for Graphviz to lay out: every attribute that shapes the layout stays as written (rank=same
 * subgraphs, invisible nodes and edges, ordering, constraint, weight, newrank, nodesep, ranksep). The source text is
 * edited in place (re-printing it from the tree costs more than Graphviz's whole layout): the root graph's label is
 * emptied (it is drawn as the diagram's title, above the drawing), and edge labels and cluster titles become
 * placeholders that layout swaps for boxes of the size our fonts need.
 */
import type { AttributeASTNode, ClusterStatementASTNode, GraphASTNode } from '@ts-graphviz/ast';
import type { DotSource } from '../../graph/types.js';

/** `"drawbridge:edge:<k>"` stands for the label of the statement whose first edge is `edges[k]`. */
export const EDGE_LABEL_PLACEHOLDER = 'drawbridge:edge:';
/** `"drawbridge:cluster:<i>"` stands for the title of `clusters[i]`. */
export const CLUSTER_LABEL_PLACEHOLDER = 'drawbridge:cluster:';

interface Edit {
  start: number;
  end: number;
  text: string;
}

/**
 * `edges[k]` are the edges the statements make, in the order the parser met them (a -> {b c} -> d makes a->b, a->c,
 * b->d, c->d), with the GraphIR id of those drawn.
 */
export function dotLayoutSource(code: string, graph: GraphASTNode, edges: DotSource['edges']): DotSource {
  const edits: Edit[] = [];
  const clusters: string[] = [];
  const valueOf = (attribute: AttributeASTNode): Edit | undefined => {
    const location = attribute.value.location;
    return location ? { start: location.start.offset, end: location.end.offset, text: '' } : undefined;
  };
  let next = 0;
  const walk = (statements: readonly ClusterStatementASTNode[], root: boolean, cluster: number | undefined): void => {
    for (const statement of statements) {
      switch (statement.type) {
        case 'Attribute':
        case 'AttributeList': {
          const attributes = statement.type === 'Attribute' ? [statement] : statement.kind === 'Graph' ? statement.children : [];
          for (const attribute of attributes) {
            if (attribute.type !== 'Attribute' || attribute.key.value !== 'label') continue;
            const edit = valueOf(attribute);
            if (!edit) continue;
            if (root) edits.push({ ...edit, text: '""' });
            else if (cluster !== undefined) edits.push({ ...edit, text: `"${CLUSTER_LABEL_PLACEHOLDER}${cluster}"` });
          }
          break;
        }
        case 'Subgraph': {
          const name = statement.id?.value;
          if (name !== undefined && /^cluster/i.test(name)) {
            clusters.push(name);
            walk(statement.children, false, clusters.length - 1);
          } else walk(statement.children, false, undefined);
          break;
        }
        case 'Edge': {
          const first = next;
          const ends = statement.targets.map((target) => (target.type === 'NodeRef' ? 1 : target.children.length));
          for (let i = 1; i < ends.length; i++) next += ends[i - 1]! * ends[i]!;
          // An `xlabel` is the edge's label when it has no `label` (as the graph reads it), sized the same way.
          const key = statement.children.some((attribute) => attribute.type === 'Attribute' && attribute.key.value === 'label') ? 'label' : 'xlabel';
          for (const attribute of statement.children) {
            if (attribute.type !== 'Attribute' || attribute.key.value !== key) continue;
            const edit = valueOf(attribute);
            if (edit) edits.push({ ...edit, text: `"${EDGE_LABEL_PLACEHOLDER}${first}"` });
          }
          break;
        }
        default:
          break;
      }
    }
  };
  walk(graph.children, true, undefined);
  const spread = overlapRemoval(graph);
  if (spread) edits.push(spread);
  let source = code;
  for (const edit of edits.sort((a, b) => b.start - a.start)) source = source.slice(0, edit.start) + edit.text + source.slice(edit.end);
  // Only the first graph of the input is drawn: what follows it is cut.
  const end = graph.location?.end.offset;
  const shift = edits.reduce((sum, edit) => sum + edit.text.length - (edit.end - edit.start), 0);
  return { source: end === undefined ? source : source.slice(0, end + shift), edges, clusters };
}

/**
 * neato, fdp and sfdp leave nodes overlapping unless told otherwise, and our boxes are larger than the ones the author
 * saw (our fonts, not Graphviz's guesses), so shapes would pile up; the author's own `overlap` is kept. The margin
 * (`sep`) keeps edge labels, placed at the middle of their edges, clear of the shapes the edges join.
 */
function overlapRemoval(graph: GraphASTNode): Edit | undefined {
  const rootAttributes = graph.children.flatMap((statement) =>
    statement.type === 'Attribute' ? [statement] : statement.type === 'AttributeList' && statement.kind === 'Graph' ? statement.children : [],
  );
  const value = (key: string) => {
    const found = rootAttributes.find((attribute) => attribute.type === 'Attribute' && attribute.key.value === key);
    return found?.type === 'Attribute' ? found.value.value : undefined;
  };
  const layout = value('layout');
  const at = graph.children[0]?.location?.start.offset;
  if (layout === undefined || layout === 'dot' || value('overlap') !== undefined || at === undefined) return undefined;
  return { start: at, end: at, text: 'overlap=false; sep="+12"; ' };
}
