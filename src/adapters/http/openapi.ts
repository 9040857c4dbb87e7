/**
 * What the route schemas cannot say about themselves in the OpenAPI document: each operation's stable id (the name
 * a generated client gives its method), the refusals every route shares, in the one error form the service sends,
 * and the licence. Applied to the finished document, so a route only declares what is its own.
 */
import { ERROR_CODES } from '../../core/errors.js';
import { dictionary } from '../../core/dictionary.js';

/** One per operation: a route added without one fails test/openapi-lint.test.ts. */
const OPERATION_IDS: Readonly<Record<string, string>> = dictionary({
  'GET /healthz': 'getHealth',
  'GET /readyz': 'getReadiness',
  'GET /api-v1': 'getServiceIndex',
  'GET /api-v1/workspaces': 'listWorkspaces',
  'GET /api-v1/folders': 'listFolders',
  'POST /api-v1/folders': 'createFolder',
  'GET /api-v1/documents': 'listDocuments',
  'POST /api-v1/documents': 'createDocument',
  'POST /api-v1/documents/from-code': 'createDocumentFromCode',
  'POST /api-v1/documents/generate': 'generateDocument',
  'GET /api-v1/documents/{id}': 'getDocument',
  'PATCH /api-v1/documents/{id}': 'updateDocument',
  'DELETE /api-v1/documents/{id}': 'deleteDocument',
  'GET /api-v1/documents/{id}/versions': 'listDocumentVersions',
  'GET /api-v1/documents/{id}/versions/{n}': 'getDocumentVersion',
  'POST /api-v1/documents/{id}/versions/{n}/restore': 'restoreDocumentVersion',
  'GET /api-v1/documents/{id}/export': 'exportDocument',
  'GET /api-v1/documents/{id}/render': 'renderDocument',
  'POST /api-v1/documents/{id}/generate': 'generateDocumentChange',
  'POST /api-v1/documents/{id}/share': 'shareDocument',
  'DELETE /api-v1/documents/{id}/share': 'unshareDocument',
  'GET /api-v1/capabilities': 'getCapabilities',
  'GET /api-v1/libraries': 'listIconLibraries',
  'GET /api-v1/icons': 'searchIcons',
  'GET /api-v1/me/ai': 'getMyAiSettings',
  'PUT /api-v1/me/ai': 'setMyAiSettings',
  'DELETE /api-v1/me/ai': 'deleteMyAiSettings',
  'GET /api-v1/workspaces/{id}/ai': 'getWorkspaceAiSettings',
  'PUT /api-v1/workspaces/{id}/ai': 'setWorkspaceAiSettings',
  'DELETE /api-v1/workspaces/{id}/ai': 'deleteWorkspaceAiSettings',
  'GET /render/svg': 'renderSharedSvg',
});

const ERROR_SCHEMA = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: {
        code: { type: 'string', enum: [...ERROR_CODES] },
        message: { type: 'string', description: 'What was wrong: the element, field or expectation' },
        details: { description: 'Figures for a program: the limit, the allowed values, retryAfterSeconds, … For parse_error: line and column (1-based) of the error in the code, when the notation\'s parser gives them.' },
      },
    },
  },
} as const;

const refusal = (description: string) => ({ description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } });

/** The refusals any route with a token may answer (a route's own 4xx, when it declares one, is kept). */
const TOKEN_ROUTE_REFUSALS = {
  400: refusal('The request is malformed or a field is invalid: the message names it'),
  401: refusal('No API token, or one that is unknown, revoked or expired'),
  403: refusal("The token lacks the scope, or the caller's role does not allow it"),
  404: refusal('Not found, or not visible to this token (the same answer)'),
  429: refusal('Over the rate limit: wait as long as Retry-After says'),
};
const PUBLIC_ROUTE_REFUSALS = { '4XX': refusal('Refused: the error says why') };

type Operation = { operationId?: string; security?: unknown[]; responses?: Record<string, unknown> };

/** The document @fastify/swagger built, completed (its type is the plugin's, which names no OpenAPI version). */
export function completeOpenApi<T extends { paths?: object; info?: object; components?: { schemas?: object } }>(document: T): T {
  for (const [path, methods] of Object.entries((document.paths ?? {}) as Record<string, Record<string, Operation>>)) {
    for (const [method, operation] of Object.entries(methods)) {
      operation.operationId ??= OPERATION_IDS[`${method.toUpperCase()} ${path}`];
      const isPublic = Array.isArray(operation.security) && operation.security.length === 0;
      operation.responses = { ...(isPublic ? PUBLIC_ROUTE_REFUSALS : TOKEN_ROUTE_REFUSALS), ...operation.responses };
    }
  }
  return {
    ...document,
    info: { ...document.info, license: { name: 'MIT', identifier: 'MIT' } },
    components: { ...document.components, schemas: { ...document.components?.schemas, Error: ERROR_SCHEMA } },
  };
}
