import { type ChildProcess, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';

export interface Throughput {
  requestsPerSecond: number;
  p99Ms: number;
  non2xx: number;
}

/** Starts a bench target process and waits for its JSON line. */
export async function startTarget(args: string[], env: Record<string, string> = {}): Promise<{ child: ChildProcess; info: Record<string, string> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/targets.ts', ...args], { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, ...env } });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`bench target ${args[0]} exited with ${code}`)));
  });
  return { child, info: JSON.parse(line) as Record<string, string> };
}

export async function load(url: string, headers: Record<string, string> = {}, seconds = 8, method: 'GET' | 'POST' = 'GET', body?: string): Promise<Throughput> {
  const options = { url, headers, method, body, connections: 20, duration: seconds };
  await autocannon({ ...options, duration: 2 }); // warm-up: JIT, pools, caches
  const result = await autocannon(options);
  return { requestsPerSecond: result.requests.average, p99Ms: result.latency.p99, non2xx: result.non2xx };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/**
 * Goal (foundation issue): GET /api-v1/documents/:id reaches ≥ 0.7 of a bare Fastify route serving the same JSON.
 * Both targets run side by side and are loaded in alternating rounds, so a burst of other work on the machine
 * hits both alike; each figure is the median of its rounds.
 */
export async function benchRestRead(
  rounds = 3,
  seconds = 4,
): Promise<{ real: Throughput; bare: Throughput; ratio: number; mcp: Throughput; mcpRatio: number; mcpPing: Throughput; mcpPingRatio: number }> {
  const drawbridge = await startTarget(['drawbridge']);
  let bareTarget: Awaited<ReturnType<typeof startTarget>> | undefined;
  try {
    const { url, token, documentId } = drawbridge.info as { url: string; token: string; documentId: string };
    const docUrl = `${url}/api-v1/documents/${documentId}`;
    const headers = { authorization: `Bearer ${token}` };
    const file = join(tmpdir(), `drawbridge-bench-${process.pid}.json`);
    writeFileSync(file, await (await fetch(docUrl, { headers })).text());
    bareTarget = await startTarget(['bare', file]);
    const real: Throughput[] = [];
    const bare: Throughput[] = [];
    const mcp: Throughput[] = [];
    const mcpPing: Throughput[] = [];
    // The MCP case: the same read as a stateless tools/call (no initialize needed per request).
    const mcpHeaders = { ...headers, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' };
    const mcpBody = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_diagram', arguments: { id: documentId } } });
    // The SDK's floor: a ping carries no payload, so it is what any MCP call costs before its tool does anything.
    const pingBody = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
    for (let round = 0; round < rounds; round++) {
      real.push(await load(docUrl, headers, seconds));
      bare.push(await load(bareTarget.info.url!, {}, seconds));
      mcp.push(await load(`${url}/mcp`, mcpHeaders, seconds, 'POST', mcpBody));
      mcpPing.push(await load(`${url}/mcp`, mcpHeaders, seconds, 'POST', pingBody));
    }
    const pick = (runs: Throughput[]): Throughput => ({
      requestsPerSecond: median(runs.map((r) => r.requestsPerSecond)),
      p99Ms: median(runs.map((r) => r.p99Ms)),
      non2xx: runs.reduce((sum, r) => sum + r.non2xx, 0),
    });
    return {
      real: pick(real),
      bare: pick(bare),
      ratio: median(real.map((r, i) => r.requestsPerSecond / bare[i]!.requestsPerSecond)),
      mcp: pick(mcp),
      mcpRatio: median(mcp.map((m, i) => m.requestsPerSecond / real[i]!.requestsPerSecond)),
      mcpPing: pick(mcpPing),
      mcpPingRatio: median(mcpPing.map((m, i) => m.requestsPerSecond / real[i]!.requestsPerSecond)),
    };
  } finally {
    drawbridge.child.kill();
    bareTarget?.child.kill();
  }
}
