import { InvalidClientError, InvalidClientMetadataError, InvalidGrantError, InvalidScopeError, InvalidTargetError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import { type OAuthClientInformationFull, OAuthClientInformationFullSchema, type OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { type Kysely, sql } from 'kysely';
import { AppError } from '../core/errors.js';
import { apiAccess, type Edition } from '../core/plans.js';
import { SCOPES, type Scope } from '../core/scopes.js';
import type { Database } from '../infra/storage/schema.js';
import { newId, nowIso, randomBase62, sha256Hex } from './ids.js';
import type { Door, Principal } from './principal.js';

/** Opaque secrets, told apart from API tokens (`drb_live_`) by their prefix; 43 base62 characters ≈ 256 bits. */
export const OAUTH_PREFIXES = { access: 'drb_oat_', refresh: 'drb_ort_', code: 'drb_oac_' } as const;
const SECRET_LENGTH = 43;
/** OAuth 2.1 §4.1.2: codes live briefly and once; access tokens are short-lived, refresh tokens rotate on each use. */
export const OAUTH_LIFETIMES = { codeSeconds: 60, accessSeconds: 3600, refreshSeconds: 30 * 86_400 } as const;
/** lastUsedAt is a hint: written at most once a minute per grant, as for API tokens. */
const LAST_USED_RESOLUTION_MS = 60_000;

export interface GrantInfo {
  id: string;
  userId: string;
  clientId: string;
  clientName: string;
  scopes: Scope[];
  workspaceId: string | null;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

export interface Approval {
  userId: string;
  client: OAuthClientInformationFull;
  scopes: string[];
  workspaceId: string | null;
  redirectUri: string;
  codeChallenge: string;
}

/** Reads a client ID metadata document (the client's HTTPS URL as client_id): size-, time- and address-guarded. */
export type ClientDocumentFetcher = (url: string) => Promise<unknown>;

/**
 * The authorization server's state: clients registered dynamically, grants (one per consent), codes and tokens.
 * The protocol (PKCE check, parameter validation, error forms) is the MCP SDK's; this keeps the records and their
 * rules. Every secret is stored as its SHA-256 only.
 */
export class OAuthService {
  private readonly documents = new Map<string, { client: OAuthClientInformationFull; until: number }>();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly edition: Edition,
    /** The one resource (RFC 8707 audience) tokens are issued for: PUBLIC_URL + /mcp. */
    readonly resource: string,
    private readonly fetchDocument: ClientDocumentFetcher,
  ) {}

  /** A client by id: a metadata document URL is fetched (cached ten minutes), any other id looked up as registered. */
  async getClient(clientId: string): Promise<OAuthClientInformationFull | undefined> {
    if (isDocumentUrl(clientId)) return this.documentClient(clientId);
    const row = await this.db.selectFrom('oauth_clients').select('metadata').where('id', '=', clientId).executeTakeFirst();
    return row ? OAuthClientInformationFullSchema.parse(JSON.parse(row.metadata)) : undefined;
  }

  /**
   * RFC 7591 registration. Only public clients: PKCE is what proves the caller, so no client secret is issued or
   * stored (the response says `none`, which RFC 7591 §3.2.1 lets a server substitute).
   */
  async registerClient(metadata: Omit<OAuthClientInformationFull, 'client_id' | 'client_id_issued_at'>): Promise<OAuthClientInformationFull> {
    const { client_secret: _secret, client_secret_expires_at: _expires, ...rest } = metadata;
    const client = { ...rest, token_endpoint_auth_method: 'none', client_id: newId('client'), client_id_issued_at: Math.floor(Date.now() / 1000) };
    await this.db.insertInto('oauth_clients').values({ id: client.client_id, metadata: JSON.stringify(client), created_at: nowIso() }).execute();
    return client;
  }

  /** The scopes a request asks for, checked; none named means all four, which the consent page lets the user narrow. */
  requestedScopes(scopes: string[] | undefined): Scope[] {
    const asked = (scopes ?? []).filter(Boolean);
    const unknown = asked.filter((s) => !(SCOPES as readonly string[]).includes(s));
    if (unknown.length > 0) throw new InvalidScopeError(`unknown scope ${unknown.join(', ')}; this server has ${SCOPES.join(', ')}`);
    return asked.length === 0 ? [...SCOPES] : (asked as Scope[]);
  }

  /** RFC 8707: the only resource here is /mcp; a token for anything else is not this server's to issue. */
  checkResource(resource: string | URL | undefined): void {
    if (resource !== undefined && String(resource) !== this.resource) {
      throw new InvalidTargetError(`resource must be ${this.resource}, the MCP endpoint this server protects; got ${String(resource)}`);
    }
  }

  /** The user approved: a grant with the scopes and workspace chosen, and a single-use code for it. */
  async approve(input: Approval): Promise<string> {
    const unknown = input.scopes.filter((s) => !(SCOPES as readonly string[]).includes(s));
    if (unknown.length > 0 || input.scopes.length === 0) {
      throw new AppError('validation_failed', `scopes must be a non-empty choice from ${SCOPES.join(', ')}; unknown: ${unknown.join(', ') || '(none chosen)'}`);
    }
    await this.assertAccess(input.userId, input.workspaceId);
    const grantId = newId('grant');
    const code = OAUTH_PREFIXES.code + randomBase62(SECRET_LENGTH);
    await this.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('oauth_grants')
        .values({
          id: grantId,
          user_id: input.userId,
          client_id: input.client.client_id,
          client_name: clientName(input.client),
          scopes: [...new Set(input.scopes)].join(' '),
          workspace_id: input.workspaceId,
          resource: this.resource,
          created_at: nowIso(),
          last_used_at: null,
          revoked_at: null,
        })
        .execute();
      await trx
        .insertInto('oauth_codes')
        .values({
          code_hash: sha256Hex(code),
          grant_id: grantId,
          code_challenge: input.codeChallenge,
          redirect_uri: input.redirectUri,
          expires_at: new Date(Date.now() + OAUTH_LIFETIMES.codeSeconds * 1000).toISOString(),
          used_at: null,
        })
        .execute();
    });
    return code;
  }

  /** The PKCE challenge the code was issued under, for the SDK's S256 check; a code of another client is unknown. */
  async challengeFor(clientId: string, code: string): Promise<string> {
    const row = await this.codeRow(clientId, code);
    if (!row) throw new InvalidGrantError('the authorization code is not known for this client');
    return row.code_challenge;
  }

  /** Trades a code for tokens, once. A code shown a second time revokes what the first use gave (OAuth 2.1 §4.1.3). */
  async exchangeCode(clientId: string, code: string, redirectUri: string | undefined, resource: URL | undefined): Promise<OAuthTokens> {
    this.checkResource(resource);
    const row = await this.codeRow(clientId, code);
    if (!row) throw new InvalidGrantError('the authorization code is not known for this client');
    const claimed = await this.db.updateTable('oauth_codes').set({ used_at: nowIso() }).where('code_hash', '=', row.code_hash).where('used_at', 'is', null).executeTakeFirst();
    if (Number(claimed.numUpdatedRows) === 0) {
      await this.revokeGrant(row.grant_id);
      throw new InvalidGrantError('the authorization code was already used; the tokens it gave are revoked');
    }
    if (Date.parse(row.expires_at) <= Date.now()) throw new InvalidGrantError('the authorization code expired: start the sign-in again');
    if (redirectUri !== row.redirect_uri) throw new InvalidGrantError('redirect_uri must be the one the authorization request named');
    if (row.revoked_at !== null) throw new InvalidGrantError('the grant was revoked');
    return this.issue(row.grant_id, row.scopes);
  }

  /**
   * Rotates a refresh token: the one shown is spent, a new pair is issued. A spent one shown again means it leaked,
   * so the whole family (the grant) is revoked (OAuth 2.1 §4.3.1).
   */
  async refresh(clientId: string, refreshToken: string, scopes: string[] | undefined, resource: URL | undefined): Promise<OAuthTokens> {
    this.checkResource(resource);
    const row = await this.tokenRow(refreshToken, 'refresh');
    if (!row || row.client_id !== clientId) throw new InvalidGrantError('the refresh token is not known for this client');
    if (row.revoked_at !== null) throw new InvalidGrantError('the grant was revoked: sign in again');
    const spent = await this.db.updateTable('oauth_tokens').set({ rotated_at: nowIso() }).where('token_hash', '=', row.token_hash).where('rotated_at', 'is', null).executeTakeFirst();
    if (Number(spent.numUpdatedRows) === 0) {
      await this.revokeGrant(row.grant_id);
      throw new InvalidGrantError('the refresh token was already used; every token of this grant is now revoked: sign in again');
    }
    if (Date.parse(row.expires_at) <= Date.now()) throw new InvalidGrantError('the refresh token expired: sign in again');
    // The grant's scopes are what the user chose; a refresh cannot widen them (and the response says what holds).
    const granted = row.scopes.split(' ');
    if (scopes?.some((s) => s !== '' && !granted.includes(s))) throw new InvalidScopeError(`a refresh cannot add scopes beyond those granted (${row.scopes})`);
    return this.issue(row.grant_id, row.scopes);
  }

  /** RFC 7009: a token of this client revokes its grant, access and refresh alike; an unknown token is no error. */
  async revokeToken(clientId: string, token: string): Promise<void> {
    const row = (await this.tokenRow(token, 'access')) ?? (await this.tokenRow(token, 'refresh'));
    if (row && row.client_id === clientId) await this.revokeGrant(row.grant_id);
  }

  /** Resolves an OAuth access token to the same principal an API token gives; the grant is the rate-limit key. */
  async authenticate(token: string, door: Door): Promise<Principal> {
    const row = await this.tokenRow(token, 'access');
    if (!row) throw unauthorized('unknown', 'the OAuth access token is not known here: sign in again');
    if (row.revoked_at !== null) throw unauthorized('revoked', `the connection of "${row.client_name}" was revoked on ${row.revoked_at.slice(0, 10)}: connect it again`);
    if (Date.parse(row.expires_at) <= Date.now()) throw unauthorized('expired', 'the OAuth access token expired: refresh it');
    // RFC 8707 audience: a token is for the resource it was granted for (a changed PUBLIC_URL ends old grants).
    if (door !== 'mcp' || row.resource !== this.resource) {
      throw unauthorized('wrong_audience', `this OAuth access token is for ${row.resource} only`);
    }
    const access = apiAccess(this.edition, { plan: row.plan, member: Boolean(row.member) });
    if (!access.allowed) throw new AppError('plan_required', `the connection of "${row.client_name}" is valid but does not work now: ${access.reason}`);
    const now = Date.now();
    if (row.last_used_at === null || now - Date.parse(row.last_used_at) > LAST_USED_RESOLUTION_MS) {
      await this.db.updateTable('oauth_grants').set({ last_used_at: new Date(now).toISOString() }).where('id', '=', row.grant_id).execute();
    }
    return { tokenId: row.grant_id, userId: row.user_id, scopes: row.scopes.split(' ') as Scope[], workspaceId: row.workspace_id, door };
  }

  /** Connected apps: the user's grants (every user's without `userId`, for the CLI), newest first. */
  async listGrants(userId?: string): Promise<GrantInfo[]> {
    let query = this.db.selectFrom('oauth_grants').selectAll().orderBy('created_at', 'desc');
    if (userId !== undefined) query = query.where('user_id', '=', userId);
    return (await query.execute()).map(toGrantInfo);
  }

  /** Revokes a grant and so every token it gave, at once; with `userId`, only one of that user's. */
  async revokeGrant(grantId: string, userId?: string): Promise<GrantInfo> {
    let query = this.db.selectFrom('oauth_grants').selectAll().where('id', '=', grantId);
    if (userId !== undefined) query = query.where('user_id', '=', userId);
    const row = await query.executeTakeFirst();
    if (!row) throw new AppError('not_found', `connected app ${grantId} not found`);
    if (row.revoked_at !== null) return toGrantInfo(row);
    const revokedAt = nowIso();
    await this.db.updateTable('oauth_grants').set({ revoked_at: revokedAt }).where('id', '=', grantId).where('revoked_at', 'is', null).execute();
    return toGrantInfo({ ...row, revoked_at: revokedAt });
  }

  /** Plans apply as for API tokens; a workspace pin needs a membership above guest. */
  private async assertAccess(userId: string, workspaceId: string | null): Promise<void> {
    const user = await this.db.selectFrom('users').select('plan').where('id', '=', userId).executeTakeFirst();
    if (!user) throw new AppError('not_found', `user ${userId} not found`);
    const member = await this.db.selectFrom('memberships').select('role').where('user_id', '=', userId).where('role', '!=', 'guest').executeTakeFirst();
    const access = apiAccess(this.edition, { plan: user.plan, member: member !== undefined });
    if (!access.allowed) throw new AppError('plan_required', access.reason);
    if (workspaceId === null) return;
    const role = await this.db.selectFrom('memberships').select('role').where('workspace_id', '=', workspaceId).where('user_id', '=', userId).executeTakeFirst();
    if (!role) throw new AppError('not_found', `workspace ${workspaceId} not found for this user`);
    if (role.role === 'guest') throw new AppError('plan_required', `you are a guest in workspace ${workspaceId}, and guests cannot use the API or MCP there`);
  }

  private async issue(grantId: string, scopes: string): Promise<OAuthTokens> {
    const access = OAUTH_PREFIXES.access + randomBase62(SECRET_LENGTH);
    const refresh = OAUTH_PREFIXES.refresh + randomBase62(SECRET_LENGTH);
    const now = Date.now();
    await this.db
      .insertInto('oauth_tokens')
      .values([
        { token_hash: sha256Hex(access), grant_id: grantId, kind: 'access', expires_at: new Date(now + OAUTH_LIFETIMES.accessSeconds * 1000).toISOString(), rotated_at: null },
        { token_hash: sha256Hex(refresh), grant_id: grantId, kind: 'refresh', expires_at: new Date(now + OAUTH_LIFETIMES.refreshSeconds * 1000).toISOString(), rotated_at: null },
      ])
      .execute();
    return { access_token: access, token_type: 'Bearer', expires_in: OAUTH_LIFETIMES.accessSeconds, refresh_token: refresh, scope: scopes };
  }

  private codeRow(clientId: string, code: string) {
    return this.db
      .selectFrom('oauth_codes')
      .innerJoin('oauth_grants', 'oauth_grants.id', 'oauth_codes.grant_id')
      .selectAll('oauth_codes')
      .select(['oauth_grants.scopes', 'oauth_grants.revoked_at'])
      .where('oauth_codes.code_hash', '=', sha256Hex(code))
      .where('oauth_grants.client_id', '=', clientId)
      .executeTakeFirst();
  }

  private tokenRow(token: string, kind: 'access' | 'refresh') {
    if (!token.startsWith(OAUTH_PREFIXES[kind])) return Promise.resolve(undefined);
    return this.db
      .selectFrom('oauth_tokens')
      .innerJoin('oauth_grants', 'oauth_grants.id', 'oauth_tokens.grant_id')
      .innerJoin('users', 'users.id', 'oauth_grants.user_id')
      .select([
        'oauth_tokens.token_hash',
        'oauth_tokens.grant_id',
        'oauth_tokens.expires_at',
        'oauth_grants.user_id',
        'oauth_grants.client_id',
        'oauth_grants.client_name',
        'oauth_grants.scopes',
        'oauth_grants.workspace_id',
        'oauth_grants.resource',
        'oauth_grants.last_used_at',
        'oauth_grants.revoked_at',
        'users.plan',
      ])
      .select((eb) => [
        eb
          .exists(eb.selectFrom('memberships').select('memberships.user_id').whereRef('memberships.user_id', '=', 'oauth_grants.user_id').where('memberships.role', '!=', sql.lit('guest')))
          .as('member'),
      ])
      .where('oauth_tokens.token_hash', '=', sha256Hex(token))
      .where('oauth_tokens.kind', '=', kind)
      .executeTakeFirst();
  }

  private async documentClient(url: string): Promise<OAuthClientInformationFull> {
    const cached = this.documents.get(url);
    if (cached && cached.until > Date.now()) return cached.client;
    let document: unknown;
    try {
      document = await this.fetchDocument(url);
    } catch (error) {
      // The SDK's handlers answer anything but an OAuth error with a bare 500: say why the client is refused.
      throw new InvalidClientError(error instanceof Error ? error.message : String(error));
    }
    const parsed = OAuthClientInformationFullSchema.safeParse(document);
    if (!parsed.success) throw new InvalidClientMetadataError(`the client metadata document at ${url} is not valid client metadata: ${parsed.error.issues[0]?.message}`);
    // The document must name itself, or any URL could claim another client's metadata.
    if (parsed.data.client_id !== url) throw new InvalidClientMetadataError(`the client metadata document at ${url} names client_id ${parsed.data.client_id}, not its own URL`);
    const client = { ...parsed.data, token_endpoint_auth_method: 'none' };
    if (this.documents.size >= 1000) this.documents.delete(this.documents.keys().next().value!);
    this.documents.set(url, { client, until: Date.now() + 600_000 });
    return client;
  }
}

/** A client ID metadata document's id is an https URL with a path (draft-ietf-oauth-client-id-metadata-document). */
export const isDocumentUrl = (clientId: string): boolean => /^https?:\/\//i.test(clientId);

const clientName = (client: OAuthClientInformationFull) => (client.client_name ?? client.client_id).slice(0, 200);

const unauthorized = (reason: string, message: string) => new AppError('unauthorized', message, { reason });

function toGrantInfo(row: Database['oauth_grants']): GrantInfo {
  return {
    id: row.id,
    userId: row.user_id,
    clientId: row.client_id,
    clientName: row.client_name,
    scopes: row.scopes.split(' ') as Scope[],
    workspaceId: row.workspace_id,
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
    revokedAt: row.revoked_at,
  };
}
