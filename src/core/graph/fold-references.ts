/**
 * Reference hubs of a large schema: a table that a great many foreign keys point at (OpenStreetMap's `users`, 34 of
 * its 71 foreign keys) is named on each referencing column (`FK user_id  bigint → users`) instead of being reached by
 * a line from each table. Drawn as lines, those references fan into one box from every corner of the drawing, a wall
 * of parallel runs that hides the relations between the other tables; a database diagram tool shows such a table
 * once and marks the columns that refer to it. The warning says which references were folded; `detail: "full"` draws
 * every line (issue 27: edges merged only when they mean the same thing, said in warnings).
 */
import type { GraphEdge, GraphIR } from './types.js';

/** Schemas of more tables than this have their reference hubs folded (below it the lines still read: mailcow's 24). */
export const REFERENCE_HUB_TABLES = 24;
/** A table referenced by at least this many foreign keys of other tables is a hub… */
export const REFERENCE_HUB_MIN = 12;
/** …when they are also at least this share of all the schema's foreign keys (changesets' 9 of 71 stay lines). */
const REFERENCE_HUB_SHARE = 0.2;

/** The arrow that names the referenced table on a column row. */
export const REFERS_TO = '→';

export interface FoldedReferences {
  graph: GraphIR;
  /** Each hub folded, with how many foreign keys of how many tables now name it on their columns. */
  hubs: { label: string; references: number; tables: number }[];
}

/**
 * The schema with its reference hubs' incoming foreign keys as marks on the referencing columns. A table's own
 * reference to itself, and the hub's references to other tables, stay lines.
 */
export function foldReferenceHubs(graph: GraphIR): FoldedReferences {
  if (graph.nodes.length <= REFERENCE_HUB_TABLES) return { graph, hubs: [] };
  const incoming = new Map<string, GraphEdge[]>();
  for (const edge of graph.edges) if (edge.from !== edge.to) incoming.set(edge.to, [...(incoming.get(edge.to) ?? []), edge]);
  const hubIds = new Set(
    [...incoming].filter(([, edges]) => edges.length >= REFERENCE_HUB_MIN && edges.length >= graph.edges.length * REFERENCE_HUB_SHARE).map(([id]) => id),
  );
  if (hubIds.size === 0) return { graph, hubs: [] };
  const byId = new Map(graph.nodes.map((node) => [node.id, node]));
  /** Per referencing table, its column names and the hub each refers to. */
  const marks = new Map<string, Map<string, string>>();
  const folded = (edge: GraphEdge): boolean => hubIds.has(edge.to) && edge.from !== edge.to;
  for (const edge of graph.edges.filter(folded)) {
    const columns = (edge.label ?? '').split(',').map((column) => column.trim()).filter(Boolean);
    const table = marks.get(edge.from) ?? new Map<string, string>();
    for (const column of columns) table.set(column, byId.get(edge.to)!.label);
    marks.set(edge.from, table);
  }
  const hubs = [...hubIds].map((id) => {
    const edges = incoming.get(id)!;
    return { label: byId.get(id)!.label, references: edges.length, tables: new Set(edges.map((edge) => edge.from)).size };
  });
  return {
    graph: {
      ...graph,
      nodes: graph.nodes.map((node) => {
        const columns = marks.get(node.id);
        if (columns === undefined || node.rows === undefined) return node;
        return { ...node, rows: node.rows.map((row) => markRow(row, columns)) };
      }),
      edges: graph.edges.filter((edge) => !folded(edge)),
    },
    hubs,
  };
}

/**
 * `FK    user_id  bigint` → `FK    user_id  bigint → users` when the row is the column `user_id` (rows are the key
 * markers padded to five, a space, the name, two spaces, the type: sql/index.ts `columnRow`).
 */
function markRow(row: string, columns: ReadonlyMap<string, string>): string {
  const name = /^(?:(?:PK|FK|UK)\s+)*(\S+)/.exec(row.trim())?.[1];
  const hub = name === undefined ? undefined : columns.get(name);
  return hub === undefined ? row : `${row} ${REFERS_TO} ${hub}`;
}
