import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRuntime, type Runtime } from '../src/adapters/http/server.js';
import { type Backend, createBackend, testConfig } from './support/backends.js';
import { bearer, box, buildWorld, type World } from './support/world.js';

let backend: Backend;
let runtime: Runtime;
let world: World;

beforeAll(async () => {
  backend = await createBackend('sqlite');
  runtime = await createRuntime(testConfig({ databaseUrl: backend.databaseUrl, rateLimitPerMinute: 100_000 }));
  world = await buildWorld(runtime);
});
afterAll(async () => {
  await runtime?.close();
  await backend?.dispose();
});

const call = (method: 'GET' | 'POST' | 'DELETE', url: string, token?: string, payload?: object) =>
  runtime.app.inject({ method, url, headers: token ? bearer(token) : {}, ...(payload ? { payload } : {}) });
const json = (res: LightMyRequestResponse) => res.json() as any;
const createDoc = async (workspaceId = world.annWorkspace, token = world.tokens.annAll) =>
  json(await call('POST', '/api-v1/documents', token, { workspaceId, name: 'Shared', elements: [box('api'), box('db', 300)] }));

describe('sharing', () => {
  it('creates one unguessable public link, returns the same one again, and shows it on the document', async () => {
    const doc = await createDoc();
    expect(json(await call('GET', `/api-v1/documents/${doc.id}`, world.tokens.annAll)).share).toBeNull();
    const first = await call('POST', `/api-v1/documents/${doc.id}/share`, world.tokens.annAll);
    expect(first.statusCode).toBe(201);
    const link = json(first);
    expect(link.token).toMatch(/^shr_[0-9A-Za-z]{32}$/); // 32 base62 characters ≈ 190 bits
    expect(link.url).toBe(`http://drawbridge.test/render/svg?token=${link.token}`);
    const again = await call('POST', `/api-v1/documents/${doc.id}/share`, world.tokens.annAll);
    expect(again.statusCode).toBe(200);
    expect(json(again)).toEqual(link);
    expect(json(await call('GET', `/api-v1/documents/${doc.id}`, world.tokens.annRead)).share).toEqual(link);
    const other = json(await call('POST', `/api-v1/documents/${(await createDoc()).id}/share`, world.tokens.annAll));
    expect(other.token).not.toBe(link.token);
  });

  it('revokes the link, and sharing again makes a new one', async () => {
    const doc = await createDoc();
    const link = json(await call('POST', `/api-v1/documents/${doc.id}/share`, world.tokens.annAll));
    expect((await call('DELETE', `/api-v1/documents/${doc.id}/share`, world.tokens.annAll)).statusCode).toBe(204);
    expect(json(await call('GET', `/api-v1/documents/${doc.id}`, world.tokens.annAll)).share).toBeNull();
    expect((await call('DELETE', `/api-v1/documents/${doc.id}/share`, world.tokens.annAll)).statusCode).toBe(204);
    const fresh = json(await call('POST', `/api-v1/documents/${doc.id}/share`, world.tokens.annAll));
    expect(fresh.token).not.toBe(link.token);
  });

  it('needs diagrams:write and an editor, and hides other workspaces', async () => {
    const doc = await createDoc();
    for (const method of ['POST', 'DELETE'] as const) {
      const res = await call(method, `/api-v1/documents/${doc.id}/share`, world.tokens.annRead);
      expect(res.statusCode).toBe(403);
      expect(json(res).error.message).toContain('diagrams:write');
    }
    const bobDoc = await createDoc(world.bobWorkspace, world.tokens.bobAll);
    expect(json(await call('POST', `/api-v1/documents/${bobDoc.id}/share`, world.tokens.annAll)).error.code).toBe('forbidden');
    const secondDoc = await createDoc(world.annSecond);
    expect((await call('POST', `/api-v1/documents/${secondDoc.id}/share`, world.tokens.annPinned)).statusCode).toBe(404);
    expect((await call('DELETE', `/api-v1/documents/${secondDoc.id}/share`, world.tokens.annPinned)).statusCode).toBe(404);
  });
});
