import type { Direction } from '../graph/types.js';

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
export const mermaidString = (text: string): string => `"${mermaidText(text) || ' '}"`;

export const MERMAID_DIRECTION: Record<Direction, string> = { DOWN: 'TB', UP: 'BT', RIGHT: 'LR', LEFT: 'RL' };
