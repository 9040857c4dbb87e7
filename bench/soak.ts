/**
 * Goal (issue 29): `npm run soak` runs SOAK_MINUTES (10) of mixed load against one instance, started the way an
 * operator starts it (`node bin/drawbridge.js serve`, a fresh SQLite file, a user and token made with the CLI), and
 * shows whether it can run for months: no errors, p99 steady from the first minute to the last, memory flat.
 * Not part of the test suite. Only 127.0.0.1 is loaded; the rate limits are lifted so the figures are the service's,
 * not the limiter's.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '../test/support/ports.js';
import { benchScene } from './scenes.js';

const KINDS = ['read', 'write', 'fromCode', 'render', 'mcp', 'publicSvg'] as const;
type Kind = (typeof KINDS)[number];
/** How many clients run each kind at once, each pausing between requests: a busy team, not a flood. */
const CLIENTS: Record<Kind, number> = { read: 3, write: 2, fromCode: 1, render: 1, mcp: 2, publicSvg: 2 };
const PAUSE_MS = 100;
const REQUEST_TIMEOUT_MS = 60_000;

interface Minute {
  latencies: Record<Kind, number[]>;
  errors: Record<Kind, string[]>;
  rssMb: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const run = promisify(execFile);
const newMinute = (): Minute => ({
  latencies: Object.fromEntries(KINDS.map((k) => [k, []])) as unknown as Minute['latencies'],
  errors: Object.fromEntries(KINDS.map((k) => [k, []])) as unknown as Minute['errors'],
  rssMb: 0,
});
const percentile = (values: number[], p: number) => {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};
const rssMb = (pid: number, field = 'VmRSS') => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

/** A small compose file: four services and their links, the shape most from-code calls have. */
const COMPOSE = `services:
  web:
    image: nginx
    depends_on: [api]
  api:
    image: example/api
    depends_on: [db, cache]
  db:
    image: postgres:16
  cache:
    image: redis:7
`;

async function main(): Promise<void> {
  const minutes = Number(process.env.SOAK_MINUTES ?? 10);
  const dir = mkdtempSync(join(tmpdir(), 'drawbridge-soak-'));
  const port = await freePort();
  const env = {
    ...process.env,
    DATABASE_URL: join(dir, 'soak.db'),
    PORT: String(port),
    HOST: '127.0.0.1',
    DRAWBRIDGE_SECRET: 'soak',
    LOG_LEVEL: 'warn',
    RATE_LIMIT_PER_MINUTE: '1000000000',
    PUBLIC_RATE_LIMIT_PER_MINUTE: '1000000000',
  };
  const cli = async (...args: string[]) => JSON.parse((await run(process.execPath, ['bin/drawbridge.js', ...args], { env })).stdout) as Record<string, string>;
  const { workspaceId } = await cli('user', 'create', '--email', 'soak@example.com', '--name', 'Soak');
  const { token } = await cli('token', 'create', '--email', 'soak@example.com', '--name', 'soak', '--scopes', 'diagrams:read,diagrams:write');

  const child: ChildProcess = spawn(process.execPath, ['bin/drawbridge.js', 'serve'], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  const pid = child.pid!;
  const url = `http://127.0.0.1:${port}`;
  try {
    for (let waited = 0; !(await fetch(`${url}/readyz`).then((r) => r.ok, () => false)); waited += 250) {
      if (waited > 90_000 || child.exitCode !== null) throw new Error('the instance never became ready');
      await sleep(250);
    }
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const create = async (name: string) => {
      const response = await fetch(`${url}/api-v1/documents`, { method: 'POST', headers, body: JSON.stringify({ workspaceId, name, elements: benchScene(30) }) });
      if (response.status !== 201) throw new Error(`creating ${name}: ${response.status} ${await response.text()}`);
      return ((await response.json()) as { id: string }).id;
    };
    // Readers share one document; each writer has its own, so If-Match never races another soak client.
    const readDoc = await create('Soak read');
    const writeDocs = await Promise.all(Array.from({ length: CLIENTS.write }, (_, n) => create(`Soak write ${n}`)));
    const share = await fetch(`${url}/api-v1/documents/${readDoc}/share`, { method: 'POST', headers: { authorization: headers.authorization } });
    if (!share.ok) throw new Error(`sharing: ${share.status} ${await share.text()}`);
    const shareToken = ((await share.json()) as { token: string }).token;
    const startRss = rssMb(pid);
    console.log(`Soak: ${minutes} min against pid ${pid} on ${url}; clients ${KINDS.map((k) => `${k} ${CLIENTS[k]}`).join(', ')}; RSS at start ${Math.round(startRss)} MB`);

    const history: Minute[] = [];
    let current = newMinute();
    let peakRss = startRss;
    const deadline = performance.now() + minutes * 60_000;

    /** One request, timed; a non-2xx answer, a refused connection or an MCP error result counts as an error. */
    const timed = async (kind: Kind, request: () => Promise<Response>, check?: (body: string) => string | undefined) => {
      const started = performance.now();
      try {
        const response = await request();
        const body = await response.text();
        const elapsed = performance.now() - started;
        const problem = !response.ok ? `${response.status} ${body.slice(0, 120)}` : check?.(body);
        // Counted in the minute it ends in, so each minute's line already holds everything the summary will.
        if (problem) current.errors[kind].push(problem);
        else current.latencies[kind].push(elapsed);
        return response;
      } catch (error) {
        current.errors[kind].push(`${(error as Error).message} ${String(((error as Error).cause as Error | undefined)?.message ?? '')}`.trim());
        return undefined;
      }
    };
    const signal = () => AbortSignal.timeout(REQUEST_TIMEOUT_MS);
    const mcpHeaders = { ...headers, accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' };
    const mcpBody = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_diagram', arguments: { id: readDoc } } });

    const client = async (kind: Kind, n: number) => {
      let version = '"1"';
      for (let i = 0; performance.now() < deadline; i++) {
        switch (kind) {
          case 'read':
            await timed(kind, () => fetch(`${url}/api-v1/documents/${readDoc}`, { headers, signal: signal() }));
            break;
          case 'write': {
            const operations = [{ op: 'update', id: `n${i % 18}`, set: { text: `Service ${i}` } }];
            const response = await timed(kind, () =>
              fetch(`${url}/api-v1/documents/${writeDocs[n]}`, { method: 'PATCH', headers: { ...headers, 'if-match': version }, body: JSON.stringify({ operations }), signal: signal() }),
            );
            version = response?.headers.get('etag') ?? version;
            break;
          }
          case 'fromCode':
            await timed(kind, () => fetch(`${url}/api-v1/documents/from-code`, { method: 'POST', headers, body: JSON.stringify({ workspaceId, code: COMPOSE, name: `Soak ${i}` }), signal: signal() }));
            break;
          case 'render':
            // A document a writer keeps changing, so renders are not all answered from the cache of one version.
            await timed(kind, () => fetch(`${url}/api-v1/documents/${writeDocs[0]}/render?format=svg`, { headers, signal: signal() }));
            break;
          case 'mcp':
            await timed(
              kind,
              () => fetch(`${url}/mcp`, { method: 'POST', headers: mcpHeaders, body: mcpBody, signal: signal() }),
              (body) => {
                const message = JSON.parse(body) as { error?: { message: string }; result?: { isError?: boolean; content?: { text: string }[] } };
                return message.error ? `JSON-RPC ${message.error.message}` : message.result?.isError ? `tool error ${message.result.content?.[0]?.text.slice(0, 120)}` : undefined;
              },
            );
            break;
          case 'publicSvg':
            await timed(kind, () => fetch(`${url}/render/svg?token=${shareToken}`, { signal: signal() }));
            break;
        }
        await sleep(PAUSE_MS);
      }
    };

    const report = (m: Minute, label: string) => {
      const cell = (k: Kind) => {
        const l = m.latencies[k];
        return `${k} ${l.length + m.errors[k].length} req p50 ${Math.round(percentile(l, 50))} p99 ${Math.round(percentile(l, 99))} ms err ${m.errors[k].length}`;
      };
      console.log(`${label}: RSS ${Math.round(m.rssMb)} MB | ${KINDS.map(cell).join(' | ')}`);
      for (const k of KINDS) for (const e of new Set(m.errors[k])) console.log(`  ${k} error: ${e}`);
    };
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, rssMb(pid))), 1000);
    const ticker = setInterval(() => {
      current.rssMb = rssMb(pid);
      history.push(current);
      report(current, `minute ${history.length}`);
      current = newMinute();
    }, 60_000);
    const clients = KINDS.flatMap((kind) => Array.from({ length: CLIENTS[kind] }, (_, n) => client(kind, n)));
    await Promise.all(clients);
    clearInterval(ticker);
    clearInterval(sampler);
    // The requests that finished after the last full minute are counted in the totals, not as a minute of their own.
    const tail = current;
    const endRss = rssMb(pid);
    peakRss = Math.max(peakRss, rssMb(pid, 'VmHWM'));

    const all = [...history, tail];
    console.log(`\nSummary over ${minutes} min (${history.length} full minutes):`);
    for (const k of KINDS) {
      const total = all.reduce((n, m) => n + m.latencies[k].length + m.errors[k].length, 0);
      const errors = all.reduce((n, m) => n + m.errors[k].length, 0);
      const span = (m: Minute | undefined) => (m ? `p50 ${Math.round(percentile(m.latencies[k], 50))} / p99 ${Math.round(percentile(m.latencies[k], 99))} ms` : 'n/a');
      console.log(`  ${k.padEnd(9)} ${String(total).padStart(6)} requests, ${errors} errors; first minute ${span(history[0])}, last minute ${span(history.at(-1))}`);
    }
    console.log(`  RSS: start ${Math.round(startRss)} MB, peak ${Math.round(peakRss)} MB (VmHWM), end ${Math.round(endRss)} MB`);
  } finally {
    child.kill('SIGTERM');
    if (child.exitCode === null) await once(child, 'exit');
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
