import { performance } from 'node:perf_hooks';
import { createRuntime } from '../src/adapters/http/server.js';
import type { Element } from '../src/core/scene/schema.js';
import { createBackend, testConfig } from '../test/support/backends.js';
import { benchScene } from './scenes.js';

export interface OperationsBench {
  elements: number;
  /** One element's text changed by an `operations` PATCH, median of the runs. */
  operationMs: number;
  /** The same change sent as the whole scene (`elements`), median of the runs: the baseline. */
  wholeSceneMs: number;
  operationBytes: number;
  wholeSceneBytes: number;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/**
 * Goal (issue 25): one operation on a 1,000-element diagram takes under 50 ms. Both writes go through the whole HTTP
 * stack (app.inject PATCH on SQLite, history kept), alternating, so a burst of other work on the machine hits both alike.
 */
export async function benchOperations(elements = 1000, runs = 15): Promise<OperationsBench> {
  const backend = await createBackend('sqlite');
  const runtime = await createRuntime(testConfig({ databaseUrl: backend.databaseUrl, rateLimitPerMinute: 1_000_000 }));
  try {
    const { userId, workspaceId } = await runtime.services.accounts.createUser({ email: 'bench@example.com' });
    const { token } = await runtime.services.tokens.create({ userId, name: 'bench', scopes: ['diagrams:read', 'diagrams:write'] });
    const principal = await runtime.services.tokens.authenticate(`Bearer ${token}`, 'rest');
    const { document } = await runtime.services.diagrams.createDocument(principal, { workspaceId, name: 'Bench', elements: benchScene(elements) });
    const url = `/api-v1/documents/${document.summary.id}`;
    const patch = async (payload: object) => {
      const start = performance.now();
      const response = await runtime.app.inject({ method: 'PATCH', url, headers: { authorization: `Bearer ${token}` }, payload });
      const ms = performance.now() - start;
      if (response.statusCode !== 200) throw new Error(`PATCH answered ${response.statusCode}: ${response.body.slice(0, 300)}`);
      return ms;
    };
    const stored = (await runtime.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } })).json().elements as Element[];
    const operation = (i: number) => ({ operations: [{ op: 'update', id: 'n7', set: { text: `Service 7 (op ${i})` } }] });
    const wholeScene = (i: number) => ({ elements: stored.map((e) => (e.id === 'n7' ? { ...e, text: `Service 7 (scene ${i})` } : e)) });
    // Warm-up: JIT, statement caches.
    for (let i = 0; i < 3; i++) await patch(operation(-i - 1)), await patch(wholeScene(-i - 1));
    const op: number[] = [];
    const whole: number[] = [];
    for (let i = 0; i < runs; i++) {
      op.push(await patch(operation(i)));
      whole.push(await patch(wholeScene(i)));
    }
    return {
      elements: stored.length,
      operationMs: median(op),
      wholeSceneMs: median(whole),
      operationBytes: JSON.stringify(operation(0)).length,
      wholeSceneBytes: JSON.stringify(wholeScene(0)).length,
    };
  } finally {
    await runtime.close();
    await backend.dispose();
  }
}

export function printOperations(result: OperationsBench): void {
  const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
  console.log(`Edit by element: one element's text changed on a ${fmt(result.elements)}-element diagram, PATCH through the HTTP stack (SQLite, median)`);
  console.log(`  operation:   ${result.operationMs.toFixed(1)} ms, ${fmt(result.operationBytes)} B sent (goal < 50 ms) ${result.operationMs < 50 ? 'OK' : 'ABOVE GOAL'}`);
  console.log(`  whole scene: ${result.wholeSceneMs.toFixed(1)} ms, ${fmt(result.wholeSceneBytes)} B sent (baseline: the same change as elements)`);
}
