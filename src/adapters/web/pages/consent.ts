import type { OAuthClientInformationFull } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../../core/errors.js';
import { apiAccess } from '../../../core/plans.js';
import { SCOPE_DESCRIPTIONS } from '../../../core/scopes.js';
import type { Services } from '../../../service/index.js';
import type { OAuthService } from '../../../service/oauth.js';
import { type ConsentRequest, openConsentRequest } from '../consent-request.js';
import { PAGE_CSP, page } from '../plugin.js';
import { toOAuthClient } from '../redirect.js';
import { principalOf } from '../session.js';
import { formError } from './account.js';
import { field, fields, type Form } from './forms.js';

/**
 * The consent page an OAuth client sends the user to (routes/oauth.ts): who asks, where the answer goes, which
 * scopes and workspace to allow. Signed-in only (the sign-in page brings the user back here); framing is refused
 * like every page (frame-ancestors 'none', X-Frame-Options DENY), and the form carries the session's CSRF token.
 */
export const consentPages: FastifyPluginAsync<{ services: Services; oauth: OAuthService }> = async (app, { services, oauth }) => {
  const view = async (request: FastifyRequest, reply: FastifyReply, consent: ConsentRequest, sealed: string, extra: Record<string, unknown> = {}) => {
    const client = await knownClient(oauth, consent.clientId);
    const user = request.web.user!;
    const [{ items: workspaces }, account] = await Promise.all([services.diagrams.listWorkspaces(principalOf(user)), services.tokens.account(user.id)]);
    const redirect = new URL(consent.redirectUri);
    const logo = client.logo_uri && /^https:\/\//.test(client.logo_uri) ? client.logo_uri : undefined;
    // The answer is a redirect to the client after this form's POST, which form-action governs too; the logo is
    // the client's own image. Both are let in for this page only.
    reply.header('Content-Security-Policy', consentPolicy(redirect, logo));
    return page(request, `Connect ${client.client_name ?? 'an app'}`, {
      client: { name: client.client_name ?? client.client_id, id: client.client_id, uri: client.client_uri, logo },
      redirectHost: redirect.host || redirect.protocol,
      request: sealed,
      access: apiAccess(services.edition, account),
      scopes: consent.scopes.map((scope) => ({ scope, description: SCOPE_DESCRIPTIONS[scope] })),
      workspaces: workspaces.filter((w) => w.role !== 'guest'),
      values: { scopes: consent.scopes },
      ...extra,
    });
  };

  app.get('/oauth/consent', async (request, reply) => {
    const sealed = field(request.query as Form, 'request');
    const consent = openConsentRequest(services.sealer, sealed);
    return reply.view('consent.eta', await view(request, reply, consent, sealed));
  });

  app.post('/oauth/consent', async (request, reply) => {
    const body = request.body as Form;
    const sealed = field(body, 'request');
    const consent = openConsentRequest(services.sealer, sealed);
    const client = await knownClient(oauth, consent.clientId);
    if (field(body, 'decision') !== 'approve') return toOAuthClient(reply, consent.redirectUri, { error: 'access_denied', state: consent.state, iss: services.publicUrl });
    // Only what the client asked for may be granted; the user may narrow it.
    const scopes = fields(body, 'scopes').filter((s) => consent.scopes.includes(s as never));
    const workspaceId = field(body, 'workspaceId') || null;
    try {
      const code = await oauth.approve({ userId: request.web.user!.id, client, scopes, workspaceId, redirectUri: consent.redirectUri, codeChallenge: consent.codeChallenge });
      return toOAuthClient(reply, consent.redirectUri, { code, state: consent.state, iss: services.publicUrl });
    } catch (error) {
      return formError(request, reply, error, 'consent.eta', 'Connect an app', await view(request, reply, consent, sealed, { values: { scopes, workspaceId } }));
    }
  });
};

async function knownClient(oauth: OAuthService, clientId: string): Promise<OAuthClientInformationFull> {
  let client: OAuthClientInformationFull | undefined;
  try {
    client = await oauth.getClient(clientId);
  } catch (error) {
    throw new AppError('validation_failed', (error as Error).message);
  }
  if (!client) throw new AppError('not_found', `the app ${clientId} is not registered here: start connecting from your AI client again`);
  return client;
}

function consentPolicy(redirect: URL, logo: string | undefined): string {
  const target = redirect.protocol === 'http:' || redirect.protocol === 'https:' ? redirect.origin : redirect.protocol;
  return PAGE_CSP.replace("form-action 'self'", `form-action 'self' ${target}`).replace("img-src 'self' data:", `img-src 'self' data:${logo ? ` ${new URL(logo).origin}` : ''}`);
}
