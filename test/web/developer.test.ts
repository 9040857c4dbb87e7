import { describe, expect, it, vi } from 'vitest';
import { bearer, useTestService } from '../support/world.js';
import { signedIn, textById } from '../support/web-client.js';

const ANN = { email: 'ann@example.com', password: 'correct horse battery staple' };

/** One JSON-RPC call to /mcp with a token, as an MCP client sends it. */
const mcpCall = (app: Parameters<typeof signedIn>[0], token: string, method: string, params?: object) =>
  app.inject({
    method: 'POST',
    url: '/mcp',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...bearer(token) },
    payload: JSON.stringify({ jsonrpc: '2.0', id: 1, method, ...(params ? { params } : {}) }),
  });

describe('Settings → Developer', () => {
  const service = useTestService();

  it('creates a token once, with ready-made client blocks that work against REST and MCP, then revokes it at once', async () => {
    const app = service.runtime.app;
    const ann = await signedIn(app, ANN.email, ANN.password);
    const form = await ann.get('/settings/developer');
    expect(form.body).toContain('List workspaces, folders and diagrams');
    expect(form.body).toContain('Export diagrams as Mermaid, D2 or .excalidraw.');

    const posted = await ann.post('/settings/developer/tokens', { name: 'claude desktop', scopes: ['diagrams:read', 'export'], workspaceId: service.world.annWorkspace });
    // Post, redirect, get: reloading the page that shows the token never offers to send the form again.
    expect(posted.statusCode).toBe(303);
    expect(posted.headers.location).toMatch(/^\/settings\/developer\?created=tok_\w+$/);
    const created = await ann.get(posted.headers.location as string);
    expect(created.statusCode).toBe(200);
    const reloaded = await ann.get(posted.headers.location as string);
    expect(reloaded.body).toContain('its secret was shown once and is not kept');
    const secret = textById(created.body, 'token-secret')!;
    expect(secret).toMatch(/^drb_live_[0-9A-Za-z]{43}$/);

    const remote = JSON.parse(textById(created.body, 'code-remote-http')!);
    expect(remote).toEqual({ mcpServers: { drawbridge: { type: 'http', url: 'http://drawbridge.test/mcp', headers: { Authorization: `Bearer ${secret}` } } } });
    const bridge = JSON.parse(textById(created.body, 'code-mcp-remote')!);
    expect(bridge.mcpServers.drawbridge.args).toEqual(['-y', 'mcp-remote', 'http://drawbridge.test/mcp', '--transport', 'http-only', '--header', 'Authorization:Bearer ${DRAWBRIDGE_TOKEN}']);
    expect(bridge.mcpServers.drawbridge.env).toEqual({ DRAWBRIDGE_TOKEN: secret });
    expect(textById(created.body, 'code-claude-code')).toBe(`claude mcp add --transport http drawbridge http://drawbridge.test/mcp --header "Authorization: Bearer ${secret}"`);
    const vscode = /^code --add-mcp '(.*)'$/.exec(textById(created.body, 'code-vscode')!)!;
    expect(JSON.parse(vscode[1]!)).toEqual({ name: 'drawbridge', type: 'http', url: 'http://drawbridge.test/mcp', headers: { Authorization: `Bearer ${secret}` } });
    expect(textById(created.body, 'code-curl')).toBe(`curl -s http://drawbridge.test/api-v1/workspaces -H "Authorization: Bearer ${secret}"`);

    // The token does what its scopes and workspace say, over REST and MCP.
    const workspaces = await app.inject({ url: '/api-v1/workspaces', headers: remote.mcpServers.drawbridge.headers });
    expect(workspaces.json().items.map((w: { id: string }) => w.id)).toEqual([service.world.annWorkspace]);
    const write = await app.inject({ method: 'POST', url: '/api-v1/folders', headers: bearer(secret), payload: { workspaceId: service.world.annWorkspace, name: 'x' } });
    expect(write.statusCode).toBe(403);
    const tools = await mcpCall(app, secret, 'tools/call', { name: 'list_workspaces', arguments: {} });
    expect(tools.statusCode).toBe(200);
    expect(tools.body).toContain(service.world.annWorkspace);

    // Listed afterwards by name, prefix, scopes and workspace; the secret never again.
    const list = await ann.get('/settings/developer');
    expect(list.body).not.toContain(secret);
    expect(list.body).toContain(`${secret.slice(0, 13)}…`);
    expect(list.body).toContain('Ann main');
    const tokenId = /\/settings\/developer\/tokens\/(tok_\w+)\/revoke/.exec(list.body.slice(list.body.indexOf('claude desktop')))![1]!;

    const confirm = await ann.get(`/settings/developer/tokens/${tokenId}/revoke`);
    expect(confirm.body).toContain('Revoke “claude desktop”?');
    const revoked = await ann.post(`/settings/developer/tokens/${tokenId}/revoke`);
    expect(revoked.statusCode).toBe(303);
    expect((await ann.get(revoked.headers.location as string)).body).toContain('Token &quot;claude desktop&quot; revoked');
    const after = await app.inject({ url: '/api-v1/workspaces', headers: bearer(secret) });
    expect(after.statusCode).toBe(401);
    expect(after.json().error.details).toEqual({ reason: 'revoked' });
    expect((await mcpCall(app, secret, 'tools/list')).statusCode).toBe(401);
    expect(reloaded.body).not.toContain(secret);

    // Revoked tokens leave the main list for a folded one.
    const listed = (await ann.get('/settings/developer')).body;
    expect(listed).toContain('Revoked tokens (1)');
    expect(listed).not.toContain(`/settings/developer/tokens/${tokenId}/revoke`);
  });

  it('gives a token an optional expiry, after which it gets 401 with the reason expired', async () => {
    const app = service.runtime.app;
    const ann = await signedIn(app, ANN.email, ANN.password);
    await ann.get('/settings/developer');
    const posted = await ann.post('/settings/developer/tokens', { name: 'a week', scopes: ['diagrams:read'], expires: '7' });
    const page = await ann.get(posted.headers.location as string);
    const secret = textById(page.body, 'token-secret')!;
    const expires = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
    expect((await ann.get('/settings/developer')).body).toContain(`<td data-label="Expires">${expires}</td>`);
    expect((await app.inject({ url: '/api-v1/workspaces', headers: bearer(secret) })).statusCode).toBe(200);
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + 8 * 86_400_000);
      const late = await app.inject({ url: '/api-v1/workspaces', headers: bearer(secret) });
      expect(late.statusCode).toBe(401);
      expect(late.json().error).toMatchObject({ details: { reason: 'expired' } });
    } finally {
      vi.useRealTimers();
    }
    const bad = await ann.post('/settings/developer/tokens', { name: 'forever and a day', scopes: ['diagrams:read'], expires: '0' });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('expiresInDays must be a whole number of days from 1 to 3650');
  });

  it('refuses a token without scopes, or pinned to a workspace the person is not in, and stores nothing', async () => {
    const app = service.runtime.app;
    const ann = await signedIn(app, ANN.email, ANN.password);
    const before = (await service.runtime.services.tokens.listForUser(service.world.annUserId)).length;
    await ann.get('/settings/developer');
    const none = await ann.post('/settings/developer/tokens', { name: 'empty' });
    expect(none.statusCode).toBe(400);
    expect(none.body).toContain('scopes must be a non-empty list');
    expect(none.body).toContain('value="empty"');
    const foreign = await ann.post('/settings/developer/tokens', { name: 'sneaky', scopes: 'diagrams:read', workspaceId: 'ws_doesnotexist000000' });
    expect(foreign.statusCode).toBe(404);
    expect((await service.runtime.services.tokens.listForUser(service.world.annUserId)).length).toBe(before);
  });

  it("does not let one person revoke another's token", async () => {
    const app = service.runtime.app;
    await service.runtime.services.accounts.createUser({ email: 'carol@example.com', password: 'carol password ok' });
    const carol = await signedIn(app, 'carol@example.com', 'carol password ok');
    const [annToken] = await service.runtime.services.tokens.listForUser(service.world.annUserId);
    expect((await carol.get(`/settings/developer/tokens/${annToken!.id}/revoke`)).headers.location).toBe('/settings/developer');
    await carol.get('/settings/developer');
    const refused = await carol.post(`/settings/developer/tokens/${annToken!.id}/revoke`);
    expect(refused.statusCode).toBe(404);
    expect((await app.inject({ url: '/api-v1/workspaces', headers: bearer(service.world.tokens.annAll) })).statusCode).toBe(200);
  });
});
