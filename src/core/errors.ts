/**
 * The one error type of Drawbridge. Core stages throw it with a stable `code`; each adapter maps the code to its
 * own form (HTTP status in `adapters/http/errors.ts`, `isError` tool results in MCP). Messages are written for the
 * person or model that sent the input: which element, which field, what was expected.
 */
export const ERROR_CODES = [
  'bad_request',
  'validation_failed',
  'invalid_cursor',
  'unauthorized',
  'insufficient_scope',
  'forbidden',
  'not_found',
  'method_not_allowed',
  'version_mismatch',
  'payload_too_large',
  'unsupported_media_type',
  'unsupported_notation',
  'unsupported_format',
  'parse_error',
  'rate_limited',
  'internal',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const isAppError = (value: unknown): value is AppError => value instanceof AppError;
