import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRuntime, type Runtime } from '../../src/adapters/http/server.js';
import type { Edition } from '../../src/core/plans.js';
import { type Backend, createBackend, testConfig } from '../support/backends.js';
import { signedIn } from '../support/web-client.js';
import { bearer } from '../support/world.js';

const PASSWORD = 'a long enough password';

function useEdition(edition: Edition) {
  const state: { backend?: Backend; runtime?: Runtime; ownerWorkspace?: string } = {};
  beforeAll(async () => {
    state.backend = await createBackend('sqlite');
    state.runtime = await createRuntime(testConfig({ databaseUrl: state.backend.databaseUrl, edition }));
    const { accounts } = state.runtime.services;
    state.ownerWorkspace = (await accounts.createUser({ email: 'ann@example.com', password: PASSWORD, workspaceName: 'Ann main' })).workspaceId;
    // Gus belongs to Ann's workspace as a guest and to nothing else.
    await accounts.createUser({ email: 'gus@example.com', password: PASSWORD, withWorkspace: false });
    await accounts.addMember({ workspaceId: state.ownerWorkspace, email: 'gus@example.com', role: 'guest' });
  });
  afterAll(async () => {
    await state.runtime?.close();
    await state.backend?.dispose();
  });
  return state as Required<typeof state>;
}

async function createTokenInBrowser(runtime: Runtime, email: string) {
  const client = await signedIn(runtime.app, email, PASSWORD);
  const page = await client.get('/settings/developer');
  const posted = await client.post('/settings/developer/tokens', { name: 'laptop', scopes: ['diagrams:read'] });
  // A created token is shown on the page the form redirects to (post, redirect, get).
  const response = posted.statusCode === 303 ? await client.get(posted.headers.location as string) : posted;
  return { page, response };
}

describe('hosted edition: the API and MCP are for Pro and Enterprise accounts', () => {
  const state = useEdition('hosted');

  it('shows a free account why it cannot create tokens, and refuses the form and the service with plan_required', async () => {
    const { page, response } = await createTokenInBrowser(state.runtime, 'ann@example.com');
    expect(page.body).toContain('You cannot create tokens.');
    expect(page.body).toContain('the API and MCP are part of the Pro and Enterprise plans; this account is on the free plan');
    expect(page.body).not.toContain('action="/settings/developer/tokens"');
    expect(response.statusCode).toBe(403);
    const { tokens, accounts } = state.runtime.services;
    const annId = await accounts.userIdByEmail('ann@example.com');
    await expect(tokens.create({ userId: annId, name: 'cli', scopes: ['diagrams:read'] })).rejects.toMatchObject({ code: 'plan_required' });
    expect(await tokens.listForUser(annId)).toEqual([]);
  });

  it('lets a Pro account create tokens, which stop working while the account is back on free', async () => {
    const { accounts, tokens } = state.runtime.services;
    await accounts.setPlan({ email: 'ann@example.com', plan: 'pro' });
    const { response } = await createTokenInBrowser(state.runtime, 'ann@example.com');
    expect(response.statusCode).toBe(200);
    const secret = /id="token-secret">([^<]+)</.exec(response.body)![1]!;
    const call = () => state.runtime.app.inject({ url: '/api-v1/workspaces', headers: bearer(secret) });
    const mcp = () =>
      state.runtime.app.inject({
        method: 'POST',
        url: '/mcp',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...bearer(secret) },
        payload: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      });
    expect((await call()).statusCode).toBe(200);

    await accounts.setPlan({ email: 'ann@example.com', plan: 'free' });
    const refused = await call();
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.code).toBe('plan_required');
    expect(refused.json().error.message).toMatch(/^the API token "laptop" is valid but does not work now: .*free plan/);
    expect((await mcp()).statusCode).toBe(403);
    // Not revoked: back on a paid plan, the same token works again.
    expect((await tokens.listForUser(await accounts.userIdByEmail('ann@example.com')))[0]!.revokedAt).toBeNull();
    await accounts.setPlan({ email: 'ann@example.com', plan: 'enterprise' });
    expect((await call()).statusCode).toBe(200);
    expect((await mcp()).statusCode).toBe(200);
  });

  it('keeps guests from tokens even on a paid plan', async () => {
    await state.runtime.services.accounts.setPlan({ email: 'gus@example.com', plan: 'pro' });
    const { page, response } = await createTokenInBrowser(state.runtime, 'gus@example.com');
    expect(page.body).toContain('guests cannot use the API or MCP');
    expect(response.statusCode).toBe(403);
  });

  it('refuses an unknown plan from the operator', async () => {
    await expect(state.runtime.services.accounts.setPlan({ email: 'ann@example.com', plan: 'gold' as never })).rejects.toThrow('plan must be one of free, pro, enterprise, not "gold"');
  });
});

describe('self-hosted edition: every member may use the API, guests may not', () => {
  const state = useEdition('self-hosted');

  it('lets a member on the default (free) plan create tokens', async () => {
    const { page, response } = await createTokenInBrowser(state.runtime, 'ann@example.com');
    expect(page.body).not.toContain('You cannot create tokens.');
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('id="token-secret"');
  });

  it('shows a guest why not, refuses the form, and refuses a token pinned to a workspace where one is a guest', async () => {
    const { page, response } = await createTokenInBrowser(state.runtime, 'gus@example.com');
    expect(page.body).toContain('guests cannot use the API or MCP: ask a workspace owner to make you a member');
    expect(response.statusCode).toBe(403);

    const { accounts, tokens } = state.runtime.services;
    const gusId = await accounts.userIdByEmail('gus@example.com');
    const { workspaceId: own } = await accounts.createWorkspace({ email: 'gus@example.com', name: 'Gus own' });
    await expect(tokens.create({ userId: gusId, name: 'pinned', scopes: ['diagrams:read'], workspaceId: state.ownerWorkspace })).rejects.toMatchObject({ code: 'plan_required' });
    const mine = await tokens.create({ userId: gusId, name: 'own', scopes: ['diagrams:read'], workspaceId: own });
    expect((await state.runtime.app.inject({ url: '/api-v1/workspaces', headers: bearer(mine.token) })).statusCode).toBe(200);
    // Gus leaves his own workspace: a guest again, his token stops.
    await state.runtime.services.accounts.addMember({ workspaceId: own, email: 'ann@example.com', role: 'owner' });
    await state.runtime.services.accounts.removeMember({ workspaceId: own, email: 'gus@example.com' });
    const after = await state.runtime.app.inject({ url: '/api-v1/documents?workspace=' + own, headers: bearer(mine.token) });
    expect(after.statusCode).toBe(403);
    expect(after.json().error.code).toBe('plan_required');
  });
});
