import { decodeEntities } from './entities.js';
/** DOT label text: escape sequences, record fields and HTML-like labels reduced to lines of text. */

export interface LabelParts {
  label: string;
  rows: string[];
}

export interface LabelContext {
  node?: string;
  graph?: string;
  edge?: string;
}

/**
 * Expands DOT escapes: \n \l \r end lines; \N \G \E name the node, graph and edge; other `\x` is `x`. Then, as
 * Graphviz does for every label, HTML entities (`&bull;`, `&rarr;`).
 */
export function unescapeLabel(text: string, context: LabelContext = {}): string {
  const unescaped = text
    .replace(/\\([nlr])$/, '')
    .replace(/\\(.)/g, (_, char: string) => {
      if (char === 'n' || char === 'l' || char === 'r') return '\n';
      if (char === 'N') return context.node ?? '';
      if (char === 'G') return context.graph ?? '';
      if (char === 'E') return context.edge ?? '';
      return char;
    });
  return decodeEntities(unescaped);
}

/** Reduces an HTML-like label to text: table rows and <br/> end lines, other tags vanish, entities decode. */
export function htmlToText(html: string): string {
  return html
    .replace(/<br\s*[^>]*\/?>/gi, '\n')
    .replace(/<\/tr\s*>/gi, '\n')
    .replace(/<\/td\s*>/gi, ' ')
    .replace(/<[^>]*>/g, '')
    .replace(/&[^;\s]+;/g, decodeEntities)
    .split('\n')
    .map((line) => line.replace(/\s+/g, ' ').trim())
    .filter((line) => line !== '')
    .join('\n');
}

/**
 * An HTML-like label on a record shape (Graphviz's UML class gallery) as record text: a `<BR ALIGN="LEFT"/>` ends a
 * line set flush left (`\l`) as in a plain label, other tags vanish, and an entity stands for its character even where
 * that is a record's `|`, `{` or `<`.
 */
export function htmlRecordText(html: string): string {
  const breakOf = (attributes: string) => (/align\s*=\s*"?left/i.test(attributes) ? '\\l' : /align\s*=\s*"?right/i.test(attributes) ? '\\r' : '\\n');
  return html
    .replace(/\\/g, '\\\\')
    .replace(/\s*<br\b([^>]*)>\s*/gi, (_, attributes: string) => breakOf(attributes))
    .replace(/<[^>]*>/g, '')
    .replace(/&[^;\s]+;/g, (entity) => decodeEntities(entity).replace(/[{}|<>\\]/g, '\\$&'));
}

/** An HTML-like table: its first row's lines are the header, the lines of the rows below are rows. */
export function tableParts(html: string): LabelParts {
  const end = /<\/tr\s*>/i.exec(html);
  if (!end) return splitHeader(htmlToText(html).split('\n'));
  const label = htmlToText(html.slice(0, end.index));
  const rows = htmlToText(html.slice(end.index + end[0].length)).split('\n').filter((row) => row !== '');
  return label === '' ? splitHeader(rows) : { label, rows };
}

/** First line or field is the header; the rest become rows. */
export function splitHeader(lines: string[]): LabelParts {
  const [label = '', ...rows] = lines;
  return { label, rows };
}
