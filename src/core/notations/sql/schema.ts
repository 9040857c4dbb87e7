/**
 * Reads the tables, keys and foreign keys out of node-sql-parser ASTs. The parser's published types are looser than
 * its output (a column name is a string in MySQL and `{expr: {value}}` in PostgreSQL), so the fields read here are
 * described by the small shapes below, from what the parser returns for both dialects.
 */
export interface Column {
  name: string;
  type: string;
  /** ENUM/SET values left out of `type` for its width. */
  valuesCut?: boolean;
  nullable: boolean;
  unique: boolean;
}

export interface ForeignKey {
  columns: string[];
  /** Qualified name of the referenced table (`schema.table` when a schema was written). */
  table: string;
  refColumns: string[];
}

export interface Table {
  /** `schema.table` or `table`. */
  id: string;
  schema?: string;
  name: string;
  columns: Column[];
  primaryKey: string[];
  uniques: string[][];
  foreignKeys: ForeignKey[];
  /** Names of the partitions folded into this table, in script order. */
  partitions?: string[];
}

interface TableRef {
  db?: string | null;
  schema?: string | null;
  table: string;
}
interface ColumnRefAst {
  column: string | { expr: { value: string } };
}
export interface ReferenceAst {
  table: TableRef[];
  definition: ColumnRefAst[];
}
export interface DefinitionAst {
  resource: string;
  column?: ColumnRefAst;
  definition?: { dataType: string; length?: number | null; scale?: number | null; suffix?: unknown } | ColumnRefAst[];
  nullable?: { type: string };
  primary_key?: string;
  unique?: string;
  unique_or_primary?: string;
  constraint_type?: string;
  reference_definition?: ReferenceAst;
}
export interface StatementAst {
  type: string;
  keyword?: string;
  table?: TableRef[] | null;
  create_definitions?: DefinitionAst[] | null;
  /** `CREATE TABLE t LIKE source` / `(LIKE source …)`; `keys: false` when its keys are not copied (PostgreSQL without INCLUDING). */
  like?: { table: TableRef[]; parentheses?: boolean; keys?: boolean } | null;
  /** ALTER TABLE actions; an added column carries its definition's fields itself. */
  expr?: (DefinitionAst & { action: string; create_definitions?: DefinitionAst })[];
}

export const tableId = (ref: TableRef): string => {
  const schema = ref.db ?? ref.schema;
  return schema ? `${schema}.${ref.table}` : ref.table;
};

const columnName = (ref: ColumnRefAst): string => (typeof ref.column === 'string' ? ref.column : ref.column.expr.value);

/**
 * The standard's long type names that pg_dump writes, by the short names PostgreSQL documents as their aliases: a
 * Northwind table of `character varying(n)` columns is 100 px narrower as `varchar(n)`, the whole schema 25 % narrower.
 */
const SHORT_TYPES: Readonly<Record<string, string>> = { 'character varying': 'varchar', 'bit varying': 'varbit' };

/** `timestamp with time zone` as PostgreSQL's own alias; `without time zone` is the default and goes, as in DB tools. */
const ZONED: Readonly<Record<string, string>> = { timestamp: 'timestamptz', time: 'timetz' };

/**
 * MySQL's unsigned integers with a `u` before the name, as DuckDB and ClickHouse name them (`uint`, `usmallint`): sakila
 * writes `INT UNSIGNED` on 33 columns, and the word after each widened its tables until the schema broke the 880 px text rule.
 */
const UNSIGNED_INTEGERS = new Set(['tinyint', 'smallint', 'mediumint', 'int', 'integer', 'bigint']);

/**
 * Longest ENUM/SET value list drawn in full: sakila's `set('Trailers','Commentaries',…)` would double its table's
 * width, so a longer list keeps the values that fit and ends in `…` (said in the warnings).
 */
export const TYPE_VALUES_CHARS = 24;

interface DataTypeAst {
  dataType: string;
  length?: number | null;
  scale?: number | null;
  /** `UNSIGNED`, `ZEROFILL`, `WITH TIME ZONE`, as words. */
  suffix?: unknown;
  /** ENUM and SET values. */
  expr?: { value?: Array<{ value?: unknown }> };
  array?: { dimension: number };
}

/** The column's type as its author wrote it, in the short forms psql and DB tools print; `cut` when values were left out. */
function typeText(definition: DefinitionAst['definition']): { text: string; cut?: boolean } {
  if (!definition || Array.isArray(definition)) return { text: '' };
  const { length, scale, suffix, expr, array } = definition as DataTypeAst;
  const words = Array.isArray(suffix) ? suffix.map((word) => String(word).toLowerCase()) : [];
  const zone = words.join(' ').match(/\b(with|without) time zone\b/)?.[1];
  let dataType = definition.dataType.toLowerCase();
  dataType = SHORT_TYPES[dataType] ?? (zone === 'with' ? ZONED[dataType] : undefined) ?? dataType;
  // MySQL's display width (`INT(4)`) comes with a null scale.
  const size = length === undefined || length === null ? '' : `(${scale === undefined || scale === null ? length : `${length},${scale}`})`;
  const { list, cut } = valueList(expr?.value);
  if (words.includes('unsigned') && UNSIGNED_INTEGERS.has(dataType)) dataType = `u${dataType}`;
  const modifiers = words.filter((word) => !['with', 'without', 'time', 'zone'].includes(word) && !(word === 'unsigned' && dataType.startsWith('u')));
  const text = [`${dataType}${size}${list}${'[]'.repeat(array?.dimension ?? 0)}`, ...modifiers].join(' ');
  return cut ? { text, cut } : { text };
}

/** `('G','PG',…)`: the values that fit in TYPE_VALUES_CHARS, quoted as written. */
function valueList(values: Array<{ value?: unknown }> | undefined): { list: string; cut?: boolean } {
  if (!values) return { list: '' };
  const quoted = values.map((v) => `'${String(v.value)}'`);
  let shown = quoted.length;
  while (shown > 1 && `(${quoted.slice(0, shown).join(',')})`.length > TYPE_VALUES_CHARS) shown--;
  if (shown === quoted.length) return { list: `(${quoted.join(',')})` };
  return { list: `(${quoted.slice(0, shown).join(',')},…)`, cut: true };
}

export function createTable(ast: StatementAst): Table {
  const ref = ast.table![0]!;
  const schema = ref.db ?? ref.schema ?? undefined;
  const table: Table = { id: tableId(ref), name: ref.table, columns: [], primaryKey: [], uniques: [], foreignKeys: [] };
  if (schema) table.schema = schema;
  for (const def of ast.create_definitions ?? []) {
    if (def.resource === 'column' && def.column) addColumn(table, def);
    else if (def.resource === 'constraint') addConstraint(table, def);
  }
  return table;
}

/**
 * `CREATE TABLE copy LIKE source` (MySQL: columns and indexes, the primary key among them) or `(LIKE source
 * [INCLUDING …])` (PostgreSQL: columns, and the keys only with INCLUDING INDEXES or ALL). Neither copies foreign keys.
 */
export function likeTable(ast: StatementAst, tables: Map<string, Table>): { table: Table; warning?: string } {
  const table = createTable({ ...ast, create_definitions: [] });
  const sourceRef = ast.like!.table[0]!;
  const source = tables.get(tableId(sourceRef)) ?? tables.get(sourceRef.table);
  if (!source) return { table, warning: `${table.id}: LIKE ${tableId(sourceRef)}, which this script does not create; drawn without columns` };
  table.columns = source.columns.map((column) => ({ ...column }));
  if (ast.like!.keys !== false) {
    table.primaryKey = [...source.primaryKey];
    table.uniques = source.uniques.map((unique) => [...unique]);
  }
  return { table };
}

/** A column with the keys written on it, in CREATE TABLE or added by ALTER TABLE … ADD [COLUMN]. */
function addColumn(table: Table, def: DefinitionAst): void {
  const name = columnName(def.column!);
  const primary = def.primary_key !== undefined || def.unique_or_primary === 'primary key';
  const type = typeText(def.definition);
  table.columns.push({
    name,
    type: type.text,
    ...(type.cut && { valuesCut: true }),
    nullable: !primary && def.nullable?.type !== 'not null',
    unique: def.unique !== undefined || def.unique_or_primary === 'unique',
  });
  if (primary) table.primaryKey.push(name);
  if (def.reference_definition) table.foreignKeys.push(foreignKey([name], def.reference_definition));
}

/** Table constraints, in CREATE TABLE or added by ALTER TABLE … ADD CONSTRAINT. */
export function addConstraint(table: Table, def: DefinitionAst): void {
  const type = def.constraint_type?.toLowerCase() ?? '';
  // A CHECK's definition is an expression, not a column list: only keys are read.
  if (type !== 'primary key' && !type.startsWith('unique') && type !== 'foreign key') return;
  const columns = Array.isArray(def.definition) ? def.definition.map(columnName) : [];
  if (type === 'primary key') {
    table.primaryKey = columns;
    for (const column of table.columns) if (columns.includes(column.name)) column.nullable = false;
  } else if (type.startsWith('unique')) table.uniques.push(columns);
  else if (type === 'foreign key' && def.reference_definition) table.foreignKeys.push(foreignKey(columns, def.reference_definition));
}

/** The column name standing for "the referenced table's primary key" (a REFERENCES without a column list). */
export const PRIMARY_KEY_PLACEHOLDER = 'drawbridge_primary_key';

/** `refColumns` is empty for a reference to the parent's primary key. */
function foreignKey(columns: string[], ref: ReferenceAst): ForeignKey {
  return { columns, table: tableId(ref.table[0]!), refColumns: ref.definition.map(columnName).filter((c) => c !== PRIMARY_KEY_PLACEHOLDER) };
}

/** ALTER TABLE statements that add columns or keys; other alterations do not change the diagram. */
export function alterTable(ast: StatementAst, tables: Map<string, Table>): string | undefined {
  const id = tableId(ast.table![0]!);
  // As written, else as PostgreSQL folds an unquoted name (ALTER TABLE person.address on Person.Address).
  const table = tables.get(id) ?? tables.get(ast.table![0]!.table) ?? [...tables.values()].find((t) => t.id.toLowerCase() === id.toLowerCase());
  const adds = (ast.expr ?? []).filter((e) => e.action === 'add' && ((e.resource === 'constraint' && e.create_definitions) || (e.resource === 'column' && e.column)));
  if (adds.length === 0) return undefined;
  if (!table) return `ALTER TABLE ${id}: the table is not created in this script; what it adds is skipped`;
  for (const add of adds) {
    if (add.resource === 'column') addColumn(table, add);
    else addConstraint(table, add.create_definitions!);
  }
  return undefined;
}
