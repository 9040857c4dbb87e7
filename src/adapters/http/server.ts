import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import type { Config } from '../../infra/config.js';
import { createRateLimiter } from '../../infra/rate-limit.js';
import { createRenderer } from '../../infra/renderer.js';
import { openDatabase } from '../../infra/storage/database.js';
import { pingDatabase } from '../../infra/storage/migrations.js';
import { createServices, type Services } from '../../service/index.js';
import { buildApp } from './app.js';

export interface Runtime {
  app: FastifyInstance;
  services: Services;
  /** Stops accepting requests, lets in-flight ones finish, then closes the database and Redis. */
  close(): Promise<void>;
}

/** Everything the service needs, opened from configuration; the listener is separate (see `listen`). */
export async function createRuntime(config: Config, options: { rateLimitKeyPrefix?: string } = {}): Promise<Runtime> {
  const { db } = await openDatabase(config.databaseUrl);
  const redis = config.redisUrl ? new Redis(config.redisUrl, { maxRetriesPerRequest: 2, enableOfflineQueue: true }) : undefined;
  const limiter = createRateLimiter({ perMinute: config.rateLimitPerMinute, redis, keyPrefix: options.rateLimitKeyPrefix });
  const services = await createServices(db, limiter, config.publicUrl, createRenderer());
  const app = await buildApp({
    services,
    checkReady: () => pingDatabase(db),
    publicUrl: config.publicUrl,
    logLevel: config.logLevel === 'silent' ? undefined : config.logLevel,
  });
  return {
    app,
    services,
    async close() {
      await app.close();
      await db.destroy();
      if (redis) await redis.quit();
    },
  };
}

/** Listens and shuts down gracefully on SIGINT/SIGTERM. */
export async function listen(runtime: Runtime, config: Config): Promise<string> {
  const address = await runtime.app.listen({ port: config.port, host: config.host });
  const stop = async (signal: string) => {
    runtime.app.log.info({ signal }, 'shutting down: finishing in-flight requests');
    await runtime.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
  return address;
}
