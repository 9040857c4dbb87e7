import { z } from 'zod';
import { EXPORT_FORMATS } from '../core/export/index.js';
import { DETAIL_FOLD_NODES, DETAIL_LEVELS, FOLD_NODES } from '../core/graph/fold.js';
import { NOTATIONS } from '../core/graph/types.js';
import { iconSearchQuery, vendor } from '../core/icons/query.js';
import { LIMITS } from '../core/limits.js';
import { ELEMENT_TYPES } from '../core/scene/constants.js';
import { operationsInput } from '../core/scene/operations.js';
import { ROLES, SCOPES } from '../core/scopes.js';
import { DIAGRAM_KINDS } from '../core/ai/answer.js';
import { AI_PROVIDERS } from './ai-settings.js';
import { DOORS } from './principal.js';

/**
 * The one set of request/response schemas. REST routes validate and document with them (the OpenAPI document is
 * generated from them); MCP tools take their input schemas from them.
 */

const id = (prefix: string, what: string) =>
  z.string().regex(new RegExp(`^${prefix}_[0-9A-Za-z]+$`), `must be a ${what} id (${prefix}_…)`);

export const workspaceId = id('ws', 'workspace').describe('Workspace id (ws_…)');
export const folderId = id('fld', 'folder').describe('Folder id (fld_…)');
export const documentId = id('doc', 'document').describe('Document id (doc_…)');
export const tokenId = id('tok', 'token').describe('API token id (tok_…)');

export const name = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  // One line of text: PostgreSQL cannot store U+0000 at all, and the other controls break every listing.
  .refine((value) => !/[\u0000-\u001f\u007f]/.test(value), 'must not contain control characters (U+0000–U+001F, U+007F)')
  .max(LIMITS.nameLength, `must be at most ${LIMITS.nameLength} characters`);

export const timestamp = z.string().describe('ISO-8601 UTC timestamp');

/** Only the outer shape is checked here; the scene intake checks each element with precise per-element messages. */
export const elementsInput = z
  .union([z.array(z.record(z.string(), z.unknown())), z.looseObject({ type: z.string() })], {
    error: 'elements must be an array of element objects, or an Excalidraw scene object',
  })
  .describe(
    'The scene: an array of elements in the native schema, or an Excalidraw scene (a .excalidraw file object, its clipboard form, or a bare Excalidraw elements array). ' +
      `Element types: ${ELEMENT_TYPES.join(', ')}. Every field and rule is in the drawing guide: GET /api-v1/capabilities, or the MCP resource drawbridge://capabilities.`,
  );

export const element = z.looseObject({ id: z.string(), type: z.string() }).describe('A scene element (native schema)');

/**
 * A request body or tool input that refuses fields it does not know, naming them and the ones it takes: a misspelt
 * `elemnts` would otherwise be dropped and an empty diagram stored without a word.
 */
export function strictBody<Shape extends z.ZodRawShape>(shape: Shape) {
  const fields = Object.keys(shape).join(', ');
  return z.strictObject(shape, {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? `unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((key) => JSON.stringify(key)).join(', ')}; ${fields ? `the fields are ${fields}` : 'it takes none'}`
        : undefined,
  });
}

export const pageQuery = {
  limit: z.coerce
    .number({ error: `limit must be an integer between 1 and ${LIMITS.pageSizeMax}` })
    .int(`limit must be an integer between 1 and ${LIMITS.pageSizeMax}`)
    .min(1, `limit must be an integer between 1 and ${LIMITS.pageSizeMax}`)
    .max(LIMITS.pageSizeMax, `limit must be an integer between 1 and ${LIMITS.pageSizeMax}`)
    .default(LIMITS.pageSizeDefault)
    .describe(`Page size, 1–${LIMITS.pageSizeMax} (default ${LIMITS.pageSizeDefault})`),
  cursor: z.string().optional().describe('The nextCursor of the previous page'),
};

export const workspaceSummary = z.object({ id: z.string(), name: z.string(), role: z.enum(ROLES) });
export const workspaceList = z.object({ items: z.array(workspaceSummary) });

export const folderSummary = z.object({ id: z.string(), name: z.string(), workspaceId: z.string(), createdAt: timestamp });
export const folderPage = z.object({ items: z.array(folderSummary), nextCursor: z.string().nullable() });
export const listFoldersQuery = z.object({ workspace: workspaceId, ...pageQuery });
export const createFolderBody = strictBody({ workspaceId, name });

export const documentSummary = z.object({
  id: z.string(),
  name: z.string(),
  workspaceId: z.string(),
  folderId: z.string().nullable(),
  version: z.number().int(),
  createdAt: timestamp,
  updatedAt: timestamp,
});
export const documentPage = z.object({ items: z.array(documentSummary), nextCursor: z.string().nullable() });
export const shareInfo = z.object({
  url: z.string().describe('Public image URL: {PUBLIC_URL}/render/svg?token=…'),
  token: z.string(),
  createdAt: timestamp,
});
const detailLevel = z.enum(DETAIL_LEVELS).optional();
export const diagramSource = z.object({ notation: z.string(), code: z.string(), detail: detailLevel.describe('How much was drawn, when not the default') });
export const fullDocument = documentSummary.extend({
  createdBy: z.string(),
  share: shareInfo.nullable().describe('The public read-only link, when the document is shared'),
  vendor: vendor.nullable().describe('Icon vendor the diagram is drawn for; later writes without one keep it'),
  source: diagramSource.nullable().describe('The code a from-code diagram was drawn from (PATCH code redraws it)'),
  elements: z.array(element),
});
/** Write responses also say what the intake noticed: dropped fields, the detected format. */
export const writtenDocument = fullDocument.extend({
  warnings: z.array(z.string()),
  format: z.enum(['native', 'excalidraw']),
});

/** Version history (service/history.ts): one entry per kept version, newest first. */
export const versionNumber = z.coerce
  .number({ error: 'a version is a whole number from 1' })
  .int('a version is a whole number from 1')
  .min(1, 'a version is a whole number from 1')
  .max(Number.MAX_SAFE_INTEGER, 'a version is a whole number from 1')
  .describe('Version number (the document\'s version when it was written)');
export const versionSummary = z.object({
  version: z.number().int(),
  createdAt: timestamp,
  author: z.object({ id: z.string(), name: z.string().nullable(), email: z.string().nullable() }).describe('Who wrote this version (name and email null if the account is gone)'),
  door: z.enum(DOORS).nullable().describe('How it was written: rest, mcp, web, cli or ai (an AI edit); null before history was kept'),
  summary: z.string().describe('What the write did: elements added, changed, removed; renamed; "restored version N: …"'),
});
export const versionPage = z.object({ items: z.array(versionSummary), nextCursor: z.string().nullable() });
export const storedVersion = versionSummary.extend({
  name: z.string(),
  source: diagramSource.optional().describe('For a diagram drawn from code: the code this version was drawn from (restored with it)'),
  elements: z.array(element),
});
export const listVersionsQuery = z.object(pageQuery);

export const listDocumentsQuery = z
  .object({ workspace: workspaceId.optional(), folder: folderId.optional(), ...pageQuery })
  .refine((q) => (q.workspace === undefined) !== (q.folder === undefined), {
    message: 'give exactly one of the query parameters workspace or folder',
  });

/** How the server stamps icons on the elements it receives (see the capabilities guide). */
export const stampingOptions = {
  vendor: vendor.optional(),
  autoIcons: z.boolean().optional().describe('false: no best-guess icons on labelled nodes (explicit iconRef still applies). Default true.'),
};

/** One field for REST and MCP: structure first, the server computes the coordinates. */
export const layoutOption = z
  .enum(['auto'])
  .optional()
  .describe(
    '"auto": elements sent without x/y are placed by the layout engine (containers from parentId/frameId, arrows bound at both ends routed); elements with x/y keep them',
  );

/** The code of a diagram drawn from code, for creating and redrawing alike (its size is checked with the parse). */
const sourceCode = z.string().min(1, 'code must not be empty');

/** On an existing diagram "all" also exists: REST PATCH and MCP update_diagram read this one field. */
export const relayoutOption = z
  .enum(['auto', 'all'])
  .optional()
  .describe(
    '"auto": only elements without x/y are placed (inside their container, which grows); "all": everything is laid out again, keeping ids, containment, styles, labels, roles and icons (may be sent alone)',
  );

export const createDocumentBody = strictBody({
  workspaceId,
  name,
  folderId: folderId.optional(),
  elements: elementsInput.optional(),
  layout: layoutOption,
  ...stampingOptions,
});

/** What a write answers: edits by element answer lean by default, a whole scene sent answers the whole document. */
export const writeAnswerForm = z
  .enum(['ids', 'summary', 'full'])
  .optional()
  .describe('ids: id, version, the element ids added/updated/removed and warnings (default with operations); summary: also a scene summary; full: the whole stored document (default with elements over REST)');

/** "At least one of name, elements or operations" is the service's rule (updateDocument), so both doors share it. */
export const updateDocumentBody = strictBody({
  name: name.optional(),
  elements: elementsInput.optional(),
  operations: operationsInput.optional(),
  code: sourceCode
    .optional()
    .describe('For a diagram drawn from code: its new code. The diagram is redrawn; what you changed by hand (moves, resizes, styles, added elements) is kept where its element is still drawn, and warnings list what was kept and dropped'),
  notation: z.enum(NOTATIONS).optional().describe('With code: read it as this notation (default: the notation it was drawn from)'),
  detail: detailLevel.describe('With code: auto folds large infrastructure graphs, full draws every node (default: as it was drawn)'),
  layout: relayoutOption,
  ...stampingOptions,
  answer: writeAnswerForm,
});

/** The answer to an edit by element: what changed, not the scene. */
export const editedDocument = documentSummary.extend({
  touched: z.object({ added: z.array(z.string()), updated: z.array(z.string()), removed: z.array(z.string()) }).describe('Element ids the write added, changed (also as a consequence) and removed'),
  warnings: z.array(z.string()),
  format: z.enum(['native', 'excalidraw']),
});

export const fromCodeBody = strictBody({
  workspaceId,
  code: sourceCode.describe('The source: docker-compose, Kubernetes manifests, Graphviz DOT, PlantUML, Terraform, Helm values, SQL DDL, Mermaid or D2 (up to 1 MiB)'),
  folderId: folderId.optional(),
  name: name.optional().describe('Defaults to "<notation> diagram"'),
  notation: z.enum(NOTATIONS).optional().describe('Skip detection and read the code as this notation'),
  detail: detailLevel.describe(
    `auto (default): above ${FOLD_NODES} nodes (${DETAIL_FOLD_NODES} when a third are volumes, config or secrets), Compose, Kubernetes, Helm and Terraform fold volumes, config and secrets into rows on their workload, and above ${FOLD_NODES} merge services wired alike; SQL schemas and Mermaid ER diagrams above ${FOLD_NODES} tables, or too large to read column by column, show each table's keys and a count of its other columns, and name a table most foreign keys point at on the referencing columns (said in warnings); full: draw every node`,
  ),
  ...stampingOptions,
});
export const fromCodeResult = writtenDocument.extend({ notation: z.enum(NOTATIONS) });

export const aiSettingsBody = strictBody({
  provider: z.enum(AI_PROVIDERS),
  model: z.string().trim().min(1).max(200).describe('The provider\'s model name, e.g. gpt-4.1-mini, claude-sonnet-4-5, gemini-2.5-flash, llama3.1'),
  key: z.string().min(1).max(4096).describe('The API key; stored encrypted, never returned (only its last 4 characters)'),
  baseUrl: z.string().max(2000).optional().describe('The API base URL: required for openai-compatible (Ollama: http://localhost:11434/v1); for the others, a proxy or Azure endpoint'),
});
export const aiSettingsView = z
  .object({ provider: z.enum(AI_PROVIDERS), model: z.string(), baseUrl: z.string().nullable(), keyLast4: z.string(), updatedAt: timestamp })
  .describe('Saved AI settings; the key only as its last 4 characters');
export const aiSettingsResult = z.object({ settings: aiSettingsView.nullable() });

export const generateBody = strictBody({
  workspaceId: workspaceId.optional().describe('Where to create the diagram (not needed with documentId)'),
  prompt: z.string().trim().min(1, 'prompt must not be empty').max(LIMITS.promptLength, `prompt must be at most ${LIMITS.promptLength} characters`),
  folderId: folderId.optional(),
  name: name.optional().describe('Defaults to the title the model gives'),
  kind: z.enum(DIAGRAM_KINDS).optional().describe('What to draw; the model chooses when absent'),
  documentId: documentId.optional().describe('Change this diagram as the prompt says instead of creating one'),
  expectedVersion: z.number().int().positive().optional().describe('With documentId: refuse (412) when the document has moved past this version'),
  vendor: vendor.optional(),
});
export const generateResult = writtenDocument.extend({
  model: z.string(),
  provider: z.enum(AI_PROVIDERS),
  usage: z.object({ inputTokens: z.number().int(), outputTokens: z.number().int() }),
});

export const scope = z.enum(SCOPES);

export const iconSearchResults = z.object({
  items: z.array(z.object({ library: z.string(), label: z.string(), ref: z.string() })),
  hint: z.string().optional().describe('When nothing matches: what to search for instead'),
});
export const librariesQuery = z.object({
  items: z.enum(['0', '1', 'true', 'false']).optional().describe('1: include every item label of every library'),
});
export const libraryList = z.object({
  libraries: z.array(z.object({ id: z.string(), name: z.string(), count: z.number().int(), items: z.array(z.string()).optional() })),
});

export const exportQuery = z.object({
  format: z.string().describe(`One of ${EXPORT_FORMATS.join(', ')}`),
});

export type DocumentSummary = z.infer<typeof documentSummary>;
export type FolderSummary = z.infer<typeof folderSummary>;
export type WorkspaceSummary = z.infer<typeof workspaceSummary>;

export { iconSearchQuery, vendor };
