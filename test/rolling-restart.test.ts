import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import http from 'node:http';
import { createServer as createNetServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRuntime } from '../src/adapters/http/server.js';
import { type Backend, createBackend, REDIS_URL, requireServer, testConfig } from './support/backends.js';
import { box, buildWorld } from './support/world.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function freePort(): Promise<number> {
  const server = createNetServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}

/**
 * What Caddy does in compose.yaml, in a few lines: round-robin over the instances its health check (GET /readyz every
 * 500 ms) finds ready, and a request whose connection is refused is tried on the next one. Connections are not kept
 * alive, so a closed listener shows as a refused connection, never as a half-sent request.
 */
function startBalancer(ports: number[]) {
  const healthy = new Set(ports);
  let next = 0;
  const check = setInterval(() => {
    for (const port of ports) {
      const probe = http.get({ host: '127.0.0.1', port, path: '/readyz', agent: false }, (response) => {
        response.resume();
        if (response.statusCode === 200) healthy.add(port);
        else healthy.delete(port);
      });
      probe.on('error', () => healthy.delete(port));
    }
  }, 500);
  const forward = (request: http.IncomingMessage, body: Buffer, reply: http.ServerResponse, tries: number) => {
    const candidates = ports.filter((port) => healthy.has(port));
    const port = (candidates.length > 0 ? candidates : ports)[next++ % (candidates.length || ports.length)]!;
    const upstream = http.request({ host: '127.0.0.1', port, method: request.method, path: request.url, headers: request.headers, agent: false }, (response) => {
      reply.writeHead(response.statusCode!, response.headers);
      response.pipe(reply);
    });
    upstream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ECONNREFUSED' && tries < 20) {
        healthy.delete(port);
        setTimeout(() => forward(request, body, reply, tries + 1), 100);
      } else if (reply.headersSent) {
        reply.destroy(error);
      } else {
        reply.writeHead(502).end(error.code);
      }
    });
    upstream.end(body);
  };
  const server = http.createServer((request, reply) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => forward(request, Buffer.concat(chunks), reply, 0));
  });
  return { server, close: () => (clearInterval(check), server.close()) };
}

const runServer = await requireServer('postgres') && await requireServer('redis');

describe.runIf(runServer)('rolling restart of two instances behind a balancer, on one PostgreSQL and Redis', () => {
  let backend: Backend;
  let token: string;
  let workspaceId: string;
  const instances = new Map<number, ChildProcess>();

  function startInstance(port: number): ChildProcess {
    const child = spawn(process.execPath, ['bin/drawbridge.js', 'serve'], {
      env: { ...process.env, DATABASE_URL: backend.databaseUrl, REDIS_URL, PORT: String(port), HOST: '127.0.0.1', DRAWBRIDGE_SECRET: 'rolling-test', DRAIN_SECONDS: '2', LOG_LEVEL: 'warn', RATE_LIMIT_PER_MINUTE: '1000000' },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    instances.set(port, child);
    return child;
  }

  async function ready(port: number): Promise<void> {
    for (let waited = 0; waited < 90_000; waited += 250) {
      const ok = await fetch(`http://127.0.0.1:${port}/readyz`).then((r) => r.ok, () => false);
      if (ok) return;
      await sleep(250);
    }
    throw new Error(`instance on ${port} never became ready`);
  }

  beforeAll(async () => {
    backend = await createBackend('postgres');
    const setup = await createRuntime(testConfig({ databaseUrl: backend.databaseUrl }));
    const world = await buildWorld(setup);
    token = world.tokens.annAll;
    workspaceId = world.annWorkspace;
    await setup.close();
  }, 60_000);

  afterAll(async () => {
    for (const child of instances.values()) child.kill('SIGKILL');
    await backend?.dispose();
  });

  it('restarts each instance in turn under steady reads and writes with no failed request', async () => {
    const ports = [await freePort(), await freePort()];
    for (const port of ports) startInstance(port);
    await Promise.all(ports.map(ready));
    const balancer = startBalancer(ports);
    balancer.server.listen(0, '127.0.0.1');
    await once(balancer.server, 'listening');
    const url = `http://127.0.0.1:${(balancer.server.address() as { port: number }).port}`;
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };

    const counts = { ok: 0, failed: [] as string[] };
    let loading = true;
    const began = performance.now();
    const client = async (kind: 'read' | 'write') => {
      for (let n = 0; loading; n++) {
        const response =
          kind === 'write'
            ? await fetch(`${url}/api-v1/documents`, { method: 'POST', headers, body: JSON.stringify({ workspaceId, name: `d${n}`, elements: [box(`b${n}`)] }) }).catch((e: Error) => e)
            : await fetch(`${url}/api-v1/documents?workspace=${workspaceId}&limit=5`, { headers }).catch((e: Error) => e);
        if (response instanceof Error) counts.failed.push(`${kind}: ${response.message} ${String((response.cause as Error | undefined)?.message)} at ${Math.round(performance.now() - began)} ms`);
        else {
          await response.arrayBuffer();
          if (response.ok) counts.ok++;
          else counts.failed.push(`${kind}: ${response.status} at ${Math.round(performance.now() - began)} ms`);
        }
      }
    };
    const clients = [client('read'), client('read'), client('write'), client('write')];
    try {
      await sleep(1500);
      for (const port of ports) {
        const old = instances.get(port)!;
        const exited = once(old, 'exit');
        old.kill('SIGTERM');
        console.log(`SIGTERM to ${port} at ${Math.round(performance.now() - began)} ms`);
        const [code] = await exited;
        console.log(`exited at ${Math.round(performance.now() - began)} ms`);
        expect(code, `instance on ${port} exit code`).toBe(0);
        startInstance(port);
        await ready(port);
        await sleep(1000);
      }
      await sleep(1500);
    } finally {
      loading = false;
      await Promise.all(clients);
      balancer.close();
    }
    expect(counts.failed).toEqual([]);
    expect(counts.ok).toBeGreaterThan(50);
  }, 240_000);
});
