/**
 * An HTML-like label's outer `<TABLE>` read as cells: rows of `<TD>` with their spans, ports, borders and colours,
 * text lines (`<BR/>`) in bold, italic or a `<FONT COLOR>` as written, and tables nested in cells. Parsing is
 * htmlparser2's (tags case-insensitive, entities decoded as Graphviz decodes them).
 */
import { Parser } from 'htmlparser2';
import type { CellBlock, GraphCell } from '../../graph/types.js';
import { mapColor } from './style.js';

type Table = Extract<CellBlock, { kind: 'table' }>;
type Attributes = Record<string, string>;

/** Graphviz's defaults: BORDER 1, CELLBORDER as BORDER, CELLSPACING 2, CELLPADDING 2 (points). */
const DEFAULT = { border: 1, cellSpacing: 2, cellPadding: 2 };

/** The outermost table of an HTML-like label, or undefined when it holds none. */
export function htmlTable(html: string, scheme?: string): Table | undefined {
  const tables: Table[] = [];
  const cells: GraphCell[] = [];
  let outer: Table | undefined;
  /** The PORT of each open table: a nested table's port is its cell's (the cell holds only the table). */
  const tablePorts: (string | undefined)[] = [];
  /** Font tags open inside the current cell, innermost last. */
  const fonts: { bold?: boolean; italic?: boolean; color?: string }[] = [];
  const number = (value: string | undefined, fallback: number) => {
    const parsed = Number(value);
    return value !== undefined && Number.isFinite(parsed) && parsed >= 0 ? parsed : fallback;
  };
  const color = (value: string | undefined) => (value === undefined ? undefined : mapColor(value, scheme));
  const parser = new Parser(
    {
      onopentag(name, attributes: Attributes) {
        const table = tables.at(-1);
        const cell = cells.at(-1);
        if (name === 'table') {
          const border = number(attributes.border, DEFAULT.border);
          const fill = color(attributes.bgcolor);
          const stroke = color(attributes.color);
          tablePorts.push(attributes.port);
          tables.push({
            kind: 'table',
            rows: [],
            border,
            cellBorder: number(attributes.cellborder, border),
            cellSpacing: number(attributes.cellspacing, DEFAULT.cellSpacing),
            cellPadding: number(attributes.cellpadding, DEFAULT.cellPadding),
            ...(fill && { fillColor: fill }),
            ...(stroke && { strokeColor: stroke }),
          });
        } else if (name === 'tr' && table) table.rows.push([]);
        else if (name === 'td' && table) {
          if (table.rows.length === 0) table.rows.push([]);
          const fill = color(attributes.bgcolor);
          const align = attributes.align?.toLowerCase();
          const least = { width: number(attributes.width, 0), height: number(attributes.height, 0) };
          const created: GraphCell = {
            text: '',
            ...(attributes.port !== undefined && { port: attributes.port }),
            ...((align === 'left' || align === 'right') && { textAlign: align }),
            ...(number(attributes.colspan, 1) > 1 && { columnSpan: Math.round(number(attributes.colspan, 1)) }),
            ...(number(attributes.rowspan, 1) > 1 && { rowSpan: Math.round(number(attributes.rowspan, 1)) }),
            border: number(attributes.border, table.cellBorder),
            ...(fill && { fillColor: fill }),
            ...((least.width > 0 || least.height > 0) && { leastSize: least }),
          };
          table.rows.at(-1)!.push(created);
          cells.push(created);
          fonts.length = 0;
        } else if (cell && name === 'br') {
          cell.text += '\n';
          const align = attributes.align?.toLowerCase();
          if ((align === 'left' || align === 'right') && cell.textAlign === undefined) cell.textAlign = align;
        } else if (cell && (name === 'b' || name === 'i' || name === 'font')) {
          fonts.push(name === 'b' ? { bold: true } : name === 'i' ? { italic: true } : { ...(color(attributes.color) && { color: color(attributes.color) }) });
        }
      },
      ontext(text) {
        const cell = cells.at(-1);
        if (!cell || text.trim() === '') {
          if (cell && text !== '' && cell.text !== '' && !cell.text.endsWith(' ')) cell.text += ' ';
          return;
        }
        cell.text += text.replace(/\s+/g, ' ');
        // What most of a cell is written in is how it is drawn: one bold word makes the whole cell bold.
        for (const font of fonts) {
          if (font.bold) cell.bold = true;
          if (font.italic) cell.italic = true;
          if (font.color !== undefined) cell.textColor ??= font.color;
        }
      },
      onclosetag(name) {
        if (name === 'table') {
          const closed = tables.pop();
          const port = tablePorts.pop();
          const cell = cells.at(-1);
          if (closed && cell && tables.length > 0) {
            cell.inner = closed;
            if (port !== undefined) cell.port ??= port;
          }
          else if (closed && tables.length === 0) outer ??= closed;
        } else if (name === 'td') {
          const cell = cells.pop();
          if (cell) cell.text = cell.text.split('\n').map((line) => line.trim()).join('\n').replace(/^\n+|\n+$/g, '');
        } else if (name === 'b' || name === 'i' || name === 'font') fonts.pop();
      },
    },
    { lowerCaseTags: true, lowerCaseAttributeNames: true, recognizeSelfClosing: true },
  );
  parser.write(html);
  parser.end();
  return outer && outer.rows.some((row) => row.length > 0) ? outer : undefined;
}
