import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import { migrateToLatest } from './migrations.js';
import type { Database } from './schema.js';

export type DatabaseKind = 'sqlite' | 'postgres';

export interface OpenedDatabase {
  db: Kysely<Database>;
  kind: DatabaseKind;
}

export const isPostgresUrl = (url: string): boolean => /^postgres(ql)?:\/\//i.test(url);

/**
 * Opens the store named by DATABASE_URL and brings its schema up to date. `postgres://…` selects PostgreSQL
 * (a `?schema=NAME` parameter sets the search_path, which the tests use for isolation); anything else is a
 * SQLite file path (`:memory:` works too).
 */
export async function openDatabase(url: string): Promise<OpenedDatabase> {
  const opened = isPostgresUrl(url) ? openPostgres(url) : openSqlite(url);
  // `?schema=NAME` names where our tables go; a fresh database does not have that schema yet.
  const schema = isPostgresUrl(url) ? new URL(url).searchParams.get('schema') : null;
  // Two instances starting together can both pass "if not exists": the loser's unique violation means it is there.
  if (schema) await sql`create schema if not exists ${sql.id(schema)}`.execute(opened.db).catch((error: { code?: string }) => {
    if (error.code !== '23505' && error.code !== '42P06') throw error;
  });
  await migrateToLatest(opened.db, schema ?? undefined);
  return opened;
}

function openSqlite(path: string): OpenedDatabase {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const sqlite = new SQLite(path);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const cached = withStatementCache(sqlite);
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: cached }) });
  sqliteHandles.set(db, cached);
  return { db, kind: 'sqlite' };
}

/** The better-sqlite3 handle behind a Kysely instance, for `preparedQuery`'s synchronous fast path. */
export const sqliteHandles = new WeakMap<Kysely<any>, SQLite.Database>();

/**
 * Kysely's SQLite driver prepares every statement anew; preparing was the largest single cost of a document read.
 * The SQL text of our queries comes from a small fixed set (values are bound parameters), so caching prepared
 * statements by text is bounded, and each statement runs to completion synchronously, so reuse is safe.
 */
function withStatementCache(sqlite: SQLite.Database): SQLite.Database {
  const statements = new Map<string, SQLite.Statement>();
  const prepare = (source: string) => {
    let statement = statements.get(source);
    if (!statement) {
      statement = sqlite.prepare(source);
      if (statements.size < 500) statements.set(source, statement);
    }
    return statement;
  };
  return new Proxy(sqlite, { get: (target, key) => (key === 'prepare' ? prepare : Reflect.get(target, key, target)) });
}

function openPostgres(url: string): OpenedDatabase {
  const parsed = new URL(url);
  const schema = parsed.searchParams.get('schema');
  parsed.searchParams.delete('schema');
  if (schema !== null && !/^[a-z_][a-z0-9_]*$/i.test(schema)) throw new Error(`DATABASE_URL: schema "${schema}" is not a plain identifier`);
  const pool = new pg.Pool({
    connectionString: parsed.toString(),
    max: 10,
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  });
  return { db: new Kysely<Database>({ dialect: new PostgresDialect({ pool }) }), kind: 'postgres' };
}
