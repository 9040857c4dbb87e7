/** YAML text → plain data, with syntax errors turned into parse_error carrying line and column. */
import { parseDocument, type YAMLError } from 'yaml';
import { AppError } from '../../errors.js';

/** Aliases may expand at most this many times: real files use dozens (sentry's compose ~200); a "billion laughs" needs millions. */
export const YAML_MAX_ALIAS_COUNT = 10_000;

function toParseError(error: YAMLError): AppError {
  const position = error.linePos?.[0];
  const reason = error.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
  if (!position) return new AppError('parse_error', `YAML: ${reason}`);
  return new AppError('parse_error', `line ${position.line}, column ${position.col}: ${reason}`, { line: position.line, column: position.col });
}

/** One YAML document, with YAML 1.1 merge keys (`<<: *anchor`) resolved as Compose does. */
export function parseYaml(code: string): unknown {
  const document = parseDocument(code, { merge: true });
  const error = document.errors[0];
  if (error) throw toParseError(error);
  return document.toJS({ maxAliasCount: YAML_MAX_ALIAS_COUNT });
}
