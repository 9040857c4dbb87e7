/**
 * Issue 25, code-backed diagrams: a diagram drawn from code is redrawn from new code (PATCH code, MCP update_diagram
 * code), and what the user changed by hand survives where its element is still drawn: a move (as an offset from the
 * layout), a colour, an element added by hand. What cannot be kept is said in warnings; bad code changes nothing.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import type { Element } from '../src/core/scene/schema.js';
import { type BackendName, requireServer } from './support/backends.js';
import { bearer, useTestService } from './support/world.js';

const backends: BackendName[] = ['sqlite'];
if (await requireServer('postgres')) backends.push('postgres');

const V1 = ['flowchart LR', '  api[API] --> db[(Orders DB)]', '  api --> cache[Cache]', '  api --> auth[Auth]'].join('\n');
const V2 = `${V1}\n  api --> queue[Queue]`;
const RENAMED = V1.replace('cache[Cache]', 'redis[Redis]');

const byId = (elements: readonly Element[], id: string) => elements.find((e) => e.id === id);

describe.each(backends)('redrawing a diagram from new code on %s', (backend) => {
  const service = useTestService({ backend, listen: true });
  const api = async (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: unknown, token = service.world.tokens.annAll, headers: Record<string, string> = {}) => {
    const response = await service.runtime.app.inject({ method, url: `/api-v1${url}`, headers: { ...bearer(token), ...headers }, ...(payload !== undefined && { payload: payload as object }) });
    return { status: response.statusCode, body: response.json() };
  };
  const fromCode = async (code: string, token = service.world.tokens.annAll, workspaceId = service.world.annWorkspace) => {
    const created = await api('POST', '/documents/from-code', { workspaceId, code }, token);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return created.body as { id: string; version: number; elements: Element[] };
  };
  const read = async (id: string) => (await api('GET', `/documents/${id}`)).body as { version: number; elements: Element[]; source: { notation: string; code: string } };
  const edit = async (id: string, operations: unknown[]) => {
    const edited = await api('PATCH', `/documents/${id}`, { operations });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
  };

  it('keeps a recoloured node\'s colour, a moved node\'s move and a hand-added arrow; draws the new node', async () => {
    const doc = await fromCode(V1);
    const cache = byId(doc.elements, 'cache')!;
    await edit(doc.id, [
      { op: 'update', id: 'db', set: { fillColor: '#ffc9c9' } },
      { op: 'update', id: 'cache', set: { x: cache.x + 200, y: cache.y + 40 } },
      { op: 'add', element: { id: 'note', type: 'text', x: -300, y: 0, text: 'hand note' } },
      { op: 'add', element: { id: 'auth-db', type: 'arrow', startBinding: { elementId: 'auth' }, endBinding: { elementId: 'db' } } },
    ]);
    const current = await read(doc.id);
    const redrawn = await api('PATCH', `/documents/${doc.id}`, { code: V2, answer: 'full' }, undefined, { 'if-match': `"${current.version}"` });
    expect(redrawn.status, JSON.stringify(redrawn.body)).toBe(200);
    const elements = redrawn.body.elements as Element[];
    // Where the new code alone puts things, to check the move was kept as the same offset from the new layout.
    const plain = (await fromCode(V2)).elements;
    expect(byId(elements, 'queue')).toMatchObject({ text: 'Queue' });
    expect(byId(elements, 'db')).toMatchObject({ fillColor: '#ffc9c9' });
    expect(byId(elements, 'cache')).toMatchObject({ x: byId(plain, 'cache')!.x + 200, y: byId(plain, 'cache')!.y + 40 });
    expect(byId(elements, 'auth')).toMatchObject({ x: byId(plain, 'auth')!.x, y: byId(plain, 'auth')!.y });
    expect(byId(elements, 'note')).toMatchObject({ x: -300, y: 0, text: 'hand note' });
    expect(byId(elements, 'auth-db')).toMatchObject({ startBinding: { elementId: 'auth' }, endBinding: { elementId: 'db' } });
    const warnings = (redrawn.body.warnings as string[]).join('\n');
    expect(warnings).toMatch(/kept your changes to: .*db \(fillColor\)/);
    expect(warnings).toMatch(/kept your changes to: .*cache \(moved\)/);
    expect(warnings).toMatch(/kept the elements you added: note, auth-db/);
    expect(redrawn.body.source).toEqual({ notation: 'mermaid', code: V2 });
    expect(redrawn.body.version).toBe(current.version + 1);
  });

  it('a node renamed in the code goes, and its manual style and the arrow added to it are said dropped', async () => {
    const doc = await fromCode(V1);
    await edit(doc.id, [
      { op: 'update', id: 'cache', set: { fillColor: '#ffc9c9' } },
      { op: 'add', element: { id: 'db-cache', type: 'arrow', startBinding: { elementId: 'db' }, endBinding: { elementId: 'cache' } } },
    ]);
    const redrawn = await api('PATCH', `/documents/${doc.id}`, { code: RENAMED, answer: 'full' });
    expect(redrawn.status, JSON.stringify(redrawn.body)).toBe(200);
    const elements = redrawn.body.elements as Element[];
    expect(byId(elements, 'cache')).toBeUndefined();
    expect(byId(elements, 'db-cache')).toBeUndefined();
    expect(byId(elements, 'redis')).toMatchObject({ text: 'Redis' });
    expect(byId(elements, 'redis')!.fillColor).not.toBe('#ffc9c9');
    const warnings = (redrawn.body.warnings as string[]).join('\n');
    expect(warnings).toMatch(/dropped your changes to: cache \(fillColor; no longer in the code\)/);
    expect(warnings).toMatch(/dropped elements you added: db-cache \(its endBinding "cache" is no longer drawn\)/);
  });

  it('draws as much again as it was drawn: a diagram drawn with detail full stays unfolded, unless the redraw says otherwise', async () => {
    // 21 services, each with a volume of its own: 42 nodes, which "auto" folds into rows on the services.
    const services = (count: number) =>
      ['services:', ...Array.from({ length: count }, (_, i) => [`  svc${i}:`, `    image: app${i}`, `    volumes: ["data${i}:/data"]`]).flat(), 'volumes:', ...Array.from({ length: count }, (_, i) => `  data${i}: {}`)].join('\n');
    const created = await api('POST', '/documents/from-code', { workspaceId: service.world.annWorkspace, code: services(21), detail: 'full' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(byId(created.body.elements, 'volume-data0')).toBeDefined();
    expect((await read(created.body.id)).source).toEqual({ notation: 'compose', code: services(21), detail: 'full' });
    const redrawn = await api('PATCH', `/documents/${created.body.id}`, { code: services(22), answer: 'full' });
    expect(redrawn.status, JSON.stringify(redrawn.body)).toBe(200);
    expect(byId(redrawn.body.elements, 'volume-data21')).toBeDefined();
    expect(redrawn.body.source).toMatchObject({ detail: 'full' });
    const folded = await api('PATCH', `/documents/${created.body.id}`, { code: services(22), detail: 'auto', answer: 'full' });
    expect(folded.status, JSON.stringify(folded.body)).toBe(200);
    expect(byId(folded.body.elements, 'volume-data21')).toBeUndefined();
    expect(folded.body.source).toMatchObject({ detail: 'auto' });
    const alone = await api('PATCH', `/documents/${created.body.id}`, { detail: 'full' });
    expect(alone.status).toBe(400);
    expect(alone.body.error.message).toMatch(/detail goes with code/);
  });

  it('bad code answers parse_error with its line and column, and the document does not change', async () => {
    const doc = await fromCode(V1);
    const before = await read(doc.id);
    const bad = await api('PATCH', `/documents/${doc.id}`, { code: 'flowchart LR\n  a --> b\n  b --> [oops\n' });
    expect(bad.status, JSON.stringify(bad.body)).toBe(400);
    expect(bad.body.error.code).toBe('parse_error');
    expect(bad.body.error.message).toMatch(/^line 3, column \d+: /);
    expect(bad.body.error.details).toMatchObject({ line: 3, column: expect.any(Number) });
    expect(await read(doc.id)).toEqual(before);
  });

  it('refuses code for a diagram not drawn from code, with other changes, or from a caller who may not write (before parsing)', async () => {
    const drawn = await api('POST', '/documents', { workspaceId: service.world.annWorkspace, name: 'boxes', elements: [{ id: 'a', type: 'rectangle', x: 0, y: 0, width: 100, height: 50 }] });
    const noSource = await api('PATCH', `/documents/${drawn.body.id}`, { code: V1 });
    expect(noSource.status).toBe(400);
    expect(noSource.body.error.message).toMatch(/was not drawn from code, so there is no code to redraw/);
    const doc = await fromCode(V1);
    const mixed = await api('PATCH', `/documents/${doc.id}`, { code: V2, operations: [{ op: 'remove', id: 'db' }] });
    expect(mixed.status).toBe(400);
    expect(mixed.body.error.message).toMatch(/code redraws the whole diagram/);
    const badCode = 'flowchart LR\n  b --> [oops\n';
    const readOnly = await api('PATCH', `/documents/${doc.id}`, { code: badCode }, service.world.tokens.annRead);
    expect(readOnly.status).toBe(403);
    expect(readOnly.body.error.code).toBe('insufficient_scope');
    // Ann is a viewer in Bob's workspace.
    const bobs = await fromCode(V1, service.world.tokens.bobAll, service.world.bobWorkspace);
    const viewer = await api('PATCH', `/documents/${bobs.id}`, { code: badCode });
    expect(viewer.status).toBe(403);
    expect(viewer.body.error.code).toBe('forbidden');
    expect((await read(doc.id)).version).toBe(1);
  });

  it('is a version like any write: over MCP, with its door and summary, and restoring brings the old code back', async () => {
    const doc = await fromCode(V1);
    const client = new Client({ name: 'redraw-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(service.mcpUrl), { requestInit: { headers: { Authorization: `Bearer ${service.world.tokens.annAll}` } } }));
    const structured = (result: unknown) => (result as CallToolResult).structuredContent as any;
    const redrawn = structured(await client.callTool({ name: 'update_diagram', arguments: { id: doc.id, code: V2, expectedVersion: 1 } }));
    expect(redrawn.version).toBe(2);
    const bad = (await client.callTool({ name: 'update_diagram', arguments: { id: doc.id, code: 'flowchart LR\n  b --> [oops\n' } })) as CallToolResult;
    expect(bad.isError).toBe(true);
    expect(JSON.stringify(bad.structuredContent ?? bad.content)).toMatch(/line 2/);
    const listed = structured(await client.callTool({ name: 'list_versions', arguments: { id: doc.id } }));
    expect(listed.items[0]).toMatchObject({ version: 2, door: 'mcp', summary: expect.stringMatching(/^redrawn from code: .*added/) });
    await client.close();
    expect((await read(doc.id)).source.code).toBe(V2);
    const restored = await api('POST', `/documents/${doc.id}/versions/1/restore`);
    expect(restored.status, JSON.stringify(restored.body)).toBe(200);
    const now = await read(doc.id);
    expect(now.source.code).toBe(V1);
    expect(byId(now.elements, 'queue')).toBeUndefined();
    expect((await api('GET', `/documents/${doc.id}/versions/2`)).body.source).toEqual({ notation: 'mermaid', code: V2 });
  });
});
