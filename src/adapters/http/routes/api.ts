import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { SCOPES } from '../../../core/scopes.js';
import type { Services } from '../../../service/index.js';
import { aiRoutes } from './ai.js';
import { catalogRoutes } from './catalog.js';
import { documentRoutes } from './documents.js';
import { versionRoutes } from './versions.js';
import { folderRoutes } from './folders.js';
import { renderRoutes } from './render.js';

export const API_PREFIX = '/api-v1';
export const API_VERSION = '1';

/** The versioned REST API: its index, and one plugin per resource. */
export const apiRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  const endpoints: { method: string; path: string }[] = [];
  app.addHook('onRoute', (route) => {
    if (route.schema?.hide) return;
    for (const method of [route.method].flat()) if (method !== 'HEAD') endpoints.push({ method, path: route.url });
  });

  app.get(
    '/',
    {
      schema: {
        summary: 'Service index: name, API version, scopes and endpoints',
        tags: ['meta'],
        response: {
          200: z.object({
            service: z.string(),
            apiVersion: z.string(),
            scopes: z.array(z.string()),
            endpoints: z.array(z.object({ method: z.string(), path: z.string() })),
            mcp: z.string(),
          }),
        },
      },
    },
    async () => ({ service: 'Drawbridge', apiVersion: API_VERSION, scopes: [...SCOPES], endpoints, mcp: '/mcp' }),
  );

  app.get(
    '/workspaces',
    {
      schema: {
        summary: 'Workspaces the token can see, with your role in each',
        description: 'Scope: diagrams:read.',
        tags: ['workspaces'],
        response: { 200: z.object({ items: z.array(z.object({ id: z.string(), name: z.string(), role: z.string() })) }) },
      },
    },
    async (request) => services.diagrams.listWorkspaces(request.principal),
  );

  await app.register(folderRoutes, { services });
  await app.register(documentRoutes, { services });
  await app.register(versionRoutes, { services });
  await app.register(catalogRoutes, { services });
  await app.register(renderRoutes, { services });
  await app.register(aiRoutes, { services });
};
