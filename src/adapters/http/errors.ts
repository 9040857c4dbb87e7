import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError, type ErrorCode, inputValidationError, isAppError } from '../../core/errors.js';
import { LIMITS } from '../../core/limits.js';
import type { RateDecision } from '../../infra/rate-limit.js';

/** The HTTP status of each error code: the only place REST decides it. */
export const HTTP_STATUS: Record<ErrorCode, number> = {
  bad_request: 400,
  validation_failed: 400,
  invalid_cursor: 400,
  unsupported_notation: 400,
  unsupported_format: 400,
  parse_error: 400,
  unauthorized: 401,
  insufficient_scope: 403,
  forbidden: 403,
  plan_required: 403,
  not_found: 404,
  method_not_allowed: 405,
  version_mismatch: 412,
  payload_too_large: 413,
  unsupported_media_type: 415,
  too_complex: 422,
  rate_limited: 429,
  internal: 500,
  busy: 503,
  ai_not_configured: 400,
  ai_provider_error: 502,
  ai_rate_limited: 429,
  ai_timeout: 504,
  ai_invalid_output: 502,
};

const STATUS_CODE: Partial<Record<number, ErrorCode>> = { 400: 'bad_request', 404: 'not_found', 405: 'method_not_allowed', 413: 'payload_too_large', 415: 'unsupported_media_type' };

export function errorBody(code: ErrorCode, message: string, details?: unknown) {
  return { error: details === undefined ? { code, message } : { code, message, details } };
}

export function setRateHeaders(reply: FastifyReply, rate: RateDecision): void {
  reply.header('RateLimit-Limit', rate.limit);
  reply.header('RateLimit-Remaining', rate.remaining);
  reply.header('RateLimit-Reset', rate.resetSeconds);
}

/**
 * Turns anything thrown into the JSON error form; a 5xx never shows its cause to the client. `resourceMetadata`,
 * on an OAuth-protected resource, is the metadata URL every 401 names (RFC 9728 §5.1).
 */
export function toErrorResponse(error: unknown, request: FastifyRequest, reply: FastifyReply, resourceMetadata?: string) {
  if (isAppError(error)) return sendAppError(error, reply, resourceMetadata);
  const fastifyError = error as FastifyError;
  if (hasZodFastifySchemaValidationErrors(fastifyError)) {
    const where = fastifyError.validationContext === 'querystring' ? 'query' : (fastifyError.validationContext ?? 'body');
    const issues = fastifyError.validation.map((issue) => ({ path: issue.instancePath.replace(/^\//, '').replaceAll('/', '.'), message: issue.message ?? 'is not valid' }));
    return sendAppError(inputValidationError(where, issues), reply);
  }
  const status = fastifyError.statusCode;
  if (status !== undefined && status >= 400 && status < 500) {
    const code = STATUS_CODE[status] ?? 'bad_request';
    return reply.code(HTTP_STATUS[code]).send(errorBody(code, clientMessage(fastifyError)));
  }
  request.log.error({ err: error }, 'unhandled error');
  return reply.code(500).send(errorBody('internal', `internal error; quote request id ${request.id} when reporting it`));
}

function sendAppError(error: AppError, reply: FastifyReply, resourceMetadata?: string) {
  if (error.code === 'unauthorized') reply.header('WWW-Authenticate', wwwAuthenticate(error, resourceMetadata));
  let details = error.details;
  if (error.code === 'rate_limited') {
    const { rate } = error.details as { rate: RateDecision };
    setRateHeaders(reply, rate);
    reply.header('Retry-After', rate.resetSeconds);
    details = { retryAfterSeconds: rate.resetSeconds };
  }
  if (error.code === 'busy' || error.code === 'ai_rate_limited') reply.header('Retry-After', (error.details as { retryAfterSeconds: number }).retryAfterSeconds);
  return reply.code(HTTP_STATUS[error.code]).send(errorBody(error.code, error.message, details));
}

/**
 * RFC 6750: a request without a token gets the bare challenge; one with a bad token gets error="invalid_token" and
 * why, which tells an MCP bridge (mcp-remote) that the token is the problem, not a missing OAuth sign-in.
 */
function wwwAuthenticate(error: AppError, resourceMetadata?: string): string {
  const reason = (error.details as { reason?: string } | undefined)?.reason;
  if (reason === undefined || reason === 'missing') return bearerChallenge(resourceMetadata);
  return bearerChallenge(resourceMetadata, { error: 'invalid_token', error_description: error.message });
}

/** A Bearer challenge (RFC 6750 §3) with its parameters quoted; quotes and backslashes in values become apostrophes. */
export function bearerChallenge(resourceMetadata: string | undefined, params: Record<string, string> = {}): string {
  // resource_metadata is how an MCP client that was given only the URL finds where to sign the user in.
  const all = { realm: 'drawbridge', ...(resourceMetadata === undefined ? {} : { resource_metadata: resourceMetadata }), ...params };
  return `Bearer ${Object.entries(all).map(([name, value]) => `${name}="${value.replace(/["\\]/g, "'")}"`).join(', ')}`;
}

/** Fastify's own 4xx messages, reworded where they name internals. */
function clientMessage(error: FastifyError): string {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return `the request body is not valid JSON: ${error.message}`;
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return `the request body is larger than the ${LIMITS.requestBodyBytes / (1024 * 1024)} MiB limit`;
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return 'send the request body as application/json';
    default:
      return error.message;
  }
}
