/**
 * Backups of the embedded database (SQLite): `backupSqlite` copies a live database while the server keeps writing,
 * `restoreSqlite` puts a copy in place of a stopped server's database. PostgreSQL has its own tools (pg_dump and
 * pg_restore, see README "Operating"); `postgresBackupAdvice` says so with the commands.
 */
import { copyFileSync, existsSync, renameSync, rmSync } from 'node:fs';
import SQLite from 'better-sqlite3';

export interface BackupResult {
  to: string;
  bytes: number;
  documents: number;
}

/**
 * SQLite's online backup API, through better-sqlite3. Every page is asked for in one step (a progress callback
 * answering the whole database): one step reads inside one read transaction, so the copy is the database as of one
 * moment, and in WAL mode writers go on meanwhile. In smaller steps, a write from another process between two steps
 * would restart the copy, and under steady writes it might never end.
 */
export async function backupSqlite(databasePath: string, to: string): Promise<BackupResult> {
  if (existsSync(to)) throw new Error(`${to} exists: back up to a new file`);
  const source = new SQLite(databasePath, { readonly: true, fileMustExist: true });
  try {
    source.pragma('busy_timeout = 5000');
    await source.backup(to, { progress: ({ totalPages }) => totalPages });
  } finally {
    source.close();
  }
  return { to, ...checkSqliteCopy(to) };
}

/** Opens a copy read-only and checks it whole: a file that is not a sound Drawbridge database is refused. */
function checkSqliteCopy(path: string): { bytes: number; documents: number } {
  const copy = new SQLite(path, { readonly: true, fileMustExist: true });
  try {
    const integrity = copy.pragma('integrity_check', { simple: true });
    if (integrity !== 'ok') throw new Error(`${path} fails SQLite's integrity check: ${String(integrity)}`);
    const documents = (copy.prepare('select count(*) as n from documents').get() as { n: number }).n;
    const { page_count: pages, page_size: size } = {
      page_count: copy.pragma('page_count', { simple: true }) as number,
      page_size: copy.pragma('page_size', { simple: true }) as number,
    };
    return { bytes: pages * size, documents };
  } finally {
    copy.close();
  }
}

/**
 * Puts a backup in place of the database at `databasePath`, with the server stopped (a running server keeps the old
 * file open). The backup is checked first, copied beside the target and renamed over it, so a failed restore leaves
 * the old database whole; the old file's WAL and shared-memory files go, since they belong to the replaced database.
 */
export function restoreSqlite(from: string, databasePath: string): BackupResult {
  const checked = checkSqliteCopy(from);
  const incoming = `${databasePath}.restoring`;
  copyFileSync(from, incoming);
  for (const leftover of [`${databasePath}-wal`, `${databasePath}-shm`]) rmSync(leftover, { force: true });
  renameSync(incoming, databasePath);
  return { to: databasePath, ...checked };
}

export function postgresBackupAdvice(): string {
  return 'DATABASE_URL is PostgreSQL: back up with pg_dump --format=custom --file=drawbridge.dump "$DATABASE_URL" and restore with pg_restore --clean --if-exists --no-owner --dbname="$DATABASE_URL" drawbridge.dump (README "Operating")';
}
