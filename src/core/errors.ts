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
  'plan_required',
  'not_found',
  'method_not_allowed',
  'version_mismatch',
  'payload_too_large',
  'unsupported_media_type',
  'unsupported_notation',
  'unsupported_format',
  'parse_error',
  'too_complex',
  'rate_limited',
  'busy',
  'ai_not_configured',
  'ai_provider_error',
  'ai_rate_limited',
  'ai_timeout',
  'ai_invalid_output',
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

/**
 * A client's value as a message shows it. Never throws: `String()` does on `{"toString": 1}`, and a message about bad
 * input must survive the bad input.
 */
export function describeValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value);
  if (Array.isArray(value)) return 'an array';
  if (value === null) return 'null';
  if (typeof value === 'object') return 'an object';
  return String(value);
}

export const isAppError = (value: unknown): value is AppError => value instanceof AppError;

/** One failed check of a request's input: where it is (`body.name`, `arguments.limit`) and what was expected. */
export interface InputIssue {
  path: string;
  message: string;
}

/**
 * The error both doors give for input that fails its schema, so REST and MCP word it the same way.
 * `where` names the part of the request (`body`, `query`, `arguments`); issue paths are relative to it.
 */
export function inputValidationError(where: string, issues: ReadonlyArray<{ path: string; message: string }>): AppError {
  const located: InputIssue[] = issues.map((issue) => ({ path: issue.path ? `${where}.${issue.path}` : where, message: issue.message }));
  return new AppError('validation_failed', located.map((i) => `${i.path}: ${i.message}`).join('; '), { issues: located });
}
