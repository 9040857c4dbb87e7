import { type Kysely, sql } from 'kysely';
import { AppError } from '../core/errors.js';
import { type ApiAccount, apiAccess, type Edition } from '../core/plans.js';
import { SCOPES, type Scope } from '../core/scopes.js';
import { preparedQuery } from '../infra/storage/prepared.js';
import type { Database } from '../infra/storage/schema.js';
import { newId, nowIso, randomBase62, sha256Hex } from './ids.js';
import { OAUTH_PREFIXES, type OAuthService } from './oauth.js';
import type { Door, Principal } from './principal.js';

export const TOKEN_PREFIX = 'drb_live_';
// 43 base62 characters ≈ 256 bits: the spec asks for at least 32 random bytes.
const SECRET_LENGTH = 43;
const TOKEN_PATTERN = new RegExp(`^${TOKEN_PREFIX}[0-9A-Za-z]{${SECRET_LENGTH}}$`);
/** lastUsedAt is a hint, not an audit log: write it at most once a minute per token to keep reads read-only. */
const LAST_USED_RESOLUTION_MS = 60_000;


export interface TokenInfo {
  id: string;
  name: string;
  prefix: string;
  scopes: Scope[];
  workspaceId: string | null;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
  expiresAt: string | null;
}

/** A token may be given a life of 1 day to 10 years; without one it works until revoked. */
export const TOKEN_EXPIRY_DAYS = { min: 1, max: 3650 } as const;

export class TokenService {
  private readonly tokenByHash;

  constructor(
    private readonly db: Kysely<Database>,
    readonly edition: Edition = 'self-hosted',
    /** With OAUTH on: OAuth access tokens are taken at the same door and give the same principal. */
    private readonly oauth?: OAuthService,
  ) {
    // The account's plan and whether it is more than a guest come with the token in the same query: a token of an
    // account that falls to free (hosted) or to guest everywhere stops working at its next request.
    this.tokenByHash = preparedQuery(db, (hash: string) =>
      db
        .selectFrom('api_tokens')
        .innerJoin('users', 'users.id', 'api_tokens.user_id')
        .selectAll('api_tokens')
        .select((eb) => [
          'users.plan',
          eb
            .exists(eb.selectFrom('memberships').select('memberships.user_id').whereRef('memberships.user_id', '=', 'api_tokens.user_id').where('memberships.role', '!=', sql.lit('guest')))
            .as('member'),
        ])
        // A literal, not a parameter: prepared queries bind only their arguments.
        .where('api_tokens.token_hash', '=', hash),
    );
  }

  /** The account's standing for API access (plan, guest or member), as token creation and the settings page see it. */
  async account(userId: string): Promise<ApiAccount> {
    const user = await this.db.selectFrom('users').select('plan').where('id', '=', userId).executeTakeFirst();
    if (!user) throw new AppError('not_found', `user ${userId} not found`);
    const member = await this.db.selectFrom('memberships').select('role').where('user_id', '=', userId).where('role', '!=', 'guest').executeTakeFirst();
    return { plan: user.plan, member: member !== undefined };
  }

  /** Refuses (403 plan_required) an account the edition's rules keep from the API. */
  async assertApiAccess(userId: string): Promise<void> {
    const access = apiAccess(this.edition, await this.account(userId));
    if (!access.allowed) throw new AppError('plan_required', access.reason);
  }

  /** Creates a token; the secret is in the result and nowhere else, ever (only its SHA-256 is stored). */
  async create(input: { userId: string; name: string; scopes: string[]; workspaceId?: string | null; expiresInDays?: number | null }): Promise<TokenInfo & { token: string }> {
    const unknown = input.scopes.filter((s) => !(SCOPES as readonly string[]).includes(s));
    if (unknown.length > 0 || input.scopes.length === 0) {
      throw new AppError('validation_failed', `scopes must be a non-empty list drawn from ${SCOPES.join(', ')}; unknown: ${unknown.join(', ') || '(none given)'}`);
    }
    const name = input.name.trim();
    if (name.length === 0 || name.length > 100 || /\p{Cc}/u.test(name)) throw new AppError('validation_failed', 'a token name has 1 to 100 characters and no control characters');
    const days = input.expiresInDays ?? null;
    if (days !== null && !(Number.isInteger(days) && days >= TOKEN_EXPIRY_DAYS.min && days <= TOKEN_EXPIRY_DAYS.max)) {
      throw new AppError('validation_failed', `expiresInDays must be a whole number of days from ${TOKEN_EXPIRY_DAYS.min} to ${TOKEN_EXPIRY_DAYS.max}, or none; got ${days}`);
    }
    await this.assertApiAccess(input.userId);
    if (input.workspaceId) {
      const member = await this.db
        .selectFrom('memberships')
        .select('role')
        .where('workspace_id', '=', input.workspaceId)
        .where('user_id', '=', input.userId)
        .executeTakeFirst();
      if (!member) throw new AppError('not_found', `workspace ${input.workspaceId} not found for this user`);
      if (member.role === 'guest') throw new AppError('plan_required', `you are a guest in workspace ${input.workspaceId}, and guests cannot use the API or MCP there`);
    }
    const token = TOKEN_PREFIX + randomBase62(SECRET_LENGTH);
    const createdAt = nowIso();
    const row = {
      id: newId('token'),
      user_id: input.userId,
      name,
      token_hash: sha256Hex(token),
      display_prefix: token.slice(0, TOKEN_PREFIX.length + 4),
      scopes: [...new Set(input.scopes)].join(' '),
      workspace_id: input.workspaceId ?? null,
      created_at: createdAt,
      last_used_at: null,
      revoked_at: null,
      expires_at: days === null ? null : new Date(Date.parse(createdAt) + days * 86_400_000).toISOString(),
    };
    await this.db.insertInto('api_tokens').values(row).execute();
    return { ...toInfo(row), token };
  }

  /** Revokes a token; with `userId`, only one of that user's (another user's token is the same 404 as none). */
  async revoke(tokenId: string, userId?: string): Promise<TokenInfo> {
    if (userId !== undefined) {
      const owned = await this.db.selectFrom('api_tokens').select('id').where('id', '=', tokenId).where('user_id', '=', userId).executeTakeFirst();
      if (!owned) throw new AppError('not_found', `token ${tokenId} not found`);
    }
    const row = await this.db
      .updateTable('api_tokens')
      .set({ revoked_at: nowIso() })
      .where('id', '=', tokenId)
      .where('revoked_at', 'is', null)
      .returningAll()
      .executeTakeFirst();
    if (row) return toInfo(row);
    const existing = await this.db.selectFrom('api_tokens').selectAll().where('id', '=', tokenId).executeTakeFirst();
    if (!existing) throw new AppError('not_found', `token ${tokenId} not found`);
    return toInfo(existing);
  }

  async listForUser(userId: string): Promise<TokenInfo[]> {
    const rows = await this.db.selectFrom('api_tokens').selectAll().where('user_id', '=', userId).orderBy('created_at').execute();
    return rows.map(toInfo);
  }

  /**
   * Resolves `Authorization: Bearer …` to a principal. A 401 says why (`details.reason`: missing, malformed, unknown,
   * revoked), so a person or an MCP bridge learns that a token was revoked instead of starting a sign-in dance; it
   * reveals nothing to someone without the token, since only its holder can ask about it.
   */
  async authenticate(authorization: string | undefined, door: Door): Promise<Principal> {
    const match = /^Bearer[ ]+(\S+)\s*$/i.exec(authorization ?? '');
    if (!match) {
      throw authorization
        ? unauthorized('malformed', 'the Authorization header must be "Bearer <token>"')
        : unauthorized('missing', 'an API token is required: send "Authorization: Bearer <token>"');
    }
    const token = match[1]!;
    if (this.oauth && token.startsWith(OAUTH_PREFIXES.access)) return this.oauth.authenticate(token, door);
    const unknown = () => unauthorized('unknown', 'the API token is not known here: check it was copied whole, or create one');
    if (!TOKEN_PATTERN.test(token)) throw unknown();
    const [row] = await this.tokenByHash(sha256Hex(token));
    if (!row) throw unknown();
    if (row.revoked_at !== null) throw unauthorized('revoked', `the API token "${row.name}" was revoked on ${row.revoked_at.slice(0, 10)}: create a new one`);
    if (row.expires_at !== null && Date.parse(row.expires_at) <= Date.now()) {
      throw unauthorized('expired', `the API token "${row.name}" expired on ${row.expires_at.slice(0, 10)}: create a new one`);
    }
    // SQLite answers 0/1, PostgreSQL a boolean.
    const access = apiAccess(this.edition, { plan: row.plan, member: Boolean(row.member) });
    if (!access.allowed) throw new AppError('plan_required', `the API token "${row.name}" is valid but does not work now: ${access.reason}`);
    const now = Date.now();
    if (row.last_used_at === null || now - Date.parse(row.last_used_at) > LAST_USED_RESOLUTION_MS) {
      await this.db.updateTable('api_tokens').set({ last_used_at: new Date(now).toISOString() }).where('id', '=', row.id).execute();
    }
    return { tokenId: row.id, userId: row.user_id, scopes: row.scopes.split(' ') as Scope[], workspaceId: row.workspace_id, door };
  }
}

export type UnauthorizedReason = 'missing' | 'malformed' | 'unknown' | 'revoked' | 'expired';

const unauthorized = (reason: UnauthorizedReason, message: string) => new AppError('unauthorized', message, { reason });

function toInfo(row: Database['api_tokens'] & { plan?: unknown; member?: unknown }): TokenInfo {
  return {
    id: row.id,
    name: row.name,
    prefix: row.display_prefix,
    scopes: row.scopes.split(' ') as Scope[],
    workspaceId: row.workspace_id,
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
    revokedAt: row.revoked_at,
    expiresAt: row.expires_at ?? null,
  };
}
