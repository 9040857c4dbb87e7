import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import FindMyWay, { type HTTPMethod } from 'find-my-way';
import { LIMITS } from '../../core/limits.js';
import { OPERATION_COSTS, type Operation } from '../../service/costs.js';
import type { Metrics } from '../../infra/metrics.js';
import { randomBase62 } from '../../service/ids.js';
import type { Services } from '../../service/index.js';
import type { Door, Principal } from '../../service/principal.js';
import { mcpRoutes } from '../mcp/route.js';
import { errorBody, setRateHeaders, toErrorResponse } from './errors.js';
import { API_PREFIX, apiRoutes } from './routes/api.js';
import { publicIconRoutes } from './routes/catalog.js';
import { publicRenderRoutes } from './routes/render.js';
import { healthRoutes } from './routes/health.js';
import { MCP_PATH, protectedResourceRoutes, resourceMetadataUrl } from './routes/protected-resource.js';
import { metricsRoutes } from './routes/metrics.js';
import { oauthRoutes } from './routes/oauth.js';
import { notFoundPage, PAGE_CSP, wantsPage, webApp } from '../web/plugin.js';
import { completeOpenApi } from './openapi.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Routes anyone may call without a token (health, docs, public renders). */
    public?: boolean;
    /** What the route costs from the token's budget (OPERATION_COSTS); `call` when absent. */
    operation?: Operation;
    /** The handler charges the budget itself once it has read the body (MCP: a unit per JSON-RPC message). */
    chargedByHandler?: boolean;
    /** The door the version history records for writes made through this route; `rest` when absent. */
    door?: Door;
  }
  interface FastifyRequest {
    principal: Principal;
    /** Units this request was charged as it came in (0 for public routes and MCP, which charges per message). */
    charged: number;
  }
}

export interface AppDependencies {
  services: Services;
  /** Readiness: resolves when the database answers. */
  checkReady: () => Promise<void>;
  publicUrl: string;
  metrics: Metrics;
  /** The scraper's bearer token for /metrics; the route is off without one. */
  metricsToken?: string | undefined;
  /** Fastify's trustProxy (TRUST_PROXY): behind a proxy, the client address comes from X-Forwarded-For. */
  trustProxy?: boolean | string;
  /** pino level; no logger when absent (tests). */
  logLevel?: string;
  /** OAUTH: `/mcp` as an OAuth protected resource (metadata, and 401s that point to it). */
  oauth?: boolean;
}

/** Keeps secrets out of logs: share tokens travel in query strings (`?token=`), API tokens only in headers (never logged). */
const redactUrl = (url: string) => url.replace(/([?&]token=)[^&]*/gi, '$1[redacted]');

export async function buildApp(deps: AppDependencies): Promise<FastifyInstance> {
  // Request ids: a random instance part plus a counter, unique across instances without a CSPRNG call per request.
  const instance = randomBase62(8);
  let requests = 0;
  const app = Fastify({
    logger: deps.logLevel
      ? { level: deps.logLevel, serializers: { req: (req) => ({ method: req.method, url: redactUrl(req.url), reqId: req.id }) } }
      : false,
    bodyLimit: LIMITS.requestBodyBytes,
    trustProxy: deps.trustProxy ?? false,
    genReqId: () => `req_${instance}${(++requests).toString(36)}`,
    routerOptions: { ignoreTrailingSlash: true },
    // The router's own refusals (a path parameter over 100 characters, a malformed URL) in our error form too.
    frameworkErrors: (error, _request, reply) => {
      const message =
        error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 'a path parameter is longer than 100 characters: no id is that long' : `the URL is not valid: ${error.message}`;
      return (reply as FastifyReply).code(400).send(errorBody('bad_request', message));
    },
  });
  // JSON everywhere: Fastify's default text/plain parser would let a text body reach validation instead of 415.
  app.removeContentTypeParser('text/plain');
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorateRequest('principal', null as unknown as Principal);
  app.decorateRequest('charged', 0);

  app.addHook('onRequest', async (request, reply) => {
    reply.header('X-Request-Id', request.id);
    const config = request.routeOptions.config;
    if (config.public || !request.routeOptions.url) return;
    const door = config.door ?? 'rest';
    if (config.chargedByHandler) {
      request.principal = await deps.services.tokens.authenticate(request.headers.authorization, door);
      return;
    }
    const units = OPERATION_COSTS[config.operation ?? 'call'];
    const { principal, rate } = await deps.services.admit(request.headers.authorization, units, door);
    request.principal = principal;
    request.charged = units;
    setRateHeaders(reply, rate);
  });
  const mcpResourceMetadata = deps.oauth ? resourceMetadataUrl(deps.publicUrl) : undefined;
  app.setErrorHandler((error, request, reply) =>
    toErrorResponse(error, request, reply, request.routeOptions.url === MCP_PATH ? mcpResourceMetadata : undefined),
  );
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    deps.metrics.recordRequest(route, request.method, reply.statusCode, reply.elapsedTime / 1000);
    if (reply.statusCode === 429) deps.metrics.recordRefusal(request.routeOptions.config.public ? 'address' : 'token');
    // A refusal (bad body, wrong media type, no scope or role, not found, stale version) costs nothing: it is no
    // dearer than the 401 anyone may send. 429 gave its units back already; 5xx and AI provider errors stay paid.
    if (request.charged > 0 && reply.statusCode >= 400 && reply.statusCode < 500 && reply.statusCode !== 429) {
      await deps.services.refund(request.principal, request.charged);
    }
  });

  // Public routes say so in the OpenAPI document too, instead of inheriting the global bearer requirement.
  app.addHook('onRoute', (route) => {
    if (route.config?.public && route.schema) route.schema = { ...route.schema, security: [] };
  });

  // Wrong method on a known path is 405 with Allow, not 404: a second router holds every route to tell them apart.
  const knownRoutes = FindMyWay({ ignoreTrailingSlash: true });
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      if (method !== 'HEAD') knownRoutes.on(method as HTTPMethod, route.url, () => undefined);
    }
  });
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0]!;
    const allowed = (['GET', 'POST', 'PATCH', 'PUT', 'DELETE'] as const).filter((m) => knownRoutes.find(m, path));
    // A route that takes this very method and still found nothing (a missing static file) is a plain 404.
    const method = request.method === 'HEAD' ? 'GET' : request.method;
    if (allowed.length > 0 && !allowed.some((m) => m === method)) {
      reply.header('Allow', allowed.join(', '));
      return reply.code(405).send(errorBody('method_not_allowed', `${request.method} is not allowed on ${path}; use ${allowed.join(', ')}`));
    }
    if (wantsPage(request)) return notFoundPage(request, reply);
    return reply.code(404).send(errorBody('not_found', `no route ${request.method} ${path}`));
  });

  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Drawbridge API', version: '1', description: 'Diagrams as data: REST under /api-v1, MCP at /mcp.' },
      servers: [{ url: deps.publicUrl }],
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'drb_live_… API token' } } },
      security: [{ bearer: [] }],
    },
    transform: jsonSchemaTransform,
    transformObject: (documents) => ('openapiObject' in documents ? completeOpenApi(documents.openapiObject) : documents.swaggerObject),
  });
  app.addHook('onRoute', (route) => {
    if (route.url.startsWith('/docs')) route.config = { ...route.config, public: true };
  });
  await app.register(fastifySwaggerUi, {
    routePrefix: '/docs',
    // BaseLayout: without the standalone top bar, whose logo is an SVG with an inline <style> the CSP would refuse.
    uiConfig: { validatorUrl: null, layout: 'BaseLayout' },
    // The pages' own policy (no inline script or style, nothing from elsewhere), not the plugin's looser default.
    staticCSP: PAGE_CSP,
  });

  await app.register(healthRoutes, { checkReady: deps.checkReady });
  if (deps.oauth) await app.register(protectedResourceRoutes, { publicUrl: deps.publicUrl });
  if (deps.oauth && deps.services.oauth) {
    await app.register(oauthRoutes, { services: deps.services, oauth: deps.services.oauth, publicUrl: deps.publicUrl, trustProxy: deps.trustProxy ?? false });
  }
  await app.register(metricsRoutes, { metrics: deps.metrics, token: deps.metricsToken });
  await app.register(apiRoutes, { prefix: API_PREFIX, services: deps.services });
  await app.register(mcpRoutes, { services: deps.services, resourceMetadata: mcpResourceMetadata });
  await app.register(publicIconRoutes, { services: deps.services });
  await app.register(publicRenderRoutes, { services: deps.services });
  await app.register(webApp, { services: deps.services });
  app.get('/api-v1/openapi.json', { config: { public: true }, schema: { hide: true } }, async () => app.swagger());
  return app;
}
