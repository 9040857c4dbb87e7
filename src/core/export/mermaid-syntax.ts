import type { Direction } from '../graph/types.js';
import type { Element } from '../scene/schema.js';

type Emphasis = Pick<Element, 'fontWeight' | 'fontStyle'>;

/**
 * Mermaid text escaping. Mermaid turns `#name;` and `#123;` into HTML entities before it parses (and back when it
 * draws), so every character its grammars could read as syntax is written as a numeric code: quotes, `#`, `;`, `%`
 * (comments and directives), brackets of every kind, `|`, backticks (markdown strings), `<`, `>`, `&`, `\`, `~`
 * (class generics), `:` and `,` (attribute and list separators). Line breaks become `<br>`.
 */

const SYNTAX = /["#;%&<>`|[\]{}()\\~:,]/g;
// Control characters have no meaning in a label and break some grammars' line handling.
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f]/g;

/** Class members keep `()`, `[]`, `:` and `,`: they are what makes a member a method or gives it a type. */
export const MEMBER_SYNTAX = /["#;%&<>`|{}\\~]/g;

export function mermaidText(text: string, lineBreak = '<br>', syntax = SYNTAX): string {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/\t/g, ' ')
    .replace(CONTROL, '')
    .replace(syntax, (c) => `#${c.codePointAt(0)};`)
    .replace(/\n/g, lineBreak);
}

/** A double-quoted Mermaid string; an empty label is one space, since some grammars reject `""`. */
export const mermaidString = (text: string, emphasis: Emphasis = {}): string => `"${emphasised(mermaidText(text), emphasis) || ' '}"`;

/**
 * Emphasis as the HTML tags flowchart labels draw (and the Mermaid reader takes back); markdown strings would need
 * their own escaping. The text is escaped already, so the tags are the only markup in it.
 */
export function emphasised(escaped: string, { fontWeight, fontStyle }: Emphasis): string {
  if (escaped === '') return escaped;
  const slanted = fontStyle === 'italic' ? `<i>${escaped}</i>` : escaped;
  return fontWeight === 'bold' ? `<b>${slanted}</b>` : slanted;
}

export const MERMAID_DIRECTION: Record<Direction, string> = { DOWN: 'TB', UP: 'BT', RIGHT: 'LR', LEFT: 'RL' };
