import { AppError } from '../../core/errors.js';
import type { Scope } from '../../core/scopes.js';
import type { SecretSealer } from '../../service/ai-settings.js';

/** An authorization request the SDK's handler has validated (client, redirect URI, PKCE), carried to consent. */
export interface ConsentRequest {
  clientId: string;
  redirectUri: string;
  codeChallenge: string;
  state: string;
  scopes: Scope[];
  /** When it was sealed: a consent page left open longer than MAX_AGE_MS must be started again. */
  at: number;
}

const OWNER = 'oauth-consent';
const MAX_AGE_MS = 10 * 60_000;

/** Sealed under the server key, so the consent page can trust what it carries without storing it anywhere. */
export const sealConsentRequest = (sealer: SecretSealer, request: Omit<ConsentRequest, 'at'>): string =>
  sealer.seal(JSON.stringify({ ...request, at: Date.now() }), OWNER);

export function openConsentRequest(sealer: SecretSealer, sealed: unknown): ConsentRequest {
  let request: ConsentRequest;
  try {
    request = JSON.parse(sealer.open(String(sealed ?? ''), OWNER)) as ConsentRequest;
  } catch {
    throw new AppError('validation_failed', 'this sign-in request is not valid here: start connecting from your AI client again');
  }
  if (Date.now() - request.at > MAX_AGE_MS) throw new AppError('validation_failed', 'this sign-in request is more than 10 minutes old: start connecting from your AI client again');
  return request;
}
