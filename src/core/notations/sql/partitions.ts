/**
 * PostgreSQL declarative partitioning. A partition has its parent's columns and holds a slice of its rows, so it is
 * drawn as part of the parent, not as a table of its own: pg_dump writes every monthly partition as a full
 * `CREATE TABLE` attached later, and dozens of them would stack up as a column of disconnected boxes.
 */
import { splitTopLevel } from './lenient.js';
import type { ForeignKey, Table } from './schema.js';

/** `child` is a partition of `parent`; both as written (schema-qualified or not). */
export interface PartitionLink {
  parent: string;
  child: string;
  /** An inheritance child: still created as a table, so the keys later added to it are read (and folded). */
  inherits?: true;
}

const NAME = String.raw`(?:"(?:[^"]|"")+"|[A-Za-z_][\w$]*)`;
const QUALIFIED = String.raw`${NAME}(?:\s*\.\s*${NAME})*`;
const PARTITION_OF = new RegExp(
  String.raw`^CREATE\s+(?:(?:GLOBAL|LOCAL)\s+)?(?:TEMP(?:ORARY)?\s+|UNLOGGED\s+)?TABLE\s+(?:IF\s+NOT\s+EXISTS\s+)?(${QUALIFIED})\s+PARTITION\s+OF\s+(${QUALIFIED})`,
  'i',
);
const ATTACH = new RegExp(String.raw`^ALTER\s+TABLE\s+(?:IF\s+EXISTS\s+)?(?:ONLY\s+)?(${QUALIFIED})\s+ATTACH\s+PARTITION\s+(${QUALIFIED})`, 'i');

const INHERITS = new RegExp(
  String.raw`^CREATE\s+TABLE\s+(?:IF\s+NOT\s+EXISTS\s+)?(${QUALIFIED})\s*\(([\s\S]*)\)\s*INHERITS\s*\(\s*(${QUALIFIED})\s*\)\s*$`,
  'i',
);
const CHECK_ONLY = /^\s*(?:CONSTRAINT\s+\S+\s+)?CHECK\b/i;

/**
 * Inheritance partitioning, as PostgreSQL did it before PARTITION BY (and pg_dump still writes for such schemas):
 * `CREATE TABLE child (CHECK (bounds)) INHERITS (parent)`. A child that adds nothing but CHECKs holds a slice of the
 * parent's rows; one that adds columns is a table of its own.
 */
function inheritancePartition(statement: string): PartitionLink | undefined {
  const inherits = INHERITS.exec(statement);
  if (!inherits || !splitTopLevel(inherits[2]!).every((part) => part.trim() === '' || CHECK_ONLY.test(part))) return undefined;
  return { child: plainName(inherits[1]!), parent: plainName(inherits[3]!), inherits: true };
}

/**
 * `CREATE TABLE child PARTITION OF parent …`, `CREATE TABLE child (CHECK …) INHERITS (parent)` or `ALTER TABLE [ONLY] parent ATTACH PARTITION child …`. Read from the
 * text: node-sql-parser rejects ATTACH PARTITION and most bounds (`DEFAULT`, `MINVALUE`, numbers), and a partition
 * adds no columns, so its names are all the diagram needs.
 */
export function partitionLink(statement: string): PartitionLink | undefined {
  const created = PARTITION_OF.exec(statement);
  if (created) return { child: plainName(created[1]!), parent: plainName(created[2]!) };
  const attached = ATTACH.exec(statement);
  return attached ? { parent: plainName(attached[1]!), child: plainName(attached[2]!) } : inheritancePartition(statement);
}

/** `"My schema".orders` → `My schema.orders`, the form table ids take. */
const plainName = (qualified: string): string =>
  [...qualified.matchAll(new RegExp(NAME, 'g'))].map(([part]) => (part.startsWith('"') ? part.slice(1, -1).replace(/""/g, '"') : part)).join('.');

/**
 * Folds each partition into the highest partitioned table of its chain that the script creates: the partition's name
 * is listed on that table, its foreign keys become the table's (once each) and foreign keys to it point at the table.
 * Returns the tables left to draw. A partition of a table the script does not create stays a table of its own, or,
 * when the script does not create it either, is reported.
 */
export function foldPartitions(tables: readonly Table[], links: readonly PartitionLink[], warnings: string[]): Table[] {
  const byId = new Map(tables.map((table) => [table.id, table]));
  const byName = new Map(tables.map((table) => [table.name, table]));
  // Names resolve as foreign-key targets do: the qualified id, else the bare name.
  const find = (name: string): Table | undefined => byId.get(name) ?? byName.get(name.split('.').pop()!);
  const keyOf = (name: string): string => find(name)?.id ?? name;
  const parentOf = new Map<string, string>();
  const rootOf = (key: string): string => {
    let up = key;
    while (parentOf.has(up)) up = parentOf.get(up)!;
    return up;
  };
  for (const link of links) {
    const child = keyOf(link.child);
    const parent = keyOf(link.parent);
    // A link that would close a cycle is dropped, so every chain ends.
    if (rootOf(parent) !== child) parentOf.set(child, parent);
  }

  /** Partition (created as a table or not) → the table it is folded into. */
  const folded = new Map<string, Table>();
  for (const [child, parent] of parentOf) {
    let into: Table | undefined;
    for (let up: string | undefined = parent; up !== undefined; up = parentOf.get(up)) into = byId.get(up) ?? into;
    const table = byId.get(child);
    if (!into) {
      if (!table) warnings.push(`${child}: partition of ${parent}, which this script does not create; not drawn`);
      continue;
    }
    folded.set(child, into);
    into.partitions = [...(into.partitions ?? []), table?.name ?? child.split('.').pop()!];
    into.foreignKeys.push(...(table?.foreignKeys ?? []));
  }

  const drawn = tables.filter((table) => !folded.has(table.id));
  for (const table of drawn) {
    const seen = new Set<string>();
    table.foreignKeys = table.foreignKeys
      .map((fk): ForeignKey => {
        const into = folded.get(keyOf(fk.table));
        return into ? { ...fk, table: into.id } : fk;
      })
      .filter((fk) => {
        const key = `${fk.columns.join(',')}->${keyOf(fk.table)}`;
        if (seen.has(key)) return false;
        seen.add(key);
        return true;
      });
  }
  return drawn;
}
