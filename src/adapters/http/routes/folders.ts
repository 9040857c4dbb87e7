import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Services } from '../../../service/index.js';
import { createFolderBody, folderPage, folderSummary, listFoldersQuery } from '../../../service/schemas.js';

export const folderRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  app.get(
    '/folders',
    {
      schema: {
        summary: 'List the folders of a workspace',
        description: 'Scope: diagrams:read. Keyset-paginated: pass nextCursor back as cursor.',
        tags: ['folders'],
        querystring: listFoldersQuery,
        response: { 200: folderPage },
      },
    },
    async (request) => services.diagrams.listFolders(request.principal, request.query),
  );

  app.post(
    '/folders',
    {
      schema: {
        summary: 'Create a folder',
        description: 'Scope: diagrams:write; role editor or above.',
        tags: ['folders'],
        body: createFolderBody,
        response: { 201: folderSummary },
      },
    },
    async (request, reply) => reply.code(201).send(await services.diagrams.createFolder(request.principal, request.body)),
  );
};
