import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AppError } from '../../../core/errors.js';
import { LIMITS } from '../../../core/limits.js';
import { canWrite } from '../../../core/scopes.js';
import type { Services } from '../../../service/index.js';
import { toErrorResponse } from '../../http/errors.js';
import { iconSearchQuery, updateDocumentBody } from '../../../service/schemas.js';
import { expectedVersion } from '../../http/routes/documents.js';
import { page } from '../plugin.js';
import { principalOf } from '../session.js';
import { checkName } from './forms.js';

/**
 * What the editor page needs beyond the app's policy, and nothing else: Excalidraw sets `style` attributes from
 * React (allowed by style-src only with 'unsafe-inline'; scripts stay 'self' only), keeps pasted and icon images as
 * blob: and data: URLs, and loads its hand-drawn fonts from our own /assets/editor/fonts/.
 */
export const EDITOR_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self'",
  "worker-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

/** The code tab's new code: the fields of REST's update that redraw. */
const codeBody = updateDocumentBody.pick({ code: true, notation: true }).required({ code: true }).strict();

/** The scene the editor sends back: an `.excalidraw` file object, read by the same import as REST's. */
const sceneBody = z.object({ scene: z.unknown(), name: z.string().optional() }).strict();
/** A save of a few elements: the scene as above and the ids of the elements changed since the last save. */
const changedBody = z.object({ scene: z.unknown(), changed: z.array(z.string().min(1).max(200)).min(1).max(LIMITS.elementsPerDocument) }).strict();

/**
 * The canvas editor (a React island, Excalidraw) and the small JSON routes it talks to. They are the session's
 * doors onto the same DiagramService calls REST makes: the scene goes out through the `.excalidraw` export and comes
 * back through its import, and every save is a versioned write with If-Match.
 */
export const editorPages: FastifyPluginAsync<{ services: Services }> = async (app, { services }) => {
  const { diagrams, members } = services;
  const who = (request: FastifyRequest) => principalOf(request.web.user!);
  const idOf = (request: FastifyRequest) => (request.params as { id: string }).id;

  app.get('/diagrams/:id/edit', async (request, reply) => {
    const { summary } = await diagrams.getDocument(who(request), idOf(request));
    const workspace = await members.workspace(request.web.user!.id, summary.workspaceId);
    reply.header('Content-Security-Policy', EDITOR_CSP);
    const writable = canWrite(workspace.role);
    const ai = writable && (await aiReady(services, request, summary.workspaceId));
    return reply.view('editor.eta', page(request, `Edit · ${summary.name}`, { diagram: summary, workspace, writable, ai, wide: true, canvas: true }));
  });

  /**
   * An `.excalidraw` scene is imported without icon guesses (an imported drawing keeps its look), and a guessed icon
   * rides in no field of the export: so a diagram whose icons were guessed from its labels (from code, or the API's
   * default) keeps guessing them when saved from the editor, and one without keeps none.
   */
  const guessesIcons = async (id: string, request: FastifyRequest) => {
    const elements = JSON.parse((await diagrams.getDocument(who(request), id)).elementsJson) as Array<{ icon?: { auto?: boolean } }>;
    return elements.some((e) => e.icon?.auto === true);
  };

  // JSON for the island: errors in the API's {"error":{code,message}} form, not the HTML error page.
  await app.register(async (json) => {
    json.setErrorHandler(toErrorResponse);

    json.get('/diagrams/:id/scene', async (request) => {
      const { summary, writable, scene, warnings, source } = await diagrams.sceneForEditing(who(request), idOf(request));
      return { id: summary.id, name: summary.name, version: summary.version, updatedAt: summary.updatedAt, writable, scene, warnings, source };
    });

    // Polled by the open editor: a save by anyone else shows up as a newer version. Reading it needs the same
    // membership as reading the diagram.
    json.get('/diagrams/:id/state', async (request) => {
      const { summary } = await diagrams.getDocument(who(request), idOf(request));
      return { version: summary.version, updatedAt: summary.updatedAt, name: summary.name };
    });

    json.put('/diagrams/:id/scene', async (request, reply) => {
      const body = parseBody(request.body);
      const id = idOf(request);
      const result = await diagrams.updateDocument(
        who(request),
        id,
        { elements: body.scene, name: body.name === undefined ? undefined : checkName(body.name), autoIcons: await guessesIcons(id, request) },
        expectedVersion(request.headers['if-match']),
      );
      reply.header('ETag', `"${result.document.summary.version}"`);
      return { version: result.document.summary.version, updatedAt: result.document.summary.updatedAt, warnings: result.warnings };
    });

    // The code tab's Redraw: REST's PATCH with code, on the version the editor shows (If-Match). A parse error
    // answers 400 with its line and column in details, and nothing is written.
    json.put('/diagrams/:id/code', async (request, reply) => {
      const body = codeBody.safeParse(request.body);
      if (!body.success) throw new AppError('validation_failed', `send {"code": "…", "notation"?: "…"}: ${body.error.issues[0]!.message}`);
      const result = await diagrams.updateDocument(who(request), idOf(request), body.data, expectedVersion(request.headers['if-match']));
      reply.header('ETag', `"${result.document.summary.version}"`);
      return { version: result.document.summary.version, warnings: result.warnings };
    });

    // A save of a few edited elements: the whole scene for context, and the ids the canvas changed since its last save,
    // written as edits by element where they say it exactly (service: updateChangedElements). If-Match is required.
    json.patch('/diagrams/:id/scene', async (request, reply) => {
      const parsed = changedBody.safeParse(request.body);
      if (!parsed.success) throw new AppError('validation_failed', `send {"scene": <.excalidraw file object>, "changed": [element ids]}: ${parsed.error.issues[0]!.path.join('.')} ${parsed.error.issues[0]!.message}`);
      const version = expectedVersion(request.headers['if-match']);
      if (version === undefined) throw new AppError('bad_request', 'If-Match with the version the canvas shows is required, like "3"');
      const id = idOf(request);
      const result = await diagrams.updateChangedElements(who(request), id, { elements: parsed.data.scene, changed: parsed.data.changed, autoIcons: await guessesIcons(id, request) }, version);
      reply.header('ETag', `"${result.document.summary.version}"`);
      return { version: result.document.summary.version, updatedAt: result.document.summary.updatedAt, warnings: result.warnings, asOperations: result.asOperations };
    });

    // The icon panel's search: the catalog REST's GET /api-v1/icons answers, read with the same query schema.
    json.get('/editor/icons', async (request) => {
      const query = iconSearchQuery.safeParse(request.query);
      if (!query.success) throw new AppError('validation_failed', `icon search: ${query.error.issues.map((i) => `${i.path.join('.') || 'query'} ${i.message}`).join('; ')}`);
      return services.catalog.searchIcons(query.data);
    });

    // Ask AI: the open diagram changed as the prompt says, by the same generation as REST's POST /documents/:id/generate,
    // on the version the editor shows (If-Match), with the model's warnings.
    json.post('/diagrams/:id/ask', async (request) => {
      const prompt = promptOf(request.body);
      const result = await services.generation.generate(who(request), { documentId: idOf(request), prompt, expectedVersion: expectedVersion(request.headers['if-match']) });
      return { version: result.document.summary.version, warnings: result.warnings, model: result.model };
    });

    // "Save as a copy" after a conflict: the editor's scene becomes a new diagram beside the original.
    json.post('/diagrams/:id/copy', async (request, reply) => {
      const body = parseBody(request.body);
      const { summary } = await diagrams.getDocument(who(request), idOf(request));
      const result = await diagrams.createDocument(who(request), {
        workspaceId: summary.workspaceId,
        folderId: summary.folderId ?? undefined,
        name: checkName(body.name ?? `${summary.name} (copy)`.slice(0, 200)),
        elements: body.scene,
      });
      const id = result.document.summary.id;
      return reply.code(201).send({ id, version: result.document.summary.version, url: `/diagrams/${id}/edit`, warnings: result.warnings });
    });
  });
};

function parseBody(body: unknown): z.infer<typeof sceneBody> {
  const parsed = sceneBody.safeParse(body);
  if (!parsed.success) throw new AppError('validation_failed', `send {"scene": <.excalidraw file object>, "name"?: string}: ${parsed.error.issues[0]!.message}`);
  return parsed.data;
}

function promptOf(body: unknown): string {
  const prompt = (body as { prompt?: unknown } | undefined)?.prompt;
  if (typeof prompt !== 'string' || prompt.trim() === '') throw new AppError('validation_failed', 'send {"prompt": "what to change"} with a non-empty prompt');
  return prompt;
}

/** Whether a prompt can run here: the person's own AI settings or the workspace's shared ones. */
export async function aiReady(services: Services, request: FastifyRequest, workspaceId: string): Promise<boolean> {
  try {
    await services.ai.credentialsFor(principalOf(request.web.user!), workspaceId);
    return true;
  } catch {
    return false;
  }
}
