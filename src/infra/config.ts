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

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = positiveInteger('PORT', env.PORT, 3000);
  const host = env.HOST || '127.0.0.1';
  return {
    databaseUrl: env.DATABASE_URL || DEFAULT_SQLITE_PATH,
    port,
    host,
    publicUrl: (env.PUBLIC_URL || `http://${host.includes(':') ? `[${host}]` : host}:${port}`).replace(/\/+$/, ''),
    redisUrl: env.REDIS_URL || undefined,
    rateLimitPerMinute: positiveInteger('RATE_LIMIT_PER_MINUTE', env.RATE_LIMIT_PER_MINUTE, 120),
    publicRateLimitPerMinute: positiveInteger('PUBLIC_RATE_LIMIT_PER_MINUTE', env.PUBLIC_RATE_LIMIT_PER_MINUTE, 120),
    publicRenderCacheMb: positiveInteger('PUBLIC_RENDER_CACHE_MB', env.PUBLIC_RENDER_CACHE_MB, 64),
    trustProxy: trustProxy(env.TRUST_PROXY),
    logLevel: env.LOG_LEVEL || 'info',
  };
}
