import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { apiAccess } from '../../../core/plans.js';
import { SCOPE_DESCRIPTIONS, SCOPES } from '../../../core/scopes.js';
import { TOKEN_EXPIRY_DAYS } from '../../../service/tokens.js';
import type { Services } from '../../../service/index.js';
import { clientConfigBlocks } from '../client-config.js';
import { page } from '../plugin.js';
import { principalOf } from '../session.js';
import { formError } from './account.js';
import { field, fields, type Form } from './forms.js';
import { seeOther } from '../redirect.js';

/** The new token's secret between the form's POST and the page's GET, sealed under the server key. */
const NEW_TOKEN_COOKIE = 'drawbridge_new_token';
const newTokenOwner = (userId: string) => `new-token:${userId}`;
/** Token lifetimes offered by the form (days); the service takes any whole number in TOKEN_EXPIRY_DAYS. */
const EXPIRY_CHOICES = [7, 30, 90, 365].filter((days) => days >= TOKEN_EXPIRY_DAYS.min && days <= TOKEN_EXPIRY_DAYS.max);

/** Settings → Developer: API tokens over the same TokenService the CLI uses. */
export const developerPages: FastifyPluginAsync<{ services: Services }> = async (app, { services }) => {
  const { tokens, diagrams } = services;

  const view = async (request: FastifyRequest, extra: Record<string, unknown> = {}) => {
    const user = request.web.user!;
    const [list, { items: workspaces }, account, grants] = await Promise.all([
      tokens.listForUser(user.id),
      diagrams.listWorkspaces(principalOf(user)),
      tokens.account(user.id),
      services.oauth?.listGrants(user.id),
    ]);
    const names = new Map(workspaces.map((w) => [w.id, w.name]));
    const named = list.map((t) => ({ ...t, workspaceName: t.workspaceId ? (names.get(t.workspaceId) ?? t.workspaceId) : null })).reverse();
    return page(request, 'Developer', {
      // Revoked tokens are history: listed apart, folded away, so the main list is what still works.
      tokens: named.filter((t) => t.revokedAt === null),
      revokedTokens: named.filter((t) => t.revokedAt !== null),
      // Connected apps (OAuth): absent with OAUTH=off; revoked ones are gone from the list, as they can do nothing.
      apps: grants?.filter((g) => g.revokedAt === null).map((g) => ({ ...g, workspaceName: g.workspaceId ? (names.get(g.workspaceId) ?? g.workspaceId) : null })),
      expiryChoices: EXPIRY_CHOICES,
      workspaces: workspaces.filter((w) => w.role !== 'guest'),
      access: apiAccess(services.edition, account),
      scopes: SCOPES.map((scope) => ({ scope, description: SCOPE_DESCRIPTIONS[scope] })),
      values: { scopes: ['diagrams:read', 'diagrams:write'] },
      publicUrl: services.publicUrl,
      ...extra,
    });
  };

  app.get('/settings/developer', async (request, reply) => {
    const query = request.query as Form;
    const revoked = query.revoked;
    if (typeof revoked === 'string') return reply.view('developer.eta', await view(request, { notice: `Token "${revoked}" revoked: requests with it now get 401.` }));
    const disconnected = query.disconnected;
    if (typeof disconnected === 'string') return reply.view('developer.eta', await view(request, { notice: `"${disconnected}" disconnected: its tokens now get 401.` }));
    const createdId = field(query, 'created');
    if (createdId) {
      // The secret crossed the redirect sealed in a cookie that is read once: a reload shows the page without it.
      const sealed = request.cookies[NEW_TOKEN_COOKIE];
      reply.clearCookie(NEW_TOKEN_COOKIE, { path: '/settings/developer' });
      const created = openNewToken(sealed, request.web.user!.id);
      const info = (await tokens.listForUser(request.web.user!.id)).find((t) => t.id === createdId);
      if (created && info && created.id === createdId) {
        return reply.view('developer.eta', await view(request, { created: { ...info, token: created.token }, blocks: clientConfigBlocks(services.publicUrl, created.token) }));
      }
      if (info) return reply.view('developer.eta', await view(request, { notice: `Token "${info.name}" was created; its secret was shown once and is not kept. Revoke it and create another if it was not copied.` }));
    }
    return reply.view('developer.eta', await view(request));
  });

  /** Post, redirect, get: a reload of the page that shows the new token never offers to send the form again. */
  app.post('/settings/developer/tokens', async (request, reply) => {
    const body = request.body as Form;
    const values = { name: field(body, 'name'), scopes: fields(body, 'scopes'), workspaceId: field(body, 'workspaceId'), expires: field(body, 'expires') };
    try {
      const expiresInDays = values.expires ? Number(values.expires) : null;
      const created = await tokens.create({ userId: request.web.user!.id, name: values.name, scopes: values.scopes, workspaceId: values.workspaceId || null, expiresInDays });
      const sealed = services.sealer.seal(JSON.stringify({ id: created.id, token: created.token }), newTokenOwner(request.web.user!.id));
      reply.setCookie(NEW_TOKEN_COOKIE, sealed, { path: '/settings/developer', httpOnly: true, sameSite: 'strict', secure: request.web.secure, maxAge: 300 });
      return seeOther(reply, `/settings/developer?created=${encodeURIComponent(created.id)}`);
    } catch (error) {
      return formError(request, reply, error, 'developer.eta', 'Developer', await view(request, { values }));
    }
  });

  function openNewToken(sealed: string | undefined, userId: string): { id: string; token: string } | undefined {
    if (!sealed) return undefined;
    try {
      return JSON.parse(services.sealer.open(sealed, newTokenOwner(userId))) as { id: string; token: string };
    } catch {
      return undefined;
    }
  }

  app.get('/settings/developer/tokens/:id/revoke', async (request, reply) => {
    const token = (await tokens.listForUser(request.web.user!.id)).find((t) => t.id === (request.params as { id: string }).id && t.revokedAt === null);
    if (!token) return seeOther(reply, '/settings/developer');
    return reply.view('revoke.eta', page(request, 'Revoke token', { token }));
  });

  app.post('/settings/developer/tokens/:id/revoke', async (request, reply) => {
    const revoked = await tokens.revoke((request.params as { id: string }).id, request.web.user!.id);
    return seeOther(reply, `/settings/developer?revoked=${encodeURIComponent(revoked.name)}`);
  });

  /** Revoke on a connected app: its grant ends, and with it every token it holds, from the next request on. */
  app.post('/settings/developer/apps/:id/revoke', async (request, reply) => {
    if (!services.oauth) return seeOther(reply, '/settings/developer');
    const revoked = await services.oauth.revokeGrant((request.params as { id: string }).id, request.web.user!.id);
    return seeOther(reply, `/settings/developer?disconnected=${encodeURIComponent(revoked.clientName)}`);
  });
};
