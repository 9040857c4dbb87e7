/**
 * Reference hubs of a large schema: a table that a great many foreign keys point at (OpenStreetMap's `users`, 34 of
 * its 71 foreign keys) is named on each referencing column (`FK user_id  bigint → users`) instead of being reached by
 * a line from each table. Drawn as lines, those references fan into one box from every corner of the drawing, a wall
 * of parallel runs that hides the relations between the other tables; a database diagram tool shows such a table
 * once and marks the columns that refer to it. The warning says which references were folded; `detail: "full"` draws
 * every line (issue 27: edges merged only when they mean the same thing, said in warnings).
 */
import type { Arrowhead, GraphEdge, GraphIR } from './types.js';

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

/** The crow's-foot ends that stand for one row (Mermaid's `||`, `|o`): a relationship's hub is at such an end. */
const ONE_ENDS: ReadonlySet<Arrowhead | undefined> = new Set<Arrowhead>(['double-bar', 'circle-bar', 'bar']);

/** A foreign key attribute's row (`FK    company_id  UUID`, `PK FK id  int`) and its name. */
const KEY_ATTRIBUTE = /^(?:PK |UK )*FK(?:\s+(?:PK|UK))*\s+(\S+)/;

/** Letters and digits only, lower case: `company_id` and `COMPANY` compare as `companyid` and `company`. */
const bare = (name: string): string => name.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');

/**
 * A Mermaid ER diagram's reference hubs: an entity at the one end of a great many one-to-many relationships (an ERP's
 * COMPANY that 27 of 73 relationships start from) is named on the other entity's attribute that refers to it (`FK
 * company_id  UUID → COMPANY`), as a schema's hubs are (foldReferenceHubs). Drawn as lines, the 27 fanned out of
 * one box across a drawing 4,925 px wide. Only a relationship whose entity has such a key attribute (named as the
 * hub, marked FK) is folded; the others stay lines. The relationships' own labels ("owns", "has") are listed in
 * `verbs` for the warning.
 */
export function foldEntityHubs(graph: GraphIR): FoldedReferences & { verbs: Map<string, string[]> } {
  const none = { graph, hubs: [], verbs: new Map<string, string[]>() };
  if (graph.nodes.length <= REFERENCE_HUB_TABLES) return none;
  const byId = new Map(graph.nodes.map((node) => [node.id, node]));
  /** Each one-to-many relationship by its hub end, with the entity at the many end. */
  const spokes = new Map<string, { edge: GraphEdge; other: string }[]>();
  for (const edge of graph.edges) {
    if (edge.from === edge.to) continue;
    const [fromOne, toOne] = [ONE_ENDS.has(edge.startArrowhead), ONE_ENDS.has(edge.endArrowhead)];
    if (fromOne === toOne) continue;
    const [hub, other] = fromOne ? [edge.from, edge.to] : [edge.to, edge.from];
    spokes.set(hub, [...(spokes.get(hub) ?? []), { edge, other }]);
  }
  const marked = new Map<string, Map<number, string>>();
  const foldedEdges = new Set<string>();
  const hubs: FoldedReferences['hubs'] = [];
  const verbs = new Map<string, string[]>();
  for (const [hub, all] of spokes) {
    if (all.length < REFERENCE_HUB_MIN || all.length < graph.edges.length * REFERENCE_HUB_SHARE) continue;
    const label = byId.get(hub)!.label;
    // The key attribute is the hub's name, or it with `id` (`company_id`, `companyId` for COMPANY).
    const names = new Set([bare(label), `${bare(label)}id`]);
    const foldable: { edge: GraphEdge; other: string; row: number }[] = [];
    const claimed = new Map<string, Set<number>>();
    for (const { edge, other } of all) {
      // Each relationship takes a key of its own: a second one to the same entity needs a second key, else stays a line.
      const taken = (i: number) => claimed.get(other)?.has(i) === true || marked.get(other)?.has(i) === true;
      const row = (byId.get(other)?.rows ?? []).findIndex((text, i) => !taken(i) && KEY_ATTRIBUTE.test(text) && names.has(bare(KEY_ATTRIBUTE.exec(text)![1]!)));
      if (row < 0) continue;
      claimed.set(other, new Set([...(claimed.get(other) ?? []), row]));
      foldable.push({ edge, other, row });
    }
    if (foldable.length < REFERENCE_HUB_MIN) continue;
    for (const { edge, other, row } of foldable) {
      const rows = marked.get(other) ?? new Map<number, string>();
      rows.set(row, label);
      marked.set(other, rows);
      foldedEdges.add(edge.id);
    }
    hubs.push({ label, references: foldable.length, tables: new Set(foldable.map(({ other }) => other)).size });
    verbs.set(label, [...new Set(foldable.map(({ edge }) => edge.label).filter((verb): verb is string => verb !== undefined))]);
  }
  if (hubs.length === 0) return none;
  return {
    graph: {
      ...graph,
      nodes: graph.nodes.map((node) => {
        const rows = marked.get(node.id);
        return rows === undefined ? node : { ...node, rows: node.rows!.map((row, i) => (rows.has(i) ? `${row} ${REFERS_TO} ${rows.get(i)}` : row)) };
      }),
      edges: graph.edges.filter((edge) => !foldedEdges.has(edge.id)),
    },
    hubs,
    verbs,
  };
}
