import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/infra/storage/database.js';
import type { Database } from '../src/infra/storage/schema.js';
import { sha256Hex } from '../src/service/ids.js';
import { createRuntime, type Runtime } from '../src/adapters/http/server.js';
import { type Backend, type BackendName, createBackend, requireServer, testConfig } from './support/backends.js';
import { signedIn, type WebClient } from './support/web-client.js';
import { MemoryOAuthClient } from './support/oauth-client.js';
import { useTestService } from './support/world.js';

const backends: BackendName[] = ['sqlite'];
if (await requireServer('postgres')) backends.push('postgres');

const PUBLIC = 'http://drawbridge.test';
const ANN = { email: 'ann@example.com', password: 'correct horse battery staple' };
const REDIRECT = 'http://127.0.0.1:9/callback';

/** The test's stand-in for a browser's and a client's network: PUBLIC_URL leads to the listener. */
const viaListener = (listener: string) => (input: string | URL | Request, init?: RequestInit) => {
  const url = String(input instanceof Request ? input.url : input).replace(PUBLIC, listener);
  return fetch(input instanceof Request ? new Request(url, input) : url, init);
};

const pkce = () => {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
};


describe.each(backends)('OAuth 2.1 for /mcp on %s', (backend) => {
  const service = useTestService({ listen: true, backend, config: { oauth: true, oauthClientDocumentsOnLoopback: true } });
  let listener: string;
  let net: ReturnType<typeof viaListener>;
  let db: Kysely<Database>;
  let ann: WebClient;
  let documents: Server;
  let documentBase: string;

  beforeAll(async () => {
    listener = new URL(service.mcpUrl).origin;
    net = viaListener(listener);
    db = (await openDatabase(service.databaseUrl)).db;
    ann = await signedIn(service.runtime.app, ANN.email, ANN.password);
    // A client that publishes its metadata at its client_id URL (served on loopback, which only tests may use).
    documents = createServer((request, response) => {
      const clientId = `${documentBase}${request.url}`;
      const body = request.url === '/big.json' ? 'x'.repeat(10_000) : JSON.stringify({ client_id: clientId, client_name: 'Document client', redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none' });
      response.setHeader('content-type', 'application/json').end(body);
    });
    await new Promise<void>((resolve) => documents.listen(0, '127.0.0.1', resolve));
    documentBase = `http://127.0.0.1:${(documents.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    documents.close();
    await db.destroy();
  });

  /** Follows /authorize to the consent page, approves it as Ann, and returns where the browser is sent back to. */
  async function consent(authorizationUrl: string, choice: Record<string, string | string[]> = { decision: 'approve', scopes: ['diagrams:read', 'diagrams:write'] }) {
    const start = await net(authorizationUrl, { redirect: 'manual' });
    expect(start.status, await start.clone().text()).toBe(302);
    const consentPath = start.headers.get('location')!;
    expect(consentPath).toMatch(/^\/oauth\/consent\?request=/);
    const page = await ann.get(consentPath);
    expect(page.statusCode).toBe(200);
    const sealed = decodeURIComponent(consentPath.split('request=')[1]!);
    const answer = await ann.post('/oauth/consent', { request: sealed, ...choice });
    expect(answer.statusCode, answer.body.slice(0, 300)).toBe(303);
    return { page, answer: new URL(answer.headers.location as string), sealed };
  }

  async function register(): Promise<string> {
    const res = await net(`${PUBLIC}/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ client_name: 'Raw client', redirect_uris: [REDIRECT] }) });
    expect(res.status).toBe(201);
    const client = (await res.json()) as { client_id: string; client_secret?: string; token_endpoint_auth_method: string };
    expect(client.client_secret).toBeUndefined();
    expect(client.token_endpoint_auth_method).toBe('none');
    return client.client_id;
  }

  const authorizeUrl = (clientId: string, challenge: string, extra: Record<string, string> = {}) =>
    `${PUBLIC}/authorize?${new URLSearchParams({ response_type: 'code', client_id: clientId, redirect_uri: REDIRECT, code_challenge: challenge, code_challenge_method: 'S256', state: 's1', resource: `${PUBLIC}/mcp`, scope: 'diagrams:read', ...extra })}`;

  const token = (form: Record<string, string>) =>
    net(`${PUBLIC}/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(form).toString() });

  /** A registered client's code, approved by Ann. */
  async function codeFor(clientId: string, extra: Record<string, string> = {}) {
    const { verifier, challenge } = pkce();
    const { answer } = await consent(authorizeUrl(clientId, challenge, extra), { decision: 'approve', scopes: ['diagrams:read'] });
    return { code: answer.searchParams.get('code')!, verifier };
  }

  const toolsList = (accessToken: string) =>
    fetch(service.mcpUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${accessToken}` },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });

  it("connects the MCP SDK's own client from a bare 401: discovery, registration, PKCE, consent, tools, refresh, revoke", async () => {
    const provider = new MemoryOAuthClient(REDIRECT, 'Test connector', 'state-123');
    const transport = () => new StreamableHTTPClientTransport(new URL(`${PUBLIC}/mcp`), { authProvider: provider, fetch: net });
    const first = new Client({ name: 'connector', version: '1.0.0' });
    await expect(first.connect(transport())).rejects.toBeInstanceOf(UnauthorizedError);
    // The client found the server from the 401, registered itself, and sent the user to /authorize with PKCE.
    const url = provider.authorizationUrl!;
    expect(url.origin + url.pathname).toBe(`${PUBLIC}/authorize`);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('resource')).toBe(`${PUBLIC}/mcp`);
    expect(provider.info?.client_id).toMatch(/^cli_/);

    const { page, answer } = await consent(url.href);
    expect(page.body).toContain('Test connector');
    expect(page.body).toMatch(/127\.0\.0\.1:9<\/strong> <span class="badge">unverified/);
    expect(page.headers['x-frame-options']).toBe('DENY');
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(answer.searchParams.get('state')).toBe('state-123');

    const finishing = transport();
    await finishing.finishAuth(answer.searchParams.get('code')!);
    expect(provider.saved?.access_token).toMatch(/^drb_oat_/);
    expect(provider.saved?.scope).toBe('diagrams:read diagrams:write');
    const client = new Client({ name: 'connector', version: '1.0.0' });
    await client.connect(transport());
    const { tools } = await client.listTools();
    expect(tools.length).toBeGreaterThan(5);
    // Only hashes are kept.
    const stored = await db.selectFrom('oauth_tokens').select('token_hash').execute();
    expect(stored.map((r) => r.token_hash)).toContain(sha256Hex(provider.saved!.access_token));
    expect(JSON.stringify(stored)).not.toContain(provider.saved!.access_token);

    // A refresh rotates both tokens; the old access token still works until its own expiry, the new one too.
    const clientId = provider.info!.client_id;
    const refreshed = await token({ grant_type: 'refresh_token', refresh_token: provider.saved!.refresh_token!, client_id: clientId });
    expect(refreshed.status).toBe(200);
    const rotated = (await refreshed.json()) as OAuthTokens;
    expect(rotated.refresh_token).not.toBe(provider.saved!.refresh_token);
    expect((await toolsList(rotated.access_token)).status).toBe(200);

    // Connected apps: Ann sees the client with its scopes and last use, and anyone holding a token sees the revoke.
    const settings = await ann.get('/settings/developer');
    expect(settings.body).toContain('Test connector');
    const revoke = await net(`${PUBLIC}/revoke`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ token: rotated.refresh_token!, client_id: clientId }).toString() });
    expect(revoke.status).toBe(200);
    const after = await toolsList(rotated.access_token);
    expect(after.status).toBe(401);
    expect(after.headers.get('www-authenticate')).toContain('error="invalid_token"');
    await client.close();
  });

  it('takes a client ID metadata document as the client, and refuses one on a private address or too big', async () => {
    const clientId = `${documentBase}/client.json`;
    const { verifier, challenge } = pkce();
    const { page, answer } = await consent(authorizeUrl(clientId, challenge));
    expect(page.body).toContain('Document client');
    const res = await token({ grant_type: 'authorization_code', code: answer.searchParams.get('code')!, code_verifier: verifier, client_id: clientId, redirect_uri: REDIRECT, resource: `${PUBLIC}/mcp` });
    expect(res.status).toBe(200);
    expect((await toolsList(((await res.json()) as OAuthTokens).access_token)).status).toBe(200);

    const big = await net(authorizeUrl(`${documentBase}/big.json`, challenge), { redirect: 'manual' });
    expect(big.status).toBe(400);
    expect(((await big.json()) as { error_description: string }).error_description).toMatch(/over 5120 bytes/);
  });

  it('refuses a wrong or missing PKCE verifier, a replayed code (revoking what it gave) and an unregistered redirect URI', async () => {
    const clientId = await register();
    const { code, verifier } = await codeFor(clientId);
    const base = { grant_type: 'authorization_code', code, client_id: clientId, redirect_uri: REDIRECT };
    const wrong = await token({ ...base, code_verifier: pkce().verifier });
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toMatchObject({ error: 'invalid_grant' });
    expect((await token(base)).status).toBe(400);
    const good = await token({ ...base, code_verifier: verifier });
    expect(good.status).toBe(200);
    const { access_token } = (await good.json()) as OAuthTokens;
    const replay = await token({ ...base, code_verifier: verifier });
    expect(replay.status).toBe(400);
    expect(await replay.json()).toMatchObject({ error: 'invalid_grant', error_description: expect.stringMatching(/already used/) });
    expect((await toolsList(access_token)).status).toBe(401);

    const unregistered = await net(authorizeUrl(clientId, pkce().challenge, { redirect_uri: 'https://evil.example/callback' }), { redirect: 'manual' });
    expect(unregistered.status).toBe(400);
    expect(await unregistered.json()).toMatchObject({ error: 'invalid_request', error_description: 'Unregistered redirect_uri' });
    // Without state, the refusal goes back to the client, not to a consent page.
    const stateless = await net(authorizeUrl(clientId, pkce().challenge, { state: '' }), { redirect: 'manual' });
    expect(stateless.status).toBe(302);
    expect(new URL(stateless.headers.get('location')!).searchParams.get('error')).toBe('invalid_request');
  });

  it('keeps tokens to their audience and their lifetime', async () => {
    const clientId = await register();
    const other = await net(authorizeUrl(clientId, pkce().challenge, { resource: 'https://elsewhere.example/mcp' }), { redirect: 'manual' });
    expect(new URL(other.headers.get('location')!).searchParams.get('error')).toBe('invalid_target');

    const { code, verifier } = await codeFor(clientId);
    const tokens = (await (await token({ grant_type: 'authorization_code', code, code_verifier: verifier, client_id: clientId, redirect_uri: REDIRECT })).json()) as OAuthTokens;
    // Not for REST: the token's audience is /mcp.
    const rest = await service.runtime.app.inject({ method: 'GET', url: '/api-v1/workspaces', headers: { authorization: `Bearer ${tokens.access_token}` } });
    expect(rest.statusCode).toBe(401);
    expect(rest.json().error.message).toMatch(/is for http:\/\/drawbridge\.test\/mcp only/);
    // A grant made for another resource (PUBLIC_URL changed since) no longer opens /mcp.
    const hash = sha256Hex(tokens.access_token);
    const { grant_id } = await db.selectFrom('oauth_tokens').select('grant_id').where('token_hash', '=', hash).executeTakeFirstOrThrow();
    await db.updateTable('oauth_grants').set({ resource: 'https://old.example/mcp' }).where('id', '=', grant_id).execute();
    expect((await toolsList(tokens.access_token)).status).toBe(401);
    await db.updateTable('oauth_grants').set({ resource: `${PUBLIC}/mcp` }).where('id', '=', grant_id).execute();
    expect((await toolsList(tokens.access_token)).status).toBe(200);
    await db.updateTable('oauth_tokens').set({ expires_at: new Date(Date.now() - 1000).toISOString() }).where('token_hash', '=', hash).execute();
    const expired = await toolsList(tokens.access_token);
    expect(expired.status).toBe(401);
    expect(((await expired.json()) as { error: { message: string } }).error.message).toMatch(/expired/);
  });

  it('answers a tool call the token has not the scope for with a 403 challenge, from which the SDK client asks again', async () => {
    const clientId = await register();
    const { code, verifier } = await codeFor(clientId);
    const tokens = (await (await token({ grant_type: 'authorization_code', code, code_verifier: verifier, client_id: clientId, redirect_uri: REDIRECT })).json()) as OAuthTokens;
    expect(tokens.scope).toBe('diagrams:read');
    const call = (name: string) =>
      fetch(service.mcpUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${tokens.access_token}` },
        body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name, arguments: { workspaceId: 'ws_x', name: 'x' } } }),
      });
    const refused = await call('create_diagram');
    expect(refused.status).toBe(403);
    expect(refused.headers.get('www-authenticate')).toBe(
      `Bearer realm="drawbridge", resource_metadata="${PUBLIC}/.well-known/oauth-protected-resource/mcp", error="insufficient_scope", scope="diagrams:read diagrams:write", error_description="this token lacks the scope 'diagrams:write', which create_diagram needs"`,
    );
    expect(await refused.json()).toEqual({ jsonrpc: '2.0', id: 7, error: { code: -32003, message: 'this token lacks the scope "diagrams:write", which create_diagram needs', data: { code: 'insufficient_scope', required: ['diagrams:write'] } } });
    expect(refused.headers.get('ratelimit-remaining')).toBeNull();
    // A call within the token's scopes runs as before (here: a made-up workspace, refused by the service).
    expect((await call('list_workspaces')).status).toBe(200);

    // The SDK client reads the challenge and sends the user back to consent for the scopes it had plus the missing one.
    const provider = new MemoryOAuthClient(REDIRECT, 'Test connector', 'state-123');
    provider.info = { client_id: clientId };
    provider.saved = { access_token: tokens.access_token, token_type: 'Bearer' };
    const client = new Client({ name: 'connector', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${PUBLIC}/mcp`), { authProvider: provider, fetch: net }));
    await expect(client.callTool({ name: 'create_diagram', arguments: { workspaceId: 'ws_x', name: 'x' } })).rejects.toBeInstanceOf(UnauthorizedError);
    expect(provider.authorizationUrl?.searchParams.get('scope')).toBe('diagrams:read diagrams:write');
    await client.close();
  });

  it('revokes the whole family when a rotated refresh token comes back', async () => {
    const clientId = await register();
    const { code, verifier } = await codeFor(clientId);
    const first = (await (await token({ grant_type: 'authorization_code', code, code_verifier: verifier, client_id: clientId, redirect_uri: REDIRECT })).json()) as OAuthTokens;
    const second = (await (await token({ grant_type: 'refresh_token', refresh_token: first.refresh_token!, client_id: clientId })).json()) as OAuthTokens;
    expect((await toolsList(second.access_token)).status).toBe(200);
    const reuse = await token({ grant_type: 'refresh_token', refresh_token: first.refresh_token!, client_id: clientId });
    expect(reuse.status).toBe(400);
    expect(await reuse.json()).toMatchObject({ error: 'invalid_grant' });
    expect((await toolsList(second.access_token)).status).toBe(401);
    expect((await token({ grant_type: 'refresh_token', refresh_token: second.refresh_token!, client_id: clientId })).status).toBe(400);
  });

  it('lists the connection under Connected apps, where Revoke ends it at once', async () => {
    const clientId = await register();
    const { code, verifier } = await codeFor(clientId);
    const tokens = (await (await token({ grant_type: 'authorization_code', code, code_verifier: verifier, client_id: clientId, redirect_uri: REDIRECT })).json()) as OAuthTokens;
    expect((await toolsList(tokens.access_token)).status).toBe(200);
    const settings = await ann.get('/settings/developer');
    const grantId = /action="\/settings\/developer\/apps\/(grt_\w+)\/revoke"/.exec(settings.body)![1]!;
    expect(settings.body).toMatch(/Raw client <span class="badge">unverified<\/span>/);
    const revoked = await ann.post(`/settings/developer/apps/${grantId}/revoke`);
    expect(revoked.statusCode).toBe(303);
    expect((await ann.get(revoked.headers.location as string)).body).toContain('disconnected: its tokens now get 401');
    // The newest connection is listed first: this one, whose tokens are refused from now on.
    expect((await toolsList(tokens.access_token)).status).toBe(401);
    expect((await token({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token!, client_id: clientId })).status).toBe(400);
    expect((await ann.get('/settings/developer')).body).not.toContain(grantId);
  });

  it.runIf(backend === 'sqlite')('lets the operator list and revoke connections with the CLI', async () => {
    const clientId = await register();
    const { code, verifier } = await codeFor(clientId);
    const tokens = (await (await token({ grant_type: 'authorization_code', code, code_verifier: verifier, client_id: clientId, redirect_uri: REDIRECT })).json()) as OAuthTokens;
    const env = { ...process.env, DATABASE_URL: service.databaseUrl, PUBLIC_URL: PUBLIC };
    const cli = async (...args: string[]) => JSON.parse((await promisify(execFile)('node', ['bin/drawbridge.js', ...args], { env })).stdout);
    const { items } = await cli('oauth', 'grants', 'list', '--email', ANN.email);
    const grant = items.find((g: { clientId: string }) => g.clientId === clientId);
    expect(grant).toMatchObject({ clientName: 'Raw client', scopes: ['diagrams:read'], revokedAt: null });
    expect(await cli('oauth', 'grants', 'revoke', '--id', grant.id)).toMatchObject({ id: grant.id, revokedAt: expect.any(String) });
    expect((await toolsList(tokens.access_token)).status).toBe(401);
  });

  it('refuses the consent form without its CSRF token', async () => {
    const clientId = await register();
    const start = await net(authorizeUrl(clientId, pkce().challenge), { redirect: 'manual' });
    const sealed = decodeURIComponent(start.headers.get('location')!.split('request=')[1]!);
    await ann.get(start.headers.get('location')!);
    const forged = await ann.post('/oauth/consent', { request: sealed, decision: 'approve', scopes: 'diagrams:read' }, null);
    expect(forged.statusCode).toBe(403);
    expect(forged.headers.location).toBeUndefined();
  });
});

describe('client ID metadata documents in production', () => {
  const service = useTestService({ listen: true, config: { oauth: true } });
  it('refuses a document URL on a private or loopback address', async () => {
    const net = viaListener(new URL(service.mcpUrl).origin);
    for (const clientId of ['https://127.0.0.1/client.json', 'https://10.0.0.8/client.json', 'http://client.example/meta.json']) {
      const res = await net(`${PUBLIC}/authorize?${new URLSearchParams({ response_type: 'code', client_id: clientId, redirect_uri: REDIRECT, code_challenge: pkce().challenge, code_challenge_method: 'S256', state: 's' })}`, { redirect: 'manual' });
      expect(res.status, clientId).toBe(400);
      expect(((await res.json()) as { error: string; error_description: string }).error_description, clientId).toMatch(/private, loopback|must be https/);
    }
  });
});

describe('plans apply to OAuth as to API tokens (hosted edition)', () => {
  // Not the shared world: in the hosted edition a free account cannot hold the tokens it makes.
  const service = {} as { runtime: Runtime; mcpUrl: string };
  let backend: Backend;
  beforeAll(async () => {
    backend = await createBackend('sqlite');
    service.runtime = await createRuntime(testConfig({ databaseUrl: backend.databaseUrl, oauth: true, edition: 'hosted' }));
    await service.runtime.services.accounts.createUser({ email: ANN.email, name: 'Ann', password: ANN.password, workspaceName: 'Ann main' });
    service.mcpUrl = `${await service.runtime.app.listen({ port: 0, host: '127.0.0.1' })}/mcp`;
  });
  afterAll(async () => {
    await service.runtime.close();
    await backend.dispose();
  });
  it('tells a free account it cannot connect apps, refuses its approval, and stops a connection when the plan lapses', async () => {
    const net = viaListener(new URL(service.mcpUrl).origin);
    const ann = await signedIn(service.runtime.app, ANN.email, ANN.password);
    const registered = (await (await net(`${PUBLIC}/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ client_name: 'Paid app', redirect_uris: [REDIRECT] }) })).json()) as { client_id: string };
    const { verifier, challenge } = pkce();
    const authorize = `${PUBLIC}/authorize?${new URLSearchParams({ response_type: 'code', client_id: registered.client_id, redirect_uri: REDIRECT, code_challenge: challenge, code_challenge_method: 'S256', state: 's' })}`;
    const consentPath = (await net(authorize, { redirect: 'manual' })).headers.get('location')!;
    const sealed = decodeURIComponent(consentPath.split('request=')[1]!);
    expect((await ann.get(consentPath)).body).toContain('You cannot connect apps');
    const refused = await ann.post('/oauth/consent', { request: sealed, decision: 'approve', scopes: 'diagrams:read' });
    expect(refused.statusCode).toBe(403);

    await service.runtime.services.accounts.setPlan({ email: ANN.email, plan: 'pro' });
    await ann.get(consentPath);
    const approved = await ann.post('/oauth/consent', { request: sealed, decision: 'approve', scopes: 'diagrams:read' });
    const code = new URL(approved.headers.location as string).searchParams.get('code')!;
    const body = new URLSearchParams({ grant_type: 'authorization_code', code, code_verifier: verifier, client_id: registered.client_id, redirect_uri: REDIRECT });
    const tokens = (await (await net(`${PUBLIC}/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body })).json()) as OAuthTokens;
    const call = () =>
      fetch(service.mcpUrl, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${tokens.access_token}` }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }) });
    expect((await call()).status).toBe(200);
    await service.runtime.services.accounts.setPlan({ email: ANN.email, plan: 'free' });
    const lapsed = await call();
    expect(lapsed.status).toBe(403);
    expect(((await lapsed.json()) as { error: { code: string } }).error.code).toBe('plan_required');
  });
});
