import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { PNG_SCALE } from '../../../core/render/png.js';
import type { Rendered } from '../../../service/diagrams.js';
import type { Services } from '../../../service/index.js';
import { documentId } from '../../../service/schemas.js';
import { setRateHeaders } from '../errors.js';

/** An image response: 304 when the viewer's copy is current. */
function sendImage(reply: FastifyReply, rendered: Rendered) {
  reply.header('ETag', rendered.etag).header('X-Content-Type-Options', 'nosniff');
  if (rendered.notModified) return reply.code(304).send();
  return reply.type(rendered.contentType).send(rendered.body);
}

/**
 * GET /render/svg?token=…: a publicly shared diagram as an image, with no API token, fit for an <img> in a README.
 * The CSP forbids everything the SVG does not need (it embeds its fonts and images as data: URLs).
 */
export const publicRenderRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  app.get(
    '/render/svg',
    {
      config: { public: true },
      schema: {
        summary: 'A publicly shared diagram as SVG (no API token)',
        description: 'The URL comes from POST /api-v1/documents/:id/share. Unknown or revoked tokens answer 404.',
        tags: ['sharing'],
        security: [],
        querystring: z.object({ token: z.string().max(100) }),
      },
    },
    async (request, reply) => {
      setRateHeaders(reply, await services.admitPublic(request.ip));
      const rendered = await services.diagrams.renderShared(request.query.token, request.headers['if-none-match']);
      // Caches may keep a copy a minute, then must ask again (a 304 costs no render): an unshare is seen within 60 s.
      // Embedding works through <img>, which frame-ancestors does not govern; framing the image is refused.
      reply
        .header('Cache-Control', 'public, max-age=60, must-revalidate')
        .header('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; img-src data:; font-src data:; frame-ancestors 'none'");
      return sendImage(reply, rendered);
    },
  );
};

/** GET /api-v1/documents/:id/render?format=svg|png: the private image, for readers of the document. */
export const renderRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  app.get(
    '/documents/:id/render',
    {
      config: { operation: 'render' },
      schema: {
        summary: 'Render a document as SVG or PNG',
        description: `Scope: diagrams:read. PNG is rasterised from the same drawing (resvg), scale ${PNG_SCALE.min}–${PNG_SCALE.max} (default 1).`,
        tags: ['documents'],
        params: z.object({ id: documentId }),
        querystring: z.object({
          format: z.enum(['svg', 'png'], { error: 'format must be svg or png' }).default('svg'),
          scale: z.coerce.number().min(PNG_SCALE.min).max(PNG_SCALE.max).optional(),
        }),
      },
    },
    async (request, reply) => {
      const rendered = await services.diagrams.renderDocument(request.principal, request.params.id, request.query.format, {
        scale: request.query.scale,
        ifNoneMatch: request.headers['if-none-match'],
      });
      reply.header('Cache-Control', 'private, no-cache');
      return sendImage(reply, rendered);
    },
  );
};
