import { describe, expect, it } from 'vitest';
import { heavyJobsWithin } from '../config.js';
import { createHeavySlots, wasmCapWithin } from './heavy-slots.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('heavy-job slots under a memory budget', () => {
  it('runs as many jobs at once as the budget allows, at least one and at most one per core', () => {
    expect(heavyJobsWithin(1024, 2)).toBe(1);
    expect(heavyJobsWithin(1536, 2)).toBe(2);
    expect(heavyJobsWithin(4096, 2)).toBe(2);
    expect(heavyJobsWithin(4096, 16)).toBe(7);
  });

  it('caps each WebAssembly memory at what a warmed server at rest leaves the slots under the hard line', () => {
    // 1024 MB, one slot: 942 MB hard line - 640 MB warmed idle - 64 MB of the job's JavaScript.
    expect(wasmCapWithin(1024, 1)).toBe(238);
    expect(wasmCapWithin(1536, 2)).toBe(322);
    // Never so low that Graphviz or D2 cannot start.
    expect(wasmCapWithin(700, 1)).toBe(128);
    expect(createHeavySlots({ slots: 1, queue: 0, budgetMb: 1024 }).wasmCapMb).toBe(238);
    expect(createHeavySlots({ slots: 1, queue: 0 }).wasmCapMb).toBeUndefined();
  });

  it('makes a job wait for a free slot, and refuses one past the queue with busy', async () => {
    const slots = createHeavySlots({ slots: 1, queue: 1 });
    const first = await slots.acquire();
    let secondStarted = false;
    const second = slots.acquire().then((slot) => ((secondStarted = true), slot));
    await expect(slots.acquire()).rejects.toMatchObject({ code: 'busy', details: { retryAfterSeconds: 5 } });
    await sleep(10);
    expect(secondStarted).toBe(false);
    first.release();
    (await second).release();
    expect(secondStarted).toBe(true);
  });

  it('ends the youngest running job when the process passes its budget, and only that one', async () => {
    let resident = 500;
    const slots = createHeavySlots({ slots: 2, queue: 0, budgetMb: 1000 }, () => resident);
    const ended: string[] = [];
    const older = await slots.acquire();
    older.running(() => ended.push('older'));
    await sleep(5);
    const younger = await slots.acquire();
    younger.running(() => ended.push('younger'));
    await sleep(300);
    expect(ended).toEqual([]);
    resident = 950;
    await sleep(300);
    resident = 600;
    await sleep(300);
    expect(ended).toEqual(['younger']);
    older.release();
    younger.release();
  });
});
