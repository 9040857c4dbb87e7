/**
 * YAML text → plain data for every YAML notation (Compose, Kubernetes, Helm values): syntax errors become parse_error
 * with line and column, and alias expansion is bounded in one place.
 */
import { type Document, isMap, isNode, isScalar, isSeq, LineCounter, parseAllDocuments, parseDocument, type YAMLError } from 'yaml';
import { AppError } from '../errors.js';

/** Aliases may expand at most this many times: real files use dozens (sentry's compose ~200); a "billion laughs" needs millions. */
export const YAML_MAX_ALIAS_COUNT = 10_000;

function toParseError(error: YAMLError): AppError {
  const position = error.linePos?.[0];
  const reason = error.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
  if (!position) return new AppError('parse_error', `YAML: ${reason}`);
  return new AppError('parse_error', `line ${position.line}, column ${position.col}: ${reason}`, { line: position.line, column: position.col });
}

/** `--- services:`: YAML 1.2 wants a block map on the line after `---`; libyaml, and so Compose and kubectl, read it
 * on the same line, and the yaml package recovers the same data. */
const tolerated = (error: YAMLError): boolean => /^Block collection cannot start on same line with directives-end marker/.test(error.message);

function toData(document: Document): unknown {
  const error = document.errors.find((e) => !tolerated(e));
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

/** A YAML document's data and where its keys are: warnings name the line of what they are about. */
export interface LocatedYaml {
  data: unknown;
  /** What was read leniently (duplicate keys, when the caller's tool tolerates them). */
  warnings: string[];
  /** Line (1-based) of the value at `path`, or of its nearest ancestor written in the text (values merged from an
   * anchor with `<<` are not); undefined for the document root. */
  lineOf(path: ReadonlyArray<string | number>): number | undefined;
  /**
   * The comment written just above a key, top-level or at a path of keys (`['image', 'repository']`), its lines
   * joined by newlines (Helm values explain keys so).
   */
  commentAbove(key: string | ReadonlyArray<string>): string | undefined;
}

/**
 * One YAML document, with YAML 1.1 merge keys (`<<: *anchor`) resolved as Compose does, able to tell lines.
 * `duplicateKeys: 'last wins'` reads a key written twice in one map as Helm does (Go's YAML reader keeps the last),
 * naming each in a warning; by default a duplicate is a parse_error, as in Compose.
 */
export function parseLocatedYaml(code: string, options: { duplicateKeys?: 'refuse' | 'last wins' } = {}): LocatedYaml {
  const lineCounter = new LineCounter();
  const document = parseDocument(code, { merge: true, lineCounter });
  const duplicates = document.errors.filter((error) => error.code === 'DUPLICATE_KEY');
  if (options.duplicateKeys !== 'last wins' || duplicates.length === 0 || duplicates.length !== document.errors.length) return locate(document, lineCounter, code);
  const lenient = locate(parseDocument(code, { merge: true, uniqueKeys: false, lineCounter: new LineCounter() }), lineCounter, code);
  const lines = code.split('\n');
  for (const error of duplicates) {
    const line = error.linePos?.[0]?.line ?? 0;
    const key = /^\s*(?:-\s+)?("[^"]*"|'[^']*'|[^:#]+?)\s*:/.exec(lines[line - 1] ?? '')?.[1] ?? 'a key';
    lenient.warnings.push(`line ${line}: ${key} is written twice in one map; the last one is used`);
  }
  return lenient;
}

/** Every document of a YAML stream (Kubernetes manifests), each able to tell lines; duplicate keys are tolerated as
 * kubectl tolerates them. */
export function parseLocatedYamlDocuments(code: string): LocatedYaml[] {
  const lineCounter = new LineCounter();
  return parseAllDocuments(code, { merge: true, uniqueKeys: false, lineCounter }).map((document) => locate(document, lineCounter, code));
}

function locate(document: Document, lineCounter: LineCounter, code: string): LocatedYaml {
  return {
    data: toData(document),
    warnings: [],
    commentAbove(key) {
      const path = typeof key === 'string' ? [key] : key;
      const contents = path.length === 1 ? document.contents : document.getIn(path.slice(0, -1), true);
      if (!isMap(contents)) return undefined;
      const at = contents.items.findIndex((pair) => (isScalar(pair.key) ? pair.key.value : pair.key) === path.at(-1));
      const pair = contents.items[at];
      if (path.length > 1) {
        // Read from the text: after an empty value (`registry:  # note`), the reader gives the next key's first comment
        // line to that value (traefik's `image.repository` lost "-- Traefik image repository. Defaults to `traefik`").
        const start = isNode(pair?.key) ? pair.key.range?.[0] : undefined;
        if (start === undefined) return undefined;
        const lines = code.split('\n').slice(0, lineCounter.linePos(start).line - 1);
        const above: string[] = [];
        for (let line = lines.pop()?.trim(); line?.startsWith('#'); line = lines.pop()?.trim()) above.unshift(line.slice(1));
        return above.length > 0 ? above.join('\n') : undefined;
      }
      // The first key's comment is the document's when a blank line parts them.
      return (isNode(pair?.key) ? pair.key.commentBefore : undefined) ?? (at === 0 ? (document.commentBefore ?? undefined) : undefined);
    },
    lineOf(path) {
      // The key's line for a map entry (a block value starts on the line after its key), the item's for a list.
      for (let n = path.length; n > 0; n--) {
        const parent = n === 1 ? document.contents : document.getIn(path.slice(0, n - 1), true);
        const last = path[n - 1];
        const at = isMap(parent)
          ? parent.items.find((pair) => (isScalar(pair.key) ? pair.key.value : pair.key) === last)?.key
          : isSeq(parent) && typeof last === 'number'
            ? parent.items[last]
            : undefined;
        if (isNode(at) && at.range) return lineCounter.linePos(at.range[0]).line;
      }
      return undefined;
    },
  };
}

/** A warning's start naming where it is: `line 12: `, or `lines 3, 40: ` when it is about several places; nothing when
 * no line is known. */
export const atLines = (lines: ReadonlyArray<number | undefined>): string => {
  const known = [...new Set(lines.filter((line): line is number => line !== undefined))].sort((a, b) => a - b);
  return known.length === 0 ? '' : `line${known.length === 1 ? '' : 's'} ${known.join(', ')}: `;
};

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
