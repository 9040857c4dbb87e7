/**
 * A bench target in its own process (so the load generator does not share its event loop):
 *   node --import tsx bench/targets.ts drawbridge   — the real service on a fresh SQLite file
 *   node --import tsx bench/targets.ts bare FILE    — a bare Fastify route answering FILE's JSON from memory
 * Prints one JSON line with what the parent needs, then serves until killed.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { createRuntime } from '../src/adapters/http/server.js';
import { loadConfig } from '../src/infra/config.js';
import { benchScene } from './scenes.js';

const [target, file] = process.argv.slice(2);

if (target === 'bare') {
  const body = JSON.parse(readFileSync(file!, 'utf8')) as unknown;
  const app = Fastify();
  app.get('/doc', async () => body);
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  console.log(JSON.stringify({ url: `${url}/doc` }));
} else {
  const dir = mkdtempSync(join(tmpdir(), 'drawbridge-bench-'));
  const config = { ...loadConfig({ MEMORY_MB: process.env.MEMORY_MB }), databaseUrl: join(dir, 'bench.db'), rateLimitPerMinute: 1_000_000_000, logLevel: 'silent' };
  const runtime = await createRuntime(config);
  const { userId, workspaceId } = await runtime.services.accounts.createUser({ email: 'bench@example.com' });
  const { token } = await runtime.services.tokens.create({ userId, name: 'bench', scopes: ['diagrams:read', 'diagrams:write'] });
  const principal = await runtime.services.tokens.authenticate(`Bearer ${token}`, 'rest');
  const { document } = await runtime.services.diagrams.createDocument(principal, { workspaceId, name: 'Bench', elements: benchScene(50) });
  const url = await runtime.app.listen({ port: 0, host: '127.0.0.1' });
  console.log(JSON.stringify({ url, token, documentId: document.summary.id, budgetMb: String(config.memoryMb) }));
}
