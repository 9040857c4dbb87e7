/**
 * A table's rows set as columns, as every schema tool draws them (dbdiagram, D2's sql_table, Mermaid's erDiagram):
 * key markers, then the column names, then their types, each column starting at one x. The notations write a table's
 * rows as `PK FK name  type` (SQL, D2's sql_table, Mermaid's erDiagram: keys padded, two spaces before the type); one
 * text of such rows set its types wherever each name ended.
 */
const KEY = /^(PK|FK|UK)(?=\s|$)/;

/** A row's cells: its key markers (`PK FK`), its name, and what follows the name (its type, a comment). */
export function rowCells(row: string): [keys: string, name: string, type: string] {
  const keys: string[] = [];
  let rest = row.trimStart();
  for (let key = KEY.exec(rest); key !== null; key = KEY.exec(rest)) {
    keys.push(key[1]!);
    rest = rest.slice(key[0].length).trimStart();
  }
  const split = /\s{2,}/.exec(rest);
  return [keys.join(' '), (split ? rest.slice(0, split.index) : rest).trim(), split ? rest.slice(split.index + split[0].length).trim() : ''];
}

/**
 * The columns of a table's rows, those with a cell in some row (rows × columns), or undefined where the rows are no
 * table's: some row without a name (a rule, a key alone) or no row with a type.
 */
export function tableColumns(rows: readonly string[]): string[][] | undefined {
  const cells = rows.map(rowCells);
  if (cells.length === 0 || cells.some(([, name]) => name === '') || cells.every(([, , type]) => type === '')) return undefined;
  const present = [0, 1, 2].filter((column) => cells.some((row) => row[column] !== ''));
  return cells.map((row) => present.map((column) => row[column]!));
}

/**
 * Rows again from the columns read off a drawing (export/graph-recovery.ts), as the notations write them: the key
 * markers (the first column, where it holds only keys) padded, two spaces before the type. A line with no name
 * continues the type of the row above (a long type wraps in its column, layout/node-size.ts).
 */
export function rowsFromColumns(columns: readonly (readonly string[])[]): string[] {
  const lines = Math.max(...columns.map((column) => column.length));
  const keyed = columns.length > 1 && columns[0]!.every((cell) => cell === '' || rowCells(cell)[0] === cell.trim());
  const rows: string[] = [];
  for (let i = 0; i < lines; i++) {
    const cells = columns.map((column) => column[i] ?? '');
    const [keys, name, ...rest] = keyed ? cells : ['', ...cells];
    const continued = name === '' && rows.length > 0;
    if (continued) rows[rows.length - 1] = `${rows.at(-1)!} ${rest.join(' ').trim()}`.trimEnd();
    else rows.push(`${keys!.padEnd(5)} ${[name, ...rest].filter((cell) => cell !== '').join('  ')}`.trimEnd());
  }
  return rows;
}
