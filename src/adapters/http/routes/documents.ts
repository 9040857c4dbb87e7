import type { FastifyReply } from 'fastify';
import { etagMatches } from '../../../service/etag.js';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../../core/errors.js';
import { EXPORT_FORMATS } from '../../../core/export/index.js';
import { documentJson, type StoredDocument, type WriteResult, writeAnswer } from '../../../service/diagrams.js';
import type { Services } from '../../../service/index.js';
import {
  createDocumentBody,
  documentId,
  documentPage,
  exportQuery,
  fromCodeBody,
  fromCodeResult,
  shareInfo,
  fullDocument,
  listDocumentsQuery,
  editedDocument,
  updateDocumentBody,
  writtenDocument,
} from '../../../service/schemas.js';

/** A 204 has no body; saying so makes the OpenAPI document list 204 rather than a default 200. */
const noContent = z.null().describe('No content');

const etagOf = (doc: StoredDocument) => `"${doc.summary.version}"`;

/** The stored elements are spliced into the body as the JSON text they were saved as (validated on write). */
export function sendDocument(reply: FastifyReply, doc: StoredDocument, status = 200, extra?: Pick<WriteResult, 'warnings' | 'format'> & { notation?: string }) {
  return reply.code(status).header('ETag', etagOf(doc)).type('application/json; charset=utf-8').send(documentJson(doc, extra));
}

/** If-Match carries a version as an entity tag: `"7"` (also W/"7" or a bare 7). `*` matches any version. */
export function expectedVersion(ifMatch: string | undefined): number | undefined {
  if (ifMatch === undefined || ifMatch.trim() === '*') return undefined;
  const match = /^\s*(?:W\/)?"?(\d{1,15})"?\s*$/.exec(ifMatch);
  if (!match) throw new AppError('bad_request', `If-Match must be the document's ETag, like "3"; got ${ifMatch}`);
  return Number(match[1]);
}

export const documentRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  const params = z.object({ id: documentId });

  app.get(
    '/documents',
    {
      schema: {
        summary: 'List documents of a workspace or a folder (summaries, no elements)',
        description: 'Scope: diagrams:read. Give exactly one of workspace or folder. Keyset-paginated: pass nextCursor back as cursor.',
        tags: ['documents'],
        querystring: listDocumentsQuery,
        response: { 200: documentPage },
      },
    },
    async (request) => services.diagrams.listDocuments(request.principal, request.query),
  );

  app.post(
    '/documents',
    {
      schema: {
        summary: 'Create a document',
        description: 'Scope: diagrams:write; role editor or above. Elements in the native schema or the Excalidraw format.',
        tags: ['documents'],
        body: createDocumentBody,
        response: { 201: writtenDocument },
      },
    },
    async (request, reply) => {
      const result = await services.diagrams.createDocument(request.principal, request.body);
      return sendDocument(reply, result.document, 201, { warnings: result.warnings, format: result.format });
    },
  );

  app.post(
    '/documents/from-code',
    {
      config: { operation: 'fromCode' },
      schema: {
        summary: 'Draw a diagram from code, laid out automatically, and store it',
        description:
          'Scope: diagrams:write. The notation is detected (notation overrides); the response adds notation and warnings (what was skipped or approximated). ' +
          'unsupported_notation lists the supported ones; parse_error gives line and column. Nothing is stored on error.',
        tags: ['documents'],
        body: fromCodeBody,
        response: { 201: fromCodeResult },
      },
    },
    async (request, reply) => {
      const result = await services.diagrams.createFromCode(request.principal, request.body);
      return sendDocument(reply, result.document, 201, { warnings: result.warnings, format: result.format, notation: result.notation });
    },
  );

  app.get(
    '/documents/:id',
    {
      schema: {
        summary: 'Read a document with its elements',
        description: 'Scope: diagrams:read. The ETag is the version; If-None-Match with it answers 304.',
        tags: ['documents'],
        params,
        response: { 200: fullDocument },
      },
    },
    async (request, reply) => {
      const doc = await services.diagrams.getDocument(request.principal, request.params.id);
      if (etagMatches(request.headers['if-none-match'], etagOf(doc))) return (reply as FastifyReply).code(304).header('ETag', etagOf(doc)).send();
      return sendDocument(reply, doc);
    },
  );

  app.patch(
    '/documents/:id',
    {
      schema: {
        summary: 'Change the name, the elements or the code of a document',
        description:
          'Scope: diagrams:write; role editor or above. If-Match: "<version>" makes the write conditional (412 when stale). ' +
          'operations edit by element (add, update only the fields sent, remove, move) and answer lean (touched ids); elements replaces the whole scene ' +
          '(elements not sent are removed, and warnings say so); code redraws a diagram drawn from code, keeping what was changed by hand where sound ' +
          '(warnings list what was kept and dropped; parse_error gives line and column, and nothing is written).',
        tags: ['documents'],
        params,
        headers: z.object({ 'if-match': z.string().optional() }),
        body: updateDocumentBody,
        response: { 200: z.union([writtenDocument, editedDocument]) },
      },
    },
    async (request, reply) => {
      const expected = expectedVersion(request.headers['if-match']);
      const { answer, ...change } = request.body;
      const result = await services.diagrams.updateDocument(request.principal, request.params.id, change, expected);
      const body = writeAnswer(result, answer, 'full');
      // The full answer is the stored JSON text spliced in (as sendDocument does), not an object to serialise again.
      return reply.header('ETag', etagOf(result.document)).type('application/json; charset=utf-8').send(body as never);
    },
  );

  app.get(
    '/documents/:id/export',
    {
      config: { operation: 'export' },
      schema: {
        summary: 'Export a document to another format',
        description:
          `Scope: export. format=${EXPORT_FORMATS.join('|')}. mermaid and d2: {format, code, warnings}; excalidraw: {format, scene ` +
          '(a .excalidraw file object), warnings}. warnings list what the target cannot express (lossy mappings, dropped free text).',
        tags: ['documents'],
        params,
        querystring: exportQuery,
        response: { 200: z.looseObject({ format: z.string(), warnings: z.array(z.string()) }) },
      },
    },
    async (request) => services.diagrams.exportDocument(request.principal, request.params.id, request.query.format),
  );

  app.post(
    '/documents/:id/share',
    {
      schema: {
        summary: 'Share a document through a public read-only image link',
        description:
          'Scope: diagrams:write; role editor or above. Returns the link (201 when created, 200 when it already existed: the same link). ' +
          'Anyone with the URL can load the diagram as SVG; DELETE revokes it at once.',
        tags: ['sharing'],
        params,
        response: { 200: shareInfo, 201: shareInfo },
      },
    },
    async (request, reply) => {
      const { created, ...share } = await services.diagrams.share(request.principal, request.params.id);
      return reply.code(created ? 201 : 200).send(share);
    },
  );

  app.delete(
    '/documents/:id/share',
    {
      schema: { summary: 'Revoke the public link', description: 'Scope: diagrams:write. 204, also when the document was not shared.', tags: ['sharing'], params, response: { 204: noContent } },
    },
    async (request, reply) => {
      await services.diagrams.unshare(request.principal, request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.delete(
    '/documents/:id',
    {
      schema: { summary: 'Delete a document', description: 'Scope: diagrams:write; role editor or above.', tags: ['documents'], params, response: { 204: noContent } },
    },
    async (request, reply) => {
      await services.diagrams.deleteDocument(request.principal, request.params.id);
      return reply.code(204).send(null);
    },
  );
};
