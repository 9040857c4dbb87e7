import type { Kysely } from 'kysely';
import { LRUCache } from 'lru-cache';
import type { Database } from '../infra/storage/schema.js';
import type { RateDecision, RateLimiter } from '../infra/rate-limit.js';
import { AccountService } from './accounts.js';
import { CatalogService } from './catalog.js';
import { type Admission, admit, admitPublic, charge } from './admission.js';
import { DiagramService } from './diagrams.js';
import type { HeavyWork } from './heavy-work.js';
import { CursorCodec } from './pagination.js';
import type { Principal } from './principal.js';
import { TokenService } from './tokens.js';
import { AiSettingsService, type SecretSealer } from './ai-settings.js';
import { type DiagramModel, GenerationService } from './generate.js';

export interface Services {
  accounts: AccountService;
  tokens: TokenService;
  diagrams: DiagramService;
  catalog: CatalogService;
  ai: AiSettingsService;
  generation: GenerationService;
  /** Authenticates and spends `units` of the token's budget (OPERATION_COSTS). */
  admit(authorization: string | undefined, units: number): Promise<Admission>;
  /** Spends more of an authenticated token's budget, for doors that learn the cost from the body (MCP). */
  charge(principal: Principal, units: number): Promise<RateDecision>;
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
  publicRenderCacheBytes: number;
  /** Encryption at rest for AI keys. */
  sealer: SecretSealer;
  /** The account's model, and the check every provider base URL passes. */
  diagramModel: DiagramModel;
  checkProviderUrl: (url: string) => Promise<void>;
}

export async function createServices(options: ServiceOptions): Promise<Services> {
  const { db, limiter, publicLimiter, publicUrl, work, publicRenderCacheBytes } = options;
  const { value: cursorKey } = await db.selectFrom('server_secrets').select('value').where('name', '=', 'cursor_key').executeTakeFirstOrThrow();
  const tokens = new TokenService(db);
  const ai = new AiSettingsService(db, options.sealer, options.checkProviderUrl);
  const diagrams = new DiagramService(
    db,
    new CursorCodec(cursorKey),
    publicUrl,
    work,
    // SVG text is UTF-16 in memory: two bytes a character.
    new LRUCache<string, string>({ maxSize: publicRenderCacheBytes, sizeCalculation: (svg) => Math.max(1, svg.length * 2) }),
  );
  return {
    accounts: new AccountService(db),
    tokens,
    diagrams,
    catalog: new CatalogService(),
    ai,
    generation: new GenerationService(ai, options.diagramModel, diagrams),
    admit: (authorization, units) => admit(tokens, limiter, authorization, units),
    charge: (principal, units) => charge(limiter, principal, units),
    admitPublic: (address) => admitPublic(publicLimiter, address),
  };
}
