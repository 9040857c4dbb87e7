/**
 * Where the cells of a DOT record or HTML-like table lie in their box (GraphNode.cells), measured in our fonts:
 * records as Graphviz's size_reclbl and resize_reclbl place them (each field its text plus a margin, the room left
 * shared evenly), tables as rows and columns, each column as wide as its widest cell and spans sharing what they
 * lack evenly.
 */
import type { CellBlock, GraphCell } from '../graph/types.js';
import { FONT } from './drawing-rules.js';
import { LINE_HEIGHT, measureText } from './measure.js';
import type { Box, Point } from './types.js';

export interface PlacedCell extends Box {
  text: string;
  textAlign: 'left' | 'center' | 'right';
  port?: string;
  /** Border width in px; 0 draws none. */
  border: number;
  /** Room between the cell's edge and text set flush left or right. */
  inset: number;
  fillColor?: string;
  textColor?: string;
  bold?: boolean;
  italic?: boolean;
}

/** A table's own frame: its border and fill, under its cells. */
export interface PlacedFrame extends Box {
  border: number;
  fillColor?: string;
  strokeColor?: string;
}

/** Cells placed in a box whose top left is 0,0. */
export interface PlacedCells {
  width: number;
  height: number;
  frames: PlacedFrame[];
  cells: PlacedCell[];
  /** A record's rules between fields. */
  rules: [Point, Point][];
}

/** Graphviz's margin round a record field's text (GAP: 8 points across, 4 up and down on each side). */
const FIELD_MARGIN = { x: 8, y: 4 };
/** Room kept round a table cell's text besides its padding: Graphviz's wider font estimates leave about this much. */
const CELL_TEXT_MARGIN = { x: 4, y: 1 };
/** Bold faces run wider than the regular advances measure. */
const BOLD_WIDENING = 1.08;

interface Size {
  width: number;
  height: number;
}

/** The cells of `block`, as small as their text allows or stretched to `least` (records fill their node). */
export function placeCells(block: CellBlock, fontSize: number, least: Size = { width: 0, height: 0 }): PlacedCells {
  const placed: PlacedCells = { width: 0, height: 0, frames: [], cells: [], rules: [] };
  const natural = sizeOf(block, fontSize);
  const size = { width: Math.max(natural.width, least.width), height: Math.max(natural.height, least.height) };
  place(block, { x: 0, y: 0, ...size }, fontSize, placed);
  return { ...placed, ...size };
}

function textSize(cell: GraphCell, fontSize: number): Size {
  const size = measureText(cell.text === '' ? ' ' : cell.text, fontSize, FONT.family);
  // An empty line still takes a line's height, as in Graphviz.
  return { width: size.width * (cell.bold ? BOLD_WIDENING : 1), height: Math.max(size.height, fontSize * LINE_HEIGHT) };
}

function sizeOf(block: CellBlock, fontSize: number): Size {
  if (block.kind === 'fields') {
    const sizes = block.cells.map((cell) => fieldSize(cell, fontSize));
    const sum = (key: keyof Size) => sizes.reduce((total, size) => total + size[key], 0);
    const max = (key: keyof Size) => Math.max(0, ...sizes.map((size) => size[key]));
    return block.across ? { width: sum('width'), height: max('height') } : { width: max('width'), height: sum('height') };
  }
  const grid = tableGrid(block, fontSize);
  return { width: grid.width, height: grid.height };
}

function fieldSize(cell: GraphCell, fontSize: number): Size {
  if (cell.inner) return sizeOf(cell.inner, fontSize);
  const text = textSize(cell, fontSize);
  return { width: text.width + 2 * FIELD_MARGIN.x, height: text.height + 2 * FIELD_MARGIN.y };
}

function place(block: CellBlock, box: Box, fontSize: number, placed: PlacedCells): void {
  if (block.kind === 'table') return placeTable(block, box, fontSize, placed);
  const sizes = block.cells.map((cell) => fieldSize(cell, fontSize));
  const along = block.across ? 'width' : 'height';
  const spare = (box[along] - sizes.reduce((total, size) => total + size[along], 0)) / Math.max(1, sizes.length);
  let at = block.across ? box.x : box.y;
  block.cells.forEach((cell, i) => {
    const length = sizes[i]![along] + spare;
    const part: Box = block.across ? { x: at, y: box.y, width: length, height: box.height } : { x: box.x, y: at, width: box.width, height: length };
    if (i > 0) placed.rules.push(block.across ? [{ x: at, y: box.y }, { x: at, y: box.y + box.height }] : [{ x: box.x, y: at }, { x: box.x + box.width, y: at }]);
    if (cell.inner) place(cell.inner, part, fontSize, placed);
    else placed.cells.push(placedCell(cell, part, 0, FIELD_MARGIN.x));
    at += length;
  });
}

const placedCell = (cell: GraphCell, box: Box, border: number, inset: number): PlacedCell => ({
  ...box,
  text: cell.text,
  textAlign: cell.textAlign ?? 'center',
  border,
  inset,
  ...(cell.port !== undefined && { port: cell.port }),
  ...(cell.fillColor !== undefined && { fillColor: cell.fillColor }),
  ...(cell.textColor !== undefined && { textColor: cell.textColor }),
  ...(cell.bold && { bold: true }),
  ...(cell.italic && { italic: true }),
});

type Table = Extract<CellBlock, { kind: 'table' }>;

interface Grid extends Size {
  columns: number[];
  rows: number[];
  /** Each cell's first column and row. */
  at: { cell: GraphCell; column: number; row: number }[];
}

/** Rows and columns of a table: cells set in the first free place of their row, as HTML sets spans. */
function tableGrid(table: Table, fontSize: number): Grid {
  const taken = new Set<string>();
  const at: Grid['at'] = [];
  table.rows.forEach((row, r) => {
    let c = 0;
    for (const cell of row) {
      while (taken.has(`${r},${c}`)) c++;
      for (let dr = 0; dr < (cell.rowSpan ?? 1); dr++) for (let dc = 0; dc < (cell.columnSpan ?? 1); dc++) taken.add(`${r + dr},${c + dc}`);
      at.push({ cell, column: c, row: r });
      c += cell.columnSpan ?? 1;
    }
  });
  const columnCount = Math.max(1, ...at.map(({ cell, column }) => column + (cell.columnSpan ?? 1)));
  const rowCount = Math.max(1, ...at.map(({ cell, row }) => row + (cell.rowSpan ?? 1)));
  const columns = new Array<number>(columnCount).fill(0);
  const rows = new Array<number>(rowCount).fill(0);
  const needs = at.map(({ cell }) => {
    const text = textSize(cell, fontSize);
    const content = cell.inner ? sizeOf(cell.inner, fontSize) : { width: text.width + 2 * CELL_TEXT_MARGIN.x, height: text.height + 2 * CELL_TEXT_MARGIN.y };
    const frame = 2 * (table.cellPadding + (cell.border ?? table.cellBorder));
    return { width: Math.max(content.width + frame, cell.leastSize?.width ?? 0), height: Math.max(content.height + frame, cell.leastSize?.height ?? 0) };
  });
  // Single cells first, then spans share what their columns (rows) still lack.
  for (const spanning of [false, true]) {
    at.forEach(({ cell, column, row }, i) => {
      const grow = (lengths: number[], first: number, span: number, need: number) => {
        if (span > 1 !== spanning) return;
        const have = lengths.slice(first, first + span).reduce((sum, length) => sum + length, 0) + (span - 1) * table.cellSpacing;
        for (let k = first; k < first + span; k++) lengths[k]! += Math.max(0, need - have) / span;
      };
      grow(columns, column, cell.columnSpan ?? 1, needs[i]!.width);
      grow(rows, row, cell.rowSpan ?? 1, needs[i]!.height);
    });
  }
  const total = (lengths: number[]) => lengths.reduce((sum, length) => sum + length, 0) + (lengths.length + 1) * table.cellSpacing + 2 * table.border;
  return { columns, rows, at, width: total(columns), height: total(rows) };
}

function placeTable(table: Table, box: Box, fontSize: number, placed: PlacedCells): void {
  const grid = tableGrid(table, fontSize);
  // A table given more room than it needs (a cell of an outer table, a node drawn larger) shares it among its columns and rows.
  const columns = grid.columns.map((width) => width + (box.width - grid.width) / grid.columns.length);
  const rows = grid.rows.map((height) => height + (box.height - grid.height) / grid.rows.length);
  placed.frames.push({ ...box, border: table.border, ...(table.fillColor && { fillColor: table.fillColor }), ...(table.strokeColor && { strokeColor: table.strokeColor }) });
  const offset = (lengths: number[], index: number) => table.border + table.cellSpacing + lengths.slice(0, index).reduce((sum, length) => sum + length + table.cellSpacing, 0);
  const extent = (lengths: number[], index: number, span: number) => lengths.slice(index, index + span).reduce((sum, length) => sum + length, 0) + (span - 1) * table.cellSpacing;
  for (const { cell, column, row } of grid.at) {
    const border = cell.border ?? table.cellBorder;
    const part: Box = {
      x: box.x + offset(columns, column),
      y: box.y + offset(rows, row),
      width: extent(columns, column, cell.columnSpan ?? 1),
      height: extent(rows, row, cell.rowSpan ?? 1),
    };
    if (cell.inner) {
      placed.cells.push(placedCell({ ...cell, text: '' }, part, border, 0));
      const inset = border + table.cellPadding;
      place(cell.inner, { x: part.x + inset, y: part.y + inset, width: part.width - 2 * inset, height: part.height - 2 * inset }, fontSize, placed);
    } else placed.cells.push(placedCell(cell, part, border, border + table.cellPadding + CELL_TEXT_MARGIN.x));
  }
}
