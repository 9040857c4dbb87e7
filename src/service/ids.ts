import { createHash, randomBytes } from 'node:crypto';

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** `length` base62 characters from the CSPRNG, each ≈5.95 bits, uniformly distributed. */
export function randomBase62(length: number): string {
  const bytes = randomBytes(length * 2);
  let out = '';
  for (let i = 0; out.length < length && i < bytes.length; i++) {
    const byte = bytes[i]!;
    // 248 = 4 × 62: discarding bytes ≥ 248 keeps every character equally likely.
    if (byte < 248) out += ALPHABET[byte % 62];
  }
  return out.length === length ? out : out + randomBase62(length - out.length);
}

export const ID_PREFIXES = { user: 'usr', workspace: 'ws', folder: 'fld', document: 'doc', token: 'tok', invite: 'inv', grant: 'grt', client: 'cli' } as const;
export type IdKind = keyof typeof ID_PREFIXES;

/** Opaque prefixed ids (`doc_…`): 20 base62 characters ≈ 119 bits, unguessable and never sequential. */
export const newId = (kind: IdKind): string => `${ID_PREFIXES[kind]}_${randomBase62(20)}`;

export const nowIso = (): string => new Date().toISOString();

/** How secrets handed out once (tokens, session cookies, invitation links) are kept: their SHA-256, in hex. */
export const sha256Hex = (text: string): string => createHash('sha256').update(text).digest('hex');
