import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRuntime, type Runtime } from '../src/adapters/http/server.js';
import { answerToGraph } from '../src/core/ai/answer.js';
import { resolveIconHints } from '../src/core/notations/icon-hints.js';
import { drawGraph } from '../src/core/notations/index.js';
import { checkScene } from '../src/core/quality/check.js';
import { assertProviderUrl, providerFetch } from '../src/infra/ai/address-guard.js';
import { type Backend, createBackend, testConfig } from './support/backends.js';
import { startFakeProvider, type FakeProvider } from './support/fake-ai.js';
import { bearer, buildWorld, type World } from './support/world.js';
import { ANSWERS } from './fixtures/ai/answers.js';

const KEY = 'sk-test-0123456789abcdef';

describe('AI generation against a local provider speaking the real wire formats', () => {
  let backend: Backend;
  let runtime: Runtime;
  let world: World;
  let fake: FakeProvider;

  beforeAll(async () => {
    fake = await startFakeProvider();
    backend = await createBackend('sqlite');
    runtime = await createRuntime(testConfig({ databaseUrl: backend.databaseUrl, rateLimitPerMinute: 100_000, aiAllowPrivateUrls: true, aiTimeoutSeconds: 2 }));
    world = await buildWorld(runtime);
  });
  afterAll(async () => {
    await runtime?.close();
    await backend?.dispose();
    await fake?.close();
  });

  const call = (method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, payload?: object, token = world.tokens.annAll) =>
    runtime.app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });
  const settings = (provider: string, baseUrl: string, key = KEY) => call('PUT', '/api-v1/me/ai', { provider, model: `${provider}-model`, key, baseUrl });
  const generate = (prompt: string, extra: object = {}) => call('POST', '/api-v1/documents/generate', { workspaceId: world.annWorkspace, prompt, ...extra });
  const documentCount = async () => (await call('GET', `/api-v1/documents?workspace=${world.annWorkspace}&limit=100`)).json().items.length;

  it('says how to set a key when none is configured, and stores nothing', async () => {
    const response = await generate('a web app with a database');
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('ai_not_configured');
    expect(response.json().error.message).toContain('PUT /api-v1/me/ai');
    expect(await documentCount()).toBe(0);
  });

  it('keeps the key encrypted: only its last 4 characters ever come back', async () => {
    const saved = await settings('openai', `${fake.url}/openai/v1`);
    expect(saved.statusCode).toBe(200);
    expect(saved.json().settings).toMatchObject({ provider: 'openai', keyLast4: 'cdef', baseUrl: `${fake.url}/openai/v1` });
    expect(saved.body).not.toContain(KEY);
    expect((await call('GET', '/api-v1/me/ai')).body).not.toContain(KEY);
    const stored = await runtime.services.ai['db'].selectFrom('ai_settings').selectAll().execute();
    expect(JSON.stringify(stored)).not.toContain(KEY);
    expect((await call('GET', '/api-v1/me/ai', undefined, world.tokens.annRead)).json().error.code).toBe('insufficient_scope');
  });

  it.each([
    ['openai', '/openai/v1', 'awsThreeTier'],
    ['anthropic', '/anthropic/v1', 'kubernetesShop'],
    ['google', '/google/v1beta', 'checkoutFlow'],
    ['openai-compatible', '/ollama/v1', 'loginSequence'],
    ['openai', '/openai/v1', 'erSchema'],
  ] as const)('%s: draws the %s answer, laid out, with icons, passing the quality checker', async (provider, path, answer) => {
    expect((await settings(provider, `${fake.url}${path}`)).statusCode).toBe(200);
    fake.queue.push({ answer: ANSWERS[answer] });
    const before = fake.received.length;
    const response = await generate(`draw ${answer}`);
    expect(response.statusCode, response.body).toBe(201);
    const body = response.json();
    expect(body).toMatchObject({ name: ANSWERS[answer].title, provider, model: `${provider}-model`, usage: { inputTokens: 1200, outputTokens: 350 } });
    const request = fake.received[before]!;
    expect(request.key).toBe(KEY);
    expect(JSON.stringify(request.body)).toContain('You design diagrams for Drawbridge');
    expect(JSON.stringify(request.body)).toContain(`draw ${answer}`);
    // The same pure pipeline gives the containers the checker needs (element ids are deterministic).
    const { parents } = await drawGraph(resolveIconHints(answerToGraph(ANSWERS[answer])));
    expect(checkScene(body.elements, parents).violations).toEqual([]);
    const labels = body.elements.map((e: { text?: string }) => e.text).filter(Boolean).join(' | ');
    for (const node of ANSWERS[answer].nodes) expect(labels).toContain(node.label);
    if (answer === 'awsThreeTier') {
      const icons = body.elements.filter((e: { icon?: { ref: string } }) => e.icon).map((e: { icon: { ref: string } }) => e.icon.ref);
      expect(icons).toEqual(expect.arrayContaining([expect.stringMatching(/^aws\/.*CloudFront/i), expect.stringMatching(/^aws\/.*Aurora/i)]));
    }
  });

  it('retries once with what was wrong, then draws the corrected answer', async () => {
    await settings('openai', `${fake.url}/openai/v1`);
    const broken = { ...ANSWERS.checkoutFlow, edges: [...ANSWERS.checkoutFlow.edges, { ...ANSWERS.checkoutFlow.edges[0]!, to: 'nowhere' }] };
    fake.queue.push({ answer: broken }, { answer: ANSWERS.checkoutFlow });
    const before = fake.received.length;
    const response = await generate('checkout');
    expect(response.statusCode).toBe(201);
    const retry = JSON.stringify(fake.received[before + 1]!.body.messages);
    expect(retry).toContain('refers to node \\"nowhere\\", which is not in nodes');
  });

  it.each([
    ['output that is not JSON, twice', [{ text: 'Sure! Here is your diagram:' }, { text: '{"nodes": [' }], 502, 'ai_invalid_output'],
    ['output that breaks the schema, twice', [{ answer: { nodes: 'none' } }, { answer: { title: 1 } }], 502, 'ai_invalid_output'],
    ['a refused key', [{ status: 401, message: `Incorrect API key provided: ${KEY}` }], 502, 'ai_provider_error'],
    ['a provider rate limit', [{ status: 429, message: 'Rate limit reached', retryAfter: 17 }], 429, 'ai_rate_limited'],
    ['a provider that never answers', [{ hang: true }], 504, 'ai_timeout'],
  ] as const)('answers %s with a clear error and stores nothing', async (_case, script, status, code) => {
    await settings('openai', `${fake.url}/openai/v1`);
    const before = await documentCount();
    fake.queue.length = 0;
    fake.queue.push(...(script as unknown as Parameters<typeof fake.queue.push>));
    const response = await generate('anything');
    expect(response.statusCode, response.body).toBe(status);
    expect(response.json().error.code).toBe(code);
    expect(response.body).not.toContain(KEY);
    if (code === 'ai_rate_limited') expect(response.headers['retry-after']).toBe('17');
    if (code === 'ai_provider_error') expect(response.json().error.message).toContain('Incorrect API key provided: [key]');
    expect(await documentCount()).toBe(before);
  }, 30_000);

  it('follows no redirect from a provider: the place it points to is never called, and nothing is stored', async () => {
    const elsewhere = await startFakeProvider();
    try {
      await settings('openai', `${fake.url}/openai/v1`);
      const before = await documentCount();
      fake.queue.length = 0;
      fake.queue.push({ redirectTo: `${elsewhere.url}/openai/v1/chat/completions` });
      elsewhere.queue.push({ answer: ANSWERS.kubernetesShop });
      const response = await generate('a shop');
      expect(response.statusCode, response.body).toBe(502);
      expect(response.json().error).toMatchObject({ code: 'ai_provider_error', message: expect.stringContaining('redirect') });
      expect(elsewhere.received).toEqual([]);
      expect(await documentCount()).toBe(before);
    } finally {
      await elsewhere.close();
    }
  });

  it('checks membership, role and the token\'s workspace before the key, and never calls the provider for a refused caller', async () => {
    await settings('openai', `${fake.url}/openai/v1`); // Ann has a working key of her own
    const calls = fake.received.length;
    const bobDoc = (await call('POST', '/api-v1/documents', { workspaceId: world.bobWorkspace, name: 'Bob’s' }, world.tokens.bobAll)).json();
    const refusals = [
      // Ann is a viewer in Bob's workspace: her own key would pay for a diagram she may not write.
      ['a viewer creating', () => call('POST', '/api-v1/documents/generate', { workspaceId: world.bobWorkspace, prompt: 'x' }), 403],
      ['a viewer editing', () => call('POST', `/api-v1/documents/${bobDoc.id}/generate`, { prompt: 'x' }), 403],
      ['a token pinned to another workspace', () => call('POST', '/api-v1/documents/generate', { workspaceId: world.annSecond, prompt: 'x' }, world.tokens.annPinned), 404],
      ['a folder of another workspace', () => call('POST', '/api-v1/documents/generate', { workspaceId: world.annWorkspace, folderId: 'fld_nope', prompt: 'x' }), 404],
      // Bob has no key and is no member of Ann's workspace: "not found", not "set up a key".
      ['a stranger without a key', () => call('POST', '/api-v1/documents/generate', { workspaceId: world.annWorkspace, prompt: 'x' }, world.tokens.bobAll), 404],
    ] as const;
    for (const [who, send, status] of refusals) {
      const response = await send();
      expect([who, response.statusCode], response.body).toEqual([who, status]);
      expect(fake.received.length, who).toBe(calls);
    }
  });

  it('edits a diagram: the model sees its current structure, untouched nodes keep their place, and the change is a versioned update', async () => {
    await settings('anthropic', `${fake.url}/anthropic/v1`);
    fake.queue.push({ answer: ANSWERS.kubernetesShop });
    const created = (await generate('shop')).json();
    const box = (e: { x: number; y: number; width: number; height: number }) => ({ x: e.x, y: e.y, width: e.width, height: e.height });
    const drawnFirst = new Map(created.elements.map((e: any) => [e.id, e]));
    // The model keeps the ids it was shown, drops MongoDB, adds a cache for orders.
    const changed = {
      ...ANSWERS.kubernetesShop,
      nodes: [...ANSWERS.kubernetesShop.nodes.filter((n) => n.id !== 'mongo'), { id: 'redis', label: 'Redis cache', kind: 'cache', icon: 'redis', group: 'ns', rows: null }],
      edges: [...ANSWERS.kubernetesShop.edges.filter((e) => e.to !== 'mongo'), { from: 'orders', to: 'redis', label: 'cache', style: 'solid', startArrowhead: 'none', endArrowhead: 'arrow' }],
    };
    fake.queue.push({ answer: changed });
    const before = fake.received.length;
    const edited = await call('POST', `/api-v1/documents/${created.id}/generate`, { prompt: 'add a Redis cache for orders', expectedVersion: 1 });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json()).toMatchObject({ id: created.id, version: 2 });
    const after = edited.json().elements as any[];
    expect(after.map((e) => e.text)).toContain('Redis cache');
    expect(after.map((e) => e.text)).not.toContain('MongoDB');
    for (const id of ['web', 'orders', 'queue', 'ingress']) expect(box(after.find((e) => e.id === id)), id).toEqual(box(drawnFirst.get(id) as any));
    const redis = after.find((e) => e.text === 'Redis cache');
    const others = after.filter((e) => ['web', 'orders', 'queue', 'ingress'].includes(e.id));
    for (const o of others) expect(redis.x >= o.x + o.width || o.x >= redis.x + redis.width || redis.y >= o.y + o.height || o.y >= redis.y + redis.height, o.id).toBe(true);
    const link = after.find((e) => e.type === 'arrow' && e.endBinding?.elementId === redis.id);
    expect(link).toMatchObject({ startBinding: { elementId: 'orders' }, text: 'cache' });
    const ns = after.find((e) => e.id === 'ns');
    expect(redis.x >= ns.x && redis.x + redis.width <= ns.x + ns.width && redis.y + redis.height <= ns.y + ns.height).toBe(true);
    const sent = JSON.stringify(fake.received[before]!.body.messages);
    expect(sent).toContain('Current diagram');
    expect(sent).toContain('RabbitMQ');
    // The AI edit is kept in the history under its own door, and undone by restoring version 1 exactly.
    const versions = (await call('GET', `/api-v1/documents/${created.id}/versions`)).json().items;
    expect(versions.map((v: any) => [v.version, v.door])).toEqual([
      [2, 'ai'],
      [1, 'ai'],
    ]);
    expect(versions[0].summary).toMatch(/added.*removed/);
    const undone = await call('POST', `/api-v1/documents/${created.id}/versions/1/restore`);
    expect(undone.json()).toMatchObject({ version: 3, elements: created.elements });
    const calls = fake.received.length;
    const stale = await runtime.app.inject({ method: 'POST', url: `/api-v1/documents/${created.id}/generate`, headers: { ...bearer(world.tokens.annAll), 'if-match': '"1"' }, payload: { prompt: 'again' } });
    expect(stale.statusCode).toBe(412);
    expect(fake.received.length).toBe(calls);
  });

  it("uses the workspace's shared key when the member has none; only an owner may share one", async () => {
    expect((await call('DELETE', '/api-v1/me/ai')).statusCode).toBe(204);
    const shared = await call('PUT', `/api-v1/workspaces/${world.annWorkspace}/ai`, { provider: 'google', model: 'gemini', key: 'shared-key-9999', baseUrl: `${fake.url}/google/v1beta` });
    expect(shared.statusCode).toBe(200);
    fake.queue.push({ answer: ANSWERS.checkoutFlow });
    const before = fake.received.length;
    expect((await generate('checkout')).statusCode).toBe(201);
    expect(fake.received[before]!.key).toBe('shared-key-9999');
    const asViewer = await call('PUT', `/api-v1/workspaces/${world.bobWorkspace}/ai`, { provider: 'openai', model: 'x', key: 'k' });
    expect(asViewer.statusCode).toBe(403);
  });

  it('MCP generate_from_prompt draws the same way', async () => {
    await settings('openai', `${fake.url}/openai/v1`);
    fake.queue.push({ answer: ANSWERS.erSchema });
    const response = await runtime.app.inject({
      method: 'POST',
      url: '/mcp',
      headers: { ...bearer(world.tokens.annAll), accept: 'application/json, text/event-stream', 'content-type': 'application/json' },
      payload: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'generate_from_prompt', arguments: { workspaceId: world.annWorkspace, prompt: 'a blog schema' } } },
    });
    const result = response.json().result;
    expect(result.isError).not.toBe(true);
    expect(result.structuredContent).toMatchObject({ name: 'Blog schema', provider: 'openai' });
  });
});

describe('provider base URLs', () => {
  it('checks the address actually connected to, not only the one checked before: a name resolving to loopback is refused at connect time', async () => {
    const fake = await startFakeProvider();
    try {
      const port = new URL(fake.url).port;
      const call = providerFetch(false)(`http://localhost:${port}/openai/v1/chat/completions`, { method: 'POST', body: '{}' });
      await expect(call).rejects.toMatchObject({ code: 'validation_failed', message: expect.stringContaining('AI_ALLOW_PRIVATE_URLS=true') });
      expect(fake.received).toEqual([]);
      const allowed = await providerFetch(true)(`http://localhost:${port}/openai/v1/chat/completions`, { method: 'POST', body: '{}' });
      expect(allowed.status).toBe(401); // reached: the fake wants a key
    } finally {
      await fake.close();
    }
  });

  it.each([
    'http://127.0.0.1:11434/v1', 'http://10.1.2.3/v1', 'http://[::1]/v1', 'http://169.254.169.254/latest', 'http://[::ffff:127.0.0.1]/v1', 'http://192.168.0.10/v1',
    // IPv6 forms that carry an IPv4 address and reach it: IPv4-compatible, NAT64 (RFC 6052), SIIT (RFC 6145), 6to4, Teredo (client address inverted).
    'http://[::127.0.0.1]/v1', 'http://[64:ff9b::7f00:1]/v1', 'http://[64:ff9b::10.0.0.1]/v1', 'http://[::ffff:0:a9fe:a9fe]/v1', 'http://[2002:7f00:1::]/v1',
    'http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/v1', 'http://[::ffff:7f00:1]/v1',
    // Other ranges that are nobody's public provider.
    'http://100.64.0.1/v1', 'http://[fd00::1]/v1', 'http://[fe80::1]/v1', 'http://0.0.0.0/v1', 'http://[::]/v1', 'http://localhost/v1',
  ])(
    'refuses %s unless the operator allows private addresses',
    async (url) => {
      await expect(assertProviderUrl(url, false)).rejects.toMatchObject({ code: 'validation_failed', message: expect.stringContaining('AI_ALLOW_PRIVATE_URLS=true') });
      await expect(assertProviderUrl(url, true)).resolves.toBeUndefined();
    },
  );

  it('accepts public addresses and refuses other schemes and credentials', async () => {
    for (const url of ['https://8.8.8.8/v1', 'https://[2606:4700:4700::1111]/v1', 'https://[64:ff9b::808:808]/v1']) {
      await expect(assertProviderUrl(url, false)).resolves.toBeUndefined();
    }
    await expect(assertProviderUrl('file:///etc/passwd', true)).rejects.toMatchObject({ code: 'validation_failed' });
    await expect(assertProviderUrl('https://user:pw@8.8.8.8/v1', true)).rejects.toMatchObject({ code: 'validation_failed' });
  });
});
