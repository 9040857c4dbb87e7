import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { EDITIONS, type Edition } from '../core/plans.js';
import { WALL_FACTOR } from './jobs/job-clock.js';
import { DEFAULT_RETENTION, type HistoryRetention } from '../service/history.js';

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
  /** Document versions kept: all younger than `days`, and at least the last `keep` (HISTORY_DAYS, HISTORY_KEEP). */
  history: HistoryRetention;
  /** Fastify's trustProxy: whether (or from which proxies) X-Forwarded-For names the client. */
  trustProxy: boolean | string;
  /** Bearer token a Prometheus scraper sends to GET /metrics; the route is off without one. */
  metricsToken: string | undefined;
  /** MEMORY_MB: the resident memory the whole process keeps under (main thread, job threads, D2, their WebAssembly). */
  memoryMb: number;
  /** The worker pool for heavy work: threads, queue, and each job's time and memory. */
  jobs: JobLimits;
  /**
   * SIGTERM: seconds /readyz answers 503 while requests are still served (DRAIN_SECONDS, longer than the balancer's
   * health-check interval), then at most `finishSeconds` for the requests in flight (the longest a job may take).
   */
  shutdown: { drainSeconds: number; finishSeconds: number };
  /** DRAWBRIDGE_SECRET: the server key for secrets at rest is derived from it; else one is kept in `secretKeyFile`. */
  secret: string | undefined;
  secretKeyFile: string;
  /** Whether an AI provider's base URL may point at loopback, link-local or private addresses (self-hosted Ollama). */
  aiAllowPrivateUrls: boolean;
  aiTimeoutSeconds: number;
  logLevel: string;
  /** DRAWBRIDGE_EDITION: `self-hosted` (every member may use the API) or `hosted` (plans decide; service/plans.ts). */
  edition: Edition;
  /** OAUTH: whether `/mcp` is an OAuth 2.1 protected resource that AI clients discover from a 401. */
  oauth: boolean;
  /**
   * Tests only: client metadata documents may be served on loopback or private addresses. No variable sets it, so
   * no deployment can weaken the address guard by configuration.
   */
  oauthClientDocumentsOnLoopback?: boolean;
}

function edition(raw: string | undefined): Edition {
  if (!raw) return 'self-hosted';
  if (!(EDITIONS as readonly string[]).includes(raw)) throw new Error(`DRAWBRIDGE_EDITION must be ${EDITIONS.join(' or ')}, got "${raw}"`);
  return raw as Edition;
}

export interface JobLimits {
  /** Worker threads; default: one per core. */
  threads: number;
  /** Jobs that may wait for a thread; one more is refused with `busy`. */
  queue: number;
  /** Running time of one job. */
  timeoutSeconds: number;
  /** V8 heap of one worker thread. */
  memoryMb: number;
}

export const DEFAULT_JOB_LIMITS: JobLimits = { threads: availableParallelism(), queue: 64, timeoutSeconds: 20, memoryMb: 512 };

/** Sized for a container capped at 1 GB. */
export const DEFAULT_MEMORY_MB = 1024;
/** The server at rest with every module loaded (measured 340–470 MB with tsx's transpiled sources, `npm run bench`). */
const RESTING_MB = 450;
/**
 * What one heavy job may add: a job thread with the renderers and parsers loaded (about 90 MB) and the WebAssembly
 * memory of the largest allowed input (a 1,000-node, 5,000-edge DOT graph grows Graphviz's by about 440 MB; D2's Go
 * runtime holds about 450 MB once started).
 */
const HEAVY_JOB_MB = 500;
const MEMORY_FLOOR_MB = RESTING_MB + HEAVY_JOB_MB / 2;

/** Heavy jobs that may run at once within a memory budget: at least one, at most one per core. */
export function heavyJobsWithin(memoryMb: number, cores = availableParallelism()): number {
  return Math.max(1, Math.min(cores, Math.floor((memoryMb - RESTING_MB) / HEAVY_JOB_MB)));
}

/**
 * The embedded database lives in the project's own data folder, not the caller's working directory, so
 * `npx drawbridge …` run from anywhere reaches the database `npm start` uses.
 */
export const DEFAULT_SQLITE_PATH = fileURLToPath(new URL('../../data/drawbridge.db', import.meta.url));
/** Where the server key is generated when DRAWBRIDGE_SECRET is not set (mode 0600). */
export const DEFAULT_SECRET_KEY_PATH = fileURLToPath(new URL('../../data/secret.key', import.meta.url));

function positiveInteger(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a positive integer, got "${raw}"`);
  return value;
}

function nonNegativeInteger(name: string, raw: string | undefined, fallback: number): number {
  if (raw === '0') return 0;
  return positiveInteger(name, raw, fallback);
}

/** A worker needs about 100 MB to load the renderer and parsers; under that it dies before its first job. */
const JOB_MEMORY_FLOOR_MB = 128;

function atLeast(floor: number, name: string, value: number): number {
  if (value < floor) throw new Error(`${name} must be at least ${floor}, got ${value}`);
  return value;
}

/** `true`/`false`, or the proxies' addresses/CIDRs separated by commas, as Fastify's trustProxy takes them. */
function trustProxy(raw: string | undefined): boolean | string {
  if (!raw || raw === 'false') return false;
  return raw === 'true' ? true : raw;
}

/** The settings that may hold a secret, and so may also come from a file. */
const FILE_SETTINGS = ['DATABASE_URL', 'REDIS_URL', 'METRICS_TOKEN', 'DRAWBRIDGE_SECRET'] as const;

/**
 * Docker and Kubernetes secrets arrive as files: `NAME_FILE` supplies `NAME` (the file's text without its final
 * newline) unless `NAME` itself is set. Only our secret-bearing settings: other programs' `*_FILE` variables in the
 * same environment are none of our business.
 */
export function withSecretFiles(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const expanded = { ...env };
  for (const name of FILE_SETTINGS) {
    const path = env[`${name}_FILE`];
    if (!path || env[name]) continue;
    try {
      expanded[name] = readFileSync(path, 'utf8').replace(/\r?\n$/, '');
    } catch (error) {
      throw new Error(`${name}_FILE: cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
    }
  }
  return expanded;
}

function onOff(name: string, raw: string | undefined, fallback: boolean): boolean {
  if (!raw) return fallback;
  if (raw === 'on' || raw === 'off') return raw === 'on';
  throw new Error(`${name} must be on or off, got "${raw}"`);
}

/** Listening on every interface says nothing about the name clients use; loopback is at least a working link. */
const WILDCARD_HOSTS = new Set(['0.0.0.0', '::', '[::]']);

export function loadConfig(environment: NodeJS.ProcessEnv = process.env): Config {
  const env = withSecretFiles(environment);
  const port = positiveInteger('PORT', env.PORT, 3000);
  const host = env.HOST || '127.0.0.1';
  const memoryMb = atLeast(MEMORY_FLOOR_MB, 'MEMORY_MB', positiveInteger('MEMORY_MB', env.MEMORY_MB, DEFAULT_MEMORY_MB));
  const jobTimeoutSeconds = positiveInteger('JOB_TIMEOUT_SECONDS', env.JOB_TIMEOUT_SECONDS, DEFAULT_JOB_LIMITS.timeoutSeconds);
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
    history: {
      days: positiveInteger('HISTORY_DAYS', env.HISTORY_DAYS, DEFAULT_RETENTION.days),
      keep: positiveInteger('HISTORY_KEEP', env.HISTORY_KEEP, DEFAULT_RETENTION.keep),
    },
    trustProxy: trustProxy(env.TRUST_PROXY),
    metricsToken: env.METRICS_TOKEN || undefined,
    memoryMb,
    jobs: {
      threads: positiveInteger('JOB_THREADS', env.JOB_THREADS, heavyJobsWithin(memoryMb)),
      queue: positiveInteger('JOB_QUEUE', env.JOB_QUEUE, DEFAULT_JOB_LIMITS.queue),
      timeoutSeconds: jobTimeoutSeconds,
      memoryMb: atLeast(JOB_MEMORY_FLOOR_MB, 'JOB_MEMORY_MB', positiveInteger('JOB_MEMORY_MB', env.JOB_MEMORY_MB, DEFAULT_JOB_LIMITS.memoryMb)),
    },
    shutdown: { drainSeconds: nonNegativeInteger('DRAIN_SECONDS', env.DRAIN_SECONDS, 5), finishSeconds: jobTimeoutSeconds * WALL_FACTOR + 10 },
    secret: env.DRAWBRIDGE_SECRET || undefined,
    secretKeyFile: DEFAULT_SECRET_KEY_PATH,
    aiAllowPrivateUrls: env.AI_ALLOW_PRIVATE_URLS === 'true',
    aiTimeoutSeconds: positiveInteger('AI_TIMEOUT_SECONDS', env.AI_TIMEOUT_SECONDS, 90),
    logLevel: env.LOG_LEVEL || 'info',
    edition: edition(env.DRAWBRIDGE_EDITION),
    oauth: onOff('OAUTH', env.OAUTH, true),
  };
}
