import type { FastifyReply, FastifyRequest } from 'fastify';
import { SCOPES } from '../../core/scopes.js';
import { randomBase62 } from '../../service/ids.js';
import type { Services } from '../../service/index.js';
import type { Principal } from '../../service/principal.js';
import { csrfMatches, type Session, SESSION_IDLE_MS } from '../../service/sessions.js';
import { seeOther } from './redirect.js';

export interface WebUser {
  id: string;
  email: string;
  name: string;
  plan: string;
}

export interface WebContext {
  user: WebUser | undefined;
  session: Session | undefined;
  /** The cookie's secret, to end this session or keep it when the password changes. */
  secret: string | undefined;
  /** The token every form of this page carries: the session's, or before sign-in the anonymous cookie's. */
  csrf: string;
  /** Whether cookies get the Secure flag (PUBLIC_URL is https). */
  secure: boolean;
}

/** `__Host-` names need Secure; on plain HTTP (a laptop) the plain name. */
const cookieNames = (secure: boolean) =>
  secure ? { session: '__Host-drawbridge_session', csrf: '__Host-drawbridge_csrf' } : { session: 'drawbridge_session', csrf: 'drawbridge_csrf' };

/** A signed-in person acts through the same service calls a token does, with every scope and no workspace pin. */
export const principalOf = (user: WebUser): Principal => ({ tokenId: 'web-session', userId: user.id, scopes: SCOPES, workspaceId: null, door: 'web' });

export async function loadSession(services: Services, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const secure = services.publicUrl.startsWith('https:');
  const names = cookieNames(secure);
  const secret = request.cookies[names.session];
  const session = await services.sessions.resolve(secret);
  const user = session ? await services.accounts.getUser(session.userId) : undefined;
  let csrf = session?.csrfToken;
  if (session && user) {
    // The cookie's life follows the session's sliding expiry.
    setSessionCookie(reply, secure, secret!, session.expiresAt);
  } else {
    if (secret) reply.clearCookie(names.session, { path: '/' });
    // Before sign-in, forms carry a double-submit token: a cookie another site cannot read or set (SameSite=Strict).
    csrf = request.cookies[names.csrf];
    if (!csrf || !/^[0-9A-Za-z]{32}$/.test(csrf)) {
      csrf = randomBase62(32);
      reply.setCookie(names.csrf, csrf, { path: '/', httpOnly: true, sameSite: 'strict', secure });
    }
  }
  request.web = { user: session && user, session: user && session, secret: user && secret, csrf: csrf!, secure };
}

export function setSessionCookie(reply: FastifyReply, secure: boolean, secret: string, expiresAt: string): void {
  reply.setCookie(cookieNames(secure).session, secret, { path: '/', httpOnly: true, sameSite: 'lax', secure, expires: new Date(expiresAt), maxAge: SESSION_IDLE_MS / 1000 });
}

export function clearSessionCookie(reply: FastifyReply, secure: boolean): void {
  reply.clearCookie(cookieNames(secure).session, { path: '/', httpOnly: true, sameSite: 'lax', secure });
}

/**
 * Every write carries the page's token: a form in `_csrf`, the editor's fetch calls in an `X-CSRF-Token` header.
 * Without it, or with another, nothing happens (403).
 */
export async function checkCsrf(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const sent = request.headers['x-csrf-token'] ?? (request.body as Record<string, unknown> | undefined)?._csrf;
  if (csrfMatches(request.web.csrf, sent)) return;
  reply.code(403);
  return reply.view('error.eta', {
    title: 'Form refused',
    user: request.web.user,
    csrf: request.web.csrf,
    path: request.url,
    status: 403,
    message: 'This form did not carry its security token (it may be from an old tab, or from another site). Reload the page and send it again.',
  });
}

/** Pages for people: without a session, to sign-in, and back here afterwards. */
export async function requireUser(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  if (request.web.user) return;
  const next = request.method === 'GET' ? `?next=${encodeURIComponent(request.url)}` : '';
  return seeOther(reply, `/sign-in${next}`);
}
