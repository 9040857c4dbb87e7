import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRuntime, type Runtime } from '../src/adapters/http/server.js';
import { createRateLimiter } from '../src/infra/rate-limit.js';
import { DEFAULT_JOB_LIMITS } from '../src/infra/config.js';
import { createJobPool, type JobPool } from '../src/infra/jobs/pool.js';
import { createD2Compiler } from '../src/infra/d2-compiler.js';
import { createSecretBox } from '../src/infra/secret-box.js';
import { openDatabase } from '../src/infra/storage/database.js';
import { createServices, type Services } from '../src/service/index.js';
import type { Principal } from '../src/service/principal.js';
import { type Backend, createBackend, testConfig } from './support/backends.js';
import { bearer, box, buildWorld, type World } from './support/world.js';

describe('the public SVG renders each document version once', () => {
  let backend: Backend;
  let services: Services;
  let close: () => Promise<void>;
  let jobs: JobPool;
  let ann: Principal;
  let world: World;
  const renders: number[] = [];

  beforeAll(async () => {
    backend = await createBackend('sqlite');
    const { db } = await openDatabase(backend.databaseUrl);
    jobs = createJobPool({ ...DEFAULT_JOB_LIMITS, threads: 1 });
    const limiter = createRateLimiter({ perMinute: 1000 });
    services = await createServices({
      db,
      limiter,
      publicLimiter: limiter,
      publicUrl: 'http://drawbridge.test',
      work: { ...jobs, svg: (elements) => (renders.push(elements.length), jobs.svg(elements)) },
      // Started only by D2 code, which this never sends.
      d2: createD2Compiler({ timeoutSeconds: DEFAULT_JOB_LIMITS.timeoutSeconds, queue: 8 }),
      publicRenderCacheBytes: 1024 * 1024,
      sealer: createSecretBox(randomBytes(32)),
      diagramModel: { answer: () => Promise.reject(new Error('no model in this test')) },
      checkProviderUrl: async () => undefined,
    });
    close = async () => {
      await db.destroy();
      await jobs.close();
    };
    // buildWorld only needs the account and token services.
    world = await buildWorld({ services } as Runtime);
    ann = await services.tokens.authenticate(`Bearer ${world.tokens.annAll}`, 'rest');
  });
  afterAll(async () => {
    await close?.();
    await backend?.dispose();
  });

  it('serves repeated loads from the cache, renders again after a change, and refuses at once after an unshare', async () => {
    const { document } = await services.diagrams.createDocument(ann, { workspaceId: world.annWorkspace, name: 'Shared', elements: [box('a'), box('b', 300)] });
    const id = document.summary.id;
    const { token } = await services.diagrams.share(ann, id);
    const first = await services.diagrams.renderShared(token);
    for (let i = 0; i < 5; i++) expect(await services.diagrams.renderShared(token)).toEqual(first);
    expect(renders).toEqual([2]);
    await services.diagrams.updateDocument(ann, id, { elements: [box('a')] });
    const changed = await services.diagrams.renderShared(token);
    expect(changed.etag).not.toBe(first.etag);
    expect(renders).toEqual([2, 1]);
    await services.diagrams.unshare(ann, id);
    await expect(services.diagrams.renderShared(token)).rejects.toMatchObject({ code: 'not_found' });
  });
});

describe('the public SVG is rate-limited per client address', () => {
  let backend: Backend;
  const runtimes: Runtime[] = [];
  let world: World;
  let path = '';

  beforeAll(async () => {
    backend = await createBackend('sqlite');
    for (const trustProxy of [false, true]) {
      runtimes.push(await createRuntime(testConfig({ databaseUrl: backend.databaseUrl, publicRateLimitPerMinute: 3, trustProxy })));
    }
    world = await buildWorld(runtimes[0]!);
    const doc = (await runtimes[0]!.app.inject({ method: 'POST', url: '/api-v1/documents', headers: bearer(world.tokens.annAll), payload: { workspaceId: world.annWorkspace, name: 'S', elements: [box('a')] } })).json();
    const link = (await runtimes[0]!.app.inject({ method: 'POST', url: `/api-v1/documents/${doc.id}/share`, headers: bearer(world.tokens.annAll) })).json();
    path = new URL(link.url).pathname + new URL(link.url).search;
  });
  afterAll(async () => {
    for (const runtime of runtimes) await runtime.close();
    await backend?.dispose();
  });

  const load = (runtime: Runtime, remoteAddress: string, forwardedFor?: string) =>
    runtime.app.inject({ method: 'GET', url: path, remoteAddress, headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {} });

  it('refuses an address over its budget with 429 and Retry-After, while other addresses are served', async () => {
    const [direct] = runtimes;
    for (let i = 0; i < 3; i++) expect((await load(direct!, '203.0.113.7')).statusCode).toBe(200);
    const refused = await load(direct!, '203.0.113.7');
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error.code).toBe('rate_limited');
    expect(refused.headers['retry-after']).toMatch(/^\d+$/);
    // Without TRUST_PROXY a forged X-Forwarded-For is no way around the limit.
    expect((await load(direct!, '203.0.113.7', '198.51.100.1')).statusCode).toBe(429);
    expect((await load(direct!, '203.0.113.8')).statusCode).toBe(200);
  });

  it('behind a trusted proxy counts the forwarded client address', async () => {
    const proxied = runtimes[1]!;
    for (let i = 0; i < 3; i++) expect((await load(proxied, '10.0.0.2', '198.51.100.20')).statusCode).toBe(200);
    expect((await load(proxied, '10.0.0.2', '198.51.100.20')).statusCode).toBe(429);
    expect((await load(proxied, '10.0.0.2', '198.51.100.21')).statusCode).toBe(200);
  });
});
