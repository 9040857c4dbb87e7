import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { AppError } from '../../core/errors.js';
import type { Config } from '../../infra/config.js';
import { Metrics } from '../../infra/metrics.js';
import { createRateLimiter } from '../../infra/rate-limit.js';
import { assertProviderUrl } from '../../infra/ai/address-guard.js';
import { clientDocumentFetcher } from '../../infra/client-document.js';
import { createDiagramModel } from '../../infra/ai/models.js';
import { createD2Compiler, type D2CompilerService } from '../../infra/d2-compiler.js';
import { capWasmMemory, useBaselineWasmCompiler } from '../../infra/wasm-tiering.js';
import { createHeavySlots } from '../../infra/jobs/heavy-slots.js';
import { createJobPool, type JobPool } from '../../infra/jobs/pool.js';
import { createSecretBox, loadServerKey } from '../../infra/secret-box.js';
import { openDatabase } from '../../infra/storage/database.js';
import { pingDatabase } from '../../infra/storage/migrations.js';
import { createServices, createSignInLimiters, type Services } from '../../service/index.js';
import type { SignInLimits } from '../../service/sign-in.js';
import { buildApp } from './app.js';

export interface Runtime {
  app: FastifyInstance;
  services: Services;
  metrics: Metrics;
  jobs: JobPool;
  /** D2's compiler: started by the first D2 diagram, stopped when idle. */
  d2: D2CompilerService;
  /** From now on /readyz answers 503, so a balancer's health check takes the instance out; requests are still served. */
  drain(): void;
  /** Stops accepting requests, lets in-flight ones finish, then closes the database and Redis. */
  close(): Promise<void>;
}

/** Everything the service needs, opened from configuration; the listener is separate (see `listen`). */
export async function createRuntime(config: Config, options: { rateLimitKeyPrefix?: string; signInLimits?: SignInLimits } = {}): Promise<Runtime> {
  useBaselineWasmCompiler();
  const { db } = await openDatabase(config.databaseUrl);
  // No offline queue: while Redis is down a command fails at once and the limiter's in-memory insurance answers,
  // instead of every request waiting out reconnection attempts.
  const redis = config.redisUrl ? new Redis(config.redisUrl, { maxRetriesPerRequest: 1, enableOfflineQueue: false }) : undefined;
  let log: FastifyBaseLogger | undefined;
  if (redis) reportRedisOutages(redis, () => log);
  const keyPrefix = options.rateLimitKeyPrefix ?? 'drawbridge:rl';
  const metrics = new Metrics();
  let draining = false;
  let generatedKeyFile: string | undefined;
  // One budget for every heavy job, pool job or D2 compile: as many run at once as MEMORY_MB allows (JOB_THREADS).
  const slots = createHeavySlots({ slots: config.jobs.threads, queue: config.jobs.queue, budgetMb: config.memoryMb });
  if (slots.wasmCapMb) capWasmMemory(slots.wasmCapMb);
  const jobs = createJobPool(config.jobs, { metrics, slots, onWorkerError: (error) => log?.error({ err: error }, 'a job worker died') });
  // D2 compiles one at a time, each up to the job time limit: a short queue keeps the last one's wait bounded.
  const d2 = createD2Compiler({ timeoutSeconds: config.jobs.timeoutSeconds, queue: Math.min(config.jobs.queue, 8) }, { metrics, slots });
  const services = await createServices({
    db,
    limiter: createRateLimiter({ perMinute: config.rateLimitPerMinute, redis, keyPrefix }),
    publicLimiter: createRateLimiter({ perMinute: config.publicRateLimitPerMinute, redis, keyPrefix: `${keyPrefix}:public` }),
    publicUrl: config.publicUrl,
    work: jobs,
    d2,
    sealer: createSecretBox(loadServerKey(config.secret, config.secretKeyFile, (path) => (generatedKeyFile = path))),
    diagramModel: createDiagramModel({ timeoutSeconds: config.aiTimeoutSeconds, allowPrivateUrls: config.aiAllowPrivateUrls }),
    checkProviderUrl: (url) => assertProviderUrl(url, config.aiAllowPrivateUrls),
    publicRenderCacheBytes: config.publicRenderCacheMb * 1024 * 1024,
    historyRetention: config.history,
    edition: config.edition,
    signInLimiters: createSignInLimiters(redis, keyPrefix, options.signInLimits),
    signInLimits: options.signInLimits,
    oauth: config.oauth ? { fetchClientDocument: clientDocumentFetcher(config.oauthClientDocumentsOnLoopback) } : undefined,
  });
  const app = await buildApp({
    services,
    metrics,
    metricsToken: config.metricsToken,
    checkReady: () => (draining ? Promise.reject(new AppError('busy', 'shutting down: finishing the requests in flight')) : pingDatabase(db)),
    publicUrl: config.publicUrl,
    trustProxy: config.trustProxy,
    logLevel: config.logLevel === 'silent' ? undefined : config.logLevel,
    oauth: config.oauth,
  });
  log = app.log;
  if (generatedKeyFile) log.warn({ path: generatedKeyFile }, 'generated the server key for secrets at rest (AI keys): back it up, or set DRAWBRIDGE_SECRET');
  return {
    app,
    services,
    metrics,
    jobs,
    d2,
    drain() {
      draining = true;
    },
    async close() {
      await app.close();
      await jobs.close();
      await d2.close();
      await db.destroy();
      // quit() sends QUIT, which a Redis that is down cannot take.
      if (redis?.status === 'ready') await redis.quit();
      else redis?.disconnect();
    },
  };
}

/**
 * Listens, and on SIGINT/SIGTERM shuts down without failing a request: /readyz turns 503 at once while requests are
 * still served for `drainSeconds` (the balancer's health check sees it and sends no more), then the listener closes
 * (a new connection is refused, which a balancer retries on another instance) and the requests in flight finish with
 * their jobs. Past `drainSeconds` plus `finishSeconds` the process exits anyway.
 */
export async function listen(runtime: Runtime, config: Config): Promise<string> {
  const address = await runtime.app.listen({ port: config.port, host: config.host });
  const stop = async (signal: string) => {
    const { drainSeconds, finishSeconds } = config.shutdown;
    runtime.app.log.info({ signal, drainSeconds }, 'shutting down: readiness off, still serving while the balancer notices');
    setTimeout(() => {
      runtime.app.log.error({ finishSeconds }, 'shutting down: requests still in flight past the limit, exiting anyway');
      process.exit(1);
    }, (drainSeconds + finishSeconds) * 1000).unref();
    runtime.drain();
    await new Promise((resolve) => setTimeout(resolve, drainSeconds * 1000));
    runtime.app.log.info('shutting down: listener closed, finishing in-flight requests');
    await runtime.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
  return address;
}

/**
 * One warning when Redis goes away and one line when it is back, instead of an unhandled error per retry. Listening
 * starts with the connection; until the app's logger exists (`logger()` is undefined) there is nothing to say it with.
 */
function reportRedisOutages(redis: Redis, logger: () => FastifyBaseLogger | undefined): void {
  let reported = false;
  redis.on('error', (error: Error) => {
    const log = logger();
    if (reported || !log) return;
    reported = true;
    log.warn({ err: error.message }, 'Redis unreachable: rate limits are counted per instance until it returns');
  });
  redis.on('ready', () => {
    if (reported) logger()?.info('Redis reachable again: rate limits are shared again');
    reported = false;
  });
}
