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

/**
 * A routine whose body is a `BEGIN … END` block (MySQL procedures, functions, triggers and events; SQLite triggers;
 * PostgreSQL `BEGIN ATOMIC`). Its body holds `;`-ended statements that belong to the routine: a `CREATE TEMPORARY
 * TABLE` in there is run at call time and is never a table of the schema.
 */
const ROUTINE_HEAD = /^CREATE\s+(?:OR\s+REPLACE\s+)?(?:DEFINER\s*=\s*\S+\s+)?(?:(?:TEMP(?:ORARY)?|CONSTRAINT|AGGREGATE)\s+)?(?:PROCEDURE|FUNCTION|TRIGGER|EVENT)\b/i;

/** `COPY table (columns) FROM stdin`: the rows follow the statement in the script itself. */
const COPY_FROM_STDIN = /^COPY\b[^;]*\bFROM\s+STDIN\b/i;

/** `DELIMITER //` (the MySQL client's directive, on a line of its own): statements end at `//` until the next one. */
const DELIMITER_LINE = /^DELIMITER[ \t]+(\S+)[^\n]*/i;

/** `backslashEscapes`: MySQL strings escape with a backslash; standard (PostgreSQL) strings do not. */
export function splitStatements(code: string, backslashEscapes: boolean): SqlStatement[] {
  const statements: SqlStatement[] = [];
  let start = 0;
  let i = 0;
  let delimiter = ';';
  /** Open `BEGIN`/`CASE` blocks of a routine body; its `;` do not end the statement. */
  let depth = 0;
  const locate = positionFinder(code);
  const push = (end: number, next: number): void => {
    const raw = code.slice(start, end);
    const lead = LEADING_COMMENTS.exec(raw)![0].length;
    const text = raw.slice(lead).trimEnd();
    if (text !== '') statements.push({ text, ...locate(start + lead) });
    start = next;
    depth = 0;
  };
  const atStatementStart = (at: number): boolean => code.slice(start, at).replace(LEADING_COMMENTS, '') === '';
  while (i < code.length) {
    const ch = code[i]!;
    const next = code[i + 1];
    // A client delimiter (`$$`, `//`, `;;`) ends the statement wherever it stands outside a string or comment; it is
    // checked before dollar quoting, which MySQL does not have.
    if (delimiter !== ';' && code.startsWith(delimiter, i)) {
      push(i, i + delimiter.length);
      i += delimiter.length;
    } else if (ch === '\\' && atStatementStart(i)) {
      // A psql meta-command (`\connect db`, `\copy … CSV`, pg_dump's `\restrict key`) is the client's and ends at
      // its line's end: read on to the next `;`, it would swallow the CREATE TABLE that follows.
      const end = lineEnd(code, i);
      push(end, end);
      i = end;
    } else if (ch === '-' && next === '-') i = lineEnd(code, i);
    else if (ch === '#') i = lineEnd(code, i);
    else if (ch === '/' && next === '*') {
      // MySQL version comments `/*!50503 … */` hold real SQL; node-sql-parser skips them as comments, which is fine.
      const close = code.indexOf('*/', i + 2);
      i = close === -1 ? code.length : close + 2;
    } else if (ch === "'" || ch === '"' || ch === '`') i = quoteEnd(code, i, ch, backslashEscapes);
    else if (ch === '$' && !backslashEscapes) {
      const tag = /^\$[A-Za-z_]*\$/.exec(code.slice(i, i + 64));
      if (tag) {
        const close = code.indexOf(tag[0], i + tag[0].length);
        i = close === -1 ? code.length : close + tag[0].length;
      } else i++;
    } else if (ch === ';' && delimiter === ';' && depth === 0) {
      const copyIn = COPY_FROM_STDIN.test(code.slice(start, i).replace(LEADING_COMMENTS, ''));
      push(i, i + 1);
      i++;
      if (copyIn) {
        // pg_dump's table data follows its COPY as raw lines up to `\.`: not SQL, and a quote in a row (O'Brien)
        // would otherwise run on over the keys the dump adds after its data.
        const marker = /^\\\.[ \t\r]*$/gm;
        marker.lastIndex = i;
        const end = marker.exec(code);
        i = end ? lineEnd(code, end.index) : code.length;
        start = i;
      }
    } else if (/[A-Za-z_]/.test(ch) && !/[\w$]/.test(code[i - 1] ?? ' ')) {
      let word = /^[A-Za-z_][\w$]*/.exec(code.slice(i, i + 64))![0];
      // `END$$`: the word stops where the delimiter starts.
      const cut = delimiter === ';' ? -1 : word.indexOf(delimiter);
      if (cut > 0) word = word.slice(0, cut);
      const upper = word.toUpperCase();
      const directive = upper === 'DELIMITER' && atStatementStart(i) ? DELIMITER_LINE.exec(code.slice(i, lineEnd(code, i))) : null;
      if (directive) {
        // The directive is the client's, not SQL: it is neither a statement nor part of the next one.
        delimiter = directive[1]!;
        i += directive[0].length;
        start = i;
        continue;
      }
      if (upper === 'BEGIN' && (depth > 0 || ROUTINE_HEAD.test(code.slice(start, i).replace(LEADING_COMMENTS, '')))) depth++;
      else if (upper === 'CASE' && depth > 0) depth++;
      else if (upper === 'END' && depth > 0 && !/^END\s+(?:IF|LOOP|WHILE|REPEAT)\b/i.test(code.slice(i, i + 16))) depth--;
      i += word.length;
    } else i++;
  }
  push(code.length, code.length);
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

/** `CREATE SCHEMA name [AUTHORIZATION role]` (or `CREATE SCHEMA AUTHORIZATION role`, named after the role) followed by elements. */
const SCHEMA_HEAD = /^CREATE\s+SCHEMA\s+(?:(?!AUTHORIZATION\b)("[^"]+"|[A-Za-z_][\w$]*)\s+)?(?:AUTHORIZATION\s+("[^"]+"|[A-Za-z_][\w$]*)\s*)?(?=(?:--[^\n]*\n\s*)*(?:CREATE|GRANT)\b)/i;
/** An element's unqualified table name, which PostgreSQL creates inside the schema. */
const ELEMENT_TABLE = /^(CREATE\s+(?:(?:TEMP(?:ORARY)?|UNLOGGED)\s+)?TABLE\s+(?:IF\s+NOT\s+EXISTS\s+)?)("[^"]+"|[A-Za-z_][\w$]*)(?!\s*\.)/i;

/**
 * PostgreSQL's `CREATE SCHEMA Person CREATE TABLE a (…) CREATE TABLE b (…)`: one statement whose elements (tables,
 * views, indexes, grants) are created inside the schema. Each element is returned as a statement of its own, a table
 * qualified with the schema, so that it is read as if written `CREATE TABLE Person.a (…)`. Any other statement is
 * returned as it is.
 */
export function schemaElements(statement: SqlStatement): SqlStatement[] {
  const head = SCHEMA_HEAD.exec(statement.text);
  if (!head) return [statement];
  const schema = head[1] ?? head[2]!;
  const { text } = statement;
  const starts: number[] = [];
  let depth = 0;
  for (let i = head[0].length; i < text.length; ) {
    const ch = text[i]!;
    if (ch === '-' && text[i + 1] === '-') i = lineEnd(text, i);
    else if (ch === '/' && text[i + 1] === '*') {
      const close = text.indexOf('*/', i + 2);
      i = close === -1 ? text.length : close + 2;
    } else if (ch === "'" || ch === '"') i = quoteEnd(text, i, ch, false);
    else if (ch === '(' || ch === ')') {
      depth += ch === '(' ? 1 : -1;
      i++;
    } else if (/[A-Za-z_]/.test(ch) && !/[\w$]/.test(text[i - 1] ?? ' ')) {
      const word = /^[A-Za-z_][\w$]*/.exec(text.slice(i, i + 64))![0];
      if (depth === 0 && /^(?:CREATE|GRANT)$/i.test(word)) starts.push(i);
      i += word.length;
    } else i++;
  }
  const locate = positionFinder(text);
  return starts.map((start, index) => {
    const element = text.slice(start, starts[index + 1] ?? text.length).trimEnd();
    const at = locate(start);
    return {
      text: element.replace(ELEMENT_TABLE, `$1${schema}.$2`),
      line: statement.line + at.line - 1,
      column: at.line === 1 ? statement.column + at.column - 1 : at.column,
    };
  });
}
