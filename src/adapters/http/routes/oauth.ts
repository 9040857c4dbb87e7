import { InvalidRequestError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import { authorizationHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/authorize.js';
import { clientRegistrationHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/register.js';
import { revocationHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/revoke.js';
import { tokenHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/token.js';
import type { OAuthServerProvider } from '@modelcontextprotocol/sdk/server/auth/provider.js';
import express, { type Request, type Response } from 'express';
import type { FastifyPluginAsync } from 'fastify';
import { SCOPES } from '../../../core/scopes.js';
import type { Services } from '../../../service/index.js';
import type { OAuthService } from '../../../service/oauth.js';
import { sealConsentRequest } from '../../web/consent-request.js';

/** The authorization server's endpoints (RFC 8414 names them in its metadata). */
export const OAUTH_PATHS = { authorize: '/authorize', token: '/token', register: '/register', revoke: '/revoke', consent: '/oauth/consent' } as const;
export const AUTHORIZATION_SERVER_METADATA_PATH = '/.well-known/oauth-authorization-server';

/**
 * The MCP SDK's authorization-server handlers over our records (service/oauth.ts). The SDK validates the protocol
 * (parameters, redirect URI match with RFC 8252 loopback ports, PKCE S256, client authentication, error forms);
 * `authorize` hands the user to the consent page in the web app.
 */
function provider(oauth: OAuthService, services: Services): OAuthServerProvider {
  return {
    clientsStore: { getClient: (id) => oauth.getClient(id), registerClient: (client) => oauth.registerClient(client) },
    async authorize(client, params, res) {
      // OAuth 2.1 lets `state` be optional; we require it, as the MCP clients we serve all send one (CSRF defence).
      if (!params.state) throw new InvalidRequestError('state is required');
      oauth.checkResource(params.resource);
      const scopes = oauth.requestedScopes(params.scopes);
      const sealed = sealConsentRequest(services.sealer, { clientId: client.client_id, redirectUri: params.redirectUri, codeChallenge: params.codeChallenge, state: params.state, scopes });
      res.redirect(302, `${OAUTH_PATHS.consent}?request=${encodeURIComponent(sealed)}`);
    },
    challengeForAuthorizationCode: (client, code) => oauth.challengeFor(client.client_id, code),
    exchangeAuthorizationCode: (client, code, _verifier, redirectUri, resource) => oauth.exchangeCode(client.client_id, code, redirectUri, resource),
    exchangeRefreshToken: (client, refreshToken, scopes, resource) => oauth.refresh(client.client_id, refreshToken, scopes, resource),
    async verifyAccessToken(token) {
      // Not reached: /mcp authenticates through TokenService, like API tokens. Kept whole for the interface.
      const principal = await oauth.authenticate(token, 'mcp');
      return { token, clientId: principal.tokenId, scopes: [...principal.scopes] };
    },
    revokeToken: (client, request) => oauth.revokeToken(client.client_id, request.token),
  };
}

/**
 * Serves the authorization server on this service: metadata from Fastify, the protocol endpoints from the SDK's
 * Express handlers, handed the raw request before Fastify reads a body (they parse their own: forms and JSON).
 */
export const oauthRoutes: FastifyPluginAsync<{ services: Services; oauth: OAuthService; publicUrl: string; trustProxy: boolean | string }> = async (
  app,
  { services, oauth, publicUrl, trustProxy },
) => {
  const metadata = {
    issuer: publicUrl,
    authorization_endpoint: `${publicUrl}${OAUTH_PATHS.authorize}`,
    token_endpoint: `${publicUrl}${OAUTH_PATHS.token}`,
    registration_endpoint: `${publicUrl}${OAUTH_PATHS.register}`,
    revocation_endpoint: `${publicUrl}${OAUTH_PATHS.revoke}`,
    response_types_supported: ['code'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256'],
    // Public clients only: PKCE proves the caller, no client secret is issued.
    token_endpoint_auth_methods_supported: ['none'],
    revocation_endpoint_auth_methods_supported: ['none'],
    scopes_supported: [...SCOPES],
    // draft-ietf-oauth-client-id-metadata-document: an HTTPS URL may be the client_id.
    client_id_metadata_document_supported: true,
    authorization_response_iss_parameter_supported: true,
    service_documentation: `${publicUrl}/docs`,
  };
  app.get(AUTHORIZATION_SERVER_METADATA_PATH, { config: { public: true }, schema: { hide: true } }, async (_request, reply) =>
    reply.header('Access-Control-Allow-Origin', '*').header('Cache-Control', 'public, max-age=3600').send(metadata),
  );

  const sdk = express();
  sdk.set('trust proxy', trustProxy);
  sdk.disable('x-powered-by');
  const handlers = provider(oauth, services);
  sdk.use(OAUTH_PATHS.authorize, authorizationHandler({ provider: handlers }));
  sdk.use(OAUTH_PATHS.token, tokenHandler({ provider: handlers }));
  sdk.use(OAUTH_PATHS.register, clientRegistrationHandler({ clientsStore: handlers.clientsStore, clientIdGeneration: false }));
  sdk.use(OAUTH_PATHS.revoke, revocationHandler({ provider: handlers }));
  // In this plugin only: leave every body unread for the SDK's own parsers.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
  for (const path of [OAUTH_PATHS.authorize, OAUTH_PATHS.token, OAUTH_PATHS.register, OAUTH_PATHS.revoke]) {
    app.route({
      method: ['GET', 'POST', 'OPTIONS'],
      url: path,
      config: { public: true },
      schema: { hide: true },
      handler: (request, reply) => {
        reply.hijack();
        sdk(request.raw as Request, reply.raw as Response);
      },
    });
  }
};
