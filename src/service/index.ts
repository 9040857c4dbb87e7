import type { Kysely } from 'kysely';
import type { Database } from '../infra/storage/schema.js';
import type { RateDecision, RateLimiter } from '../infra/rate-limit.js';
import { AccountService } from './accounts.js';
import { CatalogService } from './catalog.js';
import { type Admission, admit, charge } from './admission.js';
import { DiagramService, type Renderer } from './diagrams.js';
import { CursorCodec } from './pagination.js';
import type { Principal } from './principal.js';
import { TokenService } from './tokens.js';

export interface Services {
  accounts: AccountService;
  tokens: TokenService;
  diagrams: DiagramService;
  catalog: CatalogService;
  /** Authenticates and spends `units` of the token's budget (OPERATION_COSTS). */
  admit(authorization: string | undefined, units: number): Promise<Admission>;
  /** Spends more of an authenticated token's budget, for doors that learn the cost from the body (MCP). */
  charge(principal: Principal, units: number): Promise<RateDecision>;
}

export async function createServices(db: Kysely<Database>, limiter: RateLimiter, publicUrl: string, renderer: Renderer): Promise<Services> {
  const { value: cursorKey } = await db.selectFrom('server_secrets').select('value').where('name', '=', 'cursor_key').executeTakeFirstOrThrow();
  const tokens = new TokenService(db);
  return {
    accounts: new AccountService(db),
    tokens,
    diagrams: new DiagramService(db, new CursorCodec(cursorKey), publicUrl, renderer),
    catalog: new CatalogService(),
    admit: (authorization, units) => admit(tokens, limiter, authorization, units),
    charge: (principal, units) => charge(limiter, principal, units),
  };
}
