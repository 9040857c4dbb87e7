import type { Redis } from 'ioredis';
import type { Kysely } from 'kysely';
import { LRUCache } from 'lru-cache';
import type { Database } from '../infra/storage/schema.js';
import type { RateDecision, RateLimiter } from '../infra/rate-limit.js';
import { AccountService } from './accounts.js';
import { CatalogService } from './catalog.js';
import { type Admission, admit, admitPublic, charge, refund } from './admission.js';
import { DiagramService } from './diagrams.js';
import { DEFAULT_RETENTION, type HistoryRetention, VersionHistory } from './history.js';
import type { D2Compiler, HeavyWork } from './heavy-work.js';
import { CursorCodec } from './pagination.js';
import type { Door, Principal } from './principal.js';
import { TokenService } from './tokens.js';
import { type ClientDocumentFetcher, OAuthService } from './oauth.js';
import { AiSettingsService, type SecretSealer } from './ai-settings.js';
import { type DiagramModel, GenerationService } from './generate.js';
import type { Edition } from '../core/plans.js';
import { createRateLimiter } from '../infra/rate-limit.js';
import { SessionService } from './sessions.js';
import { MemberService } from './members.js';
import { SIGN_IN_LIMITS, type SignInLimiters, type SignInLimits, SignInService } from './sign-in.js';

export interface Services {
  accounts: AccountService;
  tokens: TokenService;
  diagrams: DiagramService;
  catalog: CatalogService;
  ai: AiSettingsService;
  generation: GenerationService;
  sessions: SessionService;
  members: MemberService;
  signIn: SignInService;
  /** The OAuth authorization server's records; absent with OAUTH=off. */
  oauth: OAuthService | undefined;
  edition: Edition;
  publicUrl: string;
  /** Seals short-lived secrets under the server key (a new token carried across the web page's redirect). */
  sealer: SecretSealer;
  /** Authenticates and spends `units` of the token's budget (OPERATION_COSTS). */
  admit(authorization: string | undefined, units: number, door: Door): Promise<Admission>;
  /** Spends more of an authenticated token's budget, for doors that learn the cost from the body (MCP). */
  charge(principal: Principal, units: number): Promise<RateDecision>;
  refund(principal: Principal, units: number): Promise<void>;
  /** One unit of a client address's budget on the public (tokenless) routes. */
  admitPublic(address: string): Promise<RateDecision>;
}

export interface ServiceOptions {
  db: Kysely<Database>;
  /** Per token. */
  limiter: RateLimiter;
  /** Per client address, for the public routes. */
  publicLimiter: RateLimiter;
  publicUrl: string;
  /** Parsing, layout, rendering and export, run off the event loop. */
  work: HeavyWork;
  /** D2's own compiler, for D2 code. */
  d2: D2Compiler;
  publicRenderCacheBytes: number;
  /** How long document versions are kept (HISTORY_DAYS, HISTORY_KEEP); 90 days and the last 50 when absent. */
  historyRetention?: HistoryRetention;
  /** Encryption at rest for AI keys. */
  sealer: SecretSealer;
  /** The account's model, and the check every provider base URL passes. */
  diagramModel: DiagramModel;
  checkProviderUrl: (url: string) => Promise<void>;
  /** self-hosted (default) or hosted, where plans decide who may use the API. */
  edition?: Edition;
  /** Sign-in attempts per account and per address; in memory when absent. */
  signInLimiters?: SignInLimiters;
  /** The figures those limiters count to, for messages. */
  signInLimits?: SignInLimits;
  /** OAUTH=on: the built-in authorization server for /mcp, reading client metadata documents with this fetcher. */
  oauth?: { fetchClientDocument: ClientDocumentFetcher };
}

export function createSignInLimiters(redis?: Redis, keyPrefix = 'drawbridge:rl', limits: SignInLimits = SIGN_IN_LIMITS): SignInLimiters {
  const common = { redis, windowSeconds: limits.windowSeconds };
  return {
    account: createRateLimiter({ ...common, perMinute: limits.perAccount, keyPrefix: `${keyPrefix}:signin:account` }),
    address: createRateLimiter({ ...common, perMinute: limits.perAddress, keyPrefix: `${keyPrefix}:signin:address` }),
  };
}

export async function createServices(options: ServiceOptions): Promise<Services> {
  const { db, limiter, publicLimiter, publicUrl, work, publicRenderCacheBytes } = options;
  const { value: cursorKey } = await db.selectFrom('server_secrets').select('value').where('name', '=', 'cursor_key').executeTakeFirstOrThrow();
  const edition = options.edition ?? 'self-hosted';
  // The audience every OAuth token names (RFC 8707): the MCP endpoint under PUBLIC_URL.
  const oauth = options.oauth ? new OAuthService(db, edition, `${publicUrl}/mcp`, options.oauth.fetchClientDocument) : undefined;
  const tokens = new TokenService(db, edition, oauth);
  const accounts = new AccountService(db);
  const sessions = new SessionService(db);
  const ai = new AiSettingsService(db, options.sealer, options.checkProviderUrl);
  const cursors = new CursorCodec(cursorKey);
  const diagrams = new DiagramService(
    db,
    cursors,
    publicUrl,
    work,
    // SVG text is UTF-16 in memory: two bytes a character.
    new LRUCache<string, string>({ maxSize: publicRenderCacheBytes, sizeCalculation: (svg) => Math.max(1, svg.length * 2) }),
    options.d2,
    new VersionHistory(db, cursors, options.historyRetention ?? DEFAULT_RETENTION),
  );
  return {
    accounts,
    tokens,
    sessions,
    oauth,
    members: new MemberService(db, accounts),
    signIn: new SignInService(db, accounts, sessions, options.signInLimiters ?? createSignInLimiters(), options.signInLimits ?? SIGN_IN_LIMITS),
    edition,
    publicUrl,
    sealer: options.sealer,
    diagrams,
    catalog: new CatalogService(),
    ai,
    generation: new GenerationService(ai, options.diagramModel, diagrams),
    admit: (authorization, units, door) => admit(tokens, limiter, authorization, units, door),
    charge: (principal, units) => charge(limiter, principal, units),
    refund: (principal, units) => refund(limiter, principal, units),
    admitPublic: (address) => admitPublic(publicLimiter, address),
  };
}
