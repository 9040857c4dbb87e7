import { readFileSync } from 'node:fs';

/** Configuration comes from the environment only; README's table documents each variable. */
export interface Config {
  databaseUrl: string;
  port: number;
  host: string;
  publicUrl: string;
  redisUrl: string | undefined;
  rateLimitPerMinute: number;
  /** Requests a minute per client address on the public routes (shared SVGs). */
  publicRateLimitPerMinute: number;
  /** Memory for rendered public SVGs, in MiB. */
  publicRenderCacheMb: number;
  /** Fastify's trustProxy: whether (or from which proxies) X-Forwarded-For names the client. */
  trustProxy: boolean | string;
  /** Bearer token a Prometheus scraper sends to GET /metrics; the route is off without one. */
  metricsToken: string | undefined;
  logLevel: string;
}

export const DEFAULT_SQLITE_PATH = './data/drawbridge.db';

function positiveInteger(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a positive integer, got "${raw}"`);
  return value;
}

/** `true`/`false`, or the proxies' addresses/CIDRs separated by commas, as Fastify's trustProxy takes them. */
function trustProxy(raw: string | undefined): boolean | string {
  if (!raw || raw === 'false') return false;
  return raw === 'true' ? true : raw;
}

/**
 * Docker and Kubernetes secrets arrive as files: any `NAME_FILE` supplies `NAME` (the file's text without its final
 * newline) unless `NAME` itself is set. Works for every variable, so DATABASE_URL with a password is covered too.
 */
export function withSecretFiles(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const expanded = { ...env };
  for (const [key, path] of Object.entries(env)) {
    const name = key.endsWith('_FILE') ? key.slice(0, -'_FILE'.length) : '';
    if (!name || !path || env[name]) continue;
    try {
      expanded[name] = readFileSync(path, 'utf8').replace(/\r?\n$/, '');
    } catch (error) {
      throw new Error(`${key}: cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
    }
  }
  return expanded;
}

/** Listening on every interface says nothing about the name clients use; loopback is at least a working link. */
const WILDCARD_HOSTS = new Set(['0.0.0.0', '::', '[::]']);

export function loadConfig(environment: NodeJS.ProcessEnv = process.env): Config {
  const env = withSecretFiles(environment);
  const port = positiveInteger('PORT', env.PORT, 3000);
  const host = env.HOST || '127.0.0.1';
  const linkHost = WILDCARD_HOSTS.has(host) ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  return {
    databaseUrl: env.DATABASE_URL || DEFAULT_SQLITE_PATH,
    port,
    host,
    publicUrl: (env.PUBLIC_URL || `http://${linkHost}:${port}`).replace(/\/+$/, ''),
    redisUrl: env.REDIS_URL || undefined,
    rateLimitPerMinute: positiveInteger('RATE_LIMIT_PER_MINUTE', env.RATE_LIMIT_PER_MINUTE, 120),
    publicRateLimitPerMinute: positiveInteger('PUBLIC_RATE_LIMIT_PER_MINUTE', env.PUBLIC_RATE_LIMIT_PER_MINUTE, 120),
    publicRenderCacheMb: positiveInteger('PUBLIC_RENDER_CACHE_MB', env.PUBLIC_RENDER_CACHE_MB, 64),
    trustProxy: trustProxy(env.TRUST_PROXY),
    metricsToken: env.METRICS_TOKEN || undefined,
    logLevel: env.LOG_LEVEL || 'info',
  };
}
