import { AppError } from '../core/errors.js';
import type { RateDecision, RateLimiter } from '../infra/rate-limit.js';
import type { Principal } from './principal.js';
import type { TokenService } from './tokens.js';

export interface Admission {
  principal: Principal;
  rate: RateDecision;
}

/**
 * The door every authenticated request passes, REST and MCP alike: a valid token, then one unit of that token's
 * per-minute budget. Over budget is an AppError carrying the decision, so each adapter can still send the headers.
 */
export async function admit(tokens: TokenService, limiter: RateLimiter, authorization: string | undefined): Promise<Admission> {
  const principal = await tokens.authenticate(authorization);
  const rate = await limiter.consume(principal.tokenId);
  if (!rate.allowed) {
    throw new AppError('rate_limited', `rate limit of ${rate.limit} requests a minute exceeded for this token; retry in ${rate.resetSeconds} s`, { rate });
  }
  return { principal, rate };
}
