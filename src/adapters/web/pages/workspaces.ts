import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { canManageMembers, ROLES } from '../../../core/scopes.js';
import type { Services } from '../../../service/index.js';
import { page } from '../plugin.js';
import { principalOf } from '../session.js';
import { formError } from './account.js';
import { checkName, field, type Form, noticeOf } from './forms.js';
import { seeOther } from '../redirect.js';

/** Workspaces and their members. */
export const workspacePages: FastifyPluginAsync<{ services: Services }> = async (app, { services }) => {
  const { diagrams, accounts } = services;

  const listView = async (request: Parameters<typeof page>[0], extra: Record<string, unknown> = {}) =>
    page(request, 'Workspaces', { workspaces: (await diagrams.listWorkspaces(principalOf(request.web.user!))).items, values: {}, ...extra });

  app.get('/workspaces', async (request, reply) => reply.view('workspaces.eta', await listView(request)));

  app.post('/workspaces', async (request, reply) => {
    const name = field(request.body as Form, 'name').trim();
    try {
      const { workspaceId } = await accounts.createWorkspace({ email: request.web.user!.email, name: checkName(name) });
      return seeOther(reply, `/workspaces/${workspaceId}`);
    } catch (error) {
      return formError(request, reply, error, 'workspaces.eta', 'Workspaces', await listView(request, { values: { name } }));
    }
  });
};

/** Members of one workspace: invitations by link, roles, removal, leaving. */
export const memberPages: FastifyPluginAsync<{ services: Services }> = async (app, { services }) => {
  const { members } = services;
  type Params = { id: string };

  const view = async (request: FastifyRequest, extra: Record<string, unknown> = {}) => {
    const user = request.web.user!;
    const workspaceId = (request.params as Params).id;
    const [workspace, list] = await Promise.all([members.workspace(user.id, workspaceId), members.list(user.id, workspaceId)]);
    return page(request, `Members · ${workspace.name}`, {
      workspace,
      ...list,
      manage: canManageMembers(workspace.role),
      roles: ROLES.filter((r) => r !== 'owner' || workspace.role === 'owner'),
      allRoles: ROLES,
      values: { role: 'editor' },
      ...extra,
    });
  };
  const done = (request: FastifyRequest, message: string) => `/workspaces/${(request.params as Params).id}/members?notice=${encodeURIComponent(message)}`;

  app.get('/workspaces/:id/members', async (request, reply) => {
    return reply.view('members.eta', await view(request, noticeOf(request.query)));
  });

  app.post('/workspaces/:id/invites', async (request, reply) => {
    const body = request.body as Form;
    const values = { email: field(body, 'email'), role: field(body, 'role') };
    try {
      const invite = await members.invite(request.web.user!.id, { workspaceId: (request.params as Params).id, ...values });
      return reply.code(201).view('members.eta', await view(request, { invite: { ...invite, url: `${services.publicUrl}/invites/${invite.token}` } }));
    } catch (error) {
      return formError(request, reply, error, 'members.eta', 'Members', await view(request, { values }));
    }
  });

  app.post('/workspaces/:id/invites/withdraw', async (request, reply) => {
    try {
      const { email } = await members.withdrawInvite(request.web.user!.id, { workspaceId: (request.params as Params).id, inviteId: field(request.body as Form, 'invite') });
      return seeOther(reply, done(request, `The invitation for ${email} was withdrawn; its link no longer works.`));
    } catch (error) {
      return formError(request, reply, error, 'members.eta', 'Members', await view(request));
    }
  });

  app.post('/workspaces/:id/members/role', async (request, reply) => {
    const body = request.body as Form;
    try {
      await members.setRole(request.web.user!.id, { workspaceId: (request.params as Params).id, email: field(body, 'email'), role: field(body, 'role') });
      return seeOther(reply, done(request, `${field(body, 'email')} is now ${field(body, 'role')}.`));
    } catch (error) {
      return formError(request, reply, error, 'members.eta', 'Members', await view(request));
    }
  });

  app.post('/workspaces/:id/members/remove', async (request, reply) => {
    const email = field(request.body as Form, 'email');
    try {
      await members.remove(request.web.user!.id, { workspaceId: (request.params as Params).id, email });
      return seeOther(reply, done(request, `${email} was removed; their tokens no longer see this workspace.`));
    } catch (error) {
      return formError(request, reply, error, 'members.eta', 'Members', await view(request));
    }
  });

  app.post('/workspaces/:id/leave', async (request, reply) => {
    try {
      await members.leave(request.web.user!.id, (request.params as Params).id);
      return seeOther(reply, '/workspaces');
    } catch (error) {
      return formError(request, reply, error, 'members.eta', 'Members', await view(request));
    }
  });
};
