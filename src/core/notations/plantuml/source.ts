/**
 * The body of a PlantUML diagram as clean statement lines: the `@startuml … @enduml` block with comments,
 * preprocessor directives and pure presentation commands (skinparam, legend, …) taken out; the title is kept apart.
 */
import { AppError } from '../../errors.js';
import type { Direction, GraphStyle } from '../../graph/types.js';
import { mapColor } from '../dot/style.js';
import { preprocess, type PlainLine } from './preprocess.js';
import { dictionary } from '../../dictionary.js';

/** One statement line: trimmed text and where it starts (1-based line and column) for error messages. */
export interface SourceLine {
  text: string;
  line: number;
  column: number;
}

export interface DiagramSource {
  lines: SourceLine[];
  /** `title …` or a `title` … `end title` block, as display text. */
  title?: string;
  /** A `legend` … `end legend` block's text: the author's key, drawn as a box under the diagram. */
  legend?: string;
  /** `left to right direction` turns the layered layout sideways. */
  direction: Direction;
  /** The author wrote `left to right direction` or `top to bottom direction`. */
  forcedDirection: boolean;
  warnings: string[];
  /** `hide`, `show`, `remove` and `restore` commands in order: class diagrams apply them, the others draw all. */
  visibility: SourceLine[];
  /** Preprocessor lines (`!include`, `!theme`, …) left out: a diagram of nothing else lives in files not read here. */
  preprocessorLines: number;
  /** Class diagrams: what splits `net.foo.Bar` into packages (`set separator`); undefined for `none`. */
  separator?: string;
  /** `skinparam monochrome true`: the author asked for no colour. */
  monochrome: boolean;
  /**
   * The colours `skinparam` gives a kind of element (`skinparam stateBackgroundColor #FFF7E6`, or `BackgroundColor` in a
   * `skinparam state { … }` block), by the element's lower-case name; `arrow` holds `ArrowColor`. Stereotyped ones
   * (`BackgroundColor<<bg>>`) are left out: the graph does not keep which element bears which stereotype.
   */
  skinColors: Map<string, SkinColors>;
  /** C4-PlantUML's `LAYOUT_WITH_LEGEND()` or `SHOW_LEGEND()`: its key of the element kinds used is drawn (c4.ts). */
  c4Legend?: true;
  /** `@startmindmap` or `@startwbs`: a tree of topics; `@startgantt`: a gantt chart; undefined for `@startuml`. */
  family?: 'mindmap' | 'wbs' | 'gantt';
}

export interface SkinColors {
  fill?: string;
  stroke?: string;
  text?: string;
}

/** A `skinparam` colour setting: the property names PlantUML reads for an element's fill, border and text. */
const SKIN_COLOR = /^(\w*?)(BackgroundColor|BorderColor|FontColor|ArrowColor)\s+(#?[\w]+)$/i;

/** Reads `[element]Property value` into `colors` when it sets a colour; `within` is the element of a block. */
function readSkinColor(setting: string, colors: Map<string, SkinColors>, within = ''): void {
  const m = SKIN_COLOR.exec(setting.trim());
  if (!m) return;
  const property = m[2]!.toLowerCase();
  const element = property === 'arrowcolor' ? 'arrow' : (within || m[1]!).toLowerCase();
  if (element === '' || (property !== 'arrowcolor' && m[1] !== '' && within !== '')) return;
  const value = mapColor(m[3]!);
  if (value === undefined) return;
  const entry = colors.get(element) ?? {};
  if (property === 'backgroundcolor') entry.fill = value;
  else if (property === 'bordercolor') entry.stroke = value;
  else if (property === 'fontcolor') entry.text = value;
  else entry.stroke = value;
  colors.set(element, entry);
}

export function parseError(at: { line: number; column: number }, message: string): AppError {
  return new AppError('parse_error', `line ${at.line}, column ${at.column}: ${message}`, { line: at.line, column: at.column });
}

/** Commands that only change the look of the picture PlantUML would render; nothing of them is drawn. */
// PlantUML reads its keywords in any case (`skinParam`, `SkinParam`); C4's macros (LAYOUT_…) are names and keep theirs.
const PRESENTATION = /^(scale|hide|show|skinparam|skin|caption|header|footer|ignore\s+newpage|mainframe|allowmixing|allow_mixing|page|sprite)\b/i;
const C4_LEGEND = /^(LAYOUT_WITH_LEGEND|SHOW_LEGEND|SHOW_FLOATING_LEGEND)\s*\(/;
const C4_PRESENTATION = /^(LAYOUT_\w+|SHOW_\w+|HIDE_\w+|Update\w+|Add\w+Tag|AddProperty|WithoutPropertyHeader|SetPropertyHeader)\b/;
/** Blocks of presentation text, from their opening word to their `end …` line. */
const BLOCKS: ReadonlyArray<[RegExp, RegExp]> = [
  [/^(header|footer|caption)$/i, /^end\s*(header|footer|caption)$/i],
  [/^skinparam\b.*\{$/i, /^\}$/],
  [/^<style>$/i, /^<\/style>$/i],
  [/^sprite\b.*\{$/i, /^\}$/],
];

/** Blocks of text kept for drawing: the title, and the legend (`legend top left`: its place is left to the layout, under the diagram). */
const TEXT_BLOCKS: ReadonlyArray<{ kind: 'title' | 'legend'; open: RegExp; end: RegExp }> = [
  { kind: 'title', open: /^title$/i, end: /^end\s*title$/i },
  { kind: 'legend', open: /^legend(\s+(top|bottom|left|right|center))*$/i, end: /^end\s*legend$/i },
];

/** A note whose text follows on the lines up to `end note`: no `:` text on its own line. */
const MULTILINE_NOTE = /^[hr]?note\b[^:]*$/i;

/** The @start lines we read: UML graphs, the trees of mind maps and work breakdown structures, gantt charts. */
const START = /^\s*@start(uml|mindmap|wbs|gantt)\b/i;

/** Finds the first `@startuml … @enduml` (or `@startmindmap`, `@startwbs`) block and returns its statements. */
export function readDiagram(code: string): DiagramSource {
  const raw = code.split(/\r\n|\n|\r/);
  const start = raw.findIndex((line) => START.test(line));
  if (start < 0) throw parseError({ line: 1, column: 1 }, 'expected @startuml');
  const word = START.exec(raw[start]!)![1]!.toLowerCase();
  const family = word === 'uml' ? undefined : (word as 'mindmap' | 'wbs' | 'gantt');
  const lines: SourceLine[] = [];
  const warnings: string[] = [];
  // PlantUML ends the diagram at the end of the file when @enduml is missing, and at any @end… line (`@endurl`).
  let end = raw.findIndex((line, i) => i > start && /^\s*@end/i.test(line));
  if (end < 0) {
    end = raw.length;
    warnings.push(`@start${word} of line ${start + 1} is never closed with @end${word}: read to the end of the code`);
  } else if (!new RegExp(`^\\s*@end${word}\\b`, 'i').test(raw[end]!)) warnings.push(`line ${end + 1}: "${raw[end]!.trim()}" read as @end${word}`);

  const visibility: SourceLine[] = [];
  let separator: string | undefined = '.';
  let direction: Direction = 'DOWN';
  let forcedDirection = false;
  let monochrome = false;
  let c4Legend = false;
  const skinColors = new Map<string, SkinColors>();
  /** The element of an open `skinparam x {` block, whose lines set its colours. */
  let skinBlock: string | undefined;
  let title: string | undefined;
  let legend: string | undefined;
  /** An open `title` … `end title` or `legend` … `end legend` block and its lines so far. */
  let textBlock: { kind: 'title' | 'legend'; end: RegExp; lines: string[] } | undefined;
  let comment: SourceLine | undefined;
  let block: RegExp | undefined;
  const plain: PlainLine[] = [];
  for (let i = start + 1; i < end; i++) {
    let text = raw[i]!;
    const at = { line: i + 1, column: 1 };
    // A line ending in a backslash goes on on the next line (PlantUML's preprocessor joins them).
    while (/(^|[^\\])\\$/.test(text) && i + 1 < end) text = text.slice(0, -1) + raw[++i]!;
    // Block comments /' … '/ may open and close anywhere, several per line.
    let kept = '';
    let rest = text;
    while (rest !== '') {
      if (comment) {
        const close = rest.indexOf("'/");
        if (close < 0) {
          rest = '';
          break;
        }
        rest = rest.slice(close + 2);
        comment = undefined;
        continue;
      }
      // A line comment ends the line, even when it holds a /' (a quoted URL: `'https://www.w3.org/TR/odrl-model/'`).
      const open = (kept + rest).trimStart().startsWith("'") ? -1 : rest.indexOf("/'");
      if (open < 0) {
        kept += rest;
        break;
      }
      kept += rest.slice(0, open);
      comment = { text: '', line: at.line, column: text.length - rest.length + open + 1 };
      rest = rest.slice(open + 2);
    }
    text = kept;
    if (text.trim() !== '' && !text.trim().startsWith("'")) plain.push({ text, line: at.line });
  }
  if (comment) throw parseError(comment, "block comment /' is never closed with '/");
  let preprocessor = 0;
  const expanded = preprocess(plain);
  warnings.push(...expanded.warnings);
  /** Inside a note's body, every line is the note's text (a line `header` in mojaloop's notes is not a header block). */
  let inNote = false;
  for (const { text, line } of expanded.lines) {
    const at = { line, column: 1 };
    const trimmed = text.trim();
    if (trimmed === '' || trimmed.startsWith("'")) continue;
    if (inNote) {
      inNote = !/^end\s*[hr]?note$/i.test(trimmed);
      lines.push({ text: trimmed, line: at.line, column: text.length - text.trimStart().length + 1 });
      continue;
    }
    if (block) {
      if (block.test(trimmed)) block = skinBlock = undefined;
      else if (skinBlock !== undefined) readSkinColor(trimmed, skinColors, skinBlock);
      continue;
    }
    if (textBlock) {
      if (textBlock.end.test(trimmed)) {
        const text = plainText(textBlock.lines.join('\n'));
        if (textBlock.kind === 'title') title = text;
        else legend = text;
        textBlock = undefined;
      } else textBlock.lines.push(trimmed);
      continue;
    }
    const opensText = TEXT_BLOCKS.find(({ open }) => open.test(trimmed));
    if (opensText) {
      textBlock = { kind: opensText.kind, end: opensText.end, lines: [] };
      continue;
    }
    const opens = BLOCKS.find(([open]) => open.test(trimmed));
    if (opens) {
      block = opens[1];
      skinBlock = /^skinparam\s+(\w+)\s*\{$/i.exec(trimmed)?.[1];
      continue;
    }
    // What the preprocessor left: `!include`, `!theme`…, or a call of a procedure from a file not read (`$card(a)`,
    // `%version()`).
    if (trimmed.startsWith('!') || /^[%$]\w+\(.*\)$/.test(trimmed)) {
      preprocessor++;
      continue;
    }
    const turned = /^(left\s+to\s+right|top\s+to\s+bottom)\s+direction$/i.exec(trimmed);
    if (turned) {
      direction = turned[1]!.toLowerCase().startsWith('left') ? 'RIGHT' : 'DOWN';
      forcedDirection = true;
      continue;
    }
    const titled = /^title\s*(?:\s|:)\s*(.+)$/i.exec(trimmed);
    if (titled) {
      title = plainText(titled[1]!);
      continue;
    }
    const split = /^set\s+(?:namespace)?separator\s+(\S+)$/i.exec(trimmed);
    if (split) {
      separator = split[1]!.toLowerCase() === 'none' ? undefined : split[1];
      continue;
    }
    if (/^skinparam\s+monochrome\s+(true|reverse)\b/i.test(trimmed)) monochrome = true;
    else if (/^skinparam\s/i.test(trimmed)) readSkinColor(trimmed.replace(/^skinparam\s+/i, ''), skinColors);
    if (/^(hide|show|remove|restore)\s/i.test(trimmed)) {
      visibility.push({ text: trimmed, line: at.line, column: text.length - text.trimStart().length + 1 });
      continue;
    }
    if (C4_LEGEND.test(trimmed)) c4Legend = true;
    if (PRESENTATION.test(trimmed) || C4_PRESENTATION.test(trimmed)) continue;
    lines.push({ text: trimmed, line: at.line, column: text.length - text.trimStart().length + 1 });
    inNote = MULTILINE_NOTE.test(trimmed) && !/^[hr]?note\s+"[^"]*"\s+as\s/i.test(trimmed);
  }
  if (preprocessor > 0) warnings.push(`skipped ${preprocessor} preprocessor line${preprocessor === 1 ? '' : 's'} (!include, !theme, procedures they define): files are not fetched`);
  return { lines, direction, forcedDirection, monochrome, skinColors, warnings, visibility, preprocessorLines: preprocessor, ...(separator !== undefined && { separator }), ...(title && { title }), ...(legend && { legend }), ...(c4Legend && { c4Legend: true as const }), ...(family && { family }) };
}

/** PlantUML closes containers (`package p {`) still open at @enduml; said, once per container, outermost first. */
export function closeAtEnd(open: ReadonlyArray<{ line: SourceLine }>, warnings: string[]): void {
  for (const { line } of open) warnings.push(`line ${line.line}: "${line.text.slice(0, 40)}" is never closed with "}": closed at @enduml`);
}

/**
 * Creole's line-level marks as text: a rule (`====`, `----`, `....`, `____`) is a line of its own that PlantUML draws
 * as a line, so no text of it is shown; a titled rule (`== Step 2 ==`) and a heading (`= Title`) show their title.
 */
function withoutCreoleRules(text: string): string {
  const lines = text.split('\n');
  // A rule separates lines: alone, it is the text (PlantUML writes an arrow labelled `[ ... ]` as "...").
  return lines
    .filter((line) => lines.length === 1 || !/^\s*(={2,}|-{2,}|\.{2,}|_{2,})\s*$/.test(line))
    .map((line) => line.replace(/^\s*(={2,}|\.{2,}|_{2,})\s*(.+?)\s*\1\s*$/, '$2').replace(/^\s*=+\s+(\S.*)$/, '$1'))
    .join('\n');
}

/**
 * Display text: PlantUML's line breaks kept as newlines (`\n`, and Graphviz's `\l` and `\r`, which PlantUML also breaks
 * at, aligning the line before them left or right), creole and HTML-like markup dropped.
 */
export function plainText(text: string): string {
  return withoutCreoleRules(text.replace(/\\[nlr]/g, '\n'))
    .replace(/<\/?(?:color|b|i|u|s|size|font|back|strike|sub|sup|w|plain)\b[^>]*>/gi, '')
    .replace(/\*\*(.*?)\*\*/g, '$1')
    .replace(/\/\/(.*?)\/\//g, '$1')
    .replace(/__(.*?)__/g, '$1')
    .replace(/""(.*?)""/g, '$1')
    .replace(/~~(.*?)~~/g, '$1')
    // Creole strike-through; the inner text starts and ends with a non-dash, so `a -- b` stays.
    .replace(/--([^\s-](?:.*?[^\s-])?)--/g, '$1')
    .replace(/<img\b[^>]*>/gi, '')
    // Sprites (`<$cubes>`, `<$aws{scale=0.5}>`) and OpenIconic glyphs (`<&heart>`) come from libraries not read here.
    .replace(/<\$[\w-]+(?:\{[^}]*\})?>|<&[\w-]+(?:\{[^}]*\})?>/g, '')
    // `~` is creole's escape character: `~please-ack` shows "please-ack" (`~ name`, package visibility, stays).
    .replace(/~(\S)/g, '$1')
    .replace(/\t|\\t/g, ' ')
    .trim();
}

/** `"quoted"` → quoted; anything else unchanged. */
// A name in doubled quotes (`stack ""Title""`) is creole's monospace around a quoted name: both pairs go.
export const unquote = (text: string): string => (/^"".+""$/s.test(text) ? text.slice(2, -2) : /^".*"$/s.test(text) ? text.slice(1, -1) : text);

/**
 * PlantUML's ArchiMate layer colours (`archimate #Business "…"`, `rectangle X #Application`), as PlantUML 1.2023+ fills
 * them; they are no web colours, so they were dropped and the layers drawn alike.
 */
export const ARCHIMATE_LAYER_COLORS: Readonly<Record<string, string>> = dictionary({
  strategy: '#f6e4cc',
  business: '#ffff00',
  application: '#a9dcdf',
  technology: '#90ee90',
  physical: '#ccffcc',
  implementation: '#ffa6bf',
  motivation: '#b19cd9',
});

/** A PlantUML colour (`#LightBlue`, `#red`, `#FF0000`, `LightBlue`) → `#rrggbb`; undefined when unknown or a gradient. */
export function plantumlColor(token: string): string | undefined {
  const name = token.replace(/^#/, '');
  if (/[|/\\-]/.test(name)) return undefined;
  return ARCHIMATE_LAYER_COLORS[name.toLowerCase()] ?? mapColor(name) ?? (/^([0-9a-f]{3}|[0-9a-f]{6})$/i.test(name) ? mapColor(`#${name}`) : undefined);
}

/**
 * An element's colours after its name (`#e6ebfa;line:blue;text:red`, `#pink;line.dashed`, `#back:pink`): the fill
 * first, then `line:` the border, `line.dashed`/`line.dotted` its stroke and `text:` the label. Read as one colour, a
 * spec with a border was no colour at all (EDC's data plane states lost their blue, and the end state its red).
 */
export function plantumlElementStyle(token: string): Pick<GraphStyle, 'fillColor' | 'strokeColor' | 'strokeStyle' | 'textColor'> {
  const style: Pick<GraphStyle, 'fillColor' | 'strokeColor' | 'strokeStyle' | 'textColor'> = {};
  token
    .replace(/^#/, '')
    .split(';')
    .forEach((part, k) => {
      const [key, value] = part.includes(':') ? part.split(':', 2).map((p) => p.trim().toLowerCase()) : [k === 0 ? 'back' : part.trim().toLowerCase(), part];
      const colour = value === undefined ? undefined : plantumlColor(value);
      if (key === 'back' && colour) style.fillColor = colour;
      else if (key === 'line' && colour) style.strokeColor = colour;
      else if (key === 'text' && colour) style.textColor = colour;
      else if (key === 'line.dashed' || key === 'line.dotted') style.strokeStyle = key === 'line.dashed' ? 'dashed' : 'dotted';
    });
  return style;
}

/** A call's arguments: split at commas outside quotes and brackets, untrimmed. */
export function splitArguments(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quote = '';
  let current = '';
  for (const c of text) {
    if (quote) {
      if (c === quote) quote = '';
    } else if (c === '"') quote = c;
    else if (c === '(' || c === '[') depth++;
    else if (c === ')' || c === ']') depth--;
    else if (c === ',' && depth === 0) {
      parts.push(current);
      current = '';
      continue;
    }
    current += c;
  }
  if (current.trim() !== '' || parts.length > 0) parts.push(current);
  return parts;
}
