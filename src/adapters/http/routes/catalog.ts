import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Services } from '../../../service/index.js';
import { iconSearchQuery, iconSearchResults, libraryList, librariesQuery } from '../../../service/schemas.js';

/** The published catalog: how to draw (capabilities) and with what (icon libraries). Any valid token reads it. */
export const catalogRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  const { catalog } = services;

  app.get(
    '/capabilities',
    {
      schema: {
        summary: 'The drawing guide: element types, fields and allowed values, arrow rules, icon flow, drawing rules, limits, worked examples',
        description:
          'Generated from the element schema itself. ?section= returns one part (definitions, commonFields, elementTypes, arrowRules, icons, drawingRules, limits, examples, …). ' +
          'Also served to MCP clients as the drawbridge://capabilities resource, and drawbridge://capabilities/{section}.',
        tags: ['catalog'],
        querystring: z.object({ section: z.string().optional().describe('One part of the guide') }),
        response: { 200: z.looseObject({}) },
      },
    },
    async (request) => (request.query.section === undefined ? catalog.capabilities() : catalog.capabilitiesSection(request.query.section)),
  );

  app.get(
    '/libraries',
    {
      schema: {
        summary: 'Icon libraries with their item counts; ?items=1 adds every item label',
        description: 'Also served to MCP clients as the drawbridge://libraries resource (with items).',
        tags: ['catalog'],
        querystring: librariesQuery,
        response: { 200: libraryList },
      },
    },
    async (request) => catalog.libraries({ items: request.query.items === '1' || request.query.items === 'true' }),
  );

  app.get(
    '/icons',
    {
      schema: {
        summary: 'Search icons; set an element\'s iconRef to a result\'s ref',
        description: 'Ranked by label, aliases and synonyms (k8s, pg, s3, lb, db, mq), tolerant of small typos; vendor prefers that vendor\'s set.',
        tags: ['catalog'],
        querystring: iconSearchQuery,
        response: { 200: iconSearchResults },
      },
    },
    async (request) => catalog.searchIcons(request.query),
  );
};

/**
 * `/icons/<library>/<label>.svg`: one sanitised icon, public so that exported diagrams (D2) can link to it.
 * The CSP forbids everything but inline styles, in case a browser opens it as a document.
 */
export const publicIconRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  app.get(
    '/icons/:library/:file',
    { config: { public: true }, schema: { hide: true, params: z.object({ library: z.string(), file: z.string() }) } },
    async (request, reply) => {
      const label = request.params.file.endsWith('.svg') ? request.params.file.slice(0, -4) : undefined;
      const svg = label === undefined ? undefined : services.catalog.iconSvg(request.params.library, label);
      if (svg === undefined) {
        return reply.code(404).send({ error: { code: 'not_found', message: `no icon ${request.params.library}/${request.params.file}` } });
      }
      return reply
        .type('image/svg+xml')
        .header('Cache-Control', 'public, max-age=86400')
        .header('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'")
        .header('X-Content-Type-Options', 'nosniff')
        .send(svg);
    },
  );
};
