import { timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../infra/storage/schema.js';
import { randomBase62, sha256Hex } from './ids.js';

/** A session ends after this long without a request; each request (at most once a minute) pushes the end back. */
export const SESSION_IDLE_MS = 7 * 24 * 3600_000;
/** And after this long whatever its use: a stolen cookie does not live for ever. */
export const SESSION_MAX_MS = 30 * 24 * 3600_000;
const SLIDE_RESOLUTION_MS = 60_000;


export interface Session {
  userId: string;
  csrfToken: string;
  expiresAt: string;
}

/**
 * Browser sessions, kept on the server. The cookie carries a 256-bit random secret; the table holds its SHA-256, so
 * a copy of the database opens no session. Each session has its own CSRF token (synchronizer pattern).
 */
export class SessionService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly now: () => number = Date.now,
  ) {}

  async create(userId: string): Promise<{ secret: string; session: Session }> {
    const secret = randomBase62(43);
    const now = this.now();
    const session = { userId, csrfToken: randomBase62(43), expiresAt: new Date(now + SESSION_IDLE_MS).toISOString() };
    await this.db
      .insertInto('web_sessions')
      .values({
        id_hash: sha256Hex(secret),
        user_id: userId,
        csrf_token: session.csrfToken,
        created_at: new Date(now).toISOString(),
        expires_at: session.expiresAt,
        last_seen_at: new Date(now).toISOString(),
      })
      .execute();
    return { secret, session };
  }

  /** The live session of a cookie, its expiry slid forward; undefined when unknown, ended or expired. */
  async resolve(secret: string | undefined): Promise<Session | undefined> {
    if (!secret || !/^[0-9A-Za-z]{43}$/.test(secret)) return undefined;
    const idHash = sha256Hex(secret);
    const row = await this.db.selectFrom('web_sessions').selectAll().where('id_hash', '=', idHash).executeTakeFirst();
    if (!row) return undefined;
    const now = this.now();
    if (Date.parse(row.expires_at) <= now) {
      await this.db.deleteFrom('web_sessions').where('id_hash', '=', idHash).execute();
      return undefined;
    }
    let expiresAt = row.expires_at;
    if (now - Date.parse(row.last_seen_at) > SLIDE_RESOLUTION_MS) {
      expiresAt = new Date(Math.min(now + SESSION_IDLE_MS, Date.parse(row.created_at) + SESSION_MAX_MS)).toISOString();
      await this.db.updateTable('web_sessions').set({ expires_at: expiresAt, last_seen_at: new Date(now).toISOString() }).where('id_hash', '=', idHash).execute();
    }
    return { userId: row.user_id, csrfToken: row.csrf_token, expiresAt };
  }

  async end(secret: string): Promise<void> {
    await this.db.deleteFrom('web_sessions').where('id_hash', '=', sha256Hex(secret)).execute();
  }

  /** After a password change: every other browser signed in as this user is signed out. */
  async endOthers(userId: string, keepSecret: string): Promise<void> {
    await this.db.deleteFrom('web_sessions').where('user_id', '=', userId).where('id_hash', '!=', sha256Hex(keepSecret)).execute();
  }
}

/** Constant-time comparison of a submitted CSRF token with the expected one. */
export function csrfMatches(expected: string, submitted: unknown): boolean {
  if (typeof submitted !== 'string' || submitted.length !== expected.length) return false;
  return timingSafeEqual(Buffer.from(submitted), Buffer.from(expected));
}
