import { parseAllDocuments, type YAMLError } from 'yaml';
import { AppError } from '../../errors.js';

/**
 * Every YAML document of `code` as plain data (Kubernetes streams and Helm values alike). The first syntax error
 * becomes a parse_error with the line and column the yaml package reports for the whole input.
 */
export function parseYamlDocuments(code: string): unknown[] {
  // Merge keys (`<<: *defaults`) are common in values files; `merge` resolves them as YAML 1.1 did.
  const docs = parseAllDocuments(code, { merge: true, uniqueKeys: false });
  for (const doc of docs) {
    const error = doc.errors[0];
    if (error) throw yamlParseError(error);
  }
  return docs.map((doc) => doc.toJS() as unknown);
}

function yamlParseError(error: YAMLError): AppError {
  const { line, col: column } = error.linePos?.[0] ?? { line: 1, col: 1 };
  const reason = error.message.split(' at line ')[0] ?? error.message;
  return new AppError('parse_error', `line ${line}, column ${column}: ${reason}`, { line, column });
}

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
