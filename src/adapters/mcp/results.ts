import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { isAppError } from '../../core/errors.js';

/** A tool's answer: structured for clients that read `structuredContent`, and the same JSON as text for the rest. */
export function toolResult(value: Record<string, unknown>): CallToolResult {
  return { structuredContent: value, content: [{ type: 'text', text: JSON.stringify(value) }] };
}

/** The same, from JSON text already at hand (a stored document): parsed once, never re-serialised by us. */
export function toolResultFromJson(json: string): CallToolResult {
  return { structuredContent: JSON.parse(json) as Record<string, unknown>, content: [{ type: 'text', text: json }] };
}

/**
 * Errors become tool errors a model can act on, with the same code and message REST sends. Anything unexpected is
 * reported without its internals.
 */
export function toolError(error: unknown, log: { error(details: object, message: string): void }): CallToolResult {
  if (!isAppError(error)) log.error({ err: error }, 'tool failed');
  const body = isAppError(error)
    ? { error: { code: error.code, message: error.message, ...(error.details === undefined ? {} : { details: error.details }) } }
    : { error: { code: 'internal', message: 'internal error' } };
  return { isError: true, content: [{ type: 'text', text: JSON.stringify(body) }] };
}

/** Runs a tool body (returning an object, or its JSON text) and turns what it returns or throws into a tool result. */
export async function runTool(
  body: () => Promise<Record<string, unknown> | string>,
  log: { error(details: object, message: string): void },
): Promise<CallToolResult> {
  try {
    const value = await body();
    return typeof value === 'string' ? toolResultFromJson(value) : toolResult(value);
  } catch (error) {
    return toolError(error, log);
  }
}
