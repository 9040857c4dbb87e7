import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { bearer, box, useTestService } from './support/world.js';

const service = useTestService();

const get = (url: string, token?: string) => service.runtime.app.inject({ method: 'GET', url, headers: token ? bearer(token) : {} });
const post = (url: string, token: string, payload: object) => service.runtime.app.inject({ method: 'POST', url, headers: bearer(token), payload });
const json = (res: LightMyRequestResponse) => res.json() as any;

describe('catalog endpoints', () => {
  it('serves the drawing guide generated from the schema to any valid token', async () => {
    const res = await get('/api-v1/capabilities', service.world.tokens.annWriteOnly);
    expect(res.statusCode).toBe(200);
    const guide = json(res);
    expect(JSON.stringify(guide)).toContain('cylinder');
    expect(JSON.stringify(guide)).toContain('iconRef');
    expect((await get('/api-v1/capabilities')).statusCode).toBe(401);
  });

  it('says what to try when no icon matches', async () => {
    const res = json(await get('/api-v1/icons?query=pinecone', service.world.tokens.annAll));
    expect(res.items).toEqual([]);
    expect(res.hint).toMatch(/^no icon matches "pinecone": try the kind of thing it is \(database, queue/);
    expect(json(await get('/api-v1/icons?query=postgres', service.world.tokens.annAll)).hint).toBeUndefined();
  });

  it('serves one section of the guide on request, over REST and as an MCP resource', async () => {
    const examples = json(await get('/api-v1/capabilities?section=examples', service.world.tokens.annAll));
    expect(Object.keys(examples)).toEqual(['examples']);
    expect(examples.examples.length).toBeGreaterThan(0);
    const unknown = await get('/api-v1/capabilities?section=everything', service.world.tokens.annAll);
    expect(unknown.statusCode).toBe(400);
    expect(json(unknown).error.message).toMatch(/^section must be one of definitions, commonFields, sharedFields, elementTypes, arrowRules/);
    const mcp = await service.runtime.app.inject({
      method: 'POST',
      url: '/mcp',
      // Accept: application/json alone is served: every answer here is JSON.
      headers: { ...bearer(service.world.tokens.annAll), 'content-type': 'application/json', accept: 'application/json' },
      payload: { jsonrpc: '2.0', id: 1, method: 'resources/read', params: { uri: 'drawbridge://capabilities/arrowRules' } },
    });
    expect(mcp.statusCode).toBe(200);
    expect(Object.keys(JSON.parse(mcp.json().result.contents[0].text))).toEqual(['arrowRules']);
  });

  it('lists libraries with counts, and every label on request', async () => {
    const { libraries } = json(await get('/api-v1/libraries', service.world.tokens.annRead));
    const ids = libraries.map((l: any) => l.id);
    expect(ids).toEqual(expect.arrayContaining(['aws', 'azure', 'gcp', 'kubernetes', 'databases']));
    for (const library of libraries) {
      expect(library.count).toBeGreaterThan(0);
      expect(library).not.toHaveProperty('items');
    }
    const withItems = json(await get('/api-v1/libraries?items=1', service.world.tokens.annRead)).libraries;
    const databases = withItems.find((l: any) => l.id === 'databases');
    expect(databases.items).toContain('PostgreSQL');
    expect(databases.items).toHaveLength(databases.count);
  });

  it('searches icons, preferring the requested vendor, and validates the query', async () => {
    const postgres = json(await get('/api-v1/icons?query=postgres', service.world.tokens.annRead)).items;
    expect(postgres[0]).toMatchObject({ library: 'databases', label: 'PostgreSQL', ref: 'databases/PostgreSQL' });
    const pod = json(await get('/api-v1/icons?query=pod&vendor=kubernetes&limit=3', service.world.tokens.annRead)).items;
    expect(pod).toHaveLength(3);
    expect(pod[0].library).toBe('kubernetes');
    for (const bad of ['', '?query=', '?query=x&vendor=oracle', '?query=x&limit=0', '?query=x&limit=101']) {
      const res = await get(`/api-v1/icons${bad}`, service.world.tokens.annRead);
      expect(res.statusCode, bad).toBe(400);
      expect(json(res).error.code).toBe('validation_failed');
    }
  });

  it('serves a sanitised icon SVG publicly, for exports that link to it', async () => {
    const res = await get('/icons/databases/PostgreSQL.svg');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('image/svg+xml');
    expect(res.headers['content-security-policy']).toContain("default-src 'none'");
    expect(res.body).toMatch(/^<svg[\s>]/);
    expect(res.body).not.toMatch(/<script|on\w+=|href="http/i);
    expect((await get('/icons/databases/NoSuchThing.svg')).statusCode).toBe(404);
    expect((await get('/icons/databases/PostgreSQL.png')).statusCode).toBe(404);
  });
});

describe('icons stamped on write', () => {
  it('stamps an explicit iconRef, guesses icons for labelled nodes, and honours autoIcons:false', async () => {
    const elements = [
      { id: 'db', type: 'rectangle', x: 0, y: 0, width: 160, height: 100, text: 'Orders', iconRef: 'databases/PostgreSQL' },
      { id: 'cache', type: 'rectangle', x: 300, y: 0, width: 160, height: 100, text: 'Redis' },
      { id: 'area', type: 'rectangle', x: -50, y: -50, width: 900, height: 400, text: 'Redis' },
    ];
    const created = json(await post('/api-v1/documents', service.world.tokens.annAll, { workspaceId: service.world.annWorkspace, name: 'Icons', elements }));
    const byId = Object.fromEntries(created.elements.map((e: any) => [e.id, e]));
    expect(byId.db.iconRef).toBe('databases/PostgreSQL');
    expect(byId.db.icon).toMatchObject({ ref: 'databases/PostgreSQL' });
    expect(byId.cache.icon?.ref).toMatch(/Redis/);
    expect(byId.area.icon).toBeUndefined();

    const plain = json(await post('/api-v1/documents', service.world.tokens.annAll, { workspaceId: service.world.annWorkspace, name: 'No guesses', elements, autoIcons: false }));
    const plainById = Object.fromEntries(plain.elements.map((e: any) => [e.id, e]));
    expect(plainById.db.icon).toMatchObject({ ref: 'databases/PostgreSQL' });
    expect(plainById.cache.icon).toBeUndefined();
  });

  it('turns an unknown iconRef into a warning with suggestions, not a failure', async () => {
    const res = await post('/api-v1/documents', service.world.tokens.annAll, {
      workspaceId: service.world.annWorkspace,
      name: 'Typo',
      elements: [{ id: 'b', type: 'rectangle', x: 0, y: 0, width: 160, height: 100, text: 'Bucket', iconRef: 'aws/Amazon S4' }],
    });
    expect(res.statusCode).toBe(201);
    expect(json(res).warnings.join('\n')).toMatch(/elements\[0\] \(id "b"\).*aws\/Amazon S4/);
  });

  it('rejects an unknown vendor hint', async () => {
    const res = await post('/api-v1/documents', service.world.tokens.annAll, { workspaceId: service.world.annWorkspace, name: 'x', vendor: 'oracle' });
    expect(res.statusCode).toBe(400);
    expect(json(res).error.message).toContain('vendor must be one of aws, azure, gcp, kubernetes');
  });
});

describe('export to Excalidraw', () => {
  it('exports a valid .excalidraw scene with the export scope only', async () => {
    const doc = json(await post('/api-v1/documents', service.world.tokens.annAll, { workspaceId: service.world.annWorkspace, name: 'Export me', elements: [box('a'), box('b', 300)] }));
    const exportOnly = await service.runtime.services.tokens.create({ userId: service.world.annUserId, name: 'exporter', scopes: ['export'] });
    const res = await get(`/api-v1/documents/${doc.id}/export?format=excalidraw`, exportOnly.token);
    expect(res.statusCode).toBe(200);
    const body = json(res);
    expect(body.format).toBe('excalidraw');
    expect(body.scene.type).toBe('excalidraw');
    expect(body.scene.elements.filter((e: any) => e.type === 'rectangle')).toHaveLength(2);
    expect(Array.isArray(body.warnings)).toBe(true);
  });

  it('exports Mermaid and D2 code, with D2 icons linked to this service', async () => {
    const elements = [
      { id: 'api', type: 'rectangle', x: 0, y: 0, width: 160, height: 100, text: 'API' },
      { id: 'db', type: 'cylinder', x: 300, y: 0, width: 160, height: 100, text: 'Orders', iconRef: 'databases/PostgreSQL' },
      { id: 'call', type: 'arrow', startBinding: { elementId: 'api', focus: { x: 1, y: 0.5 } }, endBinding: { elementId: 'db', focus: { x: 0, y: 0.5 } } },
    ];
    const doc = json(await post('/api-v1/documents', service.world.tokens.annAll, { workspaceId: service.world.annWorkspace, name: 'Code', elements }));
    const mermaid = json(await get(`/api-v1/documents/${doc.id}/export?format=mermaid`, service.world.tokens.annAll));
    expect(mermaid.format).toBe('mermaid');
    expect(mermaid.code).toMatch(/^(---[\s\S]*?---\n)?flowchart (LR|TB|RL|BT)/);
    expect(mermaid.code).toContain('Orders');
    expect(mermaid.code).toMatch(/-->/);
    const d2 = json(await get(`/api-v1/documents/${doc.id}/export?format=d2`, service.world.tokens.annAll));
    expect(d2.format).toBe('d2');
    expect(d2.code).toContain('shape: cylinder');
    expect(d2.code).toContain('http://drawbridge.test/icons/databases/PostgreSQL.svg');
    expect(d2.code).toMatch(/->/);
  });

  it('answers an unknown format with the supported ones, a missing scope with 403 and another workspace with 404', async () => {
    const doc = json(await post('/api-v1/documents', service.world.tokens.annAll, { workspaceId: service.world.annSecond, name: 'Hidden', elements: [box('a')] }));
    const badFormat = await get(`/api-v1/documents/${doc.id}/export?format=visio`, service.world.tokens.annAll);
    expect(badFormat.statusCode).toBe(400);
    expect(json(badFormat).error.code).toBe('unsupported_format');
    expect(json(badFormat).error.message).toContain('excalidraw, mermaid, d2');
    const noScope = await get(`/api-v1/documents/${doc.id}/export?format=excalidraw`, service.world.tokens.annRead);
    expect(noScope.statusCode).toBe(403);
    expect(json(noScope).error.message).toContain('export');
    const pinned = await get(`/api-v1/documents/${doc.id}/export?format=excalidraw`, service.world.tokens.annPinned);
    expect(pinned.statusCode).toBe(404);
  });
});

describe('OpenAPI', () => {
  it('documents the catalog and export endpoints', async () => {
    const paths = Object.keys(json(await get('/api-v1/openapi.json')).paths);
    expect(paths).toEqual(expect.arrayContaining(['/api-v1/capabilities', '/api-v1/libraries', '/api-v1/icons', '/api-v1/documents/{id}/export']));
  });
});
