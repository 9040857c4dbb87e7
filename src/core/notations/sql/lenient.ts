import type { DefinitionAst, StatementAst } from './schema.js';

/**
 * Second chance for a CREATE TABLE the SQL parser rejects as a whole (pg_dump writes `GENERATED ALWAYS AS (…)
 * VIRTUAL` and extension types such as `public.vector(20)` that node-sql-parser does not know). The header and each
 * column or constraint are parsed one at a time, so one unknown clause costs that clause, said in a warning, and not
 * the table. Returns undefined when even the header does not parse: then the statement's own error stands.
 */
export function parseTableByParts(
  written: string,
  parse: (sql: string) => StatementAst[],
): { ast: StatementAst; warnings: string[] } | undefined {
  const text = blankComments(written);
  const open = text.indexOf('(');
  if (open === -1) return undefined;
  const close = matchingParen(text, open);
  if (close === -1) return undefined;
  const header = text.slice(0, open);
  let ast: StatementAst | undefined;
  try {
    ast = parse(`${header}(drawbridge_probe int)`)[0];
  } catch {
    return undefined;
  }
  if (!ast?.table) return undefined;
  const name = ast.table[0]!.table;
  const warnings: string[] = [];
  const definitions: DefinitionAst[] = [];
  const parts = splitTopLevel(text.slice(open + 1, close));
  // An empty clause (`a int,,`) is a plain syntax error, not a dialect gap.
  if (parts.some((part) => part.trim() === '')) return undefined;
  // PostgreSQL's `(LIKE source INCLUDING ALL)`, which node-sql-parser reads only without its options.
  const like = parts.length === 1 ? /^\s*LIKE\s+((?:"[^"]+"|[\w$]+)(?:\s*\.\s*(?:"[^"]+"|[\w$]+))?)([\s\S]*)$/i.exec(parts[0]!) : null;
  if (like) {
    const names = like[1]!.split(/\s*\.\s*/).map((n) => n.replace(/^"|"$/g, ''));
    const keys = /\bINCLUDING\s+(ALL|INDEXES)\b/i.test(like[2]!);
    return { ast: { ...ast, create_definitions: null, like: { table: [{ table: names.at(-1)!, db: names.length > 1 ? names[0] : null }], keys } }, warnings };
  }
  for (const part of parts) {
    try {
      definitions.push(...(parse(`CREATE TABLE probe (${part})`)[0]?.create_definitions ?? []));
    } catch {
      const column = /^\s*("[^"]+"|`[^`]+`|[A-Za-z_][\w$]*)\s+([^\s,(]+(?:\([^)]*\))?)/.exec(part);
      const keyword = column?.[1]?.toUpperCase();
      if (column && keyword !== 'CONSTRAINT' && keyword !== 'PRIMARY' && keyword !== 'FOREIGN' && keyword !== 'UNIQUE' && keyword !== 'CHECK') {
        const columnName = column[1]!.replace(/^["`]|["`]$/g, '');
        // The keys on the column still count: a primary key on a type the parser lacks (bpchar) is still the key.
        const reference = /\bREFERENCES\s+(?:("[^"]+"|[\w$]+)\s*\.\s*)?("[^"]+"|[\w$]+)\s*(?:\(([^)]*)\))?/i.exec(part);
        const unquote = (name: string) => name.trim().replace(/^["`]|["`]$/g, '');
        definitions.push({
          resource: 'column',
          column: { column: columnName },
          definition: { dataType: column[2]! },
          nullable: /\bNOT\s+NULL\b/i.test(part) ? { type: 'not null' } : undefined,
          ...(/\bPRIMARY\s+KEY\b/i.test(part) ? { primary_key: 'primary key' } : {}),
          ...(/\bUNIQUE\b/i.test(part) ? { unique: 'unique' } : {}),
          ...(reference
            ? {
                reference_definition: {
                  table: [{ table: unquote(reference[2]!), ...(reference[1] ? { db: unquote(reference[1]) } : {}) }],
                  definition: (reference[3] ?? '').split(',').filter((c) => c.trim() !== '').map((c) => ({ column: unquote(c) })),
                },
              }
            : {}),
        });
        warnings.push(`${name}.${columnName}: column read approximately (the SQL parser does not know its definition)`);
      } else warnings.push(`${name}: skipped a constraint the SQL parser does not read (${part.trim().slice(0, 40)})`);
    }
  }
  // INHERITS of a CHECK-only child is read as a partition (partitions.ts); any other table option is not drawn.
  const options = text.slice(close + 1).trim();
  if (options !== '' && !(/^INHERITS\s*\(/i.test(options) && definitions.every((d) => d.constraint_type?.toLowerCase() === 'check'))) warnings.push(`${name}: table options after the column list are ignored`);
  return { ast: { ...ast, create_definitions: definitions }, warnings };
}

/**
 * Comments turned to spaces (positions kept): a trailing `-- XML("Schema"),` after a column, or prose between two
 * columns (listmonk's "For opt-in campaigns, this will be 'unsubscribed'."), would otherwise open a quote or hold a
 * comma that the splitting below takes for the table's own.
 */
function blankComments(text: string): string {
  let out = '';
  let quote = '';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quote) {
      if (ch === quote) quote = '';
    } else if (ch === "'" || ch === '"' || ch === '`') quote = ch;
    else if (ch === '-' && text[i + 1] === '-') {
      const end = text.indexOf('\n', i);
      const stop = end === -1 ? text.length : end;
      out += ' '.repeat(stop - i);
      i = stop - 1;
      continue;
    } else if (ch === '/' && text[i + 1] === '*' && text[i + 2] !== '!') {
      // MySQL version comments (slash-star-bang) hold SQL and stay, as in statements.ts.
      const close = text.indexOf('*/', i + 2);
      const stop = close === -1 ? text.length : close + 2;
      out += text.slice(i, stop).replace(/[^\n]/g, ' ');
      i = stop - 1;
      continue;
    }
    out += ch;
  }
  return out;
}

function matchingParen(text: string, open: number): number {
  let depth = 0;
  let quote = '';
  for (let i = open; i < text.length; i++) {
    const ch = text[i]!;
    if (quote) {
      if (ch === quote) quote = '';
    } else if (ch === "'" || ch === '"' || ch === '`') quote = ch;
    else if (ch === '(') depth++;
    else if (ch === ')' && --depth === 0) return i;
  }
  return -1;
}

export function splitTopLevel(body: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quote = '';
  let start = 0;
  for (let i = 0; i < body.length; i++) {
    const ch = body[i]!;
    if (quote) {
      if (ch === quote) quote = '';
    } else if (ch === "'" || ch === '"' || ch === '`') quote = ch;
    else if (ch === '(') depth++;
    else if (ch === ')') depth--;
    else if (ch === ',' && depth === 0) {
      parts.push(body.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(body.slice(start));
  return parts;
}
