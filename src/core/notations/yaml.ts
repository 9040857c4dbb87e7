/**
 * YAML text → plain data for every YAML notation (Compose, Kubernetes, Helm values): syntax errors become parse_error
 * with line and column, and alias expansion is bounded in one place.
 */
import { type Document, parseAllDocuments, parseDocument, type YAMLError } from 'yaml';
import { AppError } from '../errors.js';

/** Aliases may expand at most this many times: real files use dozens (sentry's compose ~200); a "billion laughs" needs millions. */
export const YAML_MAX_ALIAS_COUNT = 10_000;

function toParseError(error: YAMLError): AppError {
  const position = error.linePos?.[0];
  const reason = error.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
  if (!position) return new AppError('parse_error', `YAML: ${reason}`);
  return new AppError('parse_error', `line ${position.line}, column ${position.col}: ${reason}`, { line: position.line, column: position.col });
}

function toData(document: Document): unknown {
  const error = document.errors[0];
  if (error) throw toParseError(error);
  try {
    return document.toJS({ maxAliasCount: YAML_MAX_ALIAS_COUNT });
  } catch (error) {
    // Building the data throws plain errors: a ReferenceError at the alias limit, an Error for a merge of a non-map.
    if (error instanceof ReferenceError && /alias/i.test(error.message)) {
      throw new AppError('parse_error', `YAML: aliases expand more than ${YAML_MAX_ALIAS_COUNT} times, the limit (a "billion laughs" input?)`);
    }
    throw new AppError('parse_error', `YAML: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** One YAML document, with YAML 1.1 merge keys (`<<: *anchor`) resolved as Compose does. */
export function parseYaml(code: string): unknown {
  return toData(parseDocument(code, { merge: true }));
}

/** Every document of a YAML stream (Kubernetes manifests); duplicate keys are tolerated as kubectl tolerates them. */
export function parseYamlDocuments(code: string): unknown[] {
  return parseAllDocuments(code, { merge: true, uniqueKeys: false }).map(toData);
}

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
