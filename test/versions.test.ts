import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { availableBackends } from './support/backends.js';
import { bearer, box, useTestService } from './support/world.js';

const backends = await availableBackends();

describe.each(backends)('version history on %s', (backend) => {
  const service = useTestService({ backend, listen: true, config: { history: { days: 90, keep: 50 } } });
  const inject = (method: 'GET' | 'POST' | 'PATCH', url: string, token: string, payload?: unknown, headers: Record<string, string> = {}) =>
    service.runtime.app.inject({ method, url: `/api-v1${url}`, headers: { ...bearer(token), ...headers }, ...(payload === undefined ? {} : { payload: payload as object }) });
  const create = async (name = 'Plan', elements = [box('a'), box('b', 300)]) =>
    (await inject('POST', '/documents', service.world.tokens.annAll, { workspaceId: service.world.annWorkspace, name, elements })).json();

  it('keeps every version with who, when, which door and what changed, newest first', async () => {
    const doc = await create();
    const patched = await inject('PATCH', `/documents/${doc.id}`, service.world.tokens.annAll, { name: 'Plan v2', elements: [box('a'), box('c', 600)] }, { 'if-match': '"1"' });
    expect(patched.statusCode).toBe(200);
    const res = await inject('GET', `/documents/${doc.id}/versions`, service.world.tokens.annRead);
    expect(res.statusCode).toBe(200);
    const { items, nextCursor } = res.json();
    expect(nextCursor).toBeNull();
    expect(items.map((v: any) => v.version)).toEqual([2, 1]);
    expect(items[0]).toMatchObject({ door: 'rest', author: { id: service.world.annUserId, name: 'Ann', email: 'ann@example.com' }, summary: '1 added, 1 removed, renamed "Plan" → "Plan v2"' });
    expect(items[1]).toMatchObject({ door: 'rest', summary: 'created with 2 elements' });
    expect(Date.parse(items[0].createdAt)).toBeGreaterThanOrEqual(Date.parse(items[1].createdAt));

    const one = await inject('GET', `/documents/${doc.id}/versions/1`, service.world.tokens.annRead);
    expect(one.statusCode).toBe(200);
    expect(one.json()).toMatchObject({ version: 1, name: 'Plan' });
    expect(one.json().elements).toEqual(doc.elements);
  });

  it('counts only what an edit by element changed: an element made in one write is stored as the next write keeps it', async () => {
    // "API" gets a guessed icon when created: adding a box beside it must leave it on.
    const doc = await create('Plan', [box('a'), { ...box('api', 0, 200), text: 'API' }]);
    expect(doc.elements.find((e: { id: string }) => e.id === 'api').icon).toMatchObject({ auto: true });
    const add = await inject('PATCH', `/documents/${doc.id}`, service.world.tokens.annAll, { operations: [{ op: 'add', element: { id: 'db', type: 'cylinder', x: 300, y: 0, width: 140, height: 90, text: 'Orders' } }] });
    const before = add.json().elements ?? (await inject('GET', `/documents/${doc.id}`, service.world.tokens.annRead)).json().elements;
    await inject('PATCH', `/documents/${doc.id}`, service.world.tokens.annAll, { operations: [{ op: 'update', id: 'a', set: { text: 'Gateway' } }] });
    const { items } = (await inject('GET', `/documents/${doc.id}/versions`, service.world.tokens.annRead)).json();
    expect(items.map((v: { summary: string }) => v.summary)).toEqual(['1 changed', '1 added', 'created with 2 elements']);
    const after = await inject('GET', `/documents/${doc.id}`, service.world.tokens.annRead);
    // The untouched cylinder's stored text, byte for byte.
    const textOf = (body: string) => /\{"type":"cylinder".*?\}/.exec(body)?.[0];
    expect(textOf(after.body)).toBe(JSON.stringify(before.find((e: { id: string }) => e.id === 'db')));
    expect(after.json().elements.find((e: { id: string }) => e.id === 'api')).toEqual(doc.elements.find((e: { id: string }) => e.id === 'api'));
  });

  it('restores a version as a new one, exactly, honouring If-Match', async () => {
    const doc = await create();
    await inject('PATCH', `/documents/${doc.id}`, service.world.tokens.annAll, { name: 'Changed', elements: [box('z')] });
    const stale = await inject('POST', `/documents/${doc.id}/versions/1/restore`, service.world.tokens.annAll, undefined, { 'if-match': '"1"' });
    expect(stale.statusCode).toBe(412);
    expect(stale.json().error.code).toBe('version_mismatch');
    const restored = await inject('POST', `/documents/${doc.id}/versions/1/restore`, service.world.tokens.annAll, undefined, { 'if-match': '"2"' });
    expect(restored.statusCode).toBe(200);
    expect(restored.headers.etag).toBe('"3"');
    expect(restored.json()).toMatchObject({ version: 3, name: 'Plan' });
    const current = (await inject('GET', `/documents/${doc.id}`, service.world.tokens.annAll)).json();
    expect(current.elements).toEqual(doc.elements);
    const [latest] = (await inject('GET', `/documents/${doc.id}/versions?limit=1`, service.world.tokens.annAll)).json().items;
    expect(latest).toMatchObject({ version: 3, summary: 'restored version 1: 2 added, 1 removed, renamed "Changed" → "Plan"' });
  });

  it('pages with signed cursors', async () => {
    const doc = await create();
    for (let i = 0; i < 4; i++) await inject('PATCH', `/documents/${doc.id}`, service.world.tokens.annAll, { name: `Plan ${i}` });
    const seen: number[] = [];
    let cursor: string | null = null;
    do {
      const page: any = (await inject('GET', `/documents/${doc.id}/versions?limit=2${cursor ? `&cursor=${cursor}` : ''}`, service.world.tokens.annAll)).json();
      seen.push(...page.items.map((v: any) => v.version));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual([5, 4, 3, 2, 1]);
    const other = await create();
    const first = (await inject('GET', `/documents/${doc.id}/versions?limit=2`, service.world.tokens.annAll)).json();
    const foreign = await inject('GET', `/documents/${other.id}/versions?cursor=${first.nextCursor}`, service.world.tokens.annAll);
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().error.code).toBe('invalid_cursor');
  });

  it('follows the read and write rules: scope, workspace, viewer role, unknown or bad versions', async () => {
    const doc = await create();
    const { tokens } = service.world;
    const cases: [string, 'GET' | 'POST', string, number, string][] = [
      ['write-only token cannot list', 'GET', tokens.annWriteOnly, 403, 'insufficient_scope'],
      ['read-only token cannot restore', 'POST', tokens.annRead, 403, 'insufficient_scope'],
      ['another workspace lists nothing', 'GET', tokens.bobAll, 404, 'not_found'],
      ['another workspace restores nothing', 'POST', tokens.bobAll, 404, 'not_found'],
    ];
    for (const [what, method, token, status, code] of cases) {
      const res = await inject(method, `/documents/${doc.id}/versions${method === 'POST' ? '/1/restore' : ''}`, token);
      expect(res.statusCode, what).toBe(status);
      expect(res.json().error.code, what).toBe(code);
    }
    // Ann is a viewer in Bob's workspace: she may list its history, not restore it.
    const bobDoc = (await inject('POST', '/documents', tokens.bobAll, { workspaceId: service.world.bobWorkspace, name: 'Bob', elements: [box('x')] })).json();
    expect((await inject('GET', `/documents/${bobDoc.id}/versions`, tokens.annAll)).statusCode).toBe(200);
    const viewer = await inject('POST', `/documents/${bobDoc.id}/versions/1/restore`, tokens.annAll);
    expect(viewer.statusCode).toBe(403);
    expect(viewer.json().error.code).toBe('forbidden');

    const unknown = await inject('GET', `/documents/${doc.id}/versions/9`, tokens.annAll);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.message).toMatch(/no version 9/);
    expect((await inject('POST', `/documents/${doc.id}/versions/9/restore`, tokens.annAll)).statusCode).toBe(404);
    for (const bad of ['0', '-1', '1.5', 'two']) {
      const res = await inject('GET', `/documents/${doc.id}/versions/${bad}`, tokens.annAll);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().error.message, bad).toMatch(/whole number/);
    }
    expect((await inject('GET', `/documents/doc_missing0000000000000/versions`, tokens.annAll)).statusCode).toBe(404);
  });

  it('lists, reads and restores over MCP, recording the door', async () => {
    const client = new Client({ name: 'history-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(service.mcpUrl), { requestInit: { headers: { Authorization: `Bearer ${service.world.tokens.annAll}` } } }));
    const structured = (result: unknown) => (result as CallToolResult).structuredContent as any;
    const doc = structured(await client.callTool({ name: 'create_diagram', arguments: { workspaceId: service.world.annWorkspace, name: 'Via MCP', elements: [box('a')] } }));
    await client.callTool({ name: 'update_diagram', arguments: { id: doc.id, elements: [box('a'), box('b', 300)] } });
    const listed = structured(await client.callTool({ name: 'list_versions', arguments: { id: doc.id } }));
    expect(listed.items.map((v: any) => [v.version, v.door, v.summary])).toEqual([
      [2, 'mcp', '1 added'],
      [1, 'mcp', 'created with 1 element'],
    ]);
    const first = structured(await client.callTool({ name: 'get_version', arguments: { id: doc.id, version: 1 } }));
    expect(first.elements.map((e: any) => e.id)).toEqual(['a']);
    const restored = structured(await client.callTool({ name: 'restore_version', arguments: { id: doc.id, version: 1, expectedVersion: 2 } }));
    expect(restored.version).toBe(3);
    const stale = (await client.callTool({ name: 'restore_version', arguments: { id: doc.id, version: 1, expectedVersion: 2 } })) as CallToolResult;
    expect(stale.isError).toBe(true);
    await client.close();
  });

  it('documents the routes in the OpenAPI document with their response schemas', async () => {
    const spec = (await service.runtime.app.inject({ method: 'GET', url: '/api-v1/openapi.json' })).json();
    const schemaOf = (path: string, method: string) => spec.paths[path]?.[method]?.responses?.['200']?.content?.['application/json']?.schema;
    expect(schemaOf('/api-v1/documents/{id}/versions', 'get').properties.items.items.required).toEqual(expect.arrayContaining(['version', 'author', 'door', 'summary']));
    expect(schemaOf('/api-v1/documents/{id}/versions/{n}', 'get').required).toEqual(expect.arrayContaining(['name', 'elements']));
    expect(schemaOf('/api-v1/documents/{id}/versions/{n}/restore', 'post').required).toEqual(expect.arrayContaining(['version', 'elements', 'warnings']));
  });

  it('records web writes as the web door', async () => {
    const { diagrams } = service.runtime.services;
    const web = { tokenId: 'web-session', userId: service.world.annUserId, scopes: ['diagrams:read', 'diagrams:write'] as const, workspaceId: null, door: 'web' as const };
    const doc = await create();
    await diagrams.updateDocument(web, doc.id, { name: 'Renamed on the web' });
    const [latest] = (await diagrams.listVersions(web, doc.id, { limit: 1 })).items;
    expect(latest).toMatchObject({ version: 2, door: 'web', summary: 'renamed "Plan" → "Renamed on the web"' });
  });
});

describe('history retention', () => {
  const service = useTestService({ config: { history: { days: 90, keep: 3 } } });
  const inject = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: unknown) =>
    service.runtime.app.inject({ method, url: `/api-v1${url}`, headers: bearer(service.world.tokens.annAll), ...(payload === undefined ? {} : { payload: payload as object }) });

  it('keeps young versions, and prunes old ones on write beyond the last HISTORY_KEEP', async () => {
    const doc = (await inject('POST', '/documents', { workspaceId: service.world.annWorkspace, name: 'v1', elements: [box('a')] })).json();
    for (let i = 2; i <= 6; i++) await inject('PATCH', `/documents/${doc.id}`, { name: `v${i}` });
    const versions = async () => (await inject('GET', `/documents/${doc.id}/versions`)).json().items.map((v: any) => v.version);
    // All within 90 days: nothing goes, however many.
    expect(await versions()).toEqual([6, 5, 4, 3, 2, 1]);
    // Age versions 1–5 past the retention; the next write prunes all but the last 3.
    const old = new Date(Date.now() - 91 * 24 * 3600 * 1000).toISOString();
    await service.runtime.services.diagrams['db'].updateTable('document_versions').set({ created_at: old }).where('document_id', '=', doc.id).where('version', '<=', 5).execute();
    expect(await versions()).toEqual([6, 5, 4, 3, 2, 1]);
    await inject('PATCH', `/documents/${doc.id}`, { name: 'v7' });
    expect(await versions()).toEqual([7, 6, 5]);
    const gone = await inject('GET', `/documents/${doc.id}/versions/1`);
    expect(gone.statusCode).toBe(404);
    expect(gone.json().error.message).toMatch(/retention/);
  });
});
