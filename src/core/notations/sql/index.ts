import mysql from 'node-sql-parser/build/mysql.js';
import postgresql from 'node-sql-parser/build/postgresql.js';
import { AppError } from '../../errors.js';
import type { Arrowhead, GraphEdge, GraphGroup, GraphIR, GraphNode, NotationConverter } from '../../graph/types.js';
import { parseTableByParts } from './lenient.js';
import { foldPartitions, partitionLink, type PartitionLink } from './partitions.js';
import { alterTable, createTable, likeTable, PRIMARY_KEY_PLACEHOLDER, type StatementAst, type Table, TYPE_VALUES_CHARS } from './schema.js';
import { schemaElements, splitStatements, type SqlStatement } from './statements.js';

/** At most this many skipped statements are named one by one in the warnings; the rest are counted. */
export const SQL_SKIPPED_NAMED = 10;

type Dialect = 'MySQL' | 'PostgreSQL';
const parsers = { MySQL: new mysql.Parser(), PostgreSQL: new postgresql.Parser() };

/** MySQL-only marks; anything without them is read as PostgreSQL first (the other dialect is the fallback). */
const MYSQL_MARKS = /`|\bAUTO_INCREMENT\b|\bENGINE\s*=|^\s*#|\/\*!\d+|\bUNSIGNED\b/im;
const CREATE_TABLE = /^CREATE\s+(TEMP(ORARY)?\s+|UNLOGGED\s+)?TABLE\b/i;
/** An ALTER TABLE that adds a key changes the diagram; other alterations (OWNER TO, DETACH PARTITION) may be skipped. */
const ALTER_ADDS_KEY = /^ALTER\s+TABLE\b[\s\S]*\bADD\b[\s\S]*\b(PRIMARY\s+KEY|FOREIGN\s+KEY|UNIQUE)\b/i;

export const sqlNotation: NotationConverter = {
  id: 'sql',
  detect(code) {
    if (/\bCREATE\s+(TEMP(ORARY)?\s+|UNLOGGED\s+)?TABLE\b/i.test(code)) return 0.9;
    // Two searches, not /ALTER TABLE[\s\S]*FOREIGN KEY/: that rescans to the end from every ALTER TABLE (quadratic).
    const alter = code.search(/\bALTER\s+TABLE\b/i);
    if (alter >= 0 && /\bFOREIGN\s+KEY\b/i.test(code.slice(alter))) return 0.7;
    return 0;
  },
  toGraph(code) {
    const dialect: Dialect = MYSQL_MARKS.test(code) ? 'MySQL' : 'PostgreSQL';
    const other: Dialect = dialect === 'MySQL' ? 'PostgreSQL' : 'MySQL';
    const tables = new Map<string, Table>();
    const warnings: string[] = [];
    const skipped: SqlStatement[] = [];
    const partitions: PartitionLink[] = [];
    for (const statement of splitStatements(code, dialect === 'MySQL').flatMap(schemaElements)) {
      const link = partitionLink(statement.text);
      if (link) partitions.push(link);
      if (link && !link.inherits) continue;
      let asts: StatementAst[];
      try {
        asts = astify(statement.text, dialect);
      } catch (first) {
        try {
          asts = astify(statement.text, other);
        } catch {
          // A table is the diagram itself: read it clause by clause, or report where it breaks; anything else is skipped.
          const byParts = CREATE_TABLE.test(statement.text) ? parseTableByParts(statement.text, (sql) => astify(sql, dialect)) : undefined;
          if (byParts) {
            warnings.push(...byParts.warnings.map((w) => `line ${statement.line}: ${w}`));
            asts = [byParts.ast];
          } else if (CREATE_TABLE.test(statement.text) || ALTER_ADDS_KEY.test(statement.text)) throw parseError(statement, first);
          else {
            skipped.push(statement);
            continue;
          }
        }
      }
      for (const ast of asts) {
        if (ast.type === 'create' && ast.keyword === 'table' && ast.table && ast.like) {
          // `(LIKE source)` without INCLUDING copies no keys in PostgreSQL; MySQL's LIKE always copies them.
          if (dialect === 'PostgreSQL' && ast.like.parentheses && ast.like.keys === undefined) ast.like.keys = false;
          const { table, warning } = likeTable(ast, tables);
          tables.set(table.id, table);
          if (warning) warnings.push(`line ${statement.line}: ${warning}`);
        } else if (ast.type === 'create' && ast.keyword === 'table' && ast.table && ast.create_definitions) {
          const table = createTable(ast);
          tables.set(table.id, table);
        } else if (ast.type === 'alter' && ast.table) {
          const warning = alterTable(ast, tables);
          if (warning) warnings.push(warning);
        }
      }
    }
    if (tables.size === 0) throw new AppError('parse_error', 'line 1, column 1: expected at least one CREATE TABLE statement', { line: 1, column: 1 });
    const drawn = foldPartitions([...tables.values()], partitions, warnings);
    warnings.push(...skippedWarnings(skipped));
    return { ...tablesToGraph(drawn, warnings), warnings };
  },
};

/**
 * `REFERENCES parent` without a column list means the parent's primary key (SQL standard, PostgreSQL, SQLite), but
 * node-sql-parser requires the list: the reference is given a placeholder column, which `foreignKey` reads as "the
 * primary key", instead of the whole table falling to the lenient reader and losing the relation.
 */
const BARE_REFERENCE = /\bREFERENCES\s+((?:"[^"]+"|`[^`]+`|[A-Za-z_][\w$]*)(?:\s*\.\s*(?:"[^"]+"|`[^`]+`|[A-Za-z_][\w$]*))?)(?![\w$"`])(?!\s*[(.])/gi;

/** node-sql-parser reads `character(n)` (fixed length, bpchar) as `character varying(n)`; `char(n)` is the same type. */
const FIXED_CHARACTER = /\bCHARACTER(?=\s*\()/gi;

/**
 * PostgreSQL's `NOT VALID` (pg_dump writes it after a foreign key or check added with ALTER TABLE) only skips checking
 * the rows already there: the constraint is the same relation, and node-sql-parser does not know the clause.
 */
const NOT_VALID = /\bNOT\s+VALID\b/gi;

/**
 * `DEFERRABLE INITIALLY DEFERRED` (pg_dump writes it after every foreign key Django creates) only says when the
 * constraint is checked: the relation is the same, and node-sql-parser refused the whole ALTER TABLE.
 */
const DEFERRABLE = /\b(?:NOT\s+)?DEFERRABLE(?:\s+INITIALLY\s+(?:DEFERRED|IMMEDIATE))?|\bINITIALLY\s+(?:DEFERRED|IMMEDIATE)\b/gi;

function astify(text: string, dialect: Dialect): StatementAst[] {
  const sql = text.replace(BARE_REFERENCE, `REFERENCES $1 (${PRIMARY_KEY_PLACEHOLDER})`).replace(FIXED_CHARACTER, 'CHAR').replace(NOT_VALID, '').replace(DEFERRABLE, '');
  const ast = parsers[dialect].astify(sql, { database: dialect }) as unknown as
    | StatementAst
    | StatementAst[];
  return Array.isArray(ast) ? ast : [ast];
}

function parseError(statement: SqlStatement, error: unknown): AppError {
  const at = (error as { location?: { start: { line: number; column: number } } }).location?.start ?? { line: 1, column: 1 };
  const line = statement.line + at.line - 1;
  const column = at.line === 1 ? statement.column + at.column - 1 : at.column;
  const reason = error instanceof Error ? error.message : 'unexpected input';
  return new AppError('parse_error', `line ${line}, column ${column}: ${reason}`, { line, column });
}

function skippedWarnings(skipped: SqlStatement[]): string[] {
  const named = skipped.slice(0, SQL_SKIPPED_NAMED).map((s) => `line ${s.line}: skipped a statement the SQL parser does not read (${firstWords(s.text)})`);
  if (skipped.length > SQL_SKIPPED_NAMED) named.push(`skipped ${skipped.length - SQL_SKIPPED_NAMED} more statements that are not tables`);
  return named;
}

const firstWords = (text: string): string => text.replace(/\s+/g, ' ').split(' ').slice(0, 3).join(' ');

function tablesToGraph(tables: Table[], warnings: string[]): Pick<GraphIR, 'layout' | 'direction' | 'nodes' | 'edges' | 'groups'> {
  const groups = new Map<string, GraphGroup>();
  const nodes: GraphNode[] = [];
  const edges: GraphEdge[] = [];
  const byId = new Map(tables.map((t) => [t.id, t]));
  const byName = new Map(tables.map((t) => [t.name, t]));
  // PostgreSQL folds unquoted names to lower case: `REFERENCES person.address` names the table created as Person.Address.
  const byFoldedId = new Map(tables.map((t) => [t.id.toLowerCase(), t]));
  const byFoldedName = new Map(tables.map((t) => [t.name.toLowerCase(), t]));
  const cut = tables.flatMap((table) => table.columns.filter((c) => c.valuesCut).map((c) => `${table.name}.${c.name}`));
  if (cut.length > 0) warnings.push(`${cut.join(', ')}: the type's value list is longer than ${TYPE_VALUES_CHARS} characters; drawn up to … (the rest is in the script)`);
  for (const table of tables) {
    const fkColumns = new Set(table.foreignKeys.flatMap((fk) => fk.columns));
    const node: GraphNode = {
      id: table.id,
      label: table.name,
      kind: 'entity',
      shape: 'rectangle',
      rows: [...table.columns.map((c) => columnRow(c.name, c.type, table.primaryKey.includes(c.name), fkColumns.has(c.name))), ...partitionRows(table.partitions ?? [])],
    };
    if (table.schema) {
      const groupId = `schema:${table.schema}`;
      if (!groups.has(groupId)) groups.set(groupId, { id: groupId, label: table.schema, kind: 'schema' });
      node.parent = groupId;
    }
    nodes.push(node);
  }
  for (const table of tables) {
    table.foreignKeys.forEach((fk, index) => {
      // `REFERENCES city` inside schema `public` names `public.city` when the script qualified it elsewhere.
      const name = fk.table.split('.').pop()!;
      const target = byId.get(fk.table) ?? byName.get(name) ?? byFoldedId.get(fk.table.toLowerCase()) ?? byFoldedName.get(name.toLowerCase());
      if (!target) {
        warnings.push(`${table.id}: foreign key (${fk.columns.join(', ')}) references ${fk.table}, which this script does not create`);
        return;
      }
      edges.push({
        id: `${table.id}->${target.id}#${index}`,
        from: table.id,
        to: target.id,
        label: fk.columns.join(', '),
        ...cardinality(table, fk.columns),
      });
    });
  }
  return { layout: 'layered', direction: 'RIGHT', nodes, edges, groups: [...groups.values()] };
}

/** Up to this many partitions get a row each; more are named by their first and last. */
const LISTED_PARTITIONS = 3;

/**
 * Partitions as rows under the columns: their count, then their names, indented. Partitions are named after their
 * bounds (payment_p2022_01 … payment_p2026_07), so the first and last give the range; a row for each of pagila's 55
 * would make the table as tall as the stack of boxes that folding replaces.
 */
function partitionRows(names: readonly string[]): string[] {
  if (names.length === 0) return [];
  const listed = names.length <= LISTED_PARTITIONS ? names : [`${names[0]} … ${names[names.length - 1]}`];
  return [`partitions (${names.length}):`, ...listed.map((name) => `  ${name}`)];
}

/** `PK FK emp_no  int`: the key markers, then at least one space, so a marker never runs into the name. */
const columnRow = (name: string, type: string, pk: boolean, fk: boolean): string =>
  `${[pk ? 'PK' : '', fk ? 'FK' : ''].filter(Boolean).join(' ').padEnd(5)} ${name}  ${type}`.trimEnd();

/**
 * Crow's-foot ends: the referencing side holds one row per referenced row when its FK columns are unique (the
 * primary key or a UNIQUE constraint), else many; the referenced side is mandatory when every FK column is NOT NULL.
 */
function cardinality(table: Table, columns: string[]): { startArrowhead: Arrowhead; endArrowhead: Arrowhead; startLabel: string; endLabel: string } {
  const sameSet = (keys: string[]): boolean => keys.length === columns.length && keys.every((k) => columns.includes(k));
  const unique =
    sameSet(table.primaryKey) ||
    table.uniques.some(sameSet) ||
    (columns.length === 1 && table.columns.some((c) => c.name === columns[0] && c.unique));
  const mandatory = columns.every((name) => table.columns.find((c) => c.name === name)?.nullable === false);
  return {
    startArrowhead: unique ? 'circle-bar' : 'circle-crows-foot',
    startLabel: unique ? '0..1' : '0..*',
    endArrowhead: mandatory ? 'double-bar' : 'circle-bar',
    endLabel: mandatory ? '1' : '0..1',
  };
}
