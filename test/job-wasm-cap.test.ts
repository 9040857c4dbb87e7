import { afterAll, describe, expect, it } from 'vitest';
import { isAppError } from '../src/core/errors.js';
import { DEFAULT_JOB_LIMITS } from '../src/infra/config.js';
import { createHeavySlots } from '../src/infra/jobs/heavy-slots.js';
import { createJobPool, type JobPool } from '../src/infra/jobs/pool.js';
import { Metrics } from '../src/infra/metrics.js';
import { capWasmMemory } from '../src/infra/wasm-tiering.js';
import { heavyGraph } from './support/heavy-graph.js';

// The cap is a V8 flag, process-wide: this file runs in its own process, and lifts it again when done.
describe('a job whose WebAssembly memory would grow past the cap the budget leaves it', () => {
  let jobs: JobPool | undefined;
  afterAll(async () => {
    await jobs?.close();
    capWasmMemory(4096);
  });

  it('is refused with too_complex naming the server memory, and the next job runs on a fresh thread', async () => {
    // The watchdog reads a resident set of 0 here, so only the cap can stop the job: without it Graphviz lays out
    // the graph (hundreds of MB, minutes) and the job succeeds or runs over its time.
    const slots = createHeavySlots({ slots: 1, queue: 4, budgetMb: 768 }, () => 0);
    expect(slots.wasmCapMb).toBe(128);
    capWasmMemory(slots.wasmCapMb!);
    const metrics = new Metrics();
    jobs = createJobPool({ ...DEFAULT_JOB_LIMITS, threads: 1, timeoutSeconds: 120 }, { slots, metrics });
    const refused = await jobs.fromCode(heavyGraph(1000), {}).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(isAppError(refused)).toBe(true);
    expect(refused).toMatchObject({ code: 'too_complex', details: { limit: 'server memory', maxMb: 768 } });
    expect((refused as Error).message).toBe(
      "the job needed more than 128 MB of WebAssembly memory, what the server's memory budget (768 MB) leaves one job: make the input smaller",
    );
    expect(await metrics.registry.metrics()).toMatch(/drawbridge_job_duration_seconds_count\{kind="from_code",outcome="over_memory"\} 1/);
    // Graphviz again, in the thread that replaced the one whose instance ran out.
    expect(await jobs.fromCode('digraph { a -> b }', {})).toMatchObject({ notation: 'dot' });
  }, 180_000);
});
