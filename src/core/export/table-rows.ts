/**
 * Table rows as columns. Rows come from diagram-from-code tables (`PK FK name  type`, keys padded, two spaces
 * before the type) or from hand-drawn ones (`name: type`, `name type`, `id PK`).
 */

export interface Column {
  name: string;
  type: string;
  /** PK, FK, UK, upper-cased, in the order written. */
  keys: string[];
}

const KEY = /^(PK|FK|UK)$/i;

export function columnOf(row: string): Column {
  const tokens = row.trim().split(/\s+/);
  const keys: string[] = [];
  while (tokens.length > 1 && KEY.test(tokens[0]!)) keys.push(tokens.shift()!.toUpperCase());
  while (tokens.length > 1 && KEY.test(tokens[tokens.length - 1]!)) keys.unshift(tokens.pop()!.toUpperCase());
  // The words left, with their original spacing: a run of spaces or a colon separates name from type.
  const rest = row.trim().replace(/^((PK|FK|UK)\s+)+/i, '').replace(/(\s+(PK|FK|UK))+$/i, '');
  const split = /:|\s{2,}/.exec(rest) ?? /\s/.exec(rest);
  const name = split ? rest.slice(0, split.index).trim() : rest;
  const type = split ? rest.slice(split.index + split[0].length).trim() : '';
  return { name, type, keys: [...new Set(keys)] };
}

/** A UML member: a visibility mark before `name:` or `name(`, or a method `name(`. A bare `- item` or `#tmp` is not. */
const MEMBER = /^\s*([+\-#~]\s*[\w$]+\s*[:(]|[\w$]+\()/;
/** `name: type` or `name  type` (two spaces, as the from-code tables pad them). */
const TYPED = /\S\s*:\s*\S|\S\s{2,}\S/;
// UK is left out: "UK office" is a label far more often than a unique column.
const hasKey = (row: string) => columnOf(row).keys.some((key) => key !== 'UK');

/**
 * Whether the text under a shape's label reads as a table's columns or a class's members rather than more label: a
 * rule under the header (how diagram-from-code draws tables and records), a PK/FK marker, or several rows all typed
 * or members. "API" over "Node.js 20" is a two-line label, not a table with a column "Node.js" of type "20".
 */
export function readsAsRows(rows: readonly string[], ruled: boolean): boolean {
  if (rows.length === 0) return false;
  return ruled || rows.some(hasKey) || (rows.length > 1 && rows.every((row) => TYPED.test(row) || MEMBER.test(row)));
}

/** Rows that make a UML class rather than a table: a member among them and no key marker (keys are a table's). */
export const isClassLike = (rows: readonly string[]): boolean => rows.some((row) => MEMBER.test(row)) && !rows.some(hasKey);
