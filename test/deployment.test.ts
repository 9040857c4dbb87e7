import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { type Backend, createBackend, POSTGRES_URL, REDIS_URL, requireServer } from './support/backends.js';

/**
 * Docker cannot pull images here, so the compose file is checked by starting what it describes directly: its two
 * Drawbridge services with their own environment and secret files, on the real PostgreSQL and Redis, the way the
 * image's CMD and HEALTHCHECK run them. (Where Docker works: `docker compose up -d --build`.)
 */
const run = promisify(execFile);
const compose = parse(readFileSync('compose.yaml', 'utf8'));
const dockerfile = readFileSync('Dockerfile', 'utf8');
const servers = (await requireServer('postgres')) && (await requireServer('redis'));

/** A port nobody listens on now (the instances take PORT like the image does, not 0). */
const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

/** The exec-form array of a Dockerfile instruction such as CMD or HEALTHCHECK … CMD. */
function execForm(instruction: RegExp): string[] {
  const match = instruction.exec(dockerfile.replace(/\\\n\s*/g, ' '));
  if (!match) throw new Error(`Dockerfile has no ${instruction}`);
  return JSON.parse(match[1]!);
}

describe.runIf(servers)('the compose deployment: two instances, PostgreSQL, Redis', () => {
  let backend: Backend;
  let secrets: string;
  const children: ChildProcess[] = [];
  const urls: string[] = [];
  const metricsToken = randomBytes(12).toString('hex');

  beforeAll(async () => {
    backend = await createBackend('postgres');
    secrets = mkdtempSync(join(tmpdir(), 'drawbridge-secrets-'));
    // compose's secret files, pointing at this machine's servers instead of the compose network's.
    writeFileSync(join(secrets, 'database_url'), `${backend.databaseUrl}\n`);
    writeFileSync(join(secrets, 'metrics_token'), `${metricsToken}\n`);
    writeFileSync(join(secrets, 'drawbridge_secret'), `${randomBytes(32).toString('base64')}\n`);
    const [command, ...args] = execForm(/^CMD (\[.*\])$/m);
    for (const name of ['drawbridge-1', 'drawbridge-2']) {
      const service = compose.services[name];
      const env: Record<string, string> = {
        ...Object.fromEntries(Object.entries(process.env).filter(([key]) => ['PATH', 'HOME', 'TMPDIR'].includes(key))),
        ...service.environment,
        REDIS_URL: REDIS_URL,
        PUBLIC_URL: 'http://localhost:8080',
        HOST: '127.0.0.1',
        PORT: String(await freePort()),
        LOG_LEVEL: 'info',
        RATE_LIMIT_PER_MINUTE: '20',
      };
      for (const key of Object.keys(env)) {
        if (key.endsWith('_FILE')) env[key] = join(secrets, String(env[key]).replace('/run/secrets/', ''));
      }
      const child = spawn(command!, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
      children.push(child);
      // pino's JSON line "Server listening at http://127.0.0.1:PORT" says it is up.
      urls.push(
        await new Promise<string>((resolve, reject) => {
          let output = '';
          const timer = setTimeout(() => reject(new Error(`${name} did not start:\n${output}`)), 45_000);
          const read = (chunk: Buffer) => {
            output += chunk.toString();
            const url = /listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1];
            if (url) {
              clearTimeout(timer);
              resolve(url);
            }
          };
          child.stdout!.on('data', read);
          child.stderr!.on('data', read);
          child.on('exit', (code) => reject(new Error(`${name} exited with ${code}:\n${output}`)));
        }),
      );
    }
  }, 90_000);
  afterAll(async () => {
    for (const child of children) child.kill('SIGTERM');
    await Promise.all(children.map((child) => new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.on('exit', resolve)))));
    rmSync(secrets, { recursive: true, force: true });
    await backend?.dispose();
  });

  it('runs as the image describes: ready, healthy by its HEALTHCHECK, non-root, production dependencies only', async () => {
    for (const url of urls) expect((await fetch(`${url}/readyz`)).status).toBe(200);
    const [command, ...args] = execForm(/HEALTHCHECK .*?CMD (\[.*\])$/m);
    const { port } = new URL(urls[0]!);
    await expect(run(command!, args, { env: { ...process.env, PORT: port } })).resolves.toBeDefined();
    expect(dockerfile).toMatch(/^USER node$/m);
    expect(dockerfile).toMatch(/npm ci --omit=dev/);
  });

  it('serves one set of documents and one rate-limit budget from both instances', async () => {
    const { stdout } = await run('node', ['bin/drawbridge.js', 'user', 'create', '--email', 'ops@example.com'], { env: { ...process.env, DATABASE_URL: backend.databaseUrl } });
    const { workspaceId } = JSON.parse(stdout);
    const token = JSON.parse(
      (await run('node', ['bin/drawbridge.js', 'token', 'create', '--email', 'ops@example.com', '--name', 'ops', '--scopes', 'diagrams:read,diagrams:write'], { env: { ...process.env, DATABASE_URL: backend.databaseUrl } })).stdout,
    ).token;
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const created = await fetch(`${urls[0]}/api-v1/documents`, { method: 'POST', headers, body: JSON.stringify({ workspaceId, name: 'Shared by both' }) });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    expect(((await (await fetch(`${urls[1]}/api-v1/documents/${id}`, { headers })).json()) as { name: string }).name).toBe('Shared by both');
    // 20 units a minute across both instances (2 spent above).
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) statuses.push((await fetch(`${urls[i % 2]}/api-v1/workspaces`, { headers })).status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(18);
    expect(statuses.slice(-2)).toEqual([429, 429]);
  });

  it('reads its secrets from files: /metrics answers the token from METRICS_TOKEN_FILE', async () => {
    const res = await fetch(`${urls[1]}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('drawbridge_http_requests_total');
  });
});

describe('the deployment kit', () => {
  it('puts both instances behind the proxy and keeps secrets out of the environment', () => {
    const caddyfile = readFileSync('deploy/Caddyfile', 'utf8');
    expect(caddyfile).toMatch(/reverse_proxy drawbridge-1:3000 drawbridge-2:3000/);
    for (const name of ['drawbridge-1', 'drawbridge-2']) {
      const env = compose.services[name].environment as Record<string, string>;
      expect(env.TRUST_PROXY).toBe('true');
      expect(Object.keys(env).filter((key) => /SECRET|TOKEN|PASSWORD|DATABASE_URL/.test(key) && !key.endsWith('_FILE'))).toEqual([]);
    }
    expect(compose.services.postgres.environment.POSTGRES_PASSWORD).toBeUndefined();
    expect(POSTGRES_URL).toBeTruthy();
  });

  it('publishes HTTPS and keeps the proxy\'s certificates, and takes an instance out before it stops', () => {
    const proxy = compose.services.proxy as { ports: string[]; volumes: string[] };
    expect(proxy.ports.some((port) => /:443$/.test(port))).toBe(true);
    expect(proxy.volumes).toContain('caddy_data:/data');
    expect(Object.keys(compose.volumes)).toContain('caddy_data');
    // The health check must notice a draining instance (DRAIN_SECONDS, 5 by default) before its listener closes.
    const interval = Number(/health_interval (\d+)s/.exec(readFileSync('deploy/Caddyfile', 'utf8'))![1]);
    expect(interval).toBeLessThan(5);
  });
});
