import type { FastifyPluginAsync } from 'fastify';
import type { Services } from '../../../service/index.js';
import { PASSWORD_LENGTH } from '../../../service/sign-in.js';
import { page } from '../plugin.js';
import { setSessionCookie } from '../session.js';
import { formError } from './account.js';
import { field, type Form } from './forms.js';
import { seeOther } from '../redirect.js';

/**
 * Opening an invitation link: signed in as the invited email, one button joins; without an account, a short form
 * creates one (the email is the invitation's) and joins; with an account, sign in first and come back.
 */
export const invitePages: FastifyPluginAsync<{ services: Services }> = async (app, { services }) => {
  const { members, accounts, signIn } = services;
  type Params = { token: string };

  const view = async (token: string, request: Parameters<typeof page>[0], extra: Record<string, unknown> = {}) => {
    const invite = await members.lookupInvite(token);
    const hasAccount = await accounts.userIdByEmail(invite.email).then(() => true, () => false);
    return page(request, `Join ${invite.workspaceName}`, { invite, token, hasAccount, minPassword: PASSWORD_LENGTH.min, values: {}, ...extra });
  };

  app.get('/invites/:token', async (request, reply) => reply.view('invite.eta', await view((request.params as Params).token, request)));

  app.post('/invites/:token', async (request, reply) => {
    const { token } = request.params as Params;
    const body = request.body as Form;
    try {
      let userId = request.web.user?.id;
      if (!userId) {
        // A new account through the invitation: the invitation vouches for the email; no workspace of its own.
        const invite = await members.lookupInvite(token);
        const { secret, session } = await signIn.register({ email: invite.email, name: field(body, 'name'), password: field(body, 'password') });
        setSessionCookie(reply, request.web.secure, secret, session.expiresAt);
        userId = session.userId;
      }
      const { workspaceId } = await members.accept(token, userId);
      return seeOther(reply, `/workspaces/${workspaceId}`);
    } catch (error) {
      return formError(request, reply, error, 'invite.eta', 'Join', await view(token, request, { values: { name: field(body, 'name') } }));
    }
  });
};
