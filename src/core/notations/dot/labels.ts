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
 * Splits a record label (`<f0> left|{mid|<p> right}`) into its fields, flattening nested `{}` rotations
 * (we draw records as a header plus rows, so field orientation is not kept). Ports `<name>` are dropped.
 */
export function recordFields(label: string): string[] {
  const fields: string[] = [];
  let current = '';
  for (let i = 0; i < label.length; i++) {
    const char = label[i]!;
    if (char === '\\' && i + 1 < label.length) {
      current += char + label[i + 1];
      i++;
    } else if (char === '|' || char === '{' || char === '}') {
      fields.push(current);
      current = '';
    } else {
      current += char;
    }
  }
  fields.push(current);
  return fields.map((field) => field.replace(/^\s*<[^>]*>/, '').trim()).filter((field) => field !== '');
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
