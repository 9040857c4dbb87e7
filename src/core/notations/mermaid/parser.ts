/**
 * Mermaid's own parsers, run in Node without a browser. `mermaid` parses each diagram type with its grammar into
 * that type's database (FlowDB, the sequence, class, ER, state, mindmap, C4, architecture, requirement and block DBs;
 * architecture through `@mermaid-js/parser`'s Langium grammar, which `mermaid` loads itself); we read the database,
 * never draw with it.
 *
 * Why not `@mermaid-js/parser`: its Langium grammars (0.6) cover info, packet, pie, architecture, gitGraph, radar and
 * treemap only; flowcharts, sequence, class, ER and state diagrams are still jison grammars inside `mermaid`.
 *
 * Two quirks handled here:
 * - Mermaid sanitises every label with DOMPurify, which without a window is a stub with no `sanitize`. Labels are
 *   text to us (the renderer escapes them), so outside a browser the stub passes text through; a real DOMPurify (a
 *   browser, jsdom in tests) is left alone.
 * - Some diagram databases are module singletons, cleared by the next parse: parses run one at a time and the
 *   caller reads the database before the next starts.
 */
import { AppError } from '../../errors.js';
import { LIMITS } from '../../limits.js';
import { dictionary } from '../../dictionary.js';

type Mermaid = typeof import('mermaid').default;

/** Diagram types Mermaid reports (`Diagram.type`) that we read. */
export type MermaidType =
  | 'flowchart'
  | 'sequence'
  | 'class'
  | 'er'
  | 'state'
  | 'mindmap'
  | 'c4'
  | 'architecture'
  | 'requirement'
  | 'block'
  | 'gitGraph'
  | 'gantt'
  | 'timeline'
  | 'pie'
  | 'journey'
  | 'quadrant'
  | 'xy'
  | 'kanban'
  | 'sankey'
  | 'packet'
  | 'treemap'
  | 'radar';

const TYPES: Record<string, MermaidType> = dictionary({
  flowchart: 'flowchart',
  'flowchart-v2': 'flowchart',
  'flowchart-elk': 'flowchart',
  sequence: 'sequence',
  class: 'class',
  classDiagram: 'class',
  er: 'er',
  state: 'state',
  stateDiagram: 'state',
  mindmap: 'mindmap',
  c4: 'c4',
  architecture: 'architecture',
  requirement: 'requirement',
  block: 'block',
  gitGraph: 'gitGraph',
  gantt: 'gantt',
  timeline: 'timeline',
  pie: 'pie',
  journey: 'journey',
  quadrantChart: 'quadrant',
  xychart: 'xy',
  kanban: 'kanban',
  sankey: 'sankey',
  packet: 'packet',
  treemap: 'treemap',
  radar: 'radar',
});

let loading: Promise<Mermaid> | undefined;

function loadMermaid(): Promise<Mermaid> {
  loading ??= (async () => {
    // The instance Mermaid's ES modules import: a static import here may be given the CommonJS build instead (a
    // separate instance), depending on how the TypeScript was loaded.
    const purify = (await import('dompurify')).default as unknown as { sanitize?: (text: string) => string; addHook?: () => void };
    purify.sanitize ??= (text) => text;
    purify.addHook ??= () => undefined;
    const mermaid = (await import('mermaid')).default;
    // Our own limits apply (code size, edges); Mermaid's lower site defaults are for its renderer.
    mermaid.initialize({ startOnLoad: false, securityLevel: 'strict', maxTextSize: LIMITS.codeBytes, maxEdges: LIMITS.graphEdges });
    return mermaid;
  })();
  return loading;
}

let queue: Promise<unknown> = Promise.resolve();

/** The families we draw, as their first word is written: said when another is refused. */
const READ_FAMILIES = [
  ...['flowchart', 'sequenceDiagram', 'classDiagram', 'erDiagram', 'stateDiagram', 'mindmap', 'C4Context', 'C4Container', 'C4Component', 'C4Dynamic', 'C4Deployment'],
  ...['architecture-beta', 'requirementDiagram', 'block-beta', 'gitGraph', 'gantt', 'timeline', 'pie', 'journey', 'quadrantChart', 'xychart', 'kanban', 'sankey', 'packet', 'treemap', 'radar-beta'],
];

/**
 * Mermaid's diagram families other than those we read, by the word that opens them: told before Mermaid parses, so
 * a family newer than our Mermaid (zenuml, wardley, ishikawa…) is answered "not supported", not a syntax error.
 */
const OTHER_FAMILIES =
  /^(zenuml|venn(-beta)?|wardley(-beta)?|ishikawa(-beta)?|eventmodeling|treeView(-beta)?|info)\b/;

/** The first word of the diagram, after front matter (`---` … `---`), `%%` comments and directives. */
function familyWord(code: string): string | undefined {
  const body = code.replace(/^\s*---\r?\n[\s\S]*?\r?\n---[ \t]*(\r?\n|$)/, '');
  for (const line of body.split(/\r?\n/)) {
    const text = line.trim();
    if (text === '' || text.startsWith('%%')) continue;
    return OTHER_FAMILIES.exec(text)?.[1];
  }
  return undefined;
}

function unsupportedFamily(family: string): AppError {
  return new AppError('unsupported_notation', `Mermaid ${family} diagrams are not supported; Mermaid ${READ_FAMILIES.slice(0, -1).join(', ')} and ${READ_FAMILIES.at(-1)} are`, {
    supported: READ_FAMILIES,
  });
}

/**
 * Diagrams whose database carries a setting of the author's configuration that changes what is drawn: a git graph's
 * main branch (`mainBranchName`, `mainBranchOrder`), a sankey's `showValues`, an xy chart's `showDataLabel` and
 * orientation. Other settings are about Mermaid's own look, which ours replaces.
 */
function readsConfiguration(code: string): boolean {
  return (
    (/^\s*gitGraph\b/m.test(code) && /mainBranch(?:Name|Order)/.test(code)) ||
    (/^\s*sankey(?:-beta)?\b/m.test(code) && /showValues/.test(code)) ||
    (/^\s*xychart(?:-beta)?\b/m.test(code) && /showDataLabel|chartOrientation/.test(code))
  );
}

export interface ParsedMermaid<Db = unknown> {
  type: MermaidType;
  db: Db;
}

/**
 * Parses `code` with Mermaid and hands its database to `read` before any other parse runs. Throws parse_error with
 * Mermaid's own message and position, or unsupported_notation for a diagram type we do not draw.
 */
export function readMermaid<T>(code: string, read: (parsed: ParsedMermaid) => T): Promise<T> {
  const family = familyWord(code);
  if (family !== undefined) return Promise.reject(unsupportedFamily(family));
  const run = queue.then(async () => {
    const mermaid = await loadMermaid();
    let diagram: { type: string; db: unknown };
    const configured = readsConfiguration(code);
    try {
      try {
        // Mermaid's `parse` sets the author's configuration (front matter `config:`, `%%{init}%%`) as `render` does;
        // getDiagramFromText alone leaves it unset, and the git graph and sankey databases read it.
        if (configured) await mermaid.parse(code);
        diagram = (await mermaid.mermaidAPI.getDiagramFromText(code)) as unknown as { type: string; db: unknown };
      } catch (error) {
        throw mermaidError(error);
      }
      const type = TYPES[diagram.type];
      if (type === undefined) throw unsupportedFamily(diagram.type);
      return read({ type, db: diagram.db });
    } finally {
      // The configuration is Mermaid's global state: once the database is read, the next diagram starts from the defaults.
      if (configured) mermaid.mermaidAPI.reset();
    }
  });
  queue = run.catch(() => undefined);
  return run;
}

interface JisonError {
  message: string;
  hash?: { loc?: { first_line: number; first_column: number }; line?: number };
}

/** Mermaid's errors as parse_error: jison's with line and column, the rest with Mermaid's message. */
function mermaidError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  const { message = String(error), hash } = (error ?? {}) as JisonError;
  // Jison repeats the line with a caret drawing; the first and last lines say where and what.
  const lines = message.split('\n').filter((line) => line.trim() !== '' && !/^-*\^$/.test(line.trim()) && !line.startsWith('...'));
  const what = lines.length > 1 ? `${lines[0]!.replace(/:$/, '')}: ${lines[lines.length - 1]}` : (lines[0] ?? 'unreadable');
  const at = hash?.loc;
  if (at !== undefined) {
    const column = at.first_column + 1;
    return new AppError('parse_error', `line ${at.first_line}, column ${column}: Mermaid: ${what}`, { line: at.first_line, column });
  }
  if (/No diagram type detected/i.test(message)) return new AppError('parse_error', 'Mermaid: the first line names no diagram type (flowchart TD, sequenceDiagram, classDiagram, erDiagram, stateDiagram-v2)');
  return new AppError('parse_error', `Mermaid: ${what}`);
}

const NAMED: Record<string, string> = dictionary({ quot: '"', amp: '&', lt: '<', gt: '>', apos: "'", nbsp: '\u00a0' });
/** The entities HTML reads without a closing `;` (those of HTML 2 and 3.2); `&apos` is not one. */
const WITHOUT_SEMICOLON = new Set(['quot', 'amp', 'lt', 'gt', 'nbsp']);

/**
 * The HTML elements authors mark label text up with. Any other name in angle brackets is text, a type's parameter
 * most often: Envoy's `shared_ptr<NewCtx>`, drawn so by Mermaid's sequence diagram, had lost its `<NewCtx>`.
 */
const HTML_ELEMENTS = new Set(
  'a abbr b big blockquote br center cite code del dfn div em font h1 h2 h3 h4 h5 h6 hr i img ins kbd li mark ol p pre q s samp small span strike strong sub sup table tbody td th thead tr tt u ul var'.split(' '),
);

/**
 * Label text as written: Mermaid encodes `#35;` and `#quot;` as placeholders before parsing, `<br>` is a line break
 * (so is `</br>`, which browsers read as `<br>` in Mermaid's HTML labels) and other HTML tags are markup, not text.
 */
export function decodeMermaid(text: string): string {
  // Line breaks first: an escaped `#60;br#62;` is text, not a break.
  return text
    .replace(/<\/?br\s*\/?>/gi, '\n')
    // Spaces around a break draw nothing in HTML (`ready <br/> IG begins`); kept, they pushed the next line off centre.
    .replace(/[ \t]*\n[ \t]*/g, '\n')
    // `<br><br>` is an empty line in Mermaid's labels, which authors use to set a title apart from its body; a break
    // at the very end draws nothing in HTML.
    .replace(/\n+$/, '')
    .replace(/<\/?([a-z][a-z0-9]*)(?:\s[^<>]*)?>/gi, (tag, name: string) => (HTML_ELEMENTS.has(name.toLowerCase()) ? '' : tag))
    .replace(/ﬂ°°(\d+)¶ß/g, (_, code: string) => String.fromCodePoint(Math.min(Number(code), 0x10ffff)))
    .replace(/ﬂ°(\w+)¶ß/g, (_, name: string) => NAMED[name] ?? `&${name};`)
    // Mermaid draws labels as HTML, so a named entity shows as its character; class members even arrive escaped
    // (`Json~string~` becomes `Json&lt;string&gt;`). One pass, so `&amp;lt;` stays `&lt;`. HTML reads the oldest
    // entities without their `;` too (`&gt` where a state diagram's `;` ended the line).
    .replace(/&([a-z]+)(;|(?![a-z0-9]))/gi, (entity, name: string, end: string) => (end === ';' || WITHOUT_SEMICOLON.has(name) ? (NAMED[name] ?? entity) : entity));
}

/**
 * Markdown emphasis (`**bold**`, `*italic*`, `__bold__`, `_italic_`), which Mermaid draws in a flowchart's markdown
 * strings and in every label of a state diagram: the words are kept, as our labels have no emphasis of their own.
 */
export const withoutEmphasis = (text: string): string => text.replace(/\*\*|__/g, '').replace(/(^|\s)[*_](\S[^*_]*)[*_](?=\s|$)/g, '$1$2');

/** The `title:` of Mermaid's front matter (`---` … `---` before the diagram), if any. */
export function frontMatterTitle(code: string): string | undefined {
  const front = /^\s*---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(code);
  const line = front === null ? null : /^title:[ \t]*(.+?)[ \t]*$/m.exec(front[1]!);
  if (line === null || line === undefined) return undefined;
  const raw = line[1]!;
  const unquoted = /^".*"$/.test(raw) ? jsonString(raw) : /^'.*'$/.test(raw) ? raw.slice(1, -1).replace(/''/g, "'") : raw;
  return unquoted.trim() === '' ? undefined : unquoted;
}

/** A double-quoted YAML scalar; the JSON subset covers what exports write, anything else is kept as written. */
function jsonString(raw: string): string {
  try {
    return JSON.parse(raw) as string;
  } catch {
    return raw.slice(1, -1);
  }
}
