import { describe, expect, it } from 'vitest';
import { signedIn } from '../support/web-client.js';
import { box, useTestService } from '../support/world.js';

const ANN = { email: 'ann@example.com', password: 'correct horse battery staple' };

/** The History panel's session routes, without a browser: the same history and the same rules as REST's versions. */
describe('the editor history routes', () => {
  const service = useTestService();

  /** A diagram of `token`'s workspace in three versions: created, renamed, one box added. */
  async function diagramWithHistory(token: string, workspaceId: string) {
    const { app } = service.runtime;
    const auth = { authorization: `Bearer ${token}` };
    const id = (await app.inject({ method: 'POST', url: '/api-v1/documents', headers: auth, payload: { workspaceId, name: 'History', elements: [box('api')] } })).json().id as string;
    await app.inject({ method: 'PATCH', url: `/api-v1/documents/${id}`, headers: auth, payload: { name: 'History renamed' } });
    await app.inject({ method: 'PATCH', url: `/api-v1/documents/${id}`, headers: auth, payload: { operations: [{ op: 'add', element: box('db', 300) }] } });
    return id;
  }

  /** Ann signed in, with the editor page of `id` open (its CSRF token is what the page's restore sends). */
  async function ann(id: string) {
    const client = await signedIn(service.runtime.app, ANN.email, ANN.password);
    await client.get(`/diagrams/${id}/edit`);
    const cookie = `drawbridge_session=${client.cookie('drawbridge_session')}`;
    const restore = (id: string, n: number | string, headers: Record<string, string> = {}) =>
      service.runtime.app.inject({ method: 'POST', url: `/diagrams/${id}/versions/${n}/restore`, payload: {}, headers: { cookie, 'x-csrf-token': client.csrf, ...headers } });
    return { client, restore };
  }

  it('lists versions newest first with who, when, door and summary, a page at a time, and draws any of them', async () => {
    const id = await diagramWithHistory(service.world.tokens.annAll, service.world.annWorkspace);
    const { client } = await ann(id);
    const first = await client.get(`/diagrams/${id}/versions?limit=2`);
    expect(first.statusCode).toBe(200);
    const page = first.json();
    expect(page.items.map((v: { version: number }) => v.version)).toEqual([3, 2]);
    expect(page.items[0]).toMatchObject({ door: 'rest', summary: expect.stringMatching(/^1 added/), author: { email: ANN.email } });
    expect(page.items[1].summary).toBe('renamed "History" → "History renamed"');
    const rest = (await client.get(`/diagrams/${id}/versions?limit=2&cursor=${encodeURIComponent(page.nextCursor)}`)).json();
    expect(rest.items.map((v: { version: number }) => v.version)).toEqual([1]);
    expect(rest.nextCursor).toBeNull();

    const picture = await client.get(`/diagrams/${id}/versions/1/image.svg`);
    expect(picture.statusCode).toBe(200);
    expect(picture.headers['content-type']).toContain('image/svg+xml');
    expect(picture.body).toContain('<svg');
    expect((await client.get(`/diagrams/${id}/versions/9/image.svg`)).json().error.code).toBe('not_found');
    const bad = await client.get(`/diagrams/${id}/versions/zero/image.svg`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toContain('a version is a whole number from 1');
    expect((await client.get(`/diagrams/${id}/versions?limit=5000`)).statusCode).toBe(400);
  });

  it('restores a version as a new one with If-Match, answers 412 when stale, and refuses a restore without the CSRF token', async () => {
    const id = await diagramWithHistory(service.world.tokens.annAll, service.world.annWorkspace);
    const { client, restore } = await ann(id);
    const stale = await restore(id, 1, { 'if-match': '"2"' });
    expect(stale.statusCode).toBe(412);
    expect(stale.json().error).toMatchObject({ code: 'version_mismatch', details: { currentVersion: 3 } });
    const forged = await restore(id, 1, { 'if-match': '"3"', 'x-csrf-token': 'x'.repeat(32) });
    expect(forged.statusCode).toBe(403);
    expect((await client.get(`/diagrams/${id}/state`)).json().version).toBe(3);

    const restored = await restore(id, 1, { 'if-match': '"3"' });
    expect(restored.statusCode).toBe(200);
    expect(restored.json()).toMatchObject({ version: 4, restored: 1 });
    const v1 = (await service.runtime.app.inject({ method: 'GET', url: `/api-v1/documents/${id}/versions/1`, headers: { authorization: `Bearer ${service.world.tokens.annAll}` } })).json();
    const now = (await service.runtime.app.inject({ method: 'GET', url: `/api-v1/documents/${id}`, headers: { authorization: `Bearer ${service.world.tokens.annAll}` } })).json();
    expect(now).toMatchObject({ name: 'History', elements: v1.elements });
    const newest = (await client.get(`/diagrams/${id}/versions?limit=1`)).json().items[0];
    expect(newest).toMatchObject({ version: 4, door: 'web' });
    expect(newest.summary).toMatch(/^restored version 1: /);
    expect((await restore(id, 77, { 'if-match': '"4"' })).json().error.code).toBe('not_found');
  });

  it('lets a viewer list and preview versions but not restore one', async () => {
    // Ann is a viewer in Bob's workspace.
    const id = await diagramWithHistory(service.world.tokens.bobAll, service.world.bobWorkspace);
    const { client, restore } = await ann(id);
    expect((await client.get(`/diagrams/${id}/versions`)).json().items).toHaveLength(3);
    expect((await client.get(`/diagrams/${id}/versions/2/image.svg`)).statusCode).toBe(200);
    const refused = await restore(id, 1, { 'if-match': '"3"' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.code).toBe('forbidden');
    expect((await client.get(`/diagrams/${id}/state`)).json().version).toBe(3);
    // Another workspace's diagram is answered like one that does not exist.
    expect((await client.get('/diagrams/doc_AAAAAAAAAAAAAAAAAAAA/versions')).statusCode).toBe(404);
  });
});
