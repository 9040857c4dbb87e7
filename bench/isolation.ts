import autocannon from 'autocannon';
import { heavyGraph } from '../test/support/heavy-graph.js';
import { startTarget } from './rest.js';
import { benchScene } from './scenes.js';

export interface Isolation {
  idleP99Ms: number;
  loadedP99Ms: number;
  loadedP50Ms: number;
  requests: number;
  heavyJobs: { ok: number; refused: Record<number, number> };
}

/**
 * Goal (issue 12): while the heaviest allowed jobs run in parallel, p99 of GET /api-v1/documents/:id stays under
 * 50 ms. Four clients loop on heavy work (two layouts of a 400-node graph, two PNG renders of a 1,500-element scene
 * at 30 megapixels) while autocannon reads a document; the same read is first measured with nothing else running.
 */
export async function benchIsolation(seconds = 10): Promise<Isolation> {
  const target = await startTarget(['drawbridge']);
  try {
    const { url, token, documentId } = target.info as { url: string; token: string; documentId: string };
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const read = { url: `${url}/api-v1/documents/${documentId}`, headers, connections: 4 };
    const workspaceId = ((await (await fetch(`${url}/api-v1/workspaces`, { headers })).json()) as { items: { id: string }[] }).items[0]!.id;
    const big = (await (
      await fetch(`${url}/api-v1/documents`, { method: 'POST', headers, body: JSON.stringify({ workspaceId, name: 'Big', elements: benchScene(1500) }) })
    ).json()) as { id: string };

    await autocannon({ ...read, duration: 2 }); // warm-up
    const idle = await autocannon({ ...read, duration: seconds });

    let stop = false;
    const heavyJobs = { ok: 0, refused: {} as Record<number, number> };
    const loop = async (request: () => Promise<Response>) => {
      while (!stop) {
        const response = await request();
        await response.arrayBuffer();
        if (response.ok) heavyJobs.ok++;
        else heavyJobs.refused[response.status] = (heavyJobs.refused[response.status] ?? 0) + 1;
      }
    };
    const layout = () => fetch(`${url}/api-v1/documents/from-code`, { method: 'POST', headers, body: JSON.stringify({ workspaceId, code: heavyGraph(400) }) });
    const render = () => fetch(`${url}/api-v1/documents/${big.id}/render?format=png&scale=1.1`, { headers });
    const clients = [loop(layout), loop(layout), loop(render), loop(render)];
    await new Promise((resolve) => setTimeout(resolve, 1000)); // every worker busy before measuring
    const loaded = await autocannon({ ...read, duration: seconds });
    stop = true;
    await Promise.all(clients);
    return {
      idleP99Ms: idle.latency.p99,
      loadedP99Ms: loaded.latency.p99,
      loadedP50Ms: loaded.latency.p50,
      requests: loaded.requests.total,
      heavyJobs,
    };
  } finally {
    target.child.kill();
  }
}

export function printIsolation(result: Isolation): void {
  const ok = result.loadedP99Ms < 50;
  console.log('Isolation: GET /api-v1/documents/:id while 4 clients loop on 400-node layouts and 30-megapixel PNG renders');
  console.log(`  idle:       p99 ${result.idleP99Ms} ms`);
  console.log(`  under load: p99 ${result.loadedP99Ms} ms, p50 ${result.loadedP50Ms} ms over ${result.requests} reads (goal p99 < 50 ms) ${ok ? 'OK' : 'ABOVE GOAL'}`);
  const refused = Object.entries(result.heavyJobs.refused).map(([status, n]) => `${n} × ${status}`).join(', ') || 'none';
  console.log(`  heavy jobs: ${result.heavyJobs.ok} done, refused: ${refused}`);
}
