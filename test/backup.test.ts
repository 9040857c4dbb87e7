import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { createRuntime } from '../src/adapters/http/server.js';
import { POSTGRES_URL, testConfig } from './support/backends.js';
import { bearer, box, buildWorld } from './support/world.js';

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'drawbridge-backup-'));
const cli = async (databaseUrl: string, ...args: string[]) => {
  try {
    const { stdout } = await run('node', ['bin/drawbridge.js', ...args], { env: { ...process.env, DATABASE_URL: databaseUrl, DRAWBRIDGE_SECRET: 'backup-test' } });
    return { code: 0, body: JSON.parse(stdout) };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, body: failed.stdout, stderr: failed.stderr };
  }
};

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('drawbridge backup and restore (SQLite)', () => {
  it('backs up a live database under steady writes and restores it with every write acknowledged before the backup', async () => {
    const live = join(dir, 'live.db');
    const runtime = await createRuntime(testConfig({ databaseUrl: live, rateLimitPerMinute: 1_000_000 }));
    const world = await buildWorld(runtime);
    const headers = { ...bearer(world.tokens.annAll), 'content-type': 'application/json' };
    const acknowledged: { id: string; at: number }[] = [];
    let writing = true;
    const writer = (async () => {
      for (let n = 0; writing; n++) {
        const created = await runtime.app.inject({
          method: 'POST',
          url: '/api-v1/documents',
          headers,
          payload: { workspaceId: world.annWorkspace, name: `doc ${n}`, elements: [box(`a${n}`), box(`b${n}`, 200)] },
        });
        expect(created.statusCode).toBe(201);
        acknowledged.push({ id: created.json().id as string, at: performance.now() });
      }
    })();
    try {
      await new Promise((resolve) => setTimeout(resolve, 500));
      const backupStarted = performance.now();
      const backup = await cli(live, 'backup', '--to', join(dir, 'backup.db'));
      const backupEnded = performance.now();
      writing = false;
      await writer;
      expect(backup.code).toBe(0);
      const before = acknowledged.filter((w) => w.at < backupStarted);
      // Writes went on while the backup ran: it was taken under load, not in a pause.
      expect(acknowledged.filter((w) => w.at > backupStarted && w.at < backupEnded).length).toBeGreaterThan(0);
      expect(backup.body.documents).toBeGreaterThanOrEqual(before.length);

      const restoredPath = join(dir, 'restored.db');
      const restore = await cli(restoredPath, 'restore', '--from', join(dir, 'backup.db'));
      expect(restore).toMatchObject({ code: 0, body: { to: restoredPath, documents: backup.body.documents } });
      const restored = await createRuntime(testConfig({ databaseUrl: restoredPath, rateLimitPerMinute: 1_000_000 }));
      try {
        // The same token works against the restored copy, and every acknowledged document is there whole.
        for (const { id } of before) {
          const read = await restored.app.inject({ method: 'GET', url: `/api-v1/documents/${id}`, headers });
          expect(read.statusCode, id).toBe(200);
          expect(read.json().elements).toHaveLength(2);
        }
      } finally {
        await restored.close();
      }
    } finally {
      writing = false;
      await writer.catch(() => undefined);
      await runtime.close();
    }
  }, 120_000);

  it('refuses to overwrite an existing file, and to restore a file that is not a database', async () => {
    const live = join(dir, 'small.db');
    const runtime = await createRuntime(testConfig({ databaseUrl: live }));
    await runtime.close();
    const first = await cli(live, 'backup', '--to', join(dir, 'small-backup.db'));
    expect(first.code).toBe(0);
    const again = await cli(live, 'backup', '--to', join(dir, 'small-backup.db'));
    expect(again.code).toBe(1);
    expect(again.body).toContain('exists: back up to a new file');
    const notADatabase = await cli(join(dir, 'target.db'), 'restore', '--from', join(dir, '..', 'does-not-exist.db'));
    expect(notADatabase.code).toBe(1);
  }, 60_000);

  it('points a PostgreSQL install at pg_dump and pg_restore', async () => {
    const answer = await cli(POSTGRES_URL, 'backup', '--to', join(dir, 'pg.db'));
    expect(answer.code).toBe(2);
    expect(answer.stderr).toContain('pg_dump --format=custom');
  }, 60_000);
});
