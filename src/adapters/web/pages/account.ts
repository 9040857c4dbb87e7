import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { isAppError } from '../../../core/errors.js';
import type { Services } from '../../../service/index.js';
import { PASSWORD_LENGTH } from '../../../service/sign-in.js';
import { HTTP_STATUS } from '../../http/errors.js';
import { page, showError } from '../plugin.js';
import { sameSitePath, seeOther } from '../redirect.js';
import { clearSessionCookie, requireUser, setSessionCookie } from '../session.js';
import { field, type Form } from './forms.js';

/** First run, sign-in, sign-out and the account page. */
export const accountPages: FastifyPluginAsync<{ services: Services }> = async (app, { services }) => {
  const { signIn, sessions } = services;

  app.get('/', async (request, reply) => {
    if (await signIn.needsSetup()) return seeOther(reply, '/setup');
    return seeOther(reply, request.web.user ? '/workspaces' : '/sign-in');
  });

  // The setup page exists only while the install has no user; afterwards it is a 404 like any unknown page.
  app.get('/setup', async (request, reply) => {
    if (!(await signIn.needsSetup())) return seeOther(reply, request.web.user ? '/workspaces' : '/sign-in');
    return reply.view('setup.eta', page(request, 'Set up', { values: {}, minPassword: PASSWORD_LENGTH.min }));
  });
  app.post('/setup', async (request, reply) => {
    const body = request.body as Form;
    const values = { name: field(body, 'name'), email: field(body, 'email'), workspace: field(body, 'workspace') };
    try {
      const { secret, session } = await signIn.setUp({ name: values.name, email: values.email, password: field(body, 'password'), workspaceName: values.workspace });
      setSessionCookie(reply, request.web.secure, secret, session.expiresAt);
      return seeOther(reply, '/workspaces');
    } catch (error) {
      return formError(request, reply, error, 'setup.eta', 'Set up', { values, minPassword: PASSWORD_LENGTH.min });
    }
  });

  app.get('/sign-in', async (request, reply) => {
    if (await signIn.needsSetup()) return seeOther(reply, '/setup');
    if (request.web.user) return seeOther(reply, sameSitePath((request.query as Form).next));
    return reply.view('sign-in.eta', page(request, 'Sign in', { values: {}, next: sameSitePath((request.query as Form).next) }));
  });
  app.post('/sign-in', async (request, reply) => {
    const body = request.body as Form;
    const next = sameSitePath(body.next);
    try {
      const { secret, session } = await signIn.signIn({ email: field(body, 'email'), password: field(body, 'password'), address: request.ip });
      // A fresh session (new secret) at every sign-in: a cookie planted before sign-in is worth nothing after it.
      if (request.web.secret) await sessions.end(request.web.secret);
      setSessionCookie(reply, request.web.secure, secret, session.expiresAt);
      return seeOther(reply, next);
    } catch (error) {
      return formError(request, reply, error, 'sign-in.eta', 'Sign in', { values: { email: field(body, 'email') }, next });
    }
  });

  app.post('/sign-out', async (request, reply) => {
    if (request.web.secret) await sessions.end(request.web.secret);
    clearSessionCookie(reply, request.web.secure);
    return seeOther(reply, '/sign-in');
  });

  app.get('/settings/password', { preHandler: requireUser }, async (request, reply) =>
    reply.view('password.eta', page(request, 'Account', { minPassword: PASSWORD_LENGTH.min })),
  );
  app.post('/settings/password', { preHandler: requireUser }, async (request, reply) => {
    const body = request.body as Form;
    try {
      await signIn.changePassword({ userId: request.web.user!.id, current: field(body, 'current'), next: field(body, 'next'), keepSecret: request.web.secret! });
      return reply.view('password.eta', page(request, 'Account', { minPassword: PASSWORD_LENGTH.min, notice: 'Password changed. Other browsers signed in as you have been signed out.' }));
    } catch (error) {
      return formError(request, reply, error, 'password.eta', 'Account', { minPassword: PASSWORD_LENGTH.min });
    }
  });
};

/**
 * A refused form is shown again with the reason and what was typed (never a password), with the error's status;
 * anything that is not the person's mistake goes to the error page.
 */
export function formError(request: FastifyRequest, reply: FastifyReply, error: unknown, view: string, title: string, data: Record<string, unknown>) {
  if (!isAppError(error) || error.code === 'internal' || error.code === 'not_found') return showError(error, request, reply);
  const status = HTTP_STATUS[error.code];
  if (error.code === 'rate_limited') reply.header('Retry-After', (error.details as { rate: { resetSeconds: number } }).rate.resetSeconds);
  return reply.code(status).view(view, page(request, title, { ...data, error: error.message }));
}
