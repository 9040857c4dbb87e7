import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { createRuntime } from '../src/adapters/http/server.js';
import { loadConfig } from '../src/infra/config.js';
import { testConfig } from './support/backends.js';
import { freePort } from './support/ports.js';

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'drawbridge-cli-'));
// A secret of its own: the CLI must never write a key file into the project's data folder during tests.
const env = { ...process.env, DATABASE_URL: join(dir, 'cli.db'), DRAWBRIDGE_SECRET: 'cli-test-secret' };
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

  it('lists users and tokens (never a secret), and manages members while keeping an owner', async () => {
    const owner = await cli('user', 'create', '--email', 'owner@example.com', '--name', 'Owner');
    await cli('user', 'create', '--email', 'guest@example.com');
    const token = await cli('token', 'create', '--email', 'owner@example.com', '--name', 'laptop', '--scopes', 'diagrams:read');
    const tokens = await cli('token', 'list', '--email', 'owner@example.com');
    expect(tokens.items).toEqual([expect.objectContaining({ id: token.id, name: 'laptop', prefix: token.token.slice(0, 13), revokedAt: null })]);
    expect(JSON.stringify(tokens)).not.toContain(token.token);
    const expiring = await cli('token', 'create', '--email', 'owner@example.com', '--name', 'a month', '--scopes', 'diagrams:read', '--expires-days', '30');
    expect(Date.parse(expiring.expiresAt) - Date.parse(expiring.createdAt)).toBe(30 * 86_400_000);

    const ws = owner.workspaceId;
    expect(await cli('member', 'add', '--workspace', ws, '--email', 'guest@example.com', '--role', 'viewer')).toEqual({ workspaceId: ws, email: 'guest@example.com', role: 'viewer' });
    await cli('member', 'role', '--workspace', ws, '--email', 'guest@example.com', '--role', 'editor');
    const users = await cli('user', 'list');
    const guest = users.items.find((u: any) => u.email === 'guest@example.com');
    expect(guest.workspaces).toEqual(expect.arrayContaining([{ id: ws, name: expect.any(String), role: 'editor' }]));

    // The last owner can be neither demoted nor removed; nothing changes.
    const demote = await run('node', ['bin/drawbridge.js', 'member', 'role', '--workspace', ws, '--email', 'owner@example.com', '--role', 'viewer'], { env }).catch((e) => e);
    expect(demote.code).toBe(1);
    expect(JSON.parse(demote.stdout).error.message).toMatch(/no owner left/);
    const again = await run('node', ['bin/drawbridge.js', 'member', 'add', '--workspace', ws, '--email', 'guest@example.com', '--role', 'viewer'], { env }).catch((e) => e);
    expect(JSON.parse(again.stdout).error.message).toMatch(/already a member/);
    expect((await cli('member', 'remove', '--workspace', ws, '--email', 'guest@example.com')).removed).toBe(true);
    const after = (await cli('user', 'list')).items.find((u: any) => u.email === 'owner@example.com');
    expect(after.workspaces).toEqual([{ id: ws, name: expect.any(String), role: 'owner' }]);
  }, 90_000); // eleven CLI processes, each starting tsx: about 15 s on a quiet machine, twice that on a busy one

  it('sets an account\'s plan for the hosted edition, and refuses a plan that does not exist', async () => {
    const { userId } = await cli('user', 'create', '--email', 'plan@example.com');
    expect(await cli('user', 'plan', '--email', 'plan@example.com', '--plan', 'pro')).toEqual({ userId, plan: 'pro' });
    const wrong = await run('node', ['bin/drawbridge.js', 'user', 'plan', '--email', 'plan@example.com', '--plan', 'gold'], { env }).catch((e) => e);
    expect(wrong.code).toBe(1);
    expect(JSON.parse(wrong.stdout).error.message).toBe('plan must be one of free, pro, enterprise, not "gold"');
  });

  it('saves an AI key from a file, encrypted, which the server then uses', async () => {
    const { userId, workspaceId } = await cli('user', 'create', '--email', 'ai@example.com');
    const keyFile = join(dir, 'openai-key');
    writeFileSync(keyFile, 'sk-cli-secret-4242\n');
    const { settings } = await cli('ai', 'set', '--email', 'ai@example.com', '--provider', 'openai', '--model', 'gpt-4.1-mini', '--key-file', keyFile);
    expect(settings).toMatchObject({ provider: 'openai', model: 'gpt-4.1-mini', keyLast4: '4242', baseUrl: null });
    expect(JSON.stringify(settings)).not.toContain('sk-cli');
    const runtime = await createRuntime(testConfig({ databaseUrl: env.DATABASE_URL, secret: env.DRAWBRIDGE_SECRET }));
    try {
      const principal = { tokenId: 'tok_cli', userId, scopes: ['ai:generate' as const], workspaceId: null, door: 'cli' as const };
      expect(await runtime.services.ai.credentialsFor(principal, workspaceId)).toMatchObject({ key: 'sk-cli-secret-4242', source: 'user' });
    } finally {
      await runtime.close();
    }
    const refused = await run('node', ['bin/drawbridge.js', 'ai', 'set', '--email', 'ai@example.com', '--provider', 'cohere', '--model', 'x', '--key-file', keyFile], { env }).catch((e) => e);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr + refused.stdout).toMatch(/--provider must be one of openai, anthropic, google, openai-compatible/);
  });

  it('says which database it uses, wherever it is run from', async () => {
    const { stderr } = await run('node', [join(process.cwd(), 'bin/drawbridge.js'), 'user', 'list'], { env, cwd: tmpdir() });
    expect(stderr).toContain(`database: ${env.DATABASE_URL}`);
    // Without DATABASE_URL: the project's own data folder, not the caller's working directory.
    expect(loadConfig({}).databaseUrl).toBe(join(process.cwd(), 'data', 'drawbridge.db'));
  });

  it('in the hosted edition, creates no token for a free account, and one once it is on Pro', async () => {
    const hosted = { env: { ...env, DRAWBRIDGE_EDITION: 'hosted' } };
    await run('node', ['bin/drawbridge.js', 'user', 'create', '--email', 'free@example.com'], hosted);
    const refused = await run('node', ['bin/drawbridge.js', 'token', 'create', '--email', 'free@example.com', '--name', 'x', '--scopes', 'diagrams:read'], hosted).catch((e) => e);
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.stdout).error).toMatchObject({ code: 'plan_required', message: expect.stringContaining('free plan') });
    await run('node', ['bin/drawbridge.js', 'user', 'plan', '--email', 'free@example.com', '--plan', 'pro'], hosted);
    const made = JSON.parse((await run('node', ['bin/drawbridge.js', 'token', 'create', '--email', 'free@example.com', '--name', 'x', '--scopes', 'diagrams:read'], hosted)).stdout);
    expect(made.token).toMatch(/^drb_live_/);
  }, 60_000);

  it('prints its usage on stdout and exits 0 when asked for help', async () => {
    for (const flag of ['--help', '-h']) {
      const { stdout, stderr } = await run('node', ['bin/drawbridge.js', flag], { env });
      expect(stdout).toContain('drawbridge workspace create --email E --name NAME');
      expect(stderr).toBe('');
    }
  });

  it('suggests, on first start, CLI commands that use the database the server runs on', async () => {
    const port = await freePort();
    const databaseUrl = join(dir, 'first-start.db');
    const server = spawn('node', ['bin/drawbridge.js', 'serve'], { env: { ...env, DATABASE_URL: databaseUrl, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' } });
    try {
      const message = await new Promise<string>((resolve, reject) => {
        let text = '';
        server.stderr.on('data', (chunk) => {
          text += chunk;
          if (text.includes('token create')) resolve(text);
        });
        server.once('exit', () => reject(new Error(`the server exited: ${text}`)));
      });
      expect(message).toContain(`DATABASE_URL=${databaseUrl} node bin/drawbridge.js user create`);
      expect(message).toContain(`DATABASE_URL=${databaseUrl} node bin/drawbridge.js token create`);
    } finally {
      server.kill('SIGTERM');
    }
  }, 60_000);

  it('answers mistakes with a JSON error or usage, and a non-zero exit', async () => {
    const badScope = await run('node', ['bin/drawbridge.js', 'token', 'create', '--email', 'cli@example.com', '--name', 'x', '--scopes', 'root'], { env }).catch((e) => e);
    expect(badScope.code).toBe(1);
    expect(JSON.parse(badScope.stdout).error.message).toContain('diagrams:read');
    const missing = await run('node', ['bin/drawbridge.js', 'user', 'create'], { env }).catch((e) => e);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--email is required');
    const badRole = await run('node', ['bin/drawbridge.js', 'member', 'add', '--workspace', 'ws_x', '--email', 'a@b.c', '--role', 'god'], { env }).catch((e) => e);
    expect(badRole.code).toBe(2);
    expect(badRole.stderr).toContain('--role must be one of owner, admin, editor, viewer');
  });
});
