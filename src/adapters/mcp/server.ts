import { McpServer, type RegisteredTool, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CallToolRequestSchema, type CallToolResult, ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { z } from 'zod';
import { documentJson, withElementsJson, writeAnswer } from '../../service/diagrams.js';
import type { Services } from '../../service/index.js';
import type { Principal } from '../../service/principal.js';
import {
  createDocumentBody,
  documentId,
  folderId,
  name,
  pageQuery,
  fromCodeBody,
  generateBody,
  iconSearchQuery,
  documentPage,
  documentSummary,
  element,
  iconSearchResults,
  libraryList,
  shareInfo,
  stampingOptions,
  strictBody,
  storedVersion,
  updateDocumentBody,
  versionPage,
  workspaceId,
  workspaceSummary,
  writeAnswerForm,
} from '../../service/schemas.js';
import { dictionary } from '../../core/dictionary.js';
import { inputValidationError } from '../../core/errors.js';
import { EXPORT_FORMATS } from '../../core/export/index.js';
import type { Element } from '../../core/scene/schema.js';
import type { Scope } from '../../core/scopes.js';
import { summarizeScene } from '../../core/scene/summary.js';
import { type RawJsonSplice, runTool, toolError } from './results.js';

/** Previews fit this longest side by default: what vision models take in without downscaling. */
const PREVIEW_MAX_SIDE = 1568;
/** What model APIs accept at most for an image side. */
const PREVIEW_MAX_SIDE_LIMIT = 8000;

/**
 * What a write tool answers: by default the id, version, warnings and a summary of the scene (edits by element: the
 * ids they touched), not every element echoed back with its defaults (a 12-box diagram: ~600 tokens instead of ~4,000).
 */
const answer = writeAnswerForm;

export interface ToolLogger {
  error(details: object, message: string): void;
}

/**
 * Shared guidance, repeated where a model meets it: a model that reads only tools/list should still draw well.
 */
const DRAWING_FLOW =
  'Flow: read the drawbridge://capabilities resource once (element types, fields, drawing rules, examples); ' +
  'easiest: leave out x/y and send layout:"auto" (the server places everything), or write Mermaid to diagram_from_code; ' +
  'for each technology call search_icons and set the element\'s iconRef to the returned ref; ' +
  'bind both ends of every arrow (startBinding/endBinding with elementId) so arrows follow their shapes; ' +
  'use 3+ point arrows for right angles. Errors come back as tool errors: validation errors name the element ' +
  '(elements[3] (id "db")), the field and what was expected, so fix exactly that and call again.';

/**
 * Building a server per request is cheap except for the JSON Schema validator the SDK makes for each one (a new
 * Ajv instance: most of a tools/call's CPU time when measured); one validator serves every server.
 */
const jsonSchemaValidator = new AjvJsonSchemaValidator();

/** Tool inputs, from the shared schemas, built once: registering a raw shape would rebuild it for every request. */
const inputs = {
  listDiagrams: strictBody({ workspaceId: workspaceId.optional(), folderId: folderId.optional(), ...pageQuery }),
  documentId: strictBody({ id: documentId }),
  getDiagram: strictBody({
    id: documentId,
    scene: z.enum(['full', 'summary', 'none']).optional().describe('full (default): every element; summary: each shape\'s id, text and box and what each arrow joins; none: only the name and version'),
    preview: z.boolean().optional().describe('Also return the diagram as a PNG image, to look at what was drawn'),
    previewMaxSide: z
      .number()
      .int()
      .min(64)
      .max(PREVIEW_MAX_SIDE_LIMIT)
      .optional()
      .describe(`Longest side of the preview in px (default ${PREVIEW_MAX_SIDE}, at most ${PREVIEW_MAX_SIDE_LIMIT}); larger diagrams are scaled down`),
  }),
  createDiagram: strictBody({ ...createDocumentBody.shape, answer }),
  // Strict here (a misspelt field is named, not ignored); REST reads the same fields from a query string.
  searchIcons: strictBody(iconSearchQuery.shape),
  none: strictBody({}),
  fromCode: strictBody({ ...fromCodeBody.shape, answer }),
  generate: strictBody({ ...generateBody.shape, answer }),
  exportToCode: strictBody({ id: documentId, format: z.enum(EXPORT_FORMATS).describe(`Target format: ${EXPORT_FORMATS.join(', ')}`) }),
  updateDiagram: strictBody({
    id: documentId,
    name: name.optional(),
    elements: updateDocumentBody.shape.elements,
    operations: updateDocumentBody.shape.operations,
    code: updateDocumentBody.shape.code,
    notation: updateDocumentBody.shape.notation,
    detail: updateDocumentBody.shape.detail,
    layout: updateDocumentBody.shape.layout,
    ...stampingOptions,
    expectedVersion: z.number().int().positive().optional().describe('The version you read; the update fails if it is no longer current'),
    answer,
  }),
  listVersions: strictBody({ id: documentId, ...pageQuery }),
  getVersion: strictBody({ id: documentId, version: z.number().int().positive().describe('The version to read (from list_versions)') }),
  restoreVersion: strictBody({
    id: documentId,
    version: z.number().int().positive().describe('The version to bring back (from list_versions)'),
    expectedVersion: z.number().int().positive().optional().describe('The current version you read; the restore fails if it is no longer current'),
    answer,
  }),
};

/**
 * What each tool answers, as `outputSchema`: clients can read `structuredContent` without guessing. Loose objects,
 * so a field added later does not break a client that validates.
 */
const sceneSummary = z.looseObject({
  elementCount: z.number().int(),
  bounds: z.array(z.number()),
  shapes: z.array(z.looseObject({ id: z.string(), type: z.string() })),
  arrows: z.array(z.looseObject({ id: z.string() })),
  other: z.record(z.string(), z.number()),
});
const diagramAnswer = z.looseObject({
  ...documentSummary.shape,
  elements: z.array(element).optional().describe('The whole scene (get_diagram, or answer: "full")'),
  summary: sceneSummary.optional().describe('Each shape\'s id, text and box, and what each arrow joins'),
  warnings: z.array(z.string()).optional(),
});
const outputs = {
  workspaces: z.looseObject({ items: z.array(workspaceSummary) }),
  diagrams: documentPage,
  diagram: diagramAnswer,
  deleted: z.object({ deleted: z.string() }),
  unshared: z.object({ unshared: z.string() }),
  share: shareInfo,
  libraries: libraryList,
  icons: iconSearchResults,
  versions: versionPage,
  version: storedVersion,
  exported: z.looseObject({ format: z.enum(EXPORT_FORMATS), warnings: z.array(z.string()) }),
};

/**
 * The scopes each tool needs, known before it runs so that /mcp can refuse a call with the scope challenge the MCP
 * authorization specification asks for (route.ts). The service checks them again; every tool must be listed here.
 */
export const TOOL_SCOPES: Readonly<Record<string, readonly Scope[]>> = dictionary({
  list_workspaces: ['diagrams:read'],
  list_diagrams: ['diagrams:read'],
  get_diagram: ['diagrams:read'],
  create_diagram: ['diagrams:write'],
  update_diagram: ['diagrams:write'],
  delete_diagram: ['diagrams:write'],
  diagram_from_code: ['diagrams:write'],
  generate_from_prompt: ['ai:generate', 'diagrams:write'],
  list_versions: ['diagrams:read'],
  get_version: ['diagrams:read'],
  restore_version: ['diagrams:write'],
  share_diagram: ['diagrams:write'],
  unshare_diagram: ['diagrams:write'],
  list_shape_libraries: [],
  search_icons: [],
  export_to_code: ['export'],
});

/**
 * One MCP server per request (stateless): the principal is fixed for the server's short life, so every tool
 * calls the service layer as that token, which checks scope, workspace pin and role itself.
 */
export function createMcpServer(services: Services, principal: Principal, log: ToolLogger, splice: RawJsonSplice): McpServer {
  const server = new McpServer(
    { name: 'drawbridge', title: 'Drawbridge diagrams', version: '1.0.0' },
    {
      instructions:
        'Drawbridge stores diagrams (a name plus a scene of elements) in workspaces. Start with list_workspaces. ' + DRAWING_FLOW,
      jsonSchemaValidator,
    },
  );
  const tool = (body: () => Promise<Record<string, unknown> | string>) => runTool(body, log, splice);
  const tools = new Map<string, RegisteredTool>();
  // registerTool, remembering each tool for the dispatcher below (the argument types are the SDK's own).
  // Tools act on this service's own data unless they say otherwise (openWorldHint), and every tool refuses
  // arguments it does not take, including those that take none.
  const register: McpServer['registerTool'] = (name: string, config: any, callback: any) => {
    if (!TOOL_SCOPES[name]) throw new Error(`tool ${name} is missing from TOOL_SCOPES`);
    const registered = server.registerTool(name, { inputSchema: inputs.none, ...config, annotations: { openWorldHint: false, ...config.annotations } }, callback);
    tools.set(name, registered);
    return registered;
  };
  const { diagrams } = services;

  register(
    'list_workspaces',
    {
      title: 'List workspaces',
      description: 'Lists the workspaces this token can see, with your role in each (owner, admin, editor, viewer; viewers cannot write). Needs scope diagrams:read.',
      outputSchema: outputs.workspaces,
      annotations: { readOnlyHint: true },
    },
    () => tool(() => diagrams.listWorkspaces(principal)),
  );

  register(
    'list_diagrams',
    {
      title: 'List diagrams',
      description:
        'Lists diagram summaries (id, name, version, timestamps; no elements) of one workspace or one folder, oldest first. ' +
        'Give exactly one of workspaceId or folderId. Paginated: pass the returned nextCursor as cursor for the next page (null means last page). Needs scope diagrams:read.',
      inputSchema: inputs.listDiagrams,
      outputSchema: outputs.diagrams,
      annotations: { readOnlyHint: true },
    },
    (args) =>
      tool(async () => ({ ...(await diagrams.listDocuments(principal, { workspace: args.workspaceId, folder: args.folderId, limit: args.limit, cursor: args.cursor })) })),
  );

  register(
    'get_diagram',
    {
      title: 'Get a diagram',
      description:
        'Returns a diagram with all its elements and its version (pass the version to update_diagram as expectedVersion to avoid ' +
        "overwriting someone else's change). With preview: true it also returns the rendered PNG: look at it after drawing, and fix " +
        'overlaps, unreadable labels or stray arrows with update_diagram. Needs scope diagrams:read.',
      inputSchema: inputs.getDiagram,
      outputSchema: outputs.diagram,
      annotations: { readOnlyHint: true },
    },
    async (args) => {
      let png: Buffer | undefined;
      const result = await tool(async () => {
        const document = await diagrams.getDocument(principal, args.id);
        if (args.preview) {
          const rendered = await diagrams.renderDocument(principal, args.id, 'png', { fitWithin: args.previewMaxSide ?? PREVIEW_MAX_SIDE });
          if (!rendered.notModified) png = rendered.body as Buffer;
        }
        if (args.scene === 'none') return { ...document.summary };
        if (args.scene === 'summary') return { ...document.summary, summary: summarizeScene(JSON.parse(document.elementsJson) as Element[]) };
        return documentJson(document);
      });
      if (!png) return result;
      return { ...result, content: [...result.content, { type: 'image', data: png.toString('base64'), mimeType: 'image/png' }] };
    },
  );

  register(
    'create_diagram',
    {
      title: 'Create a diagram',
      description:
        'Creates a diagram in a workspace (optionally in a folder). elements: an array in the native schema, or an Excalidraw scene ' +
        '(detected automatically; the result says which format was read and lists warnings such as dropped fields). ' +
        'Minimal element: {"id":"api","type":"rectangle","x":0,"y":0,"width":160,"height":80,"text":"API"}; missing fields get defaults. ' +
        'An arrow joining two shapes at right angles: {"type":"arrow","points":[{"x":160,"y":40},{"x":230,"y":40},{"x":230,"y":140}],' +
        '"startBinding":{"elementId":"api"},"endBinding":{"elementId":"db"}} (bound ends are snapped to the shapes). ' +
        DRAWING_FLOW +
        ' Needs scope diagrams:write and an editor role.',
      inputSchema: inputs.createDiagram,
      outputSchema: outputs.diagram,
      annotations: { readOnlyHint: false, destructiveHint: false },
    },
    (args) =>
      tool(async () => {
        const { answer: form, ...input } = args;
        const result = await diagrams.createDocument(principal, input);
        return writeAnswer(result, form, 'summary');
      }),
  );

  register(
    'update_diagram',
    {
      title: 'Update a diagram',
      description:
        'Changes a diagram. To change some elements, send operations (edits by element, all or nothing): ' +
        '[{"op":"add","element":{…}}, {"op":"update","id":"db","set":{"text":"Orders DB"}}, {"op":"remove","id":"old"}, {"op":"move","id":"cache","parentId":"vpc"}]; ' +
        'new elements without x/y are placed inside their container (parentId), which grows. The answer lists the ids touched. ' +
        'elements replaces the whole scene (elements not sent are removed). ' +
        'code redraws a diagram drawn from code (its source) from new code, keeping moves, styles and added elements where their element is still drawn. ' +
        'Arrows bound to a shape you move are re-attached to it by the server. With expectedVersion, the update fails with ' +
        'version_mismatch if the diagram changed since you read it: read it again and reapply. Needs scope diagrams:write.',
      inputSchema: inputs.updateDiagram,
      outputSchema: outputs.diagram,
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false },
    },
    (args) =>
      tool(async () => {
        const result = await diagrams.updateDocument(
          principal,
          args.id,
          { name: args.name, elements: args.elements, operations: args.operations, code: args.code, notation: args.notation, detail: args.detail, layout: args.layout, vendor: args.vendor, autoIcons: args.autoIcons },
          args.expectedVersion,
        );
        return writeAnswer(result, args.answer, 'summary');
      }),
  );

  register(
    'delete_diagram',
    {
      title: 'Delete a diagram',
      description: 'Deletes a diagram for good. Needs scope diagrams:write and an editor role.',
      inputSchema: inputs.documentId,
      // A second delete answers not_found: the call is not idempotent in what it returns.
      outputSchema: outputs.deleted,
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    },
    (args) =>
      tool(async () => {
        await diagrams.deleteDocument(principal, args.id);
        return { deleted: args.id };
      }),
  );

  register(
    'diagram_from_code',
    {
      title: 'Diagram from code',
      description:
        'Draws and stores a diagram from source code, laid out automatically with icons and right-angle arrows bound at both ends: ' +
        'docker-compose, Kubernetes manifests, Graphviz DOT, PlantUML, Terraform, Helm values.yaml, SQL DDL, Mermaid or D2 (detected; pass notation to force one). ' +
        'Prefer this over drawing by hand when the user has such a file. The result is the stored diagram plus notation and warnings ' +
        '(what was skipped or approximated). Errors: unsupported_notation (lists the supported ones), parse_error (with line and column). ' +
        'Needs scope diagrams:write.',
      inputSchema: inputs.fromCode,
      outputSchema: outputs.diagram,
      annotations: { readOnlyHint: false, destructiveHint: false },
    },
    (args) =>
      tool(async () => {
        const { answer: form, ...input } = args;
        const result = await diagrams.createFromCode(principal, input);
        return writeAnswer(result, form, 'summary', { notation: result.notation });
      }),
  );

  register(
    'generate_from_prompt',
    {
      title: 'Generate a diagram from a prompt',
      description:
        "Draws and stores a diagram from a description in plain language, with the account's own AI model (set up with PUT /api-v1/me/ai): " +
        'the model gives the structure, the server lays it out with icons. With documentId it changes that diagram as the prompt says ' +
        '("add a Redis cache between the API and the database"). Returns the stored diagram, warnings, the model and token usage. ' +
        'Errors: ai_not_configured (how to set a key), ai_provider_error, ai_rate_limited, ai_timeout, ai_invalid_output; nothing is stored on error. ' +
        'Needs scopes ai:generate and diagrams:write.',
      inputSchema: inputs.generate,
      outputSchema: outputs.diagram,
      annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: true },
    },
    (args) =>
      tool(async () => {
        const { answer: form, ...input } = args;
        const result = await services.generation.generate(principal, input);
        return writeAnswer({ ...result, format: 'native' }, form, 'summary', { model: result.model, provider: result.provider, usage: result.usage });
      }),
  );

  register(
    'list_versions',
    {
      title: 'List the versions of a diagram',
      description:
        'Lists the kept versions of a diagram, newest first (the current one too): version, when, who, door (rest, mcp, web, cli, ai) and a one-line summary ' +
        'of what changed. Every write keeps one; use it to find what to undo, then get_version or restore_version. Paginated like list_diagrams. Needs scope diagrams:read.',
      inputSchema: inputs.listVersions,
      outputSchema: outputs.versions,
      annotations: { readOnlyHint: true },
    },
    (args) => tool(async () => ({ ...(await diagrams.listVersions(principal, args.id, { limit: args.limit, cursor: args.cursor })) })),
  );

  register(
    'get_version',
    {
      title: 'Get one version of a diagram',
      description: 'Returns one kept version of a diagram: its name and every element as they were then, with who wrote it and when. Needs scope diagrams:read.',
      inputSchema: inputs.getVersion,
      outputSchema: outputs.version,
      annotations: { readOnlyHint: true },
    },
    (args) =>
      tool(async () => {
        const { elementsJson, ...version } = await diagrams.getVersion(principal, args.id, args.version);
        return withElementsJson({ ...version }, elementsJson);
      }),
  );

  register(
    'restore_version',
    {
      title: 'Restore a version of a diagram',
      description:
        'Undoes changes: writes a kept version\'s name and elements back as a new version (the versions in between stay in the history, so a restore ' +
        'can itself be undone). With expectedVersion, fails with version_mismatch if the diagram changed since you read it. Needs scope diagrams:write and an editor role.',
      inputSchema: inputs.restoreVersion,
      outputSchema: outputs.diagram,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
    },
    (args) =>
      tool(async () => {
        const result = await diagrams.restoreVersion(principal, args.id, args.version, args.expectedVersion);
        return writeAnswer(result, args.answer, 'summary');
      }),
  );

  register(
    'share_diagram',
    {
      title: 'Share a diagram publicly',
      description:
        'Creates (or returns the existing) public read-only link to a diagram: {url, token, createdAt}. The url is an SVG image anyone can load ' +
        '(embed it in Markdown as ![diagram](url)); it always shows the latest version. Needs scope diagrams:write.',
      inputSchema: inputs.documentId,
      // It makes the diagram readable by anyone with the link: beyond this service, and what was seen stays seen.
      outputSchema: outputs.share,
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
    },
    (args) =>
      tool(async () => {
        const { created: _created, ...share } = await diagrams.share(principal, args.id);
        return share;
      }),
  );

  register(
    'unshare_diagram',
    {
      title: 'Revoke a public link',
      description: 'Removes the public link of a diagram; the old URL stops working at once. Needs scope diagrams:write.',
      inputSchema: inputs.documentId,
      outputSchema: outputs.unshared,
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true },
    },
    (args) =>
      tool(async () => {
        await diagrams.unshare(principal, args.id);
        return { unshared: args.id };
      }),
  );

  register(
    'list_shape_libraries',
    {
      title: 'List icon libraries',
      description:
        'Lists the icon libraries (aws, azure, gcp, kubernetes, databases, brands, generic…) with item counts. ' +
        'To find one icon, search_icons is quicker; the drawbridge://libraries resource has every label.',
      outputSchema: outputs.libraries,
      annotations: { readOnlyHint: true },
    },
    () => tool(async () => services.catalog.libraries()),
  );

  register(
    'search_icons',
    {
      title: 'Search icons',
      description:
        'Finds icons by meaning: "postgres", "s3", "k8s pod", "load balancer", "queue". Returns ranked {library,label,ref}; ' +
        'put the ref in an element\'s iconRef (e.g. "aws/Amazon S3") and the server draws the icon at the top of the box with the label below. ' +
        'Icons only show on node-sized boxes (60–420 wide, 40–260 high). Pass vendor (aws|azure|gcp|kubernetes) to prefer that vendor\'s set.',
      inputSchema: inputs.searchIcons,
      outputSchema: outputs.icons,
      annotations: { readOnlyHint: true },
    },
    (args) => tool(async () => services.catalog.searchIcons(args)),
  );

  register(
    'export_to_code',
    {
      title: 'Export a diagram',
      description:
        `Exports a diagram to ${EXPORT_FORMATS.join(', ')}. mermaid and d2 return {format, code, warnings} (code accepted by the real tools: ` +
        'a flowchart, or erDiagram/classDiagram when the scene is one); excalidraw returns {format, scene, warnings} with a .excalidraw ' +
        'file object. warnings list what the target could not express. Needs scope export.',
      inputSchema: inputs.exportToCode,
      outputSchema: outputs.exported,
      annotations: { readOnlyHint: true },
    },
    (args) => tool(async () => ({ ...(await services.diagrams.exportDocument(principal, args.id, args.format)) })),
  );

  server.registerResource(
    'capabilities',
    'drawbridge://capabilities',
    {
      title: 'Drawing guide',
      description: 'Read once before drawing: element types, fields and allowed values, arrow rules, icon flow, drawing rules, limits and worked examples.',
      mimeType: 'application/json',
    },
    async (uri) => ({ contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(services.catalog.capabilities()) }] }),
  );

  server.registerResource(
    'capabilities-section',
    new ResourceTemplate('drawbridge://capabilities/{section}', {
      list: async () => ({
        resources: services.catalog.sections().map((section) => ({ uri: `drawbridge://capabilities/${section}`, name: `capabilities: ${section}`, mimeType: 'application/json' })),
      }),
    }),
    { title: 'Drawing guide, one section', description: 'One part of the drawing guide (elementTypes, examples, arrowRules, …), for a client that needs only that.', mimeType: 'application/json' },
    async (uri, { section }) => ({
      contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(services.catalog.capabilitiesSection(String(section))) }],
    }),
  );

  server.registerResource(
    'libraries',
    'drawbridge://libraries',
    { title: 'Icon libraries', description: 'Every icon library with all its item labels; refs are "<library>/<Item Label>".', mimeType: 'application/json' },
    async (uri) => ({ contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(services.catalog.libraries({ items: true })) }] }),
  );

  /**
   * Tool calls are dispatched here rather than by McpServer (the SDK lets a handler replace its own) for two answers
   * a model can act on: arguments that fail their schema get REST's validation_failed JSON, naming each field, where
   * McpServer would send a plain sentence; an unknown tool is JSON-RPC's invalid-params error, not a tool result.
   */
  // Nothing here ever changes at run time, so no list_changed notification can come: say so.
  server.server.registerCapabilities({ tools: { listChanged: false }, resources: { listChanged: false } });

  server.server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const registered = tools.get(request.params.name);
    if (!registered) {
      // McpError prefixes "MCP error -32602: " to its message, and clients prefix it again: send the sentence alone.
      const message = `Unknown tool ${request.params.name}: tools/list names the tools`;
      throw Object.assign(new McpError(ErrorCode.InvalidParams, message), { message });
    }
    const handler = registered.handler as (...args: unknown[]) => Promise<CallToolResult>;
    const parsed = (registered.inputSchema as z.ZodType).safeParse(request.params.arguments ?? {});
    if (!parsed.success) {
      const issues = parsed.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message }));
      return toolError(inputValidationError('arguments', issues), log);
    }
    return handler(parsed.data, extra);
  });

  return server;
}
