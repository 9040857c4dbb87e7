import { parseArgs } from 'node:util';
import { isAppError } from '../../core/errors.js';
import type { Plan } from '../../core/plans.js';
import { ROLES, type Role } from '../../core/scopes.js';
import { loadConfig } from '../../infra/config.js';
import type { AccountService } from '../../service/accounts.js';
import type { TokenService } from '../../service/tokens.js';
import type { Kysely } from 'kysely';
import type { Database } from '../../infra/storage/schema.js';

// Modules are imported where a command needs them: the server (Fastify, renderers, icon libraries) takes seconds
// to load through tsx, and an account command needs none of it.

/** `drawbridge <command>`: every command but serve prints one JSON object on stdout so scripts can read it. */
const USAGE = `usage:
  drawbridge serve
  drawbridge user create --email E [--name N] [--password P] [--workspace NAME]
  drawbridge workspace create --email E --name NAME
  drawbridge user list
  drawbridge user plan --email E --plan free|pro|enterprise   (the hosted edition's plans)
  drawbridge token create --email E --name N --scopes diagrams:read,diagrams:write,export,ai:generate [--workspace ID] [--expires-days D]
  drawbridge token list --email E
  drawbridge token revoke --id ID
  drawbridge oauth grants list [--email E]     (connected apps: OAuth clients users let in)
  drawbridge oauth grants revoke --id ID     (ends the connection and its tokens at once)
  drawbridge member add --workspace ID --email E --role ${ROLES.join('|')}
  drawbridge member role --workspace ID --email E --role ${ROLES.join('|')}
  drawbridge member remove --workspace ID --email E
  drawbridge ai set --email E --provider openai|anthropic|google|openai-compatible --model M --key-file F [--base-url URL]
  drawbridge backup --to FILE      (SQLite, while the server runs; PostgreSQL: pg_dump)
  drawbridge restore --from FILE   (SQLite, with the server stopped; PostgreSQL: pg_restore)

Every command but serve prints one JSON object; the database used (DATABASE_URL, by default data/drawbridge.db in
the project folder, wherever the command is run from) is named on stderr. Run it as node bin/drawbridge.js in the
project folder (or node /path/to/drawbridge/bin/drawbridge.js anywhere): npx drawbridge works only inside the project
folder and adds npm's own start-up, about 2 s.`;

const OPTIONS = {
  email: { type: 'string' },
  name: { type: 'string' },
  password: { type: 'string' },
  workspace: { type: 'string' },
  scopes: { type: 'string' },
  id: { type: 'string' },
  role: { type: 'string' },
  plan: { type: 'string' },
  provider: { type: 'string' },
  model: { type: 'string' },
  'key-file': { type: 'string' },
  'base-url': { type: 'string' },
  to: { type: 'string' },
  from: { type: 'string' },
  'expires-days': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

class UsageError extends Error {}

function required(values: Record<string, unknown>, key: string): string {
  const value = values[key];
  if (typeof value !== 'string' || value === '') throw new UsageError(`--${key} is required`);
  return value;
}

function role(values: Record<string, unknown>): Role {
  const value = required(values, 'role');
  if (!(ROLES as readonly string[]).includes(value)) throw new UsageError(`--role must be one of ${ROLES.join(', ')}, not "${value}"`);
  return value as Role;
}

/** A password in a URL is the operator's secret: show where the database is, not how to get in. */
const describeDatabase = (url: string) => url.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@');

async function withAccounts<T>(run: (accounts: AccountService, tokens: TokenService, db: Kysely<Database>) => Promise<T>): Promise<T> {
  const [{ openDatabase }, { AccountService }, { TokenService }] = await Promise.all([
    import('../../infra/storage/database.js'),
    import('../../service/accounts.js'),
    import('../../service/tokens.js'),
  ]);
  const { databaseUrl, edition } = loadConfig();
  process.stderr.write(`database: ${describeDatabase(databaseUrl)}\n`);
  const { db } = await openDatabase(databaseUrl);
  try {
    // The server's edition: in the hosted one, plans decide who may hold a token, from here as from the web.
    return await run(new AccountService(db), new TokenService(db, edition), db);
  } finally {
    await db.destroy();
  }
}

/** The operator's view of connected apps, whether or not OAUTH is on now (grants made before still exist). */
async function oauthGrants(command: 'oauth grants list' | 'oauth grants revoke', values: Record<string, unknown>): Promise<unknown> {
  const [{ OAuthService }, { clientDocumentFetcher }] = await Promise.all([import('../../service/oauth.js'), import('../../infra/client-document.js')]);
  const { publicUrl, edition } = loadConfig();
  return withAccounts(async (accounts, _tokens, db) => {
    const oauth = new OAuthService(db, edition, `${publicUrl}/mcp`, clientDocumentFetcher());
    if (command === 'oauth grants revoke') return oauth.revokeGrant(required(values, 'id'));
    const email = values.email;
    return { items: await oauth.listGrants(typeof email === 'string' ? await accounts.userIdByEmail(email) : undefined) };
  });
}

/**
 * Saves a user's AI settings with the server key `serve` uses (DRAWBRIDGE_SECRET, or data/secret.key). The key comes
 * from a file, never the command line, so it stays out of shell history and `ps`.
 */
async function setAi(values: Record<string, unknown>): Promise<unknown> {
  const [{ readFileSync }, { AI_PROVIDERS, AiSettingsService }, { createSecretBox, loadServerKey }, { assertProviderUrl }] = await Promise.all([
    import('node:fs'),
    import('../../service/ai-settings.js'),
    import('../../infra/secret-box.js'),
    import('../../infra/ai/address-guard.js'),
  ]);
  const provider = required(values, 'provider');
  if (!(AI_PROVIDERS as readonly string[]).includes(provider)) throw new UsageError(`--provider must be one of ${AI_PROVIDERS.join(', ')}, not "${provider}"`);
  const key = readFileSync(required(values, 'key-file'), 'utf8').trim();
  if (key === '') throw new UsageError('--key-file is empty');
  const config = loadConfig();
  const box = createSecretBox(loadServerKey(config.secret, config.secretKeyFile, (path) => process.stderr.write(`generated the server key for secrets at rest: ${path}\n`)));
  return withAccounts(async (accounts, _tokens, db) => {
    const userId = await accounts.userIdByEmail(required(values, 'email'));
    const service = new AiSettingsService(db, box, (url) => assertProviderUrl(url, config.aiAllowPrivateUrls));
    const settings = await service.setForUser(userId, {
      provider: provider as (typeof AI_PROVIDERS)[number],
      model: required(values, 'model'),
      key,
      baseUrl: values['base-url'] as string | undefined,
    });
    return { settings };
  });
}

/** The data, not the server key: README "Operating" says to keep DRAWBRIDGE_SECRET (or data/secret.key) with it. */
async function backupOrRestore(command: 'backup' | 'restore', values: Record<string, unknown>): Promise<unknown> {
  const { backupSqlite, postgresBackupAdvice, restoreSqlite } = await import('../../infra/storage/backup.js');
  const { isPostgresUrl } = await import('../../infra/storage/database.js');
  const { databaseUrl } = loadConfig();
  if (isPostgresUrl(databaseUrl)) throw new UsageError(postgresBackupAdvice());
  process.stderr.write(`database: ${databaseUrl}\n`);
  return command === 'backup' ? backupSqlite(databaseUrl, required(values, 'to')) : restoreSqlite(required(values, 'from'), databaseUrl);
}

async function serve(): Promise<void> {
  const { createRuntime, listen } = await import('../http/server.js');
  const config = loadConfig();
  const runtime = await createRuntime(config);
  const address = await listen(runtime, config);
  if ((await runtime.services.accounts.countUsers()) === 0) {
    // First start: nothing is created silently; say how to begin, with commands that reach this server's database.
    const cli = `DATABASE_URL=${describeDatabase(config.databaseUrl)} node bin/drawbridge.js`;
    process.stderr.write(
      `Drawbridge is listening on ${address} with an empty database. Open ${config.publicUrl}/ in a browser to set it up,\n` +
        `or create a user and a token with the CLI, from the project folder:\n` +
        `  ${cli} user create --email you@example.com --name "Your Name"\n` +
        `  ${cli} token create --email you@example.com --name cli --scopes diagrams:read,diagrams:write,export,ai:generate\n` +
        (describeDatabase(config.databaseUrl) === config.databaseUrl ? '' : `(with the database password in place of ***)\n`),
    );
  }
}

async function run(argv: string[]): Promise<unknown> {
  const { values, positionals } = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  const command = positionals.join(' ');
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return undefined;
  }
  if (command === '') throw new UsageError('');
  switch (command) {
    case 'serve':
      await serve();
      return undefined;
    case 'user create':
      return withAccounts((accounts) =>
        accounts.createUser({ email: required(values, 'email'), name: values.name, password: values.password, workspaceName: values.workspace }),
      );
    case 'workspace create':
      return withAccounts((accounts) => accounts.createWorkspace({ email: required(values, 'email'), name: required(values, 'name') }));
    case 'token create':
      return withAccounts(async (accounts, tokens) =>
        tokens.create({
          userId: await accounts.userIdByEmail(required(values, 'email')),
          name: required(values, 'name'),
          scopes: required(values, 'scopes').split(',').map((s) => s.trim()).filter(Boolean),
          workspaceId: values.workspace ?? null,
          // The service checks the range; a non-number reaches it as NaN and is refused with the rule.
          expiresInDays: values['expires-days'] === undefined ? null : Number(values['expires-days']),
        }),
      );
    case 'token revoke':
      return withAccounts((_accounts, tokens) => tokens.revoke(required(values, 'id')));
    case 'token list':
      return withAccounts(async (accounts, tokens) => ({ items: await tokens.listForUser(await accounts.userIdByEmail(required(values, 'email'))) }));
    case 'oauth grants list':
    case 'oauth grants revoke':
      return oauthGrants(command, values);
    case 'user plan':
      return withAccounts((accounts) => accounts.setPlan({ email: required(values, 'email'), plan: required(values, 'plan') as Plan }));
    case 'user list':
      return withAccounts(async (accounts) => ({ items: await accounts.listUsers() }));
    case 'member add':
    case 'member role': {
      const input = { workspaceId: required(values, 'workspace'), email: required(values, 'email'), role: role(values) };
      return withAccounts(async (accounts) => {
        await (command === 'member add' ? accounts.addMember(input) : accounts.setRole(input));
        return input;
      });
    }
    case 'ai set':
      return setAi(values);
    case 'member remove': {
      const input = { workspaceId: required(values, 'workspace'), email: required(values, 'email') };
      return withAccounts(async (accounts) => {
        await accounts.removeMember(input);
        return { ...input, removed: true };
      });
    }
    case 'backup':
    case 'restore':
      return backupOrRestore(command, values);
    default:
      throw new UsageError(`unknown command "${command}"`);
  }
}

try {
  const result = await run(process.argv.slice(2));
  if (result !== undefined) process.stdout.write(`${JSON.stringify(result)}\n`);
} catch (error) {
  if (error instanceof UsageError || (error as NodeJS.ErrnoException).code?.startsWith('ERR_PARSE_ARGS')) {
    process.stderr.write(`${error instanceof UsageError && error.message ? `${error.message}\n` : (error as Error).message ? `${(error as Error).message}\n` : ''}${USAGE}\n`);
    process.exit(2);
  }
  const body = isAppError(error) ? { error: { code: error.code, message: error.message } } : { error: { code: 'internal', message: (error as Error).message } };
  process.stdout.write(`${JSON.stringify(body)}\n`);
  process.exit(1);
}
