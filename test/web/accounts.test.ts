import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRuntime, type Runtime } from '../../src/adapters/http/server.js';
import { SIGN_IN_LIMITS } from '../../src/service/sign-in.js';
import { availableBackends, type Backend, createBackend, testConfig } from '../support/backends.js';
import { WebClient } from '../support/web-client.js';

const PASSWORD = 'correct horse battery';
const OWNER = { name: 'Ann', email: 'ann@example.com', password: PASSWORD, workspace: 'Engineering' };

// Each is a way a browser reaches another site from a Location header: it drops tabs and line breaks, reads `\\` as
// `/`, and takes `//host` as a host; the encoded forms arrive decoded in the query string or the form.
const ELSEWHERE = ['//evil.example/', 'https://evil.example/', '/\\evil.example', '/\t/evil.example', '/\n/evil.example',
  '/\r\n/evil.example', ' //evil.example', '\\\\evil.example', '/\\/evil.example', 'javascript:alert(1)', 'https:evil.example',
  '/.//evil.example', '\t//evil.example', 'http:/\\evil.example'];

/** A fresh, empty install (no user), on the given backend. */
function useEmptyInstall(backendName: 'sqlite' | 'postgres', publicUrl = 'http://drawbridge.test', signInLimits = SIGN_IN_LIMITS) {
  const state: { backend?: Backend; runtime?: Runtime } = {};
  beforeAll(async () => {
    state.backend = await createBackend(backendName);
    state.runtime = await createRuntime(testConfig({ databaseUrl: state.backend.databaseUrl, publicUrl }), { signInLimits });
  });
  afterAll(async () => {
    await state.runtime?.close();
    await state.backend?.dispose();
  });
  return () => state.runtime!;
}

describe.each(await availableBackends())('web accounts and sessions on %s', (backendName) => {
  const runtime = useEmptyInstall(backendName);
  const owner = () => new WebClient(runtime().app);
  let ann: WebClient;

  it('sends a fresh install to the setup page, which creates the owner, signs them in and then closes', async () => {
    const visitor = owner();
    expect((await visitor.get('/')).headers.location).toBe('/setup');
    expect((await visitor.get('/sign-in')).headers.location).toBe('/setup');
    const form = await visitor.get('/setup');
    expect(form.statusCode).toBe(200);
    expect(form.body).toContain('Set up Drawbridge');

    const short = await visitor.post('/setup', { ...OWNER, password: 'short' });
    expect(short.statusCode).toBe(400);
    expect(short.body).toContain('a password has 10 to 200 characters');
    expect(short.body).toContain('value="ann@example.com"');
    expect(await runtime().services.accounts.countUsers()).toBe(0);

    const done = await visitor.post('/setup', OWNER);
    expect(done.statusCode).toBe(303);
    expect(done.headers.location).toBe('/workspaces');
    const workspaces = await visitor.get('/workspaces');
    expect(workspaces.statusCode).toBe(200);
    expect(workspaces.body).toContain('Engineering');
    ann = visitor;

    // Afterwards: the form redirects, and a second owner cannot be made by posting to it.
    const late = new WebClient(runtime().app, '198.51.100.9');
    expect((await late.get('/setup')).headers.location).toBe('/sign-in');
    await late.get('/sign-in');
    const again = await late.post('/setup', { ...OWNER, email: 'mallory@example.com' });
    expect(again.statusCode).toBe(404);
    expect(await runtime().services.accounts.countUsers()).toBe(1);
  });

  it('keeps sessions on the server as SHA-256 hashes, in an HttpOnly SameSite=Lax cookie', async () => {
    const secret = ann.cookie('drawbridge_session')!;
    expect(secret).toMatch(/^[0-9A-Za-z]{43}$/);
    const { db } = runtime().services.sessions as unknown as { db: import('kysely').Kysely<import('../../src/infra/storage/schema.js').Database> };
    const stored = await db.selectFrom('web_sessions').select('id_hash').execute();
    expect(stored.map((r) => r.id_hash)).toContain(createHash('sha256').update(secret).digest('hex'));
    expect(JSON.stringify(stored)).not.toContain(secret);

    const signIn = await new WebClient(runtime().app).post('/sign-in', { email: OWNER.email, password: PASSWORD }, null);
    expect(signIn.statusCode).toBe(403); // no CSRF token: refused before the password is even checked
    const client = new WebClient(runtime().app);
    await client.get('/sign-in');
    const ok = await client.post('/sign-in', { email: 'ANN@example.com', password: PASSWORD, next: '/settings/developer' });
    expect(ok.statusCode).toBe(303);
    expect(ok.headers.location).toBe('/settings/developer');
    const cookie = [ok.headers['set-cookie']].flat().find((c) => c!.startsWith('drawbridge_session='))!;
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).not.toMatch(/Secure/);
    expect(cookie).toMatch(/Max-Age=604800/);
  });

  it('puts a strict CSP and no inline script or style on every page', async () => {
    for (const url of ['/workspaces', '/settings/developer', '/settings/password']) {
      const response = await ann.get(url);
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-security-policy']).toMatch(/default-src 'none'; script-src 'self'; style-src 'self'/);
      expect(response.headers['content-security-policy']).toMatch(/frame-ancestors 'none'/);
      expect(response.body).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
      expect(response.body).not.toMatch(/\sstyle=|\son[a-z]+=/);
    }
  });

  it('refuses a state-changing form without the session CSRF token, or with another session\'s', async () => {
    const before = await runtime().services.tokens.listForUser((await runtime().services.accounts.getUser(await runtime().services.accounts.userIdByEmail(OWNER.email)))!.id);
    const missing = await ann.post('/settings/developer/tokens', { name: 'x', scopes: 'diagrams:read' }, null);
    expect(missing.statusCode).toBe(403);
    expect(missing.body).toContain('did not carry its security token');
    const other = new WebClient(runtime().app);
    await other.get('/sign-in');
    const foreign = await ann.post('/settings/developer/tokens', { name: 'x', scopes: 'diagrams:read' }, other.csrf);
    expect(foreign.statusCode).toBe(403);
    const after = await runtime().services.tokens.listForUser(before[0]?.id ?? (await runtime().services.accounts.userIdByEmail(OWNER.email)));
    expect(after).toHaveLength(0);
  });

  it('ends a session at sign-out, and an expired one sends the browser to sign in', async () => {
    const client = new WebClient(runtime().app);
    await client.get('/sign-in');
    await client.post('/sign-in', { email: OWNER.email, password: PASSWORD });
    const secret = client.cookie('drawbridge_session')!;
    expect((await client.get('/workspaces')).statusCode).toBe(200);

    const { db } = runtime().services.sessions as unknown as { db: import('kysely').Kysely<import('../../src/infra/storage/schema.js').Database> };
    const idHash = createHash('sha256').update(secret).digest('hex');
    // Sliding: a request after a while pushes the end back.
    await db.updateTable('web_sessions').set({ expires_at: new Date(Date.now() + 3600_000).toISOString(), last_seen_at: new Date(Date.now() - 3600_000).toISOString() }).where('id_hash', '=', idHash).execute();
    await client.get('/workspaces');
    const slid = await db.selectFrom('web_sessions').select('expires_at').where('id_hash', '=', idHash).executeTakeFirstOrThrow();
    expect(Date.parse(slid.expires_at)).toBeGreaterThan(Date.now() + 6 * 24 * 3600_000);

    await db.updateTable('web_sessions').set({ expires_at: new Date(Date.now() - 1000).toISOString() }).where('id_hash', '=', idHash).execute();
    const expired = await client.get('/settings/developer');
    expect(expired.statusCode).toBe(303);
    expect(expired.headers.location).toBe('/sign-in?next=%2Fsettings%2Fdeveloper');
    expect(await db.selectFrom('web_sessions').select('id_hash').where('id_hash', '=', idHash).executeTakeFirst()).toBeUndefined();

    await client.get('/sign-in');
    await client.post('/sign-in', { email: OWNER.email, password: PASSWORD });
    const second = client.cookie('drawbridge_session')!;
    await client.get('/workspaces');
    expect((await client.post('/sign-out')).headers.location).toBe('/sign-in');
    const replay = await runtime().app.inject({ method: 'GET', url: '/workspaces', headers: { cookie: `drawbridge_session=${second}` } });
    expect(replay.statusCode).toBe(303);
  });

  it('changes the password after checking the current one, and signs out the other browsers', async () => {
    const elsewhere = new WebClient(runtime().app);
    await elsewhere.get('/sign-in');
    await elsewhere.post('/sign-in', { email: OWNER.email, password: PASSWORD });
    await ann.get('/settings/password');
    const wrong = await ann.post('/settings/password', { current: 'not it at all', next: 'a new long password' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.body).toContain('the current password is not right');
    const done = await ann.post('/settings/password', { current: PASSWORD, next: 'a new long password' });
    expect(done.statusCode).toBe(200);
    expect(done.body).toContain('Password changed');
    expect((await ann.get('/workspaces')).statusCode).toBe(200);
    expect((await elsewhere.get('/workspaces')).statusCode).toBe(303);
    await ann.get('/settings/password');
    await ann.post('/settings/password', { current: 'a new long password', next: PASSWORD });
  });

  it('answers a wrong link with a page in the app, and an API path with JSON', async () => {
    const page = await runtime().app.inject({ method: 'GET', url: '/workspaces/nope/extra?x=1', headers: { accept: 'text/html,application/xhtml+xml' } });
    expect(page.statusCode).toBe(404);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.body).toContain('There is no page at /workspaces/nope/extra.');
    expect(page.body).toContain('href="/assets/app.css"');
    const api = await runtime().app.inject({ method: 'GET', url: '/api-v1/nope', headers: { accept: 'text/html' } });
    expect(api.statusCode).toBe(404);
    expect(api.json()).toEqual({ error: { code: 'not_found', message: 'no route GET /api-v1/nope' } });
  });


  it('never redirects a signed-in visitor of /sign-in to another site, nor answers a control character with a 500', async () => {
    for (const next of ELSEWHERE) {
      const response = await ann.get(`/sign-in?next=${encodeURIComponent(next)}`);
      expect([next, response.statusCode, response.headers.location]).toEqual([next, 303, '/']);
    }
    const encoded = await ann.get('/sign-in?next=/%09/evil.example');
    expect(encoded.headers.location).toBe('/');
    // A path on this site is kept, with what a header cannot carry percent-encoded.
    const here = await ann.get(`/sign-in?next=${encodeURIComponent('/workspaces?q=a b\u00e9#x')}`);
    expect(here.headers.location).toBe('/workspaces?q=a%20b%C3%A9#x');
    const inPath = await ann.get(`/sign-in?next=${encodeURIComponent('/work\nspaces')}`);
    expect([inPath.statusCode, inPath.headers.location]).toEqual([303, '/workspaces']);
  });

  it('sends every redirect of the web pages through one same-site check', async () => {
    const { readdirSync, readFileSync } = await import('node:fs');
    const files = readdirSync('src/adapters/web', { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
    const direct = files.filter((f) => f !== 'redirect.ts' && /\.redirect\(/.test(readFileSync(`src/adapters/web/${f}`, 'utf8')));
    expect(direct).toEqual([]);
  });
});

describe('the way back after sign-in', () => {
  // Limits wide enough for one sign-in per case.
  const runtime = useEmptyInstall('sqlite', 'http://drawbridge.test', { perAccount: 100, perAddress: 100, windowSeconds: 900 });

  it('never redirects after sign-in to another site', async () => {
    await runtime().services.accounts.createUser({ email: OWNER.email, password: PASSWORD });
    for (const next of ELSEWHERE) {
      const client = new WebClient(runtime().app);
      await client.get('/sign-in');
      const response = await client.post('/sign-in', { email: OWNER.email, password: PASSWORD, next });
      expect([next, response.statusCode, response.headers.location]).toEqual([next, 303, '/']);
    }
  });
});

describe('sign-in limits', () => {
  // The production figures (SIGN_IN_LIMITS) made small: each attempt costs a real scrypt.
  const LIMITS = { perAccount: 4, perAddress: 7, windowSeconds: 900 };
  const runtime = useEmptyInstall('sqlite', 'http://drawbridge.test', LIMITS);

  it(`locks an account after ${LIMITS.perAccount} attempts in the window, even with the right password`, async () => {
    await runtime().services.accounts.createUser({ email: 'ann@example.com', password: PASSWORD });
    const client = new WebClient(runtime().app, '192.0.2.1');
    await client.get('/sign-in');
    for (let i = 0; i < LIMITS.perAccount; i++) {
      const wrong = await client.post('/sign-in', { email: 'ann@example.com', password: `wrong ${i}` });
      expect(wrong.statusCode).toBe(401);
      expect(wrong.body).toContain('the email or the password is not right');
    }
    // Another address does not help: the account itself is locked.
    const elsewhere = new WebClient(runtime().app, '192.0.2.2');
    await elsewhere.get('/sign-in');
    const locked = await elsewhere.post('/sign-in', { email: 'ann@example.com', password: PASSWORD });
    expect(locked.statusCode).toBe(429);
    expect(locked.headers['retry-after']).toBeDefined();
    expect(locked.body).toContain(`more than ${LIMITS.perAccount} sign-in attempts for this account in 15 minutes`);
    expect(locked.headers['set-cookie']?.toString() ?? '').not.toContain('drawbridge_session=');
  });

  it(`limits one address to ${LIMITS.perAddress} attempts over any accounts`, async () => {
    const client = new WebClient(runtime().app, '192.0.2.50');
    await client.get('/sign-in');
    for (let i = 0; i < LIMITS.perAddress; i++) {
      expect((await client.post('/sign-in', { email: `nobody${i}@example.com`, password: 'whatever it is' })).statusCode).toBe(401);
    }
    const refused = await client.post('/sign-in', { email: 'someone-else@example.com', password: 'whatever it is' });
    expect(refused.statusCode).toBe(429);
    expect(refused.body).toContain('sign-in attempts from your address');
  });
});

describe('behind https', () => {
  const runtime = useEmptyInstall('sqlite', 'https://draw.example.com');

  it('marks the cookies Secure with the __Host- prefix', async () => {
    await runtime().services.accounts.createUser({ email: 'ann@example.com', password: PASSWORD });
    const client = new WebClient(runtime().app);
    const page = await client.get('/sign-in');
    expect(String(page.headers['set-cookie'])).toMatch(/^__Host-drawbridge_csrf=[^;]+;.*Secure/);
    const response = await client.post('/sign-in', { email: 'ann@example.com', password: PASSWORD });
    const cookie = [response.headers['set-cookie']].flat().find((c) => c!.startsWith('__Host-drawbridge_session='))!;
    expect(cookie).toMatch(/; Secure/);
    expect(cookie).toMatch(/HttpOnly/);
  });
});
