/**
 * Columns of a large schema folded into a count: above FOLD_NODES tables, or when its tables drawn in full take more
 * room than a readable page holds (READABLE_TABLE_AREA), each table shows its key columns (the ones its relations run
 * between) and one row counting the rest, as SchemaSpy's compact diagrams and a database tool's "keys only" view draw
 * a schema too large to read column by column. Flowable's 62 tables (up to 45 columns each) drew 2,985 × 6,960 px, a
 * strip whose text no page can show; `detail: "full"` draws every column.
 */
import { FONT, LARGE_WIDTH, MAX_ASPECT, READABLE_TEXT } from '../layout/drawing-rules.js';
import { sizeNode } from '../layout/node-size.js';
import type { GraphIR, GraphNode } from './types.js';

/**
 * Tables take at least this share of a schema's drawing, the rest being the gaps their relations run through: 0.14
 * to 0.37 on the corpus drawn in full (PostgreSQL sakila 0.14, Kanboard's 48 tables 0.16, Camunda 0.33).
 */
const TABLE_SHARE = 0.15;
/**
 * The most table area, px², a drawing can hold and still show its rows at READABLE_TEXT px on a page LARGE_WIDTH px
 * wide: that page's readable width (2,036 px for 14 px rows), at most MAX_ASPECT times as tall, TABLE_SHARE of it
 * tables (1.9 Mpx²). A schema whose tables need more cannot be drawn readably in full, however few they are: a
 * 39-entity Mermaid ER whose tables alone took 16 Mpx² drew its text at 5 px on that page.
 */
export const READABLE_TABLE_AREA = ((LARGE_WIDTH * FONT.row) / READABLE_TEXT) ** 2 * MAX_ASPECT * TABLE_SHARE;

/** The area of the graph's tables (nodes with rows) as drawn, px². */
export function tableArea(graph: GraphIR): number {
  return graph.nodes.reduce((sum, node) => {
    if (node.rows === undefined || node.rows.length === 0) return sum;
    const { width, height } = sizeNode(node, graph.direction);
    return sum + width * height;
  }, 0);
}

/** A row of a table's key column: the markers come first (sql/index.ts `columnRow`: markers padded to five, a space, the name). */
const KEY_ROW = /^(?:PK|FK|UK)\b/;
/** A row of a column with no key marker: the five blank marker places and the space before the name. */
const PLAIN_ROW = /^ {6}\S/;
/** Folding one column into a count row saves nothing: fewer than this many stay drawn. */
const MIN_FOLDED = 2;

/** The count row as drawn (and read back by the exports, which must not write it as a column named "…"). */
const COUNT_ROW = /^(?:… )?(\d+) (?:more )?(?:columns|attributes)$/;

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

/**
 * The schema with each table's columns that are not keys folded into a count row under its keys; `noun` is what the
 * notation calls them (a Mermaid ER entity's attributes).
 */
export function foldPlainColumns(graph: GraphIR, noun: 'columns' | 'attributes' = 'columns'): FoldedColumns {
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
    const count = keys.length === 0 ? `${plain.length} ${noun}` : `… ${plain.length} more ${noun}`;
    return { ...node, rows: [...keys, `${''.padEnd(5)} ${count}`, ...rest] };
  });
  return { graph: columns === 0 ? graph : { ...graph, nodes }, columns, tables };
}
