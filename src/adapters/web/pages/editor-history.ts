import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AppError } from '../../../core/errors.js';
import type { Services } from '../../../service/index.js';
import { listVersionsQuery, versionNumber } from '../../../service/schemas.js';
import { toErrorResponse } from '../../http/errors.js';
import { expectedVersion } from '../../http/routes/documents.js';
import { principalOf } from '../session.js';

const versionParams = z.object({ id: z.string(), n: versionNumber });

/**
 * The editor's History panel: the session's doors onto the same history calls as REST's /documents/:id/versions
 * (list, read, restore), so a viewer may list and preview and only an editor may restore (the service checks the
 * role; the app's preHandler checks the page's CSRF token on the restore).
 */
export const editorHistoryPages: FastifyPluginAsync<{ services: Services }> = async (app, { services }) => {
  const { diagrams } = services;
  const who = (request: FastifyRequest) => principalOf(request.web.user!);
  const params = (request: FastifyRequest) => parsed(versionParams, request.params, 'version');

  app.setErrorHandler(toErrorResponse);

  app.get('/diagrams/:id/versions', async (request) => {
    const query = parsed(listVersionsQuery, request.query, 'query');
    return diagrams.listVersions(who(request), (request.params as { id: string }).id, query);
  });

  // The preview: the kept version drawn by our renderer, as an image the panel shows (read-only by nature).
  app.get('/diagrams/:id/versions/:n/image.svg', async (request, reply) => {
    const { id, n } = params(request);
    const svg = await diagrams.renderVersion(who(request), id, n);
    // A kept version never changes: the browser may keep its picture while the session lasts.
    return reply.header('Cache-Control', 'private, max-age=3600').type('image/svg+xml; charset=utf-8').send(svg);
  });

  app.post('/diagrams/:id/versions/:n/restore', async (request, reply) => {
    const { id, n } = params(request);
    const result = await diagrams.restoreVersion(who(request), id, n, expectedVersion(request.headers['if-match']));
    const { summary } = result.document;
    reply.header('ETag', `"${summary.version}"`);
    return { version: summary.version, restored: n, updatedAt: summary.updatedAt };
  });
};

function parsed<T extends z.ZodType>(schema: T, value: unknown, what: string): z.infer<T> {
  const result = schema.safeParse(value);
  if (!result.success) throw new AppError('validation_failed', `${what}: ${result.error.issues.map((i) => `${i.path.join('.') || what} ${i.message}`).join('; ')}`);
  return result.data;
}
