import type { FastifyPluginAsync } from 'fastify';
import type { Services } from '../../../service/index.js';
import { page } from '../plugin.js';
import { principalOf } from '../session.js';
import { formError } from './account.js';
import { field, type Form } from './forms.js';

/** Workspaces and their members. */
export const workspacePages: FastifyPluginAsync<{ services: Services }> = async (app, { services }) => {
  const { diagrams, accounts } = services;

  const listView = async (request: Parameters<typeof page>[0], extra: Record<string, unknown> = {}) =>
    page(request, 'Workspaces', { workspaces: (await diagrams.listWorkspaces(principalOf(request.web.user!))).items, values: {}, ...extra });

  app.get('/workspaces', async (request, reply) => reply.view('workspaces.eta', await listView(request)));

  app.post('/workspaces', async (request, reply) => {
    const name = field(request.body as Form, 'name').trim();
    try {
      const { workspaceId } = await accounts.createWorkspace({ email: request.web.user!.email, name });
      return reply.redirect(`/workspaces/${workspaceId}`, 303);
    } catch (error) {
      return formError(request, reply, error, 'workspaces.eta', 'Workspaces', await listView(request, { values: { name } }));
    }
  });
};
