import { AppError } from '../core/errors.js';
import { assertProviderUrl, providerFetch } from './ai/address-guard.js';

/** A client metadata document is a few hundred bytes; anything past this is refused unread. */
const MAX_BYTES = 5 * 1024;
const TIMEOUT_MS = 5_000;

/**
 * Fetches a client ID metadata document (the OAuth client's URL is its client_id) with the guard AI provider URLs
 * pass: no private, loopback or link-local address, checked on the connection itself; no redirect followed; at most
 * 5 KB in 5 s. `allowPrivate` exists for tests that serve the document on loopback; no setting turns it on.
 */
export function clientDocumentFetcher(allowPrivate = false): (url: string) => Promise<unknown> {
  const guarded = providerFetch(allowPrivate);
  return async (url) => {
    const parsed = new URL(url);
    if (parsed.protocol !== 'https:' && !allowPrivate) throw refused(url, 'a client_id URL must be https');
    if (parsed.pathname === '/' || parsed.hash) throw refused(url, 'a client_id URL needs a path and no fragment');
    try {
      await assertProviderUrl(url, allowPrivate);
      const response = await guarded(url, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(TIMEOUT_MS) });
      if (!response.ok) throw refused(url, `it answered ${response.status}`);
      if (Number(response.headers.get('content-length') ?? 0) > MAX_BYTES) throw refused(url, `it is over ${MAX_BYTES} bytes`);
      const reader = response.body!.getReader();
      const chunks: Uint8Array[] = [];
      let size = 0;
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
        size += chunk.value.byteLength;
        if (size > MAX_BYTES) {
          await reader.cancel();
          throw refused(url, `it is over ${MAX_BYTES} bytes`);
        }
        chunks.push(chunk.value);
      }
      return JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch (error) {
      if (error instanceof AppError && error.message.startsWith('the client metadata document')) throw error;
      // The guard speaks of AI base URLs; here the reason is the same, the subject is the client's document.
      const reason = error instanceof AppError ? error.message.replace(/^baseUrl:? ?/, '').replace(/; the operator can allow.*$/, '') : (error as Error).name === 'TimeoutError' ? `no answer within ${TIMEOUT_MS / 1000} s` : (error as Error).message;
      throw refused(url, reason);
    }
  };
}

const refused = (url: string, reason: string) => new AppError('validation_failed', `the client metadata document at ${url} cannot be used: ${reason}`);
