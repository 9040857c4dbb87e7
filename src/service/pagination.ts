import { createHmac, timingSafeEqual } from 'node:crypto';
import { AppError } from '../core/errors.js';

/** Longer than any cursor this service writes (under 100 characters). */
const CURSOR_MAX_LENGTH = 512;

/** Position after the last row of a page: rows are ordered by (created_at, id), which never changes for a row. */
export interface Keyset {
  createdAt: string;
  id: string;
}

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

/**
 * Opaque keyset cursors, HMAC-signed with a key every instance reads from the database, and bound to the listing
 * they came from (a folder's cursor is no good for a workspace), so a forged or foreign cursor is refused.
 */
export class CursorCodec {
  constructor(private readonly key: string) {}

  encode(listing: string, keyset: Keyset): string {
    const body = Buffer.from(JSON.stringify([keyset.createdAt, keyset.id])).toString('base64url');
    return `${body}.${this.sign(listing, body)}`;
  }

  decode(listing: string, cursor: string): Keyset {
    const [body, signature, extra] = cursor.split('.');
    const invalid = () => new AppError('invalid_cursor', 'cursor is not a nextCursor value returned by this listing');
    if (cursor.length > CURSOR_MAX_LENGTH || !body || !signature || extra !== undefined) throw invalid();
    const expected = Buffer.from(this.sign(listing, body));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw invalid();
    const [createdAt, id] = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as [string, string];
    return { createdAt, id };
  }

  private sign(listing: string, body: string): string {
    return createHmac('sha256', this.key).update(`${listing}\n${body}`).digest('base64url').slice(0, 22);
  }
}

/** Turns `limit + 1` fetched rows into a page, with the cursor pointing after the last row kept. */
export function toPage<Row extends { created_at: string; id: string }, T>(
  rows: Row[],
  limit: number,
  codec: CursorCodec,
  listing: string,
  map: (row: Row) => T,
): Page<T> {
  const kept = rows.slice(0, limit);
  const last = kept[kept.length - 1];
  return {
    items: kept.map(map),
    nextCursor: rows.length > limit && last ? codec.encode(listing, { createdAt: last.created_at, id: last.id }) : null,
  };
}
