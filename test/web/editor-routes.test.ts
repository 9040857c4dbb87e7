import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { principalOf } from '../../src/adapters/web/session.js';
import { ANSWERS } from '../fixtures/ai/answers.js';
import { type FakeProvider, startFakeProvider } from '../support/fake-ai.js';
import { signedIn } from '../support/web-client.js';
import { box, useTestService } from '../support/world.js';

const ANN = { email: 'ann@example.com', password: 'correct horse battery staple' };

/** The editor's session routes, without a browser: the same rules as REST, and the page's CSRF token on every write. */
describe('the editor routes', () => {
  const service = useTestService({ config: { aiAllowPrivateUrls: true, aiTimeoutSeconds: 5 } });
  let fake: FakeProvider;
  beforeAll(async () => {
    fake = await startFakeProvider();
  });
  afterAll(async () => fake?.close());

  async function annWithDiagram() {
    const { app } = service.runtime;
    const ann = await signedIn(app, ANN.email, ANN.password);
    const created = await app.inject({
      method: 'POST',
      url: '/api-v1/documents',
      headers: { authorization: `Bearer ${service.world.tokens.annAll}` },
      payload: { workspaceId: service.world.annWorkspace, name: 'Routes', elements: [box('api'), box('db', 300)] },
    });
    const id = created.json().id as string;
    const page = await ann.get(`/diagrams/${id}/edit`);
    const cookie = `drawbridge_session=${ann.cookie('drawbridge_session')}`;
    const send = (method: 'PUT' | 'POST' | 'PATCH', url: string, payload: unknown, headers: Record<string, string> = {}) =>
      app.inject({ method, url, payload: payload as object, headers: { cookie, 'x-csrf-token': ann.csrf, ...headers } });
    return { app, ann, id, page, cookie, send };
  }

  it('serves the editor page with its own CSP and the scene as our .excalidraw export', async () => {
    const { ann, id, page } = await annWithDiagram();
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-security-policy']).toContain("style-src 'self' 'unsafe-inline'");
    expect(page.headers['content-security-policy']).toContain("script-src 'self';");
    expect(page.body).toContain('<script type="module" src="/assets/editor/editor.js"></script>');
    // Every other page keeps the strict policy.
    expect((await ann.get(`/diagrams/${id}`)).headers['content-security-policy']).toContain("style-src 'self';");
    const scene = (await ann.get(`/diagrams/${id}/scene`)).json();
    expect(scene).toMatchObject({ id, version: 1, writable: true, scene: { type: 'excalidraw' } });
    expect(scene.scene.elements.map((e: { id: string }) => e.id)).toEqual(expect.arrayContaining(['api', 'db']));
    expect((await ann.get(`/diagrams/${id}/state`)).json()).toMatchObject({ version: 1 });
  });

  it('saves with If-Match, answers 412 with the current version when stale, and refuses a write without the CSRF token', async () => {
    const { ann, id, send } = await annWithDiagram();
    const { scene } = (await ann.get(`/diagrams/${id}/scene`)).json();
    const saved = await send('PUT', `/diagrams/${id}/scene`, { scene }, { 'if-match': '"1"' });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({ version: 2 });
    const stale = await send('PUT', `/diagrams/${id}/scene`, { scene }, { 'if-match': '"1"' });
    expect(stale.statusCode).toBe(412);
    expect(stale.json().error).toMatchObject({ code: 'version_mismatch', details: { currentVersion: 2 } });
    const forged = await send('PUT', `/diagrams/${id}/scene`, { scene }, { 'if-match': '"2"', 'x-csrf-token': 'x'.repeat(43) });
    expect(forged.statusCode).toBe(403);
    const bad = await send('PUT', `/diagrams/${id}/scene`, { scene: 42 }, { 'if-match': '"2"' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.code).toBe('validation_failed');
    expect((await ann.get(`/diagrams/${id}/state`)).json().version).toBe(2);

    const copy = await send('POST', `/diagrams/${id}/copy`, { scene, name: 'Routes (mine)' });
    expect(copy.statusCode).toBe(201);
    expect(copy.json().url).toMatch(/^\/diagrams\/doc_\w+\/edit$/);
  });

  it('saves the elements a canvas names as edits by element, with If-Match, and the whole scene when they do not say it all', async () => {
    const { ann, id, send } = await annWithDiagram();
    const { scene } = (await ann.get(`/diagrams/${id}/scene`)).json();
    const relabelled = structuredClone(scene);
    const label = relabelled.elements.find((e: { containerId?: string }) => e.containerId === 'db');
    label.text = label.originalText = 'Orders';
    const saved = await send('PATCH', `/diagrams/${id}/scene`, { scene: relabelled, changed: ['db', label.id] }, { 'if-match': '"1"' });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({ version: 2, asOperations: true });
    const summaryOf = async () => (await ann.get(`/diagrams/${id}/versions?limit=1`)).json().items[0].summary;
    expect(await summaryOf()).toBe('1 changed');

    // "api" changed too but is not named: nothing is lost, the whole scene is written.
    const moved = { ...relabelled, elements: relabelled.elements.map((e: { id: string; x: number }) => (e.id === 'api' ? { ...e, x: e.x + 40 } : e)) };
    const whole = await send('PATCH', `/diagrams/${id}/scene`, { scene: moved, changed: ['db'] }, { 'if-match': '"2"' });
    expect(whole.json()).toMatchObject({ version: 3, asOperations: false });

    expect((await send('PATCH', `/diagrams/${id}/scene`, { scene: moved, changed: ['db'] }, { 'if-match': '"2"' })).statusCode).toBe(412);
    const unconditional = await send('PATCH', `/diagrams/${id}/scene`, { scene: moved, changed: ['db'] });
    expect(unconditional.statusCode).toBe(400);
    expect(unconditional.json().error.message).toContain('If-Match');
    const empty = await send('PATCH', `/diagrams/${id}/scene`, { scene: moved, changed: [] }, { 'if-match': '"3"' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error.message).toContain('changed');
    expect((await ann.get(`/diagrams/${id}/state`)).json().version).toBe(3);
  });

  it('answers a diagram another workspace holds like one that does not exist', async () => {
    const { app, ann, cookie } = await annWithDiagram();
    const bobs = await app.inject({
      method: 'POST',
      url: '/api-v1/documents',
      headers: { authorization: `Bearer ${service.world.tokens.bobAll}` },
      payload: { workspaceId: service.world.bobWorkspace, name: 'Bob only', elements: [box('x')] },
    });
    // Ann is a viewer in Bob's workspace: she reads it, read-only.
    expect((await ann.get(`/diagrams/${bobs.json().id}/scene`)).json().writable).toBe(false);
    const missing = await app.inject({ method: 'GET', url: '/diagrams/doc_AAAAAAAAAAAAAAAAAAAA/state', headers: { cookie } });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error.code).toBe('not_found');
  });

  it('asks the AI to change the open diagram on the version it shows, and to draw a new one from a description', async () => {
    const { ann, id, send, page } = await annWithDiagram();
    expect(page.body).toContain('data-ai="false"');
    expect((await ann.get(`/workspaces/${service.world.annWorkspace}/new`)).body).toContain('<a href="/settings/ai">set up AI</a>');
    const annPrincipal = principalOf({ id: service.world.annUserId, email: ANN.email, name: 'Ann', plan: 'free' });
    await service.runtime.services.ai.set(annPrincipal, { provider: 'openai', model: 'gpt-4.1-mini', key: 'sk-test-key-0000', baseUrl: `${fake.url}/openai/v1` });
    expect((await ann.get(`/diagrams/${id}/edit`)).body).toContain('data-ai="true"');

    fake.queue.push({ answer: ANSWERS.checkoutFlow });
    const asked = await send('POST', `/diagrams/${id}/ask`, { prompt: 'make it a checkout flow' }, { 'if-match': '"1"' });
    expect(asked.statusCode).toBe(200);
    expect(asked.json()).toMatchObject({ version: 2, model: 'gpt-4.1-mini' });
    expect(fake.received.at(-1)!.key).toBe('sk-test-key-0000');
    const stale = await send('POST', `/diagrams/${id}/ask`, { prompt: 'again' }, { 'if-match': '"1"' });
    expect(stale.statusCode).toBe(412);
    const empty = await send('POST', `/diagrams/${id}/ask`, { prompt: ' ' }, { 'if-match': '"2"' });
    expect(empty.statusCode).toBe(400);

    const newPage = await ann.get(`/workspaces/${service.world.annWorkspace}/new`);
    expect(newPage.body).toContain('Draw it with AI');
    fake.queue.push({ answer: ANSWERS.awsThreeTier });
    const drawn = await ann.post(`/workspaces/${service.world.annWorkspace}/new`, { kind: 'prompt', prompt: 'a three-tier web app on AWS' });
    expect(drawn.statusCode).toBe(303);
    expect(drawn.headers.location).toMatch(/^\/diagrams\/doc_\w+/);
  });

  it('redraws from code with If-Match: the source comes with the scene, a parse error names its line, a viewer and a forged token are refused', async () => {
    const { app, ann, send } = await annWithDiagram();
    const code = 'flowchart LR\n  api[API] --> db[(DB)]';
    const drawn = await app.inject({
      method: 'POST',
      url: '/api-v1/documents/from-code',
      headers: { authorization: `Bearer ${service.world.tokens.annAll}` },
      payload: { workspaceId: service.world.annWorkspace, code },
    });
    const id = drawn.json().id as string;
    expect((await ann.get(`/diagrams/${id}/scene`)).json().source).toEqual({ notation: 'mermaid', code });
    const bad = await send('PUT', `/diagrams/${id}/code`, { code: `${code}\n  db --> [oops` }, { 'if-match': '"1"' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toMatchObject({ code: 'parse_error', details: { line: 3 } });
    const forged = await send('PUT', `/diagrams/${id}/code`, { code: `${code}\n  db --> cache` }, { 'if-match': '"1"', 'x-csrf-token': 'x'.repeat(43) });
    expect(forged.statusCode).toBe(403);
    const redrawn = await send('PUT', `/diagrams/${id}/code`, { code: `${code}\n  db --> cache[Cache]` }, { 'if-match': '"1"' });
    expect(redrawn.statusCode, redrawn.body).toBe(200);
    expect(redrawn.json()).toMatchObject({ version: 2, warnings: expect.any(Array) });
    expect((await send('PUT', `/diagrams/${id}/code`, { code }, { 'if-match': '"1"' })).statusCode).toBe(412);
    const bobs = await app.inject({
      method: 'POST',
      url: '/api-v1/documents/from-code',
      headers: { authorization: `Bearer ${service.world.tokens.bobAll}` },
      payload: { workspaceId: service.world.bobWorkspace, code },
    });
    const viewer = await send('PUT', `/diagrams/${bobs.json().id}/code`, { code: `${code}\n  db --> [oops` });
    expect(viewer.statusCode).toBe(403);
    expect(viewer.json().error.code).toBe('forbidden');
  });
});
