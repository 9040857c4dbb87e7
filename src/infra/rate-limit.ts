import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window resets. */
  resetSeconds: number;
}

export interface RateLimiter {
  /** Spends `units` (default 1) of the key's budget; a refusal spends nothing. */
  consume(key: string, units?: number): Promise<RateDecision>;
  /** Gives back `units` spent on a request that was then refused. */
  refund(key: string, units: number): Promise<void>;
}

/**
 * A fixed one-minute window per key. In memory by default; on Redis when given one, so that every instance pointed
 * at the same Redis spends the same budget. While Redis cannot be reached, each instance counts in its own memory
 * (rate-limiter-flexible's insurance limiter): the limit still holds per instance, and requests are still served.
 */
export function createRateLimiter(options: { perMinute: number; redis?: Redis | undefined; keyPrefix?: string; windowSeconds?: number }): RateLimiter {
  // `windowSeconds` lengthens the window (sign-in attempts: a few per quarter hour); `perMinute` is then per window.
  const common = { points: options.perMinute, duration: options.windowSeconds ?? 60, keyPrefix: options.keyPrefix ?? 'drawbridge:rl' };
  const limiter = options.redis
    ? new RateLimiterRedis({ ...common, storeClient: options.redis, useRedisPackage: false, insuranceLimiter: new RateLimiterMemory(common) })
    : new RateLimiterMemory(common);
  const decision = (consumed: number, msBeforeNext: number, allowed: boolean): RateDecision => ({
    allowed,
    limit: options.perMinute,
    remaining: Math.max(0, options.perMinute - consumed),
    resetSeconds: Math.max(1, Math.ceil(msBeforeNext / 1000)),
  });
  return {
    async consume(key, units = 1) {
      try {
        const res = await limiter.consume(key, units);
        return decision(res.consumedPoints, res.msBeforeNext, true);
      } catch (rejection) {
        // rate-limiter-flexible rejects with a RateLimiterRes when over the limit, with an Error when the store fails.
        // The refused points were counted: give them back, so that a refused heavy request does not eat the budget
        // that lighter ones could still use.
        if (rejection instanceof RateLimiterRes) {
          await limiter.reward(key, units).catch(() => undefined);
          return decision(rejection.consumedPoints - units, rejection.msBeforeNext, false);
        }
        throw rejection;
      }
    },
    async refund(key, units) {
      await limiter.reward(key, units).catch(() => undefined);
    },
  };
}
