import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { apiAccess } from '../../../core/plans.js';
import { SCOPE_DESCRIPTIONS, SCOPES } from '../../../core/scopes.js';
import type { Services } from '../../../service/index.js';
import { clientConfigBlocks } from '../client-config.js';
import { page } from '../plugin.js';
import { principalOf } from '../session.js';
import { formError } from './account.js';
import { field, fields, type Form } from './forms.js';
import { seeOther } from '../redirect.js';

/** Settings → Developer: API tokens over the same TokenService the CLI uses. */
export const developerPages: FastifyPluginAsync<{ services: Services }> = async (app, { services }) => {
  const { tokens, diagrams } = services;

  const view = async (request: FastifyRequest, extra: Record<string, unknown> = {}) => {
    const user = request.web.user!;
    const [list, { items: workspaces }, account] = await Promise.all([tokens.listForUser(user.id), diagrams.listWorkspaces(principalOf(user)), tokens.account(user.id)]);
    const names = new Map(workspaces.map((w) => [w.id, w.name]));
    return page(request, 'Developer', {
      tokens: list.map((t) => ({ ...t, workspaceName: t.workspaceId ? (names.get(t.workspaceId) ?? t.workspaceId) : null })).reverse(),
      workspaces: workspaces.filter((w) => w.role !== 'guest'),
      access: apiAccess(services.edition, account),
      scopes: SCOPES.map((scope) => ({ scope, description: SCOPE_DESCRIPTIONS[scope] })),
      values: { scopes: ['diagrams:read', 'diagrams:write'] },
      publicUrl: services.publicUrl,
      ...extra,
    });
  };

  app.get('/settings/developer', async (request, reply) => {
    const revoked = (request.query as Form).revoked;
    return reply.view('developer.eta', await view(request, typeof revoked === 'string' ? { notice: `Token "${revoked}" revoked: requests with it now get 401.` } : {}));
  });

  app.post('/settings/developer/tokens', async (request, reply) => {
    const body = request.body as Form;
    const values = { name: field(body, 'name'), scopes: fields(body, 'scopes'), workspaceId: field(body, 'workspaceId') };
    try {
      const created = await tokens.create({ userId: request.web.user!.id, name: values.name, scopes: values.scopes, workspaceId: values.workspaceId || null });
      return reply.code(201).view('developer.eta', await view(request, { created, blocks: clientConfigBlocks(services.publicUrl, created.token) }));
    } catch (error) {
      return formError(request, reply, error, 'developer.eta', 'Developer', await view(request, { values }));
    }
  });

  app.get('/settings/developer/tokens/:id/revoke', async (request, reply) => {
    const token = (await tokens.listForUser(request.web.user!.id)).find((t) => t.id === (request.params as { id: string }).id && t.revokedAt === null);
    if (!token) return seeOther(reply, '/settings/developer');
    return reply.view('revoke.eta', page(request, 'Revoke token', { token }));
  });

  app.post('/settings/developer/tokens/:id/revoke', async (request, reply) => {
    const revoked = await tokens.revoke((request.params as { id: string }).id, request.web.user!.id);
    return seeOther(reply, `/settings/developer?revoked=${encodeURIComponent(revoked.name)}`);
  });
};
