import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRuntime, type Runtime } from '../src/adapters/http/server.js';
import { OPERATION_COSTS } from '../src/service/costs.js';
import { type Backend, createBackend, REDIS_URL, requireServer, testConfig } from './support/backends.js';
import { bearer, buildWorld, type World } from './support/world.js';

const redisUp = await requireServer('redis');
const LIMIT = 30;

const rpc = (id: number, method: string, params: unknown = {}) => ({ jsonrpc: '2.0', id, method, params });
const mcpHeaders = (token: string) => ({ ...bearer(token), 'content-type': 'application/json', accept: 'application/json, text/event-stream' });

// The same budget rules whether counted in memory (one instance) or in Redis (shared by instances).
describe.each([
  { store: 'memory', redisUrl: undefined as string | undefined },
  ...(redisUp ? [{ store: 'redis', redisUrl: REDIS_URL }] : []),
])('rate-limit costs ($store)', ({ redisUrl }) => {
  let backend: Backend;
  let runtime: Runtime;
  let world: World;

  beforeAll(async () => {
    backend = await createBackend('sqlite');
    runtime = await createRuntime(testConfig({ databaseUrl: backend.databaseUrl, rateLimitPerMinute: LIMIT, redisUrl }), {
      rateLimitKeyPrefix: `drawbridge-test:${randomBytes(6).toString('hex')}`,
    });
    world = await buildWorld(runtime);
  });
  afterAll(async () => {
    await runtime?.close();
    await backend?.dispose();
  });

  it('charges every JSON-RPC message of an MCP batch, so a batch cannot multiply the budget', async () => {
    const token = world.tokens.annRead;
    const batch = Array.from({ length: 10 }, (_, i) => rpc(i + 1, 'tools/list'));
    const first = await runtime.app.inject({ method: 'POST', url: '/mcp', headers: mcpHeaders(token), payload: batch });
    expect(first.headers['ratelimit-remaining']).toBe(String(LIMIT - 10));
    // 100 messages in one POST is 100 units: refused whole, and the refusal spends nothing.
    const big = Array.from({ length: 100 }, (_, i) => rpc(i + 1, 'tools/list'));
    const refused = await runtime.app.inject({ method: 'POST', url: '/mcp', headers: mcpHeaders(token), payload: big });
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error.code).toBe('rate_limited');
    expect(refused.json().error.message).toMatch(/costs 100/);
    expect(refused.headers['retry-after']).toMatch(/^\d+$/);
    const after = await runtime.app.inject({ method: 'GET', url: '/api-v1/workspaces', headers: bearer(token) });
    expect(after.statusCode).toBe(200);
    expect(after.headers['ratelimit-remaining']).toBe(String(LIMIT - 11));
  });

  it('charges heavy REST operations their stated cost', async () => {
    const token = world.tokens.annAll;
    const created = await runtime.app.inject({
      method: 'POST',
      url: '/api-v1/documents/from-code',
      headers: bearer(token),
      payload: { workspaceId: world.annWorkspace, code: 'digraph { a -> b }' },
    });
    expect(created.statusCode).toBe(201);
    let spent = OPERATION_COSTS.fromCode;
    expect(created.headers['ratelimit-remaining']).toBe(String(LIMIT - spent));
    const id = created.json().id;
    const render = await runtime.app.inject({ method: 'GET', url: `/api-v1/documents/${id}/render?format=svg`, headers: bearer(token) });
    spent += OPERATION_COSTS.render;
    expect(render.headers['ratelimit-remaining']).toBe(String(LIMIT - spent));
    const exported = await runtime.app.inject({ method: 'GET', url: `/api-v1/documents/${id}/export?format=mermaid`, headers: bearer(token) });
    spent += OPERATION_COSTS.export;
    expect(exported.headers['ratelimit-remaining']).toBe(String(LIMIT - spent));
    const read = await runtime.app.inject({ method: 'GET', url: `/api-v1/documents/${id}`, headers: bearer(token) });
    spent += OPERATION_COSTS.call;
    expect(read.headers['ratelimit-remaining']).toBe(String(LIMIT - spent));
  });

  it('charges MCP tool calls at their operation’s cost, a preview as a render', async () => {
    const token = world.tokens.annPinned;
    const call = (id: number, name: string, args: unknown) => rpc(id, 'tools/call', { name, arguments: args });
    const res = await runtime.app.inject({
      method: 'POST',
      url: '/mcp',
      headers: mcpHeaders(token),
      payload: [call(1, 'diagram_from_code', { workspaceId: world.annWorkspace, code: 'digraph { a -> b }' }), call(2, 'list_workspaces', {})],
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['ratelimit-remaining']).toBe(String(LIMIT - OPERATION_COSTS.fromCode - OPERATION_COSTS.call));
    const docId = (res.json() as any[]).find((m) => m.id === 1).result.structuredContent.id;
    const preview = await runtime.app.inject({ method: 'POST', url: '/mcp', headers: mcpHeaders(token), payload: call(3, 'get_diagram', { id: docId, preview: true }) });
    expect(preview.headers['ratelimit-remaining']).toBe(String(LIMIT - OPERATION_COSTS.fromCode - OPERATION_COSTS.call - OPERATION_COSTS.render));
  });

  it('gives back what a refused REST request was charged (400, 403, 404, 415): only work done is paid for', async () => {
    const token = world.tokens.annWriteOnly;
    const send = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object | string, contentType = 'application/json') =>
      runtime.app.inject({ method, url, headers: { ...bearer(token), ...(payload ? { 'content-type': contentType } : {}) }, ...(payload ? { payload } : {}) });
    const refusals = [
      [await send('GET', '/api-v1/documents/doc_nope'), 403], // no diagrams:read
      [await send('POST', '/api-v1/documents', { workspaceId: world.bobWorkspace, name: 'x' }), 403], // a viewer there
      [await send('PATCH', '/api-v1/documents/doc_nope', { name: 'x' }), 404],
      [await send('POST', '/api-v1/documents', 'name=x', 'text/plain'), 415],
      [await send('POST', '/api-v1/documents', { workspaceId: world.annWorkspace, name: 'x', elements: [{ type: 'nope' }] }), 400],
      [await send('POST', '/api-v1/documents/from-code', { workspaceId: world.annWorkspace, notation: 'cobol', code: 'x' }), 400],
    ] as const;
    for (const [response, status] of refusals) expect(response.statusCode, response.body).toBe(status);
    const made = await send('POST', '/api-v1/folders', { workspaceId: world.annWorkspace, name: 'paid for' });
    expect(made.statusCode).toBe(201);
    expect(made.headers['ratelimit-remaining']).toBe(String(LIMIT - OPERATION_COSTS.call));
  });

  it('charges one unit for a body that is not JSON-RPC, so garbage is not free', async () => {
    const token = world.tokens.bobAll;
    const res = await runtime.app.inject({ method: 'POST', url: '/mcp', headers: mcpHeaders(token), payload: '{nope' });
    expect(res.statusCode).toBe(400);
    expect(res.headers['ratelimit-remaining']).toBe(String(LIMIT - 1));
  });
});
