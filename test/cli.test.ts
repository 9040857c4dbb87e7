import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { createRuntime } from '../src/adapters/http/server.js';
import { testConfig } from './support/backends.js';

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'drawbridge-cli-'));
const env = { ...process.env, DATABASE_URL: join(dir, 'cli.db') };
const cli = async (...args: string[]) => JSON.parse((await run('node', ['bin/drawbridge.js', ...args], { env })).stdout);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('drawbridge CLI', () => {
  it('creates a user, a workspace and tokens, and revokes one, printing JSON', async () => {
    const user = await cli('user', 'create', '--email', 'cli@example.com', '--name', 'Cli', '--password', 'pw-123456', '--workspace', 'Ops');
    expect(user.userId).toMatch(/^usr_/);
    expect(user.workspaceId).toMatch(/^ws_/);
    const extra = await cli('workspace', 'create', '--email', 'cli@example.com', '--name', 'Second');
    expect(extra.workspaceId).toMatch(/^ws_/);
    const token = await cli('token', 'create', '--email', 'cli@example.com', '--name', 'ci', '--scopes', 'diagrams:read,export', '--workspace', user.workspaceId);
    expect(token).toMatchObject({ name: 'ci', scopes: ['diagrams:read', 'export'], workspaceId: user.workspaceId });
    expect(token.token).toMatch(/^drb_live_/);

    const runtime = await createRuntime(testConfig({ databaseUrl: env.DATABASE_URL }));
    try {
      const list = await runtime.app.inject({ method: 'GET', url: '/api-v1/workspaces', headers: { authorization: `Bearer ${token.token}` } });
      expect(list.json().items).toEqual([{ id: user.workspaceId, name: 'Ops', role: 'owner' }]);
      const revoked = await cli('token', 'revoke', '--id', token.id);
      expect(revoked.revokedAt).not.toBeNull();
      const after = await runtime.app.inject({ method: 'GET', url: '/api-v1/workspaces', headers: { authorization: `Bearer ${token.token}` } });
      expect(after.statusCode).toBe(401);
    } finally {
      await runtime.close();
    }
  });

  it('answers mistakes with a JSON error or usage, and a non-zero exit', async () => {
    const badScope = await run('node', ['bin/drawbridge.js', 'token', 'create', '--email', 'cli@example.com', '--name', 'x', '--scopes', 'root'], { env }).catch((e) => e);
    expect(badScope.code).toBe(1);
    expect(JSON.parse(badScope.stdout).error.message).toContain('diagrams:read');
    const missing = await run('node', ['bin/drawbridge.js', 'user', 'create'], { env }).catch((e) => e);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--email is required');
  });
});
