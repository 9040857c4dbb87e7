import { AppError } from '../core/errors.js';
import type { RateDecision, RateLimiter } from '../infra/rate-limit.js';
import type { Door, Principal } from './principal.js';
import type { TokenService } from './tokens.js';

export interface Admission {
  principal: Principal;
  rate: RateDecision;
}

/**
 * Spends `units` of the token's per-minute budget (see costs.ts). Over budget is an AppError carrying the decision,
 * so each adapter can still send the headers; a refused request spends nothing.
 */
export async function charge(limiter: RateLimiter, principal: Principal, units: number): Promise<RateDecision> {
  return spend(limiter, principal.tokenId, units, (rate) => `rate limit of ${rate.limit} units a minute exceeded for this token (this request costs ${units}, ${rate.remaining} left)`);
}

/** Gives back what `charge` took, for a request refused before it did any work (see the REST adapter). */
export async function refund(limiter: RateLimiter, principal: Principal, units: number): Promise<void> {
  await limiter.refund(principal.tokenId, units);
}

/** The tokenless routes (public SVG) count requests per client address instead. */
export async function admitPublic(limiter: RateLimiter, address: string): Promise<RateDecision> {
  return spend(limiter, address, 1, (rate) => `more than ${rate.limit} public requests a minute from your address`);
}

/** Spends `units` of `key`'s budget, or refuses with rate_limited and the message `overLimit` writes. */
export async function spend(limiter: RateLimiter, key: string, units: number, overLimit: (rate: RateDecision) => string): Promise<RateDecision> {
  const rate = await limiter.consume(key, units);
  if (!rate.allowed) throw new AppError('rate_limited', `${overLimit(rate)}; retry in ${rate.resetSeconds} s`, { rate });
  return rate;
}

/** The door every authenticated request passes, REST and MCP alike: a valid token, then its operation's cost. */
export async function admit(tokens: TokenService, limiter: RateLimiter, authorization: string | undefined, units: number, door: Door): Promise<Admission> {
  const principal = await tokens.authenticate(authorization, door);
  return { principal, rate: await charge(limiter, principal, units) };
}
