import type { Kysely } from 'kysely';
import type { Database } from '../infra/storage/schema.js';
import type { RateLimiter } from '../infra/rate-limit.js';
import { AccountService } from './accounts.js';
import { CatalogService } from './catalog.js';
import { type Admission, admit } from './admission.js';
import { DiagramService, type Renderer } from './diagrams.js';
import { CursorCodec } from './pagination.js';
import { TokenService } from './tokens.js';

export interface Services {
  accounts: AccountService;
  tokens: TokenService;
  diagrams: DiagramService;
  catalog: CatalogService;
  admit(authorization: string | undefined): Promise<Admission>;
}

export async function createServices(db: Kysely<Database>, limiter: RateLimiter, publicUrl: string, renderer: Renderer): Promise<Services> {
  const { value: cursorKey } = await db.selectFrom('server_secrets').select('value').where('name', '=', 'cursor_key').executeTakeFirstOrThrow();
  const tokens = new TokenService(db);
  return {
    accounts: new AccountService(db),
    tokens,
    diagrams: new DiagramService(db, new CursorCodec(cursorKey), publicUrl, renderer),
    catalog: new CatalogService(),
    admit: (authorization) => admit(tokens, limiter, authorization),
  };
}
