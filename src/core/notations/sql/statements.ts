/**
 * Splits a SQL script into statements so that one statement the SQL parser does not know (a pg_dump `SET`, a
 * MySQL client `source file.dump`) costs a warning, not the whole file. node-sql-parser parses whole scripts only and
 * stops at the first statement it rejects, so the split is done here: a scanner that only needs to know where
 * strings, quoted names, comments and dollar-quoted bodies start and end.
 */
export interface SqlStatement {
  text: string;
  /** 1-based position of the statement's first character in the whole input. */
  line: number;
  column: number;
}

/** `backslashEscapes`: MySQL strings escape with a backslash; standard (PostgreSQL) strings do not. */
export function splitStatements(code: string, backslashEscapes: boolean): SqlStatement[] {
  const statements: SqlStatement[] = [];
  let start = 0;
  let i = 0;
  const locate = positionFinder(code);
  const push = (end: number): void => {
    const raw = code.slice(start, end);
    const lead = LEADING_COMMENTS.exec(raw)![0].length;
    const text = raw.slice(lead).trimEnd();
    if (text !== '') statements.push({ text, ...locate(start + lead) });
    start = end + 1;
  };
  while (i < code.length) {
    const ch = code[i]!;
    const next = code[i + 1];
    if (ch === '-' && next === '-') i = lineEnd(code, i);
    else if (ch === '#') i = lineEnd(code, i);
    else if (ch === '/' && next === '*') {
      // MySQL version comments `/*!50503 … */` hold real SQL; node-sql-parser skips them as comments, which is fine.
      const close = code.indexOf('*/', i + 2);
      i = close === -1 ? code.length : close + 2;
    } else if (ch === "'" || ch === '"' || ch === '`') i = quoteEnd(code, i, ch, backslashEscapes);
    else if (ch === '$') {
      const tag = /^\$[A-Za-z_]*\$/.exec(code.slice(i, i + 64));
      if (tag) {
        const close = code.indexOf(tag[0], i + tag[0].length);
        i = close === -1 ? code.length : close + tag[0].length;
      } else i++;
    } else if (ch === ';') {
      push(i);
      i++;
    } else i++;
  }
  push(code.length);
  return statements;
}

/** Whitespace and comments before a statement, so that its position and first keyword are its own (pg_dump heads
 * each statement with `-- Name: …` comments). MySQL version comments (slash-star-bang) hold SQL and stay. */
const LEADING_COMMENTS = /^(?:\s+|--[^\n]*(?:\n|$)|#[^\n]*(?:\n|$)|\/\*(?!!)[\s\S]*?\*\/)*/;

function lineEnd(code: string, from: number): number {
  const nl = code.indexOf('\n', from);
  return nl === -1 ? code.length : nl + 1;
}

function quoteEnd(code: string, from: number, quote: string, backslashEscapes: boolean): number {
  let i = from + 1;
  while (i < code.length) {
    if (backslashEscapes && code[i] === '\\' && quote !== '`') i += 2;
    else if (code[i] === quote) {
      if (code[i + 1] === quote) i += 2;
      else return i + 1;
    } else i++;
  }
  return code.length;
}

/** 1-based line and column of offsets into `code` (binary search over line starts; scripts can be 1 MiB). */
export function positionFinder(code: string): (offset: number) => { line: number; column: number } {
  const starts = [0];
  for (let i = 0; i < code.length; i++) if (code.charCodeAt(i) === 10) starts.push(i + 1);
  return (offset) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: offset - starts[lo]! + 1 };
  };
}
