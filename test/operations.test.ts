import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRuntime, type Runtime } from '../src/adapters/http/server.js';
import { loadConfig } from '../src/infra/config.js';
import { openDatabase } from '../src/infra/storage/database.js';
import { type Backend, createBackend, POSTGRES_URL, requireServer, testConfig } from './support/backends.js';
import { bearer, buildWorld, type World } from './support/world.js';

describe('GET /metrics', () => {
  let backend: Backend;
  const runtimes: Runtime[] = [];
  let world: World;

  beforeAll(async () => {
    backend = await createBackend('sqlite');
    runtimes.push(await createRuntime(testConfig({ databaseUrl: backend.databaseUrl, metricsToken: 'scrape-secret', rateLimitPerMinute: 2 })));
    runtimes.push(await createRuntime(testConfig({ databaseUrl: backend.databaseUrl })));
    world = await buildWorld(runtimes[0]!);
  });
  afterAll(async () => {
    for (const runtime of runtimes) await runtime.close();
    await backend?.dispose();
  });

  it('is off without METRICS_TOKEN and refuses a wrong token', async () => {
    const off = await runtimes[1]!.app.inject({ method: 'GET', url: '/metrics' });
    expect(off.statusCode).toBe(404);
    expect(off.json().error.message).toMatch(/METRICS_TOKEN/);
    for (const authorization of [undefined, 'Bearer wrong', `Bearer ${world.tokens.annAll}`]) {
      const res = await runtimes[0]!.app.inject({ method: 'GET', url: '/metrics', headers: authorization ? { authorization } : {} });
      expect(res.statusCode, authorization).toBe(401);
      expect(res.json().error.code).toBe('unauthorized');
    }
  });

  it('reports requests by route template, latency, and rate-limit refusals', async () => {
    const app = runtimes[0]!.app;
    for (let i = 0; i < 3; i++) await app.inject({ method: 'GET', url: '/api-v1/workspaces', headers: bearer(world.tokens.annRead) });
    await app.inject({ method: 'GET', url: '/api-v1/documents/doc_missing', headers: bearer(world.tokens.annAll) });
    const res = await app.inject({ method: 'GET', url: '/metrics', headers: { authorization: 'Bearer scrape-secret' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(res.body).toContain('drawbridge_http_requests_total{route="/api-v1/workspaces",method="GET",status="200"} 2');
    expect(res.body).toContain('drawbridge_http_requests_total{route="/api-v1/workspaces",method="GET",status="429"} 1');
    // Labelled by template, never by the id in the URL.
    expect(res.body).toContain('route="/api-v1/documents/:id"');
    expect(res.body).not.toContain('doc_missing');
    expect(res.body).toContain('drawbridge_rate_limit_refusals_total{limit="token"} 1');
    expect(res.body).toMatch(/drawbridge_http_request_duration_seconds_bucket\{le="0.05",route="\/api-v1\/workspaces",method="GET"\} \d/);
    expect(res.body).toContain('drawbridge_job_queue_depth');
    expect(res.body).toContain('drawbridge_process_resident_memory_bytes');
  });
});

describe('operator settings', () => {
  it('reads any setting from NAME_FILE, for Docker and Kubernetes secrets', () => {
    const dir = mkdtempSync(join(tmpdir(), 'drawbridge-secrets-'));
    writeFileSync(join(dir, 'db'), 'postgres://app:s3cret@db:5432/drawbridge\n');
    writeFileSync(join(dir, 'metrics'), 'scrape');
    const config = loadConfig({ DATABASE_URL_FILE: join(dir, 'db'), METRICS_TOKEN_FILE: join(dir, 'metrics') });
    expect(config.databaseUrl).toBe('postgres://app:s3cret@db:5432/drawbridge');
    expect(config.metricsToken).toBe('scrape');
    // The variable itself wins over its file.
    expect(loadConfig({ METRICS_TOKEN: 'direct', METRICS_TOKEN_FILE: join(dir, 'metrics') }).metricsToken).toBe('direct');
    expect(() => loadConfig({ METRICS_TOKEN_FILE: join(dir, 'missing') })).toThrow(/METRICS_TOKEN_FILE: cannot read .*missing \(ENOENT\)/);
  });

  it('never hands out links to 0.0.0.0', () => {
    expect(loadConfig({ HOST: '0.0.0.0', PORT: '8080' }).publicUrl).toBe('http://localhost:8080');
    expect(loadConfig({ HOST: '::' }).publicUrl).toBe('http://localhost:3000');
    expect(loadConfig({ HOST: '0.0.0.0', PUBLIC_URL: 'https://draw.example.com/' }).publicUrl).toBe('https://draw.example.com');
  });

  it('serves /docs over plain HTTP: its CSP does not upgrade loads to https', async () => {
    const backend = await createBackend('sqlite');
    const runtime = await createRuntime(testConfig({ databaseUrl: backend.databaseUrl }));
    try {
      const page = await runtime.app.inject({ method: 'GET', url: '/docs' });
      expect(page.statusCode).toBe(200);
      expect(page.headers['content-security-policy']).toMatch(/default-src 'none'; script-src 'self'; style-src 'self'/);
      expect(page.headers['content-security-policy']).not.toMatch(/upgrade-insecure-requests/);
    } finally {
      await runtime.close();
      await backend.dispose();
    }
  });
});

describe.runIf(await requireServer('postgres'))('DATABASE_URL ?schema=', () => {
  it('creates the schema when it is missing, and opens it again', async () => {
    const schema = `t_fresh_${randomBytes(5).toString('hex')}`;
    try {
      for (let i = 0; i < 2; i++) {
        const { db } = await openDatabase(`${POSTGRES_URL}?schema=${schema}`);
        await db.destroy();
      }
      const client = new pg.Client({ connectionString: POSTGRES_URL });
      await client.connect();
      const { rows } = await client.query('select count(*)::int as n from information_schema.tables where table_schema = $1', [schema]);
      await client.end();
      expect(rows[0].n).toBeGreaterThan(3);
    } finally {
      const client = new pg.Client({ connectionString: POSTGRES_URL });
      await client.connect();
      await client.query(`drop schema if exists ${schema} cascade`);
      await client.end();
    }
  });
});
