import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRuntime, type Runtime } from '../src/adapters/http/server.js';
import { type Backend, type BackendName, createBackend, requireServer, testConfig } from './support/backends.js';
import { bearer, box, buildWorld, type World } from './support/world.js';

const backends: BackendName[] = ['sqlite'];
if (await requireServer('postgres')) backends.push('postgres');

const json = (res: LightMyRequestResponse) => res.json() as any;

describe.each(backends)('REST API on %s', (backendName) => {
  let backend: Backend;
  let runtime: Runtime;
  let world: World;

  beforeAll(async () => {
    backend = await createBackend(backendName);
    runtime = await createRuntime(testConfig({ databaseUrl: backend.databaseUrl, rateLimitPerMinute: 100_000 }));
    world = await buildWorld(runtime);
  });
  afterAll(async () => {
    await runtime?.close();
    await backend?.dispose();
  });

  const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, token?: string, body?: unknown, headers: Record<string, string> = {}) =>
    runtime.app.inject({ method, url, headers: { ...(token ? bearer(token) : {}), ...headers }, ...(body === undefined ? {} : { payload: body as object }) });

  const createDoc = async (name = 'Architecture', elements: unknown[] = [box('api')], workspaceId = world.annWorkspace, token = world.tokens.annAll) => {
    const res = await call('POST', '/api-v1/documents', token, { workspaceId, name, elements });
    expect(res.statusCode, res.body).toBe(201);
    return json(res);
  };

  describe('authentication', () => {
    it('answers 401 with WWW-Authenticate for a missing, malformed, unknown or revoked token', async () => {
      const revoked = await runtime.services.tokens.create({ userId: world.annUserId, name: 'soon gone', scopes: ['diagrams:read'] });
      expect((await call('GET', '/api-v1/workspaces', revoked.token)).statusCode).toBe(200);
      await runtime.services.tokens.revoke(revoked.id);
      const cases: Record<string, string | undefined>[] = [
        {},
        { authorization: 'Basic YWxhZGRpbjpvcGVuc2VzYW1l' },
        { authorization: 'Bearer' },
        { authorization: `Bearer drb_live_${'x'.repeat(43)}` },
        { authorization: `Bearer ${revoked.token}` },
      ];
      for (const headers of cases) {
        const res = await runtime.app.inject({ method: 'GET', url: '/api-v1/workspaces', headers: headers as Record<string, string> });
        expect(res.statusCode).toBe(401);
        expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
        expect(json(res).error.code).toBe('unauthorized');
      }
    });

    it('stores only a hash of each token and shows the secret once', async () => {
      const created = await runtime.services.tokens.create({ userId: world.annUserId, name: 'hash check', scopes: ['export'] });
      expect(created.token).toMatch(/^drb_live_[0-9A-Za-z]{43}$/);
      const listed = await runtime.services.tokens.listForUser(world.annUserId);
      const mine = listed.find((t) => t.id === created.id)!;
      expect(JSON.stringify(mine)).not.toContain(created.token.slice(9));
      expect(mine.prefix).toBe(created.token.slice(0, 13));
    });

    it('records lastUsedAt when a token is used', async () => {
      const created = await runtime.services.tokens.create({ userId: world.annUserId, name: 'usage', scopes: ['diagrams:read'] });
      await call('GET', '/api-v1/workspaces', created.token);
      const info = (await runtime.services.tokens.listForUser(world.annUserId)).find((t) => t.id === created.id)!;
      expect(info.lastUsedAt).not.toBeNull();
    });

    it('keeps health, readiness, the OpenAPI document and the reference page public', async () => {
      expect(json(await call('GET', '/healthz')).status).toBe('ok');
      expect(json(await call('GET', '/readyz')).status).toBe('ready');
      const openapi = json(await call('GET', '/api-v1/openapi.json'));
      expect(openapi.openapi).toBe('3.1.0');
      expect(Object.keys(openapi.paths)).toEqual(expect.arrayContaining(['/api-v1/documents', '/api-v1/documents/{id}', '/api-v1/folders']));
      const docs = await call('GET', '/docs/');
      expect(docs.statusCode).toBe(200);
      expect(docs.body).toContain('swagger-ui');
    });
  });

  describe('index and workspaces', () => {
    it('describes the service to any valid token', async () => {
      const body = json(await call('GET', '/api-v1/', world.tokens.annWriteOnly));
      expect(body.service).toBe('Drawbridge');
      expect(body.scopes).toEqual(['diagrams:read', 'diagrams:write', 'export', 'ai:generate']);
      expect(body.endpoints).toContainEqual({ method: 'PATCH', path: '/api-v1/documents/:id' });
    });

    it('lists the workspaces with the role in each, and only the pinned one for a pinned token', async () => {
      const all = json(await call('GET', '/api-v1/workspaces', world.tokens.annAll)).items;
      expect(all.map((w: any) => [w.name, w.role])).toEqual([
        ['Ann main', 'owner'],
        ['Ann second', 'owner'],
        ['Bob main', 'viewer'],
      ]);
      const pinned = json(await call('GET', '/api-v1/workspaces', world.tokens.annPinned)).items;
      expect(pinned.map((w: any) => w.id)).toEqual([world.annWorkspace]);
    });

    it('needs diagrams:read', async () => {
      const res = await call('GET', '/api-v1/workspaces', world.tokens.annWriteOnly);
      expect(res.statusCode).toBe(403);
      expect(json(res).error).toMatchObject({ code: 'insufficient_scope' });
      expect(json(res).error.message).toContain('diagrams:read');
    });
  });

  describe('documents', () => {
    it('creates, reads, updates and deletes a document with an ETag of its version', async () => {
      const created = await createDoc('First', [box('api'), box('db', 200)]);
      expect(created).toMatchObject({ name: 'First', workspaceId: world.annWorkspace, folderId: null, version: 1, format: 'native', warnings: [] });
      expect(created.id).toMatch(/^doc_/);
      const read = await call('GET', `/api-v1/documents/${created.id}`, world.tokens.annRead);
      expect(read.statusCode).toBe(200);
      expect(read.headers.etag).toBe('"1"');
      expect(json(read).elements.map((e: any) => e.id)).toEqual(['api', 'db']);
      expect((await call('GET', `/api-v1/documents/${created.id}`, world.tokens.annRead, undefined, { 'if-none-match': '"1"' })).statusCode).toBe(304);

      const renamed = await call('PATCH', `/api-v1/documents/${created.id}`, world.tokens.annAll, { name: 'Renamed' });
      expect(renamed.statusCode).toBe(200);
      expect(renamed.headers.etag).toBe('"2"');
      expect(json(renamed)).toMatchObject({ name: 'Renamed', version: 2 });
      expect(json(renamed).elements).toHaveLength(2);

      const redrawn = await call('PATCH', `/api-v1/documents/${created.id}`, world.tokens.annAll, { elements: [box('only')] }, { 'if-match': '"2"' });
      expect(json(redrawn)).toMatchObject({ name: 'Renamed', version: 3 });
      expect(json(redrawn).elements.map((e: any) => e.id)).toEqual(['only']);

      expect((await call('DELETE', `/api-v1/documents/${created.id}`, world.tokens.annAll)).statusCode).toBe(204);
      expect((await call('GET', `/api-v1/documents/${created.id}`, world.tokens.annAll)).statusCode).toBe(404);
      expect((await call('DELETE', `/api-v1/documents/${created.id}`, world.tokens.annAll)).statusCode).toBe(404);
    });

    it('answers a stale If-Match with 412 and writes nothing', async () => {
      const doc = await createDoc('Concurrent');
      await call('PATCH', `/api-v1/documents/${doc.id}`, world.tokens.annAll, { name: 'theirs' });
      const stale = await call('PATCH', `/api-v1/documents/${doc.id}`, world.tokens.annAll, { name: 'mine' }, { 'if-match': '"1"' });
      expect(stale.statusCode).toBe(412);
      expect(json(stale).error.code).toBe('version_mismatch');
      expect(json(stale).error.message).toContain('version 2');
      expect(json(await call('GET', `/api-v1/documents/${doc.id}`, world.tokens.annAll))).toMatchObject({ name: 'theirs', version: 2 });
      const garbled = await call('PATCH', `/api-v1/documents/${doc.id}`, world.tokens.annAll, { name: 'mine' }, { 'if-match': 'yesterday' });
      expect(garbled.statusCode).toBe(400);
    });

    it('gives each missing scope its own 403 naming the scope', async () => {
      const doc = await createDoc();
      const cases: [string, Promise<LightMyRequestResponse>][] = [
        ['diagrams:read', call('GET', `/api-v1/documents/${doc.id}`, world.tokens.annWriteOnly)],
        ['diagrams:read', call('GET', `/api-v1/documents?workspace=${world.annWorkspace}`, world.tokens.annWriteOnly)],
        ['diagrams:read', call('GET', `/api-v1/folders?workspace=${world.annWorkspace}`, world.tokens.annWriteOnly)],
        ['diagrams:write', call('POST', '/api-v1/documents', world.tokens.annRead, { workspaceId: world.annWorkspace, name: 'x' })],
        ['diagrams:write', call('PATCH', `/api-v1/documents/${doc.id}`, world.tokens.annRead, { name: 'x' })],
        ['diagrams:write', call('DELETE', `/api-v1/documents/${doc.id}`, world.tokens.annRead)],
        ['diagrams:write', call('POST', '/api-v1/folders', world.tokens.annRead, { workspaceId: world.annWorkspace, name: 'f' })],
      ];
      for (const [scope, pending] of cases) {
        const res = await pending;
        expect(res.statusCode, res.body).toBe(403);
        expect(json(res).error.code).toBe('insufficient_scope');
        expect(json(res).error.message).toContain(scope);
      }
      expect(json(await call('GET', `/api-v1/documents/${doc.id}`, world.tokens.annAll)).version).toBe(1);
    });

    it('lets a viewer read but not write, whatever the token scopes', async () => {
      const bobDoc = await createDoc('Bob plan', [box('b')], world.bobWorkspace, world.tokens.bobAll);
      expect((await call('GET', `/api-v1/documents/${bobDoc.id}`, world.tokens.annAll)).statusCode).toBe(200);
      const writes = [
        call('POST', '/api-v1/documents', world.tokens.annAll, { workspaceId: world.bobWorkspace, name: 'sneaky' }),
        call('PATCH', `/api-v1/documents/${bobDoc.id}`, world.tokens.annAll, { name: 'sneaky' }),
        call('DELETE', `/api-v1/documents/${bobDoc.id}`, world.tokens.annAll),
        call('POST', '/api-v1/folders', world.tokens.annAll, { workspaceId: world.bobWorkspace, name: 'sneaky' }),
      ];
      for (const pending of writes) {
        const res = await pending;
        expect(res.statusCode).toBe(403);
        expect(json(res).error.code).toBe('forbidden');
      }
      expect(json(await call('GET', `/api-v1/documents/${bobDoc.id}`, world.tokens.bobAll))).toMatchObject({ name: 'Bob plan', version: 1 });
    });

    it('hides every resource of a workspace the token may not see behind the same 404 as a missing id', async () => {
      const secondDoc = await createDoc('Second', [box('s')], world.annSecond);
      const folder = json(await call('POST', '/api-v1/folders', world.tokens.annAll, { workspaceId: world.annSecond, name: 'hidden' }));
      const bobOnly = await createDoc('Bob secret', [box('s')], world.bobWorkspace, world.tokens.bobAll);
      const pinned = world.tokens.annPinned;
      const invisible: [string, Promise<LightMyRequestResponse>][] = [
        ['pinned: other workspace document', call('GET', `/api-v1/documents/${secondDoc.id}`, pinned)],
        ['pinned: patch', call('PATCH', `/api-v1/documents/${secondDoc.id}`, pinned, { name: 'x' })],
        ['pinned: delete', call('DELETE', `/api-v1/documents/${secondDoc.id}`, pinned)],
        ['pinned: list documents', call('GET', `/api-v1/documents?workspace=${world.annSecond}`, pinned)],
        ['pinned: list folder documents', call('GET', `/api-v1/documents?folder=${folder.id}`, pinned)],
        ['pinned: list folders', call('GET', `/api-v1/folders?workspace=${world.annSecond}`, pinned)],
        ['pinned: create there', call('POST', '/api-v1/documents', pinned, { workspaceId: world.annSecond, name: 'x' })],
        ['pinned: folder there', call('POST', '/api-v1/folders', pinned, { workspaceId: world.annSecond, name: 'x' })],
        ['non-member: document', call('GET', `/api-v1/documents/${secondDoc.id}`, world.tokens.bobAll)],
        ['non-member: list', call('GET', `/api-v1/documents?workspace=${world.annWorkspace}`, world.tokens.bobAll)],
        ['non-member: folder in create', call('POST', '/api-v1/documents', world.tokens.bobAll, { workspaceId: world.bobWorkspace, name: 'x', folderId: folder.id })],
        ['missing id', call('GET', '/api-v1/documents/doc_doesnotexist', world.tokens.annAll)],
      ];
      for (const [label, pending] of invisible) {
        const res = await pending;
        expect(res.statusCode, label).toBe(404);
        expect(json(res).error.code, label).toBe('not_found');
      }
      expect((await call('GET', `/api-v1/documents/${bobOnly.id}`, world.tokens.annPinned)).statusCode).toBe(404);
      expect(json(await call('GET', `/api-v1/documents/${secondDoc.id}`, world.tokens.annAll)).name).toBe('Second');
    });

    it('rejects malformed JSON, wrong types, bad names, oversize bodies and bad elements without writing anything', async () => {
      const before = json(await call('GET', `/api-v1/documents?workspace=${world.annWorkspace}&limit=100`, world.tokens.annAll)).items.length;
      const raw = (payload: string, contentType = 'application/json') =>
        runtime.app.inject({ method: 'POST', url: '/api-v1/documents', headers: { ...bearer(world.tokens.annAll), 'content-type': contentType }, payload });
      const cases: [string, Promise<LightMyRequestResponse>, number, string][] = [
        ['malformed JSON', raw('{"workspaceId": '), 400, 'bad_request'],
        ['not JSON at all', raw('name=x', 'application/x-www-form-urlencoded'), 415, 'unsupported_media_type'],
        ['wrong type', call('POST', '/api-v1/documents', world.tokens.annAll, { workspaceId: world.annWorkspace, name: 42 }), 400, 'validation_failed'],
        ['missing name', call('POST', '/api-v1/documents', world.tokens.annAll, { workspaceId: world.annWorkspace }), 400, 'validation_failed'],
        ['name too long', call('POST', '/api-v1/documents', world.tokens.annAll, { workspaceId: world.annWorkspace, name: 'n'.repeat(201) }), 400, 'validation_failed'],
        ['bad workspace id', call('POST', '/api-v1/documents', world.tokens.annAll, { workspaceId: 'nope', name: 'x' }), 400, 'validation_failed'],
        ['elements not an array', call('POST', '/api-v1/documents', world.tokens.annAll, { workspaceId: world.annWorkspace, name: 'x', elements: 'boxes' }), 400, 'validation_failed'],
        ['element without type', call('POST', '/api-v1/documents', world.tokens.annAll, { workspaceId: world.annWorkspace, name: 'x', elements: [box('a'), { id: 'b' }] }), 400, 'validation_failed'],
        ['body over 10 MiB', raw(JSON.stringify({ workspaceId: world.annWorkspace, name: 'big', elements: [{ id: 'a', type: 'text', text: 'x'.repeat(11 * 1024 * 1024) }] })), 413, 'payload_too_large'],
      ];
      for (const [label, pending, status, code] of cases) {
        const res = await pending;
        expect(res.statusCode, `${label}: ${res.body}`).toBe(status);
        expect(json(res).error.code, label).toBe(code);
        expect(json(res).error.message, label).toBeTruthy();
        expect(res.body, label).not.toMatch(/at .*\.(ts|js):\d+/);
      }
      const nameTooLong = json(await call('POST', '/api-v1/documents', world.tokens.annAll, { workspaceId: world.annWorkspace, name: 'n'.repeat(201) }));
      expect(nameTooLong.error.message).toBe('body.name: must be at most 200 characters');
      const badElement = json(await call('POST', '/api-v1/documents', world.tokens.annAll, { workspaceId: world.annWorkspace, name: 'x', elements: [box('a'), { id: 'b' }] }));
      expect(badElement.error.message).toContain('elements[1]');
      const after = json(await call('GET', `/api-v1/documents?workspace=${world.annWorkspace}&limit=100`, world.tokens.annAll)).items.length;
      expect(after).toBe(before);
    });

    it('keeps a document unchanged when an update is invalid', async () => {
      const doc = await createDoc('Stable', [box('keep')]);
      const res = await call('PATCH', `/api-v1/documents/${doc.id}`, world.tokens.annAll, { name: 'changed', elements: [{ id: 'x' }] });
      expect(res.statusCode).toBe(400);
      expect((await call('PATCH', `/api-v1/documents/${doc.id}`, world.tokens.annAll, {})).statusCode).toBe(400);
      const read = json(await call('GET', `/api-v1/documents/${doc.id}`, world.tokens.annAll));
      expect(read).toMatchObject({ name: 'Stable', version: 1 });
      expect(read.elements.map((e: any) => e.id)).toEqual(['keep']);
    });

    it('refuses more than 20,000 elements', async () => {
      const elements = Array.from({ length: 20_001 }, (_, i) => ({ id: `e${i}`, type: 'rectangle', x: 0, y: 0, width: 10, height: 10 }));
      const res = await call('POST', '/api-v1/documents', world.tokens.annAll, { workspaceId: world.annWorkspace, name: 'huge', elements });
      expect(res.statusCode).toBe(400);
      expect(json(res).error.message).toContain('20000');
    });
  });

  describe('folders and pagination', () => {
    it('creates folders and lists documents by folder', async () => {
      const folder = json(await call('POST', '/api-v1/folders', world.tokens.annAll, { workspaceId: world.annWorkspace, name: 'Runbooks' }));
      expect(folder).toMatchObject({ name: 'Runbooks', workspaceId: world.annWorkspace });
      expect(folder.id).toMatch(/^fld_/);
      const res = await call('POST', '/api-v1/documents', world.tokens.annAll, { workspaceId: world.annWorkspace, folderId: folder.id, name: 'In folder' });
      expect(json(res).folderId).toBe(folder.id);
      const listed = json(await call('GET', `/api-v1/documents?folder=${folder.id}`, world.tokens.annRead));
      expect(listed.items.map((d: any) => d.name)).toEqual(['In folder']);
      expect(listed.items[0]).not.toHaveProperty('elements');
      const folders = json(await call('GET', `/api-v1/folders?workspace=${world.annWorkspace}`, world.tokens.annRead));
      expect(folders.items.map((f: any) => f.name)).toContain('Runbooks');
      const wrongWorkspace = await call('POST', '/api-v1/documents', world.tokens.annAll, { workspaceId: world.annSecond, folderId: folder.id, name: 'x' });
      expect(wrongWorkspace.statusCode).toBe(404);
    });

    it('pages through every document exactly once while others are inserted and deleted', async () => {
      const { workspaceId } = await runtime.services.accounts.createWorkspace({ email: 'ann@example.com', name: 'Paging' });
      const made: string[] = [];
      for (let i = 0; i < 7; i++) made.push((await createDoc(`p${i}`, [], workspaceId)).id);
      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const url: string = `/api-v1/documents?workspace=${workspaceId}&limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
        const page = json(await call('GET', url, world.tokens.annAll));
        seen.push(...page.items.map((d: any) => d.id));
        cursor = page.nextCursor;
        pages++;
        if (pages === 1) {
          made.push((await createDoc('late arrival', [], workspaceId)).id);
          // Delete the very row the cursor points after: keyset paging must not depend on it.
          await call('DELETE', `/api-v1/documents/${seen[seen.length - 1]}`, world.tokens.annAll);
        }
      } while (cursor);
      // Rows created in the same millisecond are ordered by id, so compare as sets: none missed, none twice.
      expect(seen).toHaveLength(new Set(seen).size);
      expect([...seen].sort()).toEqual([...made].sort());
      expect(pages).toBe(3);
    });

    it('answers a bad limit or a forged, malformed or foreign cursor with 400', async () => {
      const { workspaceId } = await runtime.services.accounts.createWorkspace({ email: 'ann@example.com', name: 'Cursors' });
      for (let i = 0; i < 3; i++) await createDoc(`c${i}`, [], workspaceId);
      for (const limit of ['0', '101', 'ten', '2.5', '-1']) {
        const res = await call('GET', `/api-v1/documents?workspace=${workspaceId}&limit=${limit}`, world.tokens.annAll);
        expect(res.statusCode, limit).toBe(400);
        expect(json(res).error.message).toContain('between 1 and 100');
      }
      const { nextCursor } = json(await call('GET', `/api-v1/documents?workspace=${workspaceId}&limit=1`, world.tokens.annAll));
      const [body, signature] = nextCursor.split('.');
      const forgedBody = Buffer.from(JSON.stringify(['1970-01-01T00:00:00.000Z', 'doc_a'])).toString('base64url');
      for (const cursor of ['garbage', `${forgedBody}.${signature}`, `${body}.AAAA`, `${body}`]) {
        const res = await call('GET', `/api-v1/documents?workspace=${workspaceId}&cursor=${encodeURIComponent(cursor)}`, world.tokens.annAll);
        expect(res.statusCode, cursor).toBe(400);
        expect(json(res).error.code).toBe('invalid_cursor');
      }
      const foreign = await call('GET', `/api-v1/documents?workspace=${world.annWorkspace}&cursor=${encodeURIComponent(nextCursor)}`, world.tokens.annAll);
      expect(json(foreign).error.code).toBe('invalid_cursor');
      const neither = await call('GET', '/api-v1/documents', world.tokens.annAll);
      expect(neither.statusCode).toBe(400);
    });
  });

  describe('unknown routes and methods', () => {
    it('answers in the error form', async () => {
      const missing = await call('GET', '/api-v1/nothing-here', world.tokens.annAll);
      expect(missing.statusCode).toBe(404);
      expect(json(missing).error.code).toBe('not_found');
      const wrongMethod = await runtime.app.inject({ method: 'PUT', url: '/api-v1/documents/doc_x', headers: bearer(world.tokens.annAll), payload: {} });
      expect(wrongMethod.statusCode).toBe(405);
      expect(wrongMethod.headers.allow).toBe('GET, PATCH, DELETE');
      expect(json(wrongMethod).error.code).toBe('method_not_allowed');
    });
  });
});

describe('rate limit (in memory)', () => {
  it('answers the 121st request of a minute with 429 and Retry-After, and counts on every response', async () => {
    const backend = await createBackend('sqlite');
    const runtime = await createRuntime(testConfig({ databaseUrl: backend.databaseUrl }));
    try {
      const world = await buildWorld(runtime);
      const get = () => runtime.app.inject({ method: 'GET', url: '/api-v1/workspaces', headers: bearer(world.tokens.annRead) });
      let last!: LightMyRequestResponse;
      for (let i = 1; i <= 120; i++) {
        last = await get();
        expect(last.statusCode).toBe(200);
        expect(last.headers['ratelimit-remaining']).toBe(String(120 - i));
      }
      expect(last.headers['ratelimit-limit']).toBe('120');
      const limited = await get();
      expect(limited.statusCode).toBe(429);
      expect(json(limited).error.code).toBe('rate_limited');
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      expect(Number(limited.headers['ratelimit-reset'])).toBeLessThanOrEqual(60);
      const other = await runtime.app.inject({ method: 'GET', url: '/api-v1/workspaces', headers: bearer(world.tokens.annAll) });
      expect(other.statusCode).toBe(200);
    } finally {
      await runtime.close();
      await backend.dispose();
    }
  });
});
