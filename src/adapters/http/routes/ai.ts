import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { documentJson } from '../../../service/diagrams.js';
import { expectedVersion } from './documents.js';
import type { GenerateResult } from '../../../service/generate.js';
import type { Services } from '../../../service/index.js';
import { aiSettingsBody, aiSettingsResult, documentId, generateBody, generateResult, workspaceId } from '../../../service/schemas.js';

const noContent = z.null().describe('No content');

function sendGenerated(reply: FastifyReply, result: GenerateResult, status: number) {
  return reply
    .code(status)
    .header('ETag', `"${result.document.summary.version}"`)
    .type('application/json; charset=utf-8')
    .send(documentJson(result.document, { warnings: result.warnings, format: 'native', model: result.model, provider: result.provider, usage: result.usage }));
}

/** AI generation and the settings it runs with (the account's own provider, model and key). */
export const aiRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  app.get(
    '/me/ai',
    { schema: { summary: 'Your AI provider settings (the key only as its last 4 characters)', description: 'Scope: ai:generate.', tags: ['ai'], response: { 200: aiSettingsResult } } },
    async (request) => ({ settings: await services.ai.get(request.principal) }),
  );
  app.put(
    '/me/ai',
    {
      schema: {
        summary: 'Save your AI provider, model and key',
        description: 'Scope: ai:generate. The key is encrypted at rest and never returned. A baseUrl on a private network is refused unless AI_ALLOW_PRIVATE_URLS=true.',
        tags: ['ai'],
        body: aiSettingsBody,
        response: { 200: aiSettingsResult },
      },
    },
    async (request) => ({ settings: await services.ai.set(request.principal, request.body) }),
  );
  app.delete(
    '/me/ai',
    { schema: { summary: 'Delete your AI settings and key', description: 'Scope: ai:generate.', tags: ['ai'], response: { 204: noContent } } },
    async (request, reply) => {
      await services.ai.remove(request.principal);
      return reply.code(204).send(null);
    },
  );

  const workspaceParams = z.object({ id: workspaceId });
  app.get(
    '/workspaces/:id/ai',
    { schema: { summary: "A workspace's shared AI settings", description: 'Scope: ai:generate; any member.', tags: ['ai'], params: workspaceParams, response: { 200: aiSettingsResult } } },
    async (request) => ({ settings: await services.ai.getForWorkspace(request.principal, request.params.id) }),
  );
  app.put(
    '/workspaces/:id/ai',
    {
      schema: {
        summary: 'Share an AI key with a workspace',
        description: "Scope: ai:generate; owner only. Members' generations use it when they have no key of their own.",
        tags: ['ai'],
        params: workspaceParams,
        body: aiSettingsBody,
        response: { 200: aiSettingsResult },
      },
    },
    async (request) => ({ settings: await services.ai.setForWorkspace(request.principal, request.params.id, request.body) }),
  );
  app.delete(
    '/workspaces/:id/ai',
    { schema: { summary: "Delete a workspace's shared AI key", description: 'Scope: ai:generate; owner only.', tags: ['ai'], params: workspaceParams, response: { 204: noContent } } },
    async (request, reply) => {
      await services.ai.removeForWorkspace(request.principal, request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/documents/generate',
    {
      config: { operation: 'generate' },
      schema: {
        summary: 'Draw a diagram from a prompt with your AI model, or change one (documentId)',
        description:
          'Scopes: ai:generate and diagrams:write. The model answers with structure (nodes, edges, groups); the server lays it out and adds icons. ' +
          'Errors: ai_not_configured, ai_provider_error, ai_rate_limited, ai_timeout, ai_invalid_output; nothing is stored on error.',
        tags: ['ai'],
        body: generateBody,
        response: { 201: generateResult, 200: generateResult },
      },
    },
    async (request, reply) => {
      const result = await services.generation.generate(request.principal, request.body);
      return sendGenerated(reply, result, request.body.documentId ? 200 : 201);
    },
  );
  app.post(
    '/documents/:id/generate',
    {
      config: { operation: 'generate' },
      schema: {
        summary: 'Change a diagram as a prompt says, with your AI model',
        description: 'Scopes: ai:generate and diagrams:write. A normal versioned update (expectedVersion or If-Match guard it).',
        tags: ['ai'],
        params: z.object({ id: documentId }),
        headers: z.object({ 'if-match': z.string().optional() }),
        body: generateBody.omit({ documentId: true, workspaceId: true, folderId: true }),
        response: { 200: generateResult },
      },
    },
    async (request, reply) => {
      const expected = request.body.expectedVersion ?? expectedVersion(request.headers['if-match']);
      const result = await services.generation.generate(request.principal, { ...request.body, documentId: request.params.id, expectedVersion: expected });
      return sendGenerated(reply, result, 200);
    },
  );
};
