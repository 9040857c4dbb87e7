/**
 * Rows of a large schema drawn folded (graph/fold.ts), read back for export. The drawing counts a table's plain
 * columns in one row (`… 34 more columns`, fold-columns.ts) and names a reference hub on the referencing columns
 * instead of drawing lines to it (`FK  user_id  bigint → users`, fold-references.ts). Written as they are, the
 * count became a column named `…` and the mark part of a column's type, and the relations to the hub were lost.
 * Here a count row is dropped and said in the warnings (the columns are not in the drawing), and a hub mark
 * becomes the relationship it stands for again.
 */
import { foldedColumnCount } from '../graph/fold-columns.js';
import { REFERS_TO, SHARED_MARKS } from '../graph/fold-references.js';
import type { RecoveredEdge, RecoveredGraph } from './graph-recovery.js';
import { columnOf } from './table-rows.js';

/** `… user_id  bigint → users`: the column's row and the hub's label. */
const MARKED = new RegExp(`^(.*\\S)\\s+${REFERS_TO}\\s+(\\S.*)$`);

/** Count rows dropped, and marks naming a table of the drawing turned back into edges from the marked table. */
export function unfoldRows(graph: RecoveredGraph): RecoveredGraph {
  const byLabel = new Map<string, string>();
  for (const node of graph.nodes) if (node.rows !== undefined) byLabel.set(node.label, byLabel.has(node.label) ? '' : node.id);
  // Legend lines under the title (`FK added_by_id, upd_by_id → x_portal_user`): those columns refer to that hub in
  // every table, their rows marked FK only (fold-references.ts SHARED_MARKS).
  const titleLines = graph.title?.split('\n') ?? [];
  const legend = new Map<string, string>();
  for (const line of titleLines) {
    const [, columns, hub] = SHARED_MARKS.exec(line) ?? [];
    if (columns === undefined || !byLabel.get(hub!)) continue;
    for (const column of columns.split(', ')) legend.set(column.toLowerCase(), hub!);
  }
  const title = titleLines.filter((line) => !SHARED_MARKS.test(line) || !byLabel.get(SHARED_MARKS.exec(line)![2]!)).join('\n');
  const [model] = graph.edges;
  let counted = 0;
  let countingTables = 0;
  const restored: RecoveredEdge[] = [];
  const nodes = graph.nodes.map((node) => {
    if (node.rows === undefined) return node;
    const rows: string[] = [];
    /** Hub id → the marked columns that refer to it. */
    const refers = new Map<string, string[]>();
    let count = 0;
    for (const row of node.rows) {
      const folded = foldedColumnCount(row);
      if (folded !== undefined) {
        count += folded;
        continue;
      }
      const [, marked, markedHub] = MARKED.exec(row) ?? [];
      const column = marked ?? row;
      const { name, keys } = columnOf(column);
      const hubLabel = markedHub ?? legend.get(name.toLowerCase());
      const hub = hubLabel === undefined ? undefined : byLabel.get(hubLabel);
      if (hub === undefined || hub === '' || !keys.includes('FK')) {
        rows.push(row);
        continue;
      }
      rows.push(column);
      refers.set(hub, [...(refers.get(hub) ?? []), name]);
    }
    // The hub's foreign keys were folded one column each (fold-references.ts splits a key's label into its columns).
    for (const [hub, columns] of refers) {
      for (const column of columns) {
        restored.push({
          id: `${node.id}.${column}${REFERS_TO}${hub}`,
          from: node.id,
          to: hub,
          label: column,
          startArrowhead: 'circle-crows-foot',
          endArrowhead: 'circle-bar',
          style: model?.style ?? { strokeColor: node.style.strokeColor, strokeStyle: 'solid' },
          look: model?.look ?? node.look,
        });
      }
    }
    if (count > 0) {
      counted += count;
      countingTables += 1;
    }
    return rows.length === node.rows.length && refers.size === 0 ? node : { ...node, rows };
  });
  if (counted === 0 && restored.length === 0) return graph;
  const titled = legend.size === 0 ? {} : title === '' ? { title: undefined } : { title };
  const warnings = [...graph.warnings];
  if (counted > 0) {
    warnings.push(`${countingTables} tables were drawn with ${counted} of their columns counted ("… N more columns"), so only the columns drawn are exported; draw the code with detail: "full" to export every column`);
  }
  if (restored.length > 0) {
    const hubs = [...new Set(restored.map((edge) => graph.nodes.find((node) => node.id === edge.to)!.label))];
    warnings.push(
      `${restored.length} relationships drawn as marks on their columns ("${REFERS_TO} ${hubs[0]}") are exported as relationships to ${hubs.join(', ')}, as zero or more to zero or one: the mark does not say whether the column is unique or required`,
    );
  }
  return { ...graph, ...titled, nodes, edges: [...graph.edges, ...restored], warnings };
}
