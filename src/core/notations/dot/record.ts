/**
 * A DOT record label (`<f0> left|{mid|<p> right}`) read as Graphviz's parse_reclbl reads it: fields split by `|`, each
 * `{…}` a sub-record laid the other way, `<name>` a port, `\{ \} \| \< \>` the characters themselves, `\ ` a space
 * that is kept, other spaces collapsed and trimmed; the text of each field then read as any label (`\l` `\r` `\n`).
 */
import type { CellBlock, GraphCell } from '../../graph/types.js';
import { unescapeLabel, type LabelContext } from './labels.js';

/** Escaped, these stand for themselves in a record's text (Graphviz's ISCTRL). */
const CONTROLS = new Set(['{', '}', '|', '<', '>']);
/** Stands for `\ ` while spaces are collapsed. */
const HARD_SPACE = '\u0000';

/** The fields of a record label; `across` when the outer fields run left to right (a top-to-bottom flow). */
export function recordCells(label: string, across: boolean, context: LabelContext): CellBlock {
  let at = 0;
  const level = (across: boolean, nested: boolean): CellBlock => {
    const cells: GraphCell[] = [];
    let text = '';
    let port: string | undefined;
    let inner: CellBlock | undefined;
    const close = () => {
      cells.push(inner ? { text: '', inner } : field(text, port, context));
      [text, port, inner] = ['', undefined, undefined];
    };
    while (at < label.length) {
      const char = label[at++]!;
      if (char === '\\' && at < label.length) {
        const next = label[at++]!;
        text += CONTROLS.has(next) ? next : next === ' ' ? HARD_SPACE : char + next;
      } else if (char === '|') close();
      else if (char === '{') inner = level(!across, true);
      // A stray `}` at the top level (Graphviz refuses the label and draws the node's name): the rest is read on.
      else if (char === '}') {
        if (nested) break;
      }
      else if (char === '<') {
        const end = label.indexOf('>', at);
        port = label.slice(at, end < 0 ? label.length : end).trim();
        at = end < 0 ? label.length : end + 1;
      } else text += char;
    }
    close();
    return { kind: 'fields', across, cells };
  };
  return level(across, false);
}

function field(raw: string, port: string | undefined, context: LabelContext): GraphCell {
  const collapsed = raw
    .split('\n')
    .map((line) => line.replace(/[ \t]+/g, ' ').trim())
    .filter((line, i, lines) => line !== '' || (i > 0 && i < lines.length - 1))
    .join('\n')
    .replaceAll(HARD_SPACE, ' ');
  const text = unescapeLabel(collapsed, context);
  // Graphviz sets a line ended by \l flush left and one ended by \r flush right; the field follows its lines' ends.
  const textAlign = /\\l/.test(collapsed) && !/\\r/.test(collapsed) ? 'left' : /\\r/.test(collapsed) && !/\\l/.test(collapsed) ? 'right' : undefined;
  return { text, ...(port !== undefined && port !== '' && { port }), ...(textAlign && { textAlign }) };
}

/** Every text of a block in reading order (a record's fields, a table's cells row by row): how exports list them. */
export function cellTexts(block: CellBlock): string[] {
  const cells = block.kind === 'fields' ? block.cells : block.rows.flat();
  return cells.flatMap((cell) => (cell.inner ? cellTexts(cell.inner) : cell.text.trim() === '' ? [] : [cell.text]));
}

/** The port names of a block's cells, nested ones included. */
export function cellPorts(block: CellBlock): string[] {
  const cells = block.kind === 'fields' ? block.cells : block.rows.flat();
  return cells.flatMap((cell) => [...(cell.port !== undefined ? [cell.port] : []), ...(cell.inner ? cellPorts(cell.inner) : [])]);
}
