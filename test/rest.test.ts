import { createHash } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import type { Kysely } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createRuntime, type Runtime } from '../src/adapters/http/server.js';
import { openDatabase } from '../src/infra/storage/database.js';
import type { Database } from '../src/infra/storage/schema.js';
import { type Backend, type BackendName, createBackend, requireServer, testConfig } from './support/backends.js';
import { ALL_SCOPES, bearer, box, buildWorld, type World } from './support/world.js';

const backends: BackendName[] = ['sqlite'];
if (await requireServer('postgres')) backends.push('postgres');

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

const json = (res: LightMyRequestResponse) => res.json() as any;

/** The error form: the status, `{error: {code, message}}` with a message, and no stack trace. Returns the error. */
function expectError(res: LightMyRequestResponse, status: number, code: string, label: string) {
  expect(res.statusCode, `${label}: ${res.body}`).toBe(status);
  const { error } = json(res);
  expect(error.code, label).toBe(code);
  expect(error.message, label).toMatch(/\S/);
  expect(res.body, label).not.toMatch(/at .*\.(ts|js):\d+/);
  return error as { code: string; message: string };
}

/** Over the 10 MiB body limit. */
const OVERSIZE = 'x'.repeat(11 * 1024 * 1024);

describe.each(backends)('REST API on %s', (backendName) => {
  let backend: Backend;
  let runtime: Runtime;
  let world: World;
  /** The same database opened a second time, for what the API does not show (stored token rows) or cannot do. */
  let store: Kysely<Database>;

  beforeAll(async () => {
    backend = await createBackend(backendName);
    runtime = await createRuntime(testConfig({ databaseUrl: backend.databaseUrl, rateLimitPerMinute: 100_000 }));
    world = await buildWorld(runtime);
    ({ db: store } = await openDatabase(backend.databaseUrl));
  });
  afterAll(async () => {
    await store?.destroy();
    await runtime?.close();
    await backend?.dispose();
  });

  const call = (method: Method, url: string, token?: string, body?: unknown, headers: Record<string, string> = {}) =>
    runtime.app.inject({ method, url, headers: { ...(token ? bearer(token) : {}), ...headers }, ...(body === undefined ? {} : { payload: body as object }) });

  /** A body sent as it is, for what `call` cannot send: broken JSON, other media types. */
  const raw = (method: Method, url: string, payload: string, contentType = 'application/json') =>
    runtime.app.inject({ method, url, headers: { ...bearer(world.tokens.annAll), 'content-type': contentType }, payload });

  const createDoc = async (
    name = 'Architecture',
    elements: unknown[] = [box('api')],
    workspaceId = world.annWorkspace,
    token = world.tokens.annAll,
    extra: { folderId?: string } = {},
  ) => {
    const res = await call('POST', '/api-v1/documents', token, { workspaceId, name, elements, ...extra });
    expect(res.statusCode, res.body).toBe(201);
    return json(res);
  };

  const addFolder = async (workspaceId: string, name: string) => {
    const res = await call('POST', '/api-v1/folders', world.tokens.annAll, { workspaceId, name });
    expect(res.statusCode, res.body).toBe(201);
    return json(res);
  };

  /** An empty workspace of Ann's, so a test can compare everything in it before and after; gone after the test. */
  const scratchWorkspaces: string[] = [];
  const freshWorkspace = async (name: string) => {
    const { workspaceId } = await runtime.services.accounts.createWorkspace({ email: 'ann@example.com', name });
    scratchWorkspaces.push(workspaceId);
    return workspaceId;
  };
  // The API cannot delete a workspace: drop the rows (its folders and documents cascade), so Ann's list stays the world's.
  afterEach(async () => {
    if (scratchWorkspaces.length > 0) await store.deleteFrom('workspaces').where('id', 'in', scratchWorkspaces.splice(0)).execute();
  });

  /** Everything stored in a (small) workspace as the API shows it: its folders, and each document in full (elements, share). */
  const contents = async (workspaceId: string) => {
    const page = async (url: string) => {
      const res = await call('GET', url, world.tokens.annAll);
      expect(res.statusCode, res.body).toBe(200);
      expect(json(res).nextCursor, 'contents() reads one page').toBeNull();
      return json(res).items as any[];
    };
    const folders = await page(`/api-v1/folders?workspace=${workspaceId}`);
    const summaries = await page(`/api-v1/documents?workspace=${workspaceId}`);
    const documents = [];
    for (const { id } of summaries) documents.push(json(await call('GET', `/api-v1/documents/${id}`, world.tokens.annAll)));
    return { folders, documents };
  };

  describe('authentication', () => {
    it('answers 401 with WWW-Authenticate on every authenticated route for a missing, malformed, unknown or revoked token, and writes nothing', async () => {
      const workspaceId = await freshWorkspace('Locked');
      const doc = (await createDoc('Locked', [box('a')], workspaceId)).id;
      const shared = (await createDoc('Shared', [box('b')], workspaceId)).id;
      expect((await call('POST', `/api-v1/documents/${shared}/share`, world.tokens.annAll)).statusCode).toBe(201);
      const routes: [Method, string, unknown?][] = [
        ['GET', '/api-v1/'],
        ['GET', '/api-v1/workspaces'],
        ['GET', `/api-v1/folders?workspace=${workspaceId}`],
        ['POST', '/api-v1/folders', { workspaceId, name: 'intruder' }],
        ['GET', `/api-v1/documents?workspace=${workspaceId}`],
        ['POST', '/api-v1/documents', { workspaceId, name: 'intruder', elements: [box('x')] }],
        ['POST', '/api-v1/documents/from-code', { workspaceId, code: 'digraph G { a -> b }' }],
        ['GET', `/api-v1/documents/${doc}`],
        ['PATCH', `/api-v1/documents/${doc}`, { name: 'intruder' }],
        ['DELETE', `/api-v1/documents/${doc}`],
        ['GET', `/api-v1/documents/${doc}/export?format=mermaid`],
        ['POST', `/api-v1/documents/${doc}/share`],
        ['DELETE', `/api-v1/documents/${shared}/share`],
        ['GET', `/api-v1/documents/${doc}/render?format=svg`],
        ['GET', `/api-v1/documents/${doc}/versions`],
        ['GET', `/api-v1/documents/${doc}/versions/1`],
        ['POST', `/api-v1/documents/${doc}/versions/1/restore`],
        ['GET', '/api-v1/capabilities'],
        ['GET', '/api-v1/libraries'],
        ['GET', '/api-v1/icons?query=postgres'],
        ['POST', '/api-v1/documents/generate', { workspaceId, prompt: 'a web app' }],
        ['POST', `/api-v1/documents/${doc}/generate`, { prompt: 'add a cache' }],
        ['GET', '/api-v1/me/ai'],
        ['PUT', '/api-v1/me/ai', { provider: 'openai', model: 'gpt', key: 'sk-intruder' }],
        ['DELETE', '/api-v1/me/ai'],
        ['GET', `/api-v1/workspaces/${workspaceId}/ai`],
        ['PUT', `/api-v1/workspaces/${workspaceId}/ai`, { provider: 'openai', model: 'gpt', key: 'sk-intruder' }],
        ['DELETE', `/api-v1/workspaces/${workspaceId}/ai`],
      ];
      // The table covers every route the index lists, so a route added later cannot skip this test.
      const routeKey = (method: string, url: string) =>
        `${method} ${url.split('?')[0]!.replace(/doc_\w+/, ':id').replace(/workspaces\/ws_\w+/, 'workspaces/:id').replace(/versions\/\d+/, 'versions/:n').replace(/\/$/, '')}`;
      const listed = json(await call('GET', '/api-v1/', world.tokens.annAll)).endpoints.map((e: any) => routeKey(e.method, e.path));
      expect(routes.map(([method, url]) => routeKey(method, url)).sort()).toEqual(listed.sort());

      const revoked = await runtime.services.tokens.create({ userId: world.annUserId, name: 'soon gone', scopes: ALL_SCOPES });
      expect((await call('GET', '/api-v1/workspaces', revoked.token)).statusCode).toBe(200);
      await runtime.services.tokens.revoke(revoked.id);
      const credentials: [string, Record<string, string>][] = [
        ['no Authorization header', {}],
        ['a Basic header', { authorization: 'Basic x' }],
        ['a Basic header with credentials', { authorization: 'Basic YWxhZGRpbjpvcGVuc2VzYW1l' }],
        ['Bearer without a token', { authorization: 'Bearer' }],
        ['an unknown well-formed token', bearer(`drb_live_${'x'.repeat(43)}`)],
        ['a revoked token', bearer(revoked.token)],
      ];
      const before = await contents(workspaceId);
      for (const [method, url, body] of routes) {
        for (const [label, headers] of credentials) {
          const res = await call(method, url, undefined, body, headers);
          expectError(res, 401, 'unauthorized', `${method} ${url} with ${label}`);
          expect(res.headers['www-authenticate'], `${method} ${url} with ${label}`).toMatch(/^Bearer\b/);
        }
      }
      expect(await contents(workspaceId)).toEqual(before);
    });

    it('stores only the SHA-256 of each token, no part of its secret, and shows the secret once', async () => {
      const created = await runtime.services.tokens.create({ userId: world.annUserId, name: 'hash check', scopes: ['export'] });
      expect(created.token).toMatch(/^drb_live_[0-9A-Za-z]{43}$/);
      const row = await store.selectFrom('api_tokens').selectAll().where('id', '=', created.id).executeTakeFirstOrThrow();
      expect(row.token_hash).toBe(createHash('sha256').update(created.token).digest('hex'));
      expect(row.display_prefix).toBe(created.token.slice(0, 13));
      // No column holds the token, or any 8 characters in a row of its secret (the display prefix shows 4).
      const secret = created.token.slice('drb_live_'.length);
      const fragments = Array.from({ length: secret.length - 7 }, (_, i) => secret.slice(i, i + 8));
      for (const [column, value] of Object.entries(row)) {
        expect(fragments.filter((fragment) => String(value).includes(fragment)), column).toEqual([]);
      }
      const listed = await runtime.services.tokens.listForUser(world.annUserId);
      const mine = listed.find((t) => t.id === created.id)!;
      expect(JSON.stringify(mine)).not.toContain(secret);
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
      const posted = await call('POST', '/api-v1/documents', world.tokens.annAll, { workspaceId: world.annWorkspace, name: 'First', elements: [box('api'), box('db', 200)] });
      expect(posted.statusCode).toBe(201);
      expect(posted.headers.etag).toBe('"1"');
      const created = json(posted);
      // Best-guess icons are said, so a client knows the server added something it did not send.
      expect(created).toMatchObject({
        name: 'First',
        workspaceId: world.annWorkspace,
        folderId: null,
        version: 1,
        format: 'native',
        warnings: [
          'elements[0] (id "api"): icon "generic/API" added from its label (autoIcons: false turns this off)',
          'elements[1] (id "db"): icon "databases/Database" added from its label (autoIcons: false turns this off)',
        ],
      });
      expect(created.id).toMatch(/^doc_/);
      const read = await call('GET', `/api-v1/documents/${created.id}`, world.tokens.annRead);
      expect(read.statusCode).toBe(200);
      expect(read.headers.etag).toBe('"1"');
      expect(json(read).elements.map((e: any) => e.id)).toEqual(['api', 'db']);
      // If-None-Match compares weakly, takes a list and `*` (RFC 9110), as proxies and browsers send it.
      for (const tag of ['"1"', 'W/"1"', '"0", "1"', '*']) {
        expect((await call('GET', `/api-v1/documents/${created.id}`, world.tokens.annRead, undefined, { 'if-none-match': tag })).statusCode, tag).toBe(304);
      }
      expect((await call('GET', `/api-v1/documents/${created.id}`, world.tokens.annRead, undefined, { 'if-none-match': '"0", W/"2"' })).statusCode).toBe(200);

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

    /** The write routes that take a body: what each aims at in a fresh workspace, a body it accepts, and bodies its schema refuses. */
    const bodyTargets: {
      route: string;
      method: 'POST' | 'PATCH';
      prepare: (workspaceId: string) => Promise<{ url: string; valid: Record<string, unknown> }>;
      invalid: (workspaceId: string) => [label: string, body: unknown, message?: string][];
    }[] = [
      {
        route: 'POST /documents',
        method: 'POST',
        prepare: async (workspaceId) => ({ url: '/api-v1/documents', valid: { workspaceId, name: 'x', elements: [box('a')] } }),
        invalid: (workspaceId) => [
          ['name of the wrong type', { workspaceId, name: 42 }],
          ['missing name', { workspaceId }],
          ['name too long', { workspaceId, name: 'n'.repeat(201) }, 'body.name: must be at most 200 characters'],
          ['bad workspace id', { workspaceId: 'nope', name: 'x' }],
          ['elements not an array', { workspaceId, name: 'x', elements: 'boxes' }],
          ['element without type', { workspaceId, name: 'x', elements: [box('a'), { id: 'b' }] }, 'elements[1]'],
          ['a misspelt field', { workspaceId, name: 'x', elemnts: [box('a')] }, 'body: unknown field "elemnts"; the fields are workspaceId, name, folderId, elements, layout, vendor, autoIcons'],
        ],
      },
      {
        route: 'PATCH /documents/:id',
        method: 'PATCH',
        prepare: async (workspaceId) => ({ url: `/api-v1/documents/${(await createDoc('Stable', [box('keep')], workspaceId)).id}`, valid: { name: 'changed' } }),
        invalid: () => [
          ['name of the wrong type', { name: 42 }],
          ['blank name', { name: '   ' }],
          ['name too long', { name: 'n'.repeat(201) }, 'body.name: must be at most 200 characters'],
          ['elements not an array', { elements: 'boxes' }],
          ['a good name with an element without type', { name: 'changed', elements: [box('a'), { id: 'b' }] }, 'elements[1]'],
          ['autoIcons not a boolean', { elements: [box('a')], autoIcons: 'yes' }],
          ['nothing to change', {}, 'name, elements, operations or code'],
          ['misspelt fields', { nmae: 'changed', autoicons: false }, 'unknown fields "nmae", "autoicons"'],
        ],
      },
      {
        route: 'POST /folders',
        method: 'POST',
        prepare: async (workspaceId) => ({ url: '/api-v1/folders', valid: { workspaceId, name: 'Runbooks' } }),
        invalid: (workspaceId) => [
          ['name of the wrong type', { workspaceId, name: 42 }],
          ['missing name', { workspaceId }],
          ['blank name', { workspaceId, name: '   ' }],
          ['name too long', { workspaceId, name: 'n'.repeat(201) }, 'body.name: must be at most 200 characters'],
          ['bad workspace id', { workspaceId: 'nope', name: 'x' }],
          ['workspace id of the wrong type', { workspaceId: 7, name: 'x' }],
          ['a field folders do not have', { workspaceId, name: 'x', parentId: 'fld_x' }, 'unknown field "parentId"'],
        ],
      },
    ];

    it.each(bodyTargets)('$route rejects malformed JSON, other media types, wrong types and oversize bodies, and writes nothing', async ({ method, prepare, invalid }) => {
      const workspaceId = await freshWorkspace('Bodies');
      const { url, valid } = await prepare(workspaceId);
      type Case = [label: string, send: () => Promise<LightMyRequestResponse>, status: number, code: string, message?: string];
      const cases: Case[] = [
        ['malformed JSON', () => raw(method, url, '{"name": '), 400, 'bad_request', 'not valid JSON'],
        ['empty JSON body', () => raw(method, url, ''), 400, 'bad_request'],
        ['form-encoded body', () => raw(method, url, 'name=x', 'application/x-www-form-urlencoded'), 415, 'unsupported_media_type'],
        ['plain-text body', () => raw(method, url, JSON.stringify(valid), 'text/plain'), 415, 'unsupported_media_type'],
        ['array instead of an object', () => call(method, url, world.tokens.annAll, [valid]), 400, 'validation_failed'],
        // The body limit stops it before any parsing.
        ['body over 10 MiB', () => raw(method, url, JSON.stringify({ ...valid, padding: OVERSIZE })), 413, 'payload_too_large', '10 MiB'],
        ...invalid(workspaceId).map(([label, body, message]): Case => [label, () => call(method, url, world.tokens.annAll, body), 400, 'validation_failed', message]),
      ];
      const before = await contents(workspaceId);
      for (const [label, send, status, code, message] of cases) {
        const error = expectError(await send(), status, code, label);
        if (message) expect(error.message, label).toContain(message);
        expect(await contents(workspaceId), `${label} changed the workspace`).toEqual(before);
      }
      // The valid body is accepted: each case above fails for what it changed, not for something it shares.
      expect((await call(method, url, world.tokens.annAll, valid)).statusCode).toBe(method === 'POST' ? 201 : 200);
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


    const removeDoc = async (id: string) => {
      expect((await call('DELETE', `/api-v1/documents/${id}`, world.tokens.annAll)).statusCode).toBe(204);
    };

    /** The paginated listings, each opened empty in a workspace: its URL, and how to add a row to it and remove one. */
    const listings: {
      name: string;
      open: (workspaceId: string) => Promise<{ url: string; add: (name: string) => Promise<string>; remove: (id: string) => Promise<void> }>;
    }[] = [
      {
        name: 'documents of a workspace',
        open: async (workspaceId) => ({
          url: `/api-v1/documents?workspace=${workspaceId}`,
          add: async (name) => (await createDoc(name, [], workspaceId)).id,
          remove: removeDoc,
        }),
      },
      {
        name: 'documents of a folder',
        open: async (workspaceId) => {
          const folderId = (await addFolder(workspaceId, 'paged')).id;
          return {
            url: `/api-v1/documents?folder=${folderId}`,
            add: async (name) => (await createDoc(name, [], workspaceId, world.tokens.annAll, { folderId })).id,
            remove: removeDoc,
          };
        },
      },
      {
        name: 'folders of a workspace',
        open: async (workspaceId) => ({
          url: `/api-v1/folders?workspace=${workspaceId}`,
          add: async (name) => (await addFolder(workspaceId, name)).id,
          // The API has no way to delete a folder: take the row away underneath it.
          remove: async (id) => void (await store.deleteFrom('folders').where('id', '=', id).execute()),
        }),
      },
    ];

    it.each(listings)('pages through the $name exactly once while rows are inserted and deleted', async ({ open }) => {
      const { url, add, remove } = await open(await freshWorkspace('Paging'));
      const made: string[] = [];
      for (let i = 0; i < 7; i++) made.push(await add(`p${i}`));
      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const page = json(await call('GET', `${url}&limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, world.tokens.annAll));
        expect(page.items.length).toBeLessThanOrEqual(3);
        seen.push(...page.items.map((row: any) => row.id));
        cursor = page.nextCursor;
        pages++;
        if (pages === 1) {
          made.push(await add('late arrival'));
          // Delete the very row the cursor points after: keyset paging must not depend on it.
          await remove(seen[seen.length - 1]!);
        }
      } while (cursor && pages < 10);
      // Rows created in the same millisecond are ordered by id, so compare as sets: none missed, none twice.
      expect(seen).toHaveLength(new Set(seen).size);
      expect([...seen].sort()).toEqual([...made].sort());
      expect(pages).toBe(3);
    });

    it.each(listings)('answers a bad limit or a forged or malformed cursor for the $name with 400', async ({ open }) => {
      const { url, add } = await open(await freshWorkspace('Cursors'));
      for (let i = 0; i < 3; i++) await add(`c${i}`);
      for (const limit of ['1', '100']) expect((await call('GET', `${url}&limit=${limit}`, world.tokens.annAll)).statusCode, limit).toBe(200);
      for (const limit of ['0', '101', 'ten', '2.5', '-1', '']) {
        const error = expectError(await call('GET', `${url}&limit=${limit}`, world.tokens.annAll), 400, 'validation_failed', `limit=${limit}`);
        expect(error.message, limit).toContain('between 1 and 100');
      }
      const { nextCursor } = json(await call('GET', `${url}&limit=1`, world.tokens.annAll));
      const [body, signature] = nextCursor.split('.');
      const forgedBody = Buffer.from(JSON.stringify(['1970-01-01T00:00:00.000Z', 'doc_a'])).toString('base64url');
      for (const cursor of ['garbage', `${forgedBody}.${signature}`, `${body}.AAAA`, `${body}`, `${nextCursor}.${signature}`, `${nextCursor}${'A'.repeat(600)}`]) {
        expectError(await call('GET', `${url}&cursor=${encodeURIComponent(cursor)}`, world.tokens.annAll), 400, 'invalid_cursor', cursor);
      }
    });

    it('accepts a cursor only in the listing it came from', async () => {
      const opened: { name: string; url: string }[] = [];
      for (const workspace of ['A', 'B']) {
        const workspaceId = await freshWorkspace(`Cursor ${workspace}`);
        for (const { name, open } of listings) {
          const { url, add } = await open(workspaceId);
          for (const row of ['one', 'two']) await add(row);
          opened.push({ name: `${name} ${workspace}`, url });
        }
      }
      const firstPages = [];
      for (const { url } of opened) firstPages.push(json(await call('GET', `${url}&limit=1`, world.tokens.annAll)));
      for (const [i, from] of opened.entries()) {
        for (const [j, to] of opened.entries()) {
          const res = await call('GET', `${to.url}&limit=1&cursor=${encodeURIComponent(firstPages[i].nextCursor)}`, world.tokens.annAll);
          if (i !== j) {
            expectError(res, 400, 'invalid_cursor', `a cursor of the ${from.name} on the ${to.name}`);
            continue;
          }
          expect(res.statusCode, res.body).toBe(200);
          expect(json(res).items).toHaveLength(1);
          expect(json(res).items[0].id).not.toBe(firstPages[i].items[0].id);
        }
      }
    });

    it('lists documents of exactly one of a workspace or a folder', async () => {
      const folder = await addFolder(world.annWorkspace, 'either');
      for (const query of ['', `?workspace=${world.annWorkspace}&folder=${folder.id}`]) {
        const error = expectError(await call('GET', `/api-v1/documents${query}`, world.tokens.annAll), 400, 'validation_failed', query || 'neither');
        expect(error.message).toContain('exactly one of');
      }
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
      // A GET route that finds nothing (a missing file of the reference page) is not told to use GET.
      const missingFile = await runtime.app.inject({ method: 'GET', url: '/docs/static/no-such-file.js' });
      expect(missingFile.statusCode).toBe(404);
      expect(json(missingFile).error.code).toBe('not_found');
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
