/**
 * Columns of a large schema folded into a count: above FOLD_NODES tables, each table shows its key columns (the ones
 * its relations run between) and one row counting the rest, as SchemaSpy's compact diagrams and a database tool's
 * "keys only" view draw a schema too large to read column by column. Flowable's 62 tables (up to 45 columns each)
 * drew 2,985 × 6,960 px, a strip whose text no page can show; `detail: "full"` draws every column.
 */
import type { GraphIR, GraphNode } from './types.js';

/** A row of a table's key column: the markers come first (sql/index.ts `columnRow`: markers padded to five, a space, the name). */
const KEY_ROW = /^(?:PK|FK|UK)\b/;
/** A row of a column with no key marker: the five blank marker places and the space before the name. */
const PLAIN_ROW = /^ {6}\S/;
/** Folding one column into a count row saves nothing: fewer than this many stay drawn. */
const MIN_FOLDED = 2;

/** The count row as drawn (and read back by the exports, which must not write it as a column named "…"). */
const COUNT_ROW = /^(?:… )?(\d+) (?:more )?columns$/;

/** How many columns a row counts when it is a folded table's count row, else undefined. */
export function foldedColumnCount(row: string): number | undefined {
  const count = COUNT_ROW.exec(row.trim())?.[1];
  return count === undefined ? undefined : Number(count);
}

export interface FoldedColumns {
  graph: GraphIR;
  /** How many columns were folded, in how many tables. */
  columns: number;
  tables: number;
}

/** The schema with each table's columns that are not keys folded into a count row under its keys. */
export function foldPlainColumns(graph: GraphIR): FoldedColumns {
  let columns = 0;
  let tables = 0;
  const nodes = graph.nodes.map((node): GraphNode => {
    const rows = node.rows ?? [];
    const plain = rows.filter((row) => PLAIN_ROW.test(row));
    if (plain.length < MIN_FOLDED) return node;
    columns += plain.length;
    tables += 1;
    const keys = rows.filter((row) => KEY_ROW.test(row));
    // Partition rows (and anything else that is not a column) stay below the columns, as the converter put them.
    const rest = rows.filter((row) => !KEY_ROW.test(row) && !PLAIN_ROW.test(row));
    const count = keys.length === 0 ? `${plain.length} columns` : `… ${plain.length} more columns`;
    return { ...node, rows: [...keys, `${''.padEnd(5)} ${count}`, ...rest] };
  });
  return { graph: columns === 0 ? graph : { ...graph, nodes }, columns, tables };
}
