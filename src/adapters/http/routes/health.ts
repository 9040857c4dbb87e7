import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBody } from '../errors.js';

/** Liveness and readiness for orchestrators; public, and outside the versioned API. */
export const healthRoutes: FastifyPluginAsyncZod<{ checkReady: () => Promise<void> }> = async (app, { checkReady }) => {
  const status = z.object({ status: z.string() });
  app.get('/healthz', { config: { public: true }, schema: { summary: 'Liveness: the process answers', tags: ['operations'], response: { 200: status } } }, async () => ({ status: 'ok' }));
  app.get('/readyz', { config: { public: true }, schema: { summary: 'Readiness: the database answers (503 when not)', tags: ['operations'] } }, async (request, reply) => {
    try {
      await checkReady();
      return { status: 'ready' };
    } catch (error) {
      request.log.warn({ err: error }, 'readiness check failed');
      return reply.code(503).send(errorBody('internal', 'the database is not reachable'));
    }
  });
};
