import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsync } from 'fastify';
import type { Metrics } from '../../../infra/metrics.js';
import { errorBody } from '../errors.js';

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * GET /metrics in Prometheus' text format, for a scraper holding METRICS_TOKEN (API tokens belong to people and
 * are rate-limited; a scraper is neither). Without METRICS_TOKEN the route is off, so nothing leaks by default.
 */
export const metricsRoutes: FastifyPluginAsync<{ metrics: Metrics; token: string | undefined }> = async (app, { metrics, token }) => {
  app.get('/metrics', { config: { public: true }, schema: { hide: true } }, async (request, reply) => {
    if (!token) return reply.code(404).send(errorBody('not_found', 'metrics are off: set METRICS_TOKEN (or METRICS_TOKEN_FILE) to turn them on'));
    const given = /^Bearer (.+)$/i.exec(request.headers.authorization ?? '')?.[1] ?? '';
    // Compared as digests: equal lengths for timingSafeEqual, and no timing hint of the token's length.
    if (!timingSafeEqual(digest(given), digest(token))) {
      reply.header('WWW-Authenticate', 'Bearer realm="drawbridge-metrics"');
      return reply.code(401).send(errorBody('unauthorized', 'send Authorization: Bearer <METRICS_TOKEN>'));
    }
    return reply.type(metrics.registry.contentType).send(await metrics.registry.metrics());
  });
};
