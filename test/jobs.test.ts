import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRuntime, type Runtime } from '../src/adapters/http/server.js';
import { isAppError } from '../src/core/errors.js';
import { DEFAULT_JOB_LIMITS } from '../src/infra/config.js';
import { createJobPool, type JobPool } from '../src/infra/jobs/pool.js';
import { Metrics } from '../src/infra/metrics.js';
import { type Backend, createBackend, testConfig } from './support/backends.js';
import { heavyGraph } from './support/heavy-graph.js';
import { bearer, buildWorld, type World } from './support/world.js';

async function failure(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    if (isAppError(error)) return error;
    throw error;
  }
  throw new Error('expected the job to be refused');
}

describe('the job pool', () => {
  const pools: JobPool[] = [];
  const pool = (limits: Partial<typeof DEFAULT_JOB_LIMITS>, metrics?: Metrics) => {
    const created = createJobPool({ ...DEFAULT_JOB_LIMITS, threads: 1, ...limits }, { metrics });
    pools.push(created);
    return created;
  };
  afterAll(() => Promise.all(pools.map((p) => p.close())));

  it('ends a job over its time limit with too_complex, records it, and keeps serving', async () => {
    const metrics = new Metrics();
    const jobs = pool({ timeoutSeconds: 1 }, metrics);
    const error = await failure(jobs.fromCode(heavyGraph(1000), {}));
    expect(error).toMatchObject({ code: 'too_complex', details: { limit: 'job time', maxSeconds: 1 } });
    expect(error.message).toBe('the job ran longer than 1 s, the limit per job: make the input smaller');
    expect(await jobs.svg([])).toContain('<svg');
    const exposition = await metrics.registry.metrics();
    expect(exposition).toMatch(/drawbridge_job_duration_seconds_count\{kind="from_code",outcome="over_time"\} 1/);
    expect(exposition).toMatch(/drawbridge_job_duration_seconds_count\{kind="svg",outcome="ok"\} 1/);
  }, 60_000);

  it('ends a job over its memory limit with too_complex instead of the process running out', async () => {
    const jobs = pool({ memoryMb: 128, timeoutSeconds: 60 });
    // The same graph as PlantUML components, which ELK lays out in the worker's JavaScript heap (DOT, and the notations
    // placed by Graphviz, go to Graphviz's WASM memory, which the heap limit does not cover: the time limit and the
    // graph limits bound it).
    const edges = [...heavyGraph(1000).matchAll(/(n\d+) -> (n\d+)/g)].map(([, from, to]) => `[${from}] --> [${to}]`);
    // One component in a package, its edges leaving it: ELK lays the diagram out (engine.ts withinContainers), not Graphviz.
    expect(await failure(jobs.fromCode(`@startuml\npackage p {\n[n0]\n}\n${edges.join('\n')}\n@enduml\n`, {}))).toMatchObject({ code: 'too_complex', details: { limit: 'job memory', maxMb: 128 } });
    expect(await jobs.svg([])).toContain('<svg');
  }, 60_000);

  it('refuses work with busy when every thread is taken and the queue is full', async () => {
    const jobs = pool({ queue: 1, timeoutSeconds: 2 });
    const settled = await Promise.allSettled([0, 1, 2].map(() => jobs.fromCode(heavyGraph(1000), {})));
    const busy = settled.filter((s) => s.status === 'rejected' && (s.reason as { code?: string }).code === 'busy');
    expect(busy).toHaveLength(1);
    expect((busy[0] as PromiseRejectedResult).reason.details).toEqual({ retryAfterSeconds: 5 });
  }, 60_000);

  it('passes a stage’s own error through with its code and details', async () => {
    const jobs = pool({});
    expect(await failure(jobs.fromCode('digraph {\n a -> -> b\n}', {}))).toMatchObject({ code: 'parse_error', details: { line: 2, column: 7 } });
  }, 30_000);
});

describe('heavy work behind REST', () => {
  let backend: Backend;
  let runtime: Runtime;
  let world: World;
  beforeAll(async () => {
    backend = await createBackend('sqlite');
    runtime = await createRuntime(testConfig({ databaseUrl: backend.databaseUrl, rateLimitPerMinute: 10_000, jobs: { ...DEFAULT_JOB_LIMITS, threads: 1, queue: 1, timeoutSeconds: 2 } }));
    world = await buildWorld(runtime);
  });
  afterAll(async () => {
    await runtime?.close();
    await backend?.dispose();
  });

  it('answers health checks and reads while layouts run, then 422 for the one over time and 503 busy for the one over the queue', async () => {
    const fromCode = () =>
      runtime.app.inject({ method: 'POST', url: '/api-v1/documents/from-code', headers: bearer(world.tokens.annAll), payload: { workspaceId: world.annWorkspace, code: heavyGraph(1000) } });
    const order: string[] = [];
    const heavy = [fromCode(), fromCode(), fromCode()].map((p) => p.then((r) => (order.push('heavy'), r)));
    const health = await runtime.app.inject({ method: 'GET', url: '/healthz' });
    order.push('health');
    expect(health.statusCode).toBe(200);
    const responses = await Promise.all(heavy);
    // The event loop was free: the health check came back before any layout ended.
    expect(order[0]).toBe('health');
    const statuses = responses.map((r) => r.statusCode).sort();
    expect(statuses).toEqual([422, 422, 503]);
    const busy = responses.find((r) => r.statusCode === 503)!;
    expect(busy.headers['retry-after']).toBe('5');
    expect(busy.json().error.code).toBe('busy');
    const list = await runtime.app.inject({ method: 'GET', url: `/api-v1/documents?workspace=${world.annWorkspace}`, headers: bearer(world.tokens.annAll) });
    expect(list.json().items).toHaveLength(0);
  }, 60_000);
});
