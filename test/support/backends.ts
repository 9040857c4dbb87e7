import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { Redis } from 'ioredis';
import { loadConfig, type Config } from '../../src/infra/config.js';

/** The real servers the suites run against (see .ci/run); overridable for other machines. */
export const POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
export const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const IN_CI = process.env.CI === 'true';

export type BackendName = 'sqlite' | 'postgres';

export interface Backend {
  name: BackendName;
  databaseUrl: string;
  dispose(): Promise<void>;
}

async function reachable(check: () => Promise<void>): Promise<boolean> {
  try {
    await check();
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether a server-backed suite can run. In CI a missing server fails the run; elsewhere the suite is skipped
 * with a message, so a laptop without PostgreSQL still runs everything else.
 */
export async function requireServer(name: 'postgres' | 'redis'): Promise<boolean> {
  const ok = await reachable(async () => {
    if (name === 'postgres') {
      const client = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 3000 });
      await client.connect();
      await client.end();
    } else {
      const redis = new Redis(REDIS_URL, { lazyConnect: true, connectTimeout: 3000, maxRetriesPerRequest: 0 });
      await redis.connect();
      await redis.quit();
    }
  });
  if (!ok && IN_CI) throw new Error(`${name} is not reachable (${name === 'postgres' ? POSTGRES_URL : REDIS_URL}) and CI=true: failing instead of skipping`);
  if (!ok) console.warn(`skipping the ${name} suite: ${name} is not reachable`);
  return ok;
}

/** The backends a database suite runs on (`describe.each`): SQLite always, PostgreSQL as `requireServer` allows. */
export async function availableBackends(): Promise<BackendName[]> {
  return (await requireServer('postgres')) ? ['sqlite', 'postgres'] : ['sqlite'];
}

/** A fresh, empty database: a temporary SQLite file, or a new PostgreSQL schema dropped afterwards. */
export async function createBackend(name: BackendName): Promise<Backend> {
  if (name === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'drawbridge-test-'));
    return { name, databaseUrl: join(dir, 'test.db'), dispose: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: POSTGRES_URL });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  return {
    name,
    databaseUrl: `${POSTGRES_URL}?schema=${schema}`,
    async dispose() {
      const client = new pg.Client({ connectionString: POSTGRES_URL });
      await client.connect();
      await client.query(`drop schema ${schema} cascade`);
      await client.end();
    },
  };
}

export function testConfig(overrides: Partial<Config> = {}): Config {
  // One job thread per service: a test file's service seldom has more than one heavy job at a time.
  const config = loadConfig({});
  // A fixed secret: tests never write a key file into the project's data folder.
  // OAuth off unless a test asks: the suites that predate it read the plain 401 challenge on /mcp.
  // The memory budget is the whole process's resident set, and a test's process is vitest's worker, holding every
  // suite it ran before (D2's 1,200-connection compile was ended for "server memory" after a few suites): the guard
  // is tested on its own (heavy-slots.test.ts), so a service under test gets room beyond the default 1,024 MB.
  return { ...config, logLevel: 'silent', publicUrl: 'http://drawbridge.test', jobs: { ...config.jobs, threads: 1 }, memoryMb: 4096, secret: 'test-secret', oauth: false, ...overrides };
}
