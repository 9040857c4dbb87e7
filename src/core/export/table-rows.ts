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
