import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRuntime, type Runtime } from '../src/adapters/http/server.js';
import { type Backend, createBackend, REDIS_URL, requireServer, testConfig } from './support/backends.js';
import { bearer, buildWorld, type World } from './support/world.js';

const redisUp = await requireServer('redis');

describe.runIf(redisUp)('rate limit shared through Redis', () => {
  let backend: Backend;
  const instances: Runtime[] = [];
  const urls: string[] = [];
  let world: World;

  beforeAll(async () => {
    backend = await createBackend('sqlite');
    // A key prefix of its own keeps this run's counts apart from any other run on the same Redis.
    const keyPrefix = `drawbridge-test:${randomBytes(6).toString('hex')}`;
    for (let i = 0; i < 2; i++) {
      const runtime = await createRuntime(testConfig({ databaseUrl: backend.databaseUrl, redisUrl: REDIS_URL }), { rateLimitKeyPrefix: keyPrefix });
      instances.push(runtime);
      urls.push(await runtime.app.listen({ port: 0, host: '127.0.0.1' }));
    }
    world = await buildWorld(instances[0]!);
  });
  afterAll(async () => {
    for (const runtime of instances) await runtime.close();
    await backend?.dispose();
  });

  it('lets two instances share one token budget of 120 a minute', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 120; i++) {
      const res = await fetch(`${urls[i % 2]}/api-v1/workspaces`, { headers: bearer(world.tokens.annRead) });
      statuses.push(res.status);
      if (i === 119) expect(res.headers.get('ratelimit-remaining')).toBe('0');
    }
    expect(statuses.every((s) => s === 200)).toBe(true);
    for (const url of urls) {
      const res = await fetch(`${url}/api-v1/workspaces`, { headers: bearer(world.tokens.annRead) });
      expect(res.status).toBe(429);
      expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(((await res.json()) as any).error.code).toBe('rate_limited');
    }
    const fresh = await fetch(`${urls[1]}/api-v1/workspaces`, { headers: bearer(world.tokens.annAll) });
    expect(fresh.status).toBe(200);
  });
});

describe('rate limit while Redis is unreachable', () => {
  let backend: Backend;
  let runtime: Runtime;
  let world: World;

  beforeAll(async () => {
    backend = await createBackend('sqlite');
    // Port 1 on loopback: nothing listens there, so every Redis command fails.
    runtime = await createRuntime(testConfig({ databaseUrl: backend.databaseUrl, redisUrl: 'redis://127.0.0.1:1', rateLimitPerMinute: 5 }));
    world = await buildWorld(runtime);
  });
  afterAll(async () => {
    await runtime?.close();
    await backend?.dispose();
  });

  it('keeps serving and keeps limiting, counting in memory', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await runtime.app.inject({ url: '/api-v1/workspaces', headers: bearer(world.tokens.annRead) });
      statuses.push(res.statusCode);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
  });
});
