import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { withElementsJson } from '../../../service/diagrams.js';
import type { Services } from '../../../service/index.js';
import { documentId, listVersionsQuery, storedVersion, versionNumber, versionPage, writtenDocument } from '../../../service/schemas.js';
import { expectedVersion, sendDocument } from './documents.js';

/** A document's version history: list, read one, restore one (service/history.ts keeps them). */
export const versionRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  const params = z.object({ id: documentId });
  const versionParams = z.object({ id: documentId, n: versionNumber });

  app.get(
    '/documents/:id/versions',
    {
      schema: {
        summary: 'List the kept versions of a document, newest first',
        description:
          'Scope: diagrams:read. One entry per version (the current one too): who wrote it, when, through which door, and what changed. ' +
          'Keyset-paginated: pass nextCursor back as cursor. Versions past the retention (HISTORY_DAYS, HISTORY_KEEP) are gone.',
        tags: ['documents'],
        params,
        querystring: listVersionsQuery,
        response: { 200: versionPage },
      },
    },
    async (request) => services.diagrams.listVersions(request.principal, request.params.id, request.query),
  );

  app.get(
    '/documents/:id/versions/:n',
    {
      schema: {
        summary: 'Read one kept version of a document: its name and elements as stored',
        description: 'Scope: diagrams:read. 404 not_found for a version never written or past the retention.',
        tags: ['documents'],
        params: versionParams,
        response: { 200: storedVersion },
      },
    },
    async (request, reply) => {
      const { elementsJson, ...version } = await services.diagrams.getVersion(request.principal, request.params.id, request.params.n);
      // The stored elements are spliced in as the JSON text they were saved as, like a document read.
      return (reply as FastifyReply).type('application/json; charset=utf-8').send(withElementsJson({ ...version }, elementsJson));
    },
  );

  app.post(
    '/documents/:id/versions/:n/restore',
    {
      schema: {
        summary: 'Restore a kept version: a new version with exactly its name and elements',
        description:
          'Scope: diagrams:write; role editor or above. The restore is itself a version, so it can be undone the same way. ' +
          'If-Match: "<version>" makes it conditional on the current version (412 version_mismatch when stale).',
        tags: ['documents'],
        params: versionParams,
        headers: z.object({ 'if-match': z.string().optional() }),
        response: { 200: writtenDocument },
      },
    },
    async (request, reply) => {
      const result = await services.diagrams.restoreVersion(request.principal, request.params.id, request.params.n, expectedVersion(request.headers['if-match']));
      return sendDocument(reply, result.document, 200, { warnings: result.warnings, format: result.format });
    },
  );
};
