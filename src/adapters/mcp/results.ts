import { randomBytes } from 'node:crypto';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { isAppError } from '../../core/errors.js';

/**
 * JSON text that goes to the wire as it is, for one MCP request.
 *
 * A stored document is kept as JSON text; parsing it into `structuredContent` only for the SDK to serialise it again
 * (twice, with the text block) was 40% of a get_diagram call on a 26 KB document. The SDK serialises each message
 * with JSON.stringify, which has no raw-JSON hook on Node 20 (JSON.rawJSON arrives with V8 11.4), so a result holds a
 * placeholder that serialises as a string tagged with this request's random nonce, and the route splices the JSON in
 * its place. A client's own text cannot forge a placeholder: it would have to guess the nonce.
 */
export class RawJsonSplice {
  private tag = '';
  private readonly pieces: string[] = [];

  /** The placeholder string that stands for `json` (one complete JSON value) once serialised. */
  hold(json: string): string {
    // ASCII on purpose: one non-Latin-1 character would make the whole spliced response a slower two-byte string.
    this.tag ||= `drawbridge-raw-${randomBytes(12).toString('hex')}-`;
    return `${this.tag}${this.pieces.push(json) - 1}`;
  }

  /** The serialised message with every placeholder replaced by the JSON it stands for. */
  apply(serialized: string): string {
    if (this.pieces.length === 0) return serialized;
    const placeholder = new RegExp(`"${this.tag}(\\d+)"`, 'g');
    return serialized.replace(placeholder, (_match, index: string) => this.pieces[Number(index)]!);
  }
}

/** A tool's answer: structured for clients that read `structuredContent`, and the same JSON as text for the rest. */
export function toolResult(value: Record<string, unknown>): CallToolResult {
  return { structuredContent: value, content: [{ type: 'text', text: JSON.stringify(value) }] };
}

/**
 * The same, from JSON text already at hand (a stored document), spliced in unparsed. The SDK checks the result's
 * shape before sending it, so the text is a placeholder string and the structured content an object serialising as one.
 */
function toolResultFromJson(json: string, splice: RawJsonSplice): CallToolResult {
  const structured = splice.hold(json);
  return {
    structuredContent: { toJSON: () => structured },
    content: [{ type: 'text', text: splice.hold(JSON.stringify(json)) }],
  };
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
  splice: RawJsonSplice,
): Promise<CallToolResult> {
  try {
    const value = await body();
    return typeof value === 'string' ? toolResultFromJson(value, splice) : toolResult(value);
  } catch (error) {
    return toolError(error, log);
  }
}
