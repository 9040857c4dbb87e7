import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import { AppError } from '../core/errors.js';
import { SCOPES, type Scope } from '../core/scopes.js';
import { preparedQuery } from '../infra/storage/prepared.js';
import type { Database } from '../infra/storage/schema.js';
import { newId, nowIso, randomBase62 } from './ids.js';
import type { Principal } from './principal.js';

export const TOKEN_PREFIX = 'drb_live_';
// 43 base62 characters ≈ 256 bits: the spec asks for at least 32 random bytes.
const SECRET_LENGTH = 43;
const TOKEN_PATTERN = new RegExp(`^${TOKEN_PREFIX}[0-9A-Za-z]{${SECRET_LENGTH}}$`);
/** lastUsedAt is a hint, not an audit log: write it at most once a minute per token to keep reads read-only. */
const LAST_USED_RESOLUTION_MS = 60_000;

const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');

export interface TokenInfo {
  id: string;
  name: string;
  prefix: string;
  scopes: Scope[];
  workspaceId: string | null;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

export class TokenService {
  private readonly tokenByHash;

  constructor(private readonly db: Kysely<Database>) {
    this.tokenByHash = preparedQuery(db, (hash: string) => db.selectFrom('api_tokens').selectAll().where('token_hash', '=', hash));
  }

  /** Creates a token; the secret is in the result and nowhere else, ever (only its SHA-256 is stored). */
  async create(input: { userId: string; name: string; scopes: string[]; workspaceId?: string | null }): Promise<TokenInfo & { token: string }> {
    const unknown = input.scopes.filter((s) => !(SCOPES as readonly string[]).includes(s));
    if (unknown.length > 0 || input.scopes.length === 0) {
      throw new AppError('validation_failed', `scopes must be a non-empty list drawn from ${SCOPES.join(', ')}; unknown: ${unknown.join(', ') || '(none given)'}`);
    }
    if (input.workspaceId) {
      const member = await this.db
        .selectFrom('memberships')
        .select('role')
        .where('workspace_id', '=', input.workspaceId)
        .where('user_id', '=', input.userId)
        .executeTakeFirst();
      if (!member) throw new AppError('not_found', `workspace ${input.workspaceId} not found for this user`);
    }
    const token = TOKEN_PREFIX + randomBase62(SECRET_LENGTH);
    const row = {
      id: newId('token'),
      user_id: input.userId,
      name: input.name,
      token_hash: hashToken(token),
      display_prefix: token.slice(0, TOKEN_PREFIX.length + 4),
      scopes: [...new Set(input.scopes)].join(' '),
      workspace_id: input.workspaceId ?? null,
      created_at: nowIso(),
      last_used_at: null,
      revoked_at: null,
    };
    await this.db.insertInto('api_tokens').values(row).execute();
    return { ...toInfo(row), token };
  }

  async revoke(tokenId: string): Promise<TokenInfo> {
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
  async authenticate(authorization: string | undefined): Promise<Principal> {
    const match = /^Bearer[ ]+(\S+)\s*$/i.exec(authorization ?? '');
    if (!match) {
      throw authorization
        ? unauthorized('malformed', 'the Authorization header must be "Bearer <token>"')
        : unauthorized('missing', 'an API token is required: send "Authorization: Bearer <token>"');
    }
    const token = match[1]!;
    const unknown = () => unauthorized('unknown', 'the API token is not known here: check it was copied whole, or create one');
    if (!TOKEN_PATTERN.test(token)) throw unknown();
    const [row] = await this.tokenByHash(hashToken(token));
    if (!row) throw unknown();
    if (row.revoked_at !== null) throw unauthorized('revoked', `the API token "${row.name}" was revoked on ${row.revoked_at.slice(0, 10)}: create a new one`);
    const now = Date.now();
    if (row.last_used_at === null || now - Date.parse(row.last_used_at) > LAST_USED_RESOLUTION_MS) {
      await this.db.updateTable('api_tokens').set({ last_used_at: new Date(now).toISOString() }).where('id', '=', row.id).execute();
    }
    return { tokenId: row.id, userId: row.user_id, scopes: row.scopes.split(' ') as Scope[], workspaceId: row.workspace_id };
  }
}

export type UnauthorizedReason = 'missing' | 'malformed' | 'unknown' | 'revoked';

const unauthorized = (reason: UnauthorizedReason, message: string) => new AppError('unauthorized', message, { reason });

function toInfo(row: Database['api_tokens']): TokenInfo {
  return {
    id: row.id,
    name: row.name,
    prefix: row.display_prefix,
    scopes: row.scopes.split(' ') as Scope[],
    workspaceId: row.workspace_id,
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
    revokedAt: row.revoked_at,
  };
}
