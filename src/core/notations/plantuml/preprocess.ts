/**
 * PlantUML's preprocessor, run on a diagram's lines before they are read: what a file defines for itself is expanded
 * as PlantUML does, so its drawing is the one its author saw.
 * - variables `!$name = expr` (`?=` only when unset, `!global`/`!local`), replaced wherever `$name` appears;
 * - procedures `!procedure $name($a, $b = "x")` … `!endprocedure`, a call line giving the body's lines;
 * - functions `!function $name($a)` … `!return expr` … `!endfunction` (or on one line), replaced by what they return;
 * - legacy macros `!define NAME value`, `!define NAME(a, b) text`, `!definelong` … `!enddefinelong`, `!undef`;
 * - conditions `!if` / `!elseif` / `!else` / `!endif`, `!ifdef` / `!ifndef`, and `!while` … `!endwhile`;
 * - built-in functions `%true()`, `%not(x)`, `%strlen(s)`, `%variable_exists("name")` and the like.
 * What lives in other files (`!include`, `!theme`, `!import`) is not fetched: those lines are handed on untouched, for
 * the reader to count and say. There is no PlantUML preprocessor for JavaScript, so this is written here, bounded:
 * calls nest at most MAX_DEPTH deep and the expansion is at most LIMITS.codeLines lines and MAX_LOOPS loop turns.
 */
import { dictionary } from '../../dictionary.js';
import { LIMITS } from '../../limits.js';
import { parseError, splitArguments } from './source.js';

export interface PlainLine {
  text: string;
  line: number;
}

type Value = string | number;

interface Callable {
  params: Array<{ name: string; fallback?: string }>;
  body: PlainLine[];
  /** A one-line function's `!return` expression. */
  returns?: string;
  kind: 'procedure' | 'function';
}

interface Macro {
  params?: string[];
  text: string;
}

const MAX_DEPTH = 32;
const MAX_LOOPS = 10_000;
/** Directives of files we do not read: handed on to the reader, which counts them. */
const FOREIGN = /^!(include\w*|import|theme|pragma|startsub|endsub|dump_memory|log|assert)\b/i;

class Unsupported extends Error {}

const errorAt = (at: PlainLine, message: string) => parseError({ line: at.line, column: 1 + at.text.length - at.text.trimStart().length }, message);

export function preprocess(lines: readonly PlainLine[]): { lines: PlainLine[]; warnings: string[] } {
  const preprocessor = new Preprocessor();
  return { lines: preprocessor.run(lines), warnings: preprocessor.warnings };
}

class Preprocessor {
  private readonly globals = new Map<string, Value>();
  private readonly callables = new Map<string, Callable>();
  private readonly macros = new Map<string, Macro>();
  private readonly out: PlainLine[] = [];
  readonly warnings: string[] = [];
  /** The line being read: where an error in a function call (inside an expression) is reported. */
  private current: PlainLine = { text: '', line: 1 };
  private loops = 0;

  run(lines: readonly PlainLine[]): PlainLine[] {
    this.block(lines, [], 0, lines[0]);
    return this.out;
  }

  /** Runs a block of lines; `scopes` are the calls' local variables, innermost last. Returns a function's value. */
  private block(lines: readonly PlainLine[], scopes: Array<Map<string, Value>>, depth: number, site: PlainLine | undefined, emit = true): Value | undefined {
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]!;
      this.current = line;
      const text = line.text.trim();
      const directive = /^!\s*(\$?\w+)\s*(.*)$/s.exec(text);
      const word = directive?.[1]!.toLowerCase();
      const rest = directive?.[2]!.trim() ?? '';
      if (!directive || FOREIGN.test(text)) {
        const call = /^(\$?[A-Za-z_]\w*)\s*\((.*)\)\s*$/s.exec(text);
        const callable = call && this.callables.get(call[1]!);
        if (callable && callable.kind === 'procedure') {
          this.invoke(callable, this.argumentsOf(call[2]!, scopes), scopes, depth, line);
          continue;
        }
        if (emit) this.emit({ ...line, text: directive ? line.text : this.substitute(line.text, scopes, depth) }, site);
        continue;
      }
      switch (word) {
        case 'procedure':
        case 'function':
        case 'unquoted': {
          const header = word === 'unquoted' ? rest.replace(/^(procedure|function)\s+/i, '') : rest;
          const kind = word === 'unquoted' ? (/^procedure/i.test(rest) ? 'procedure' : 'function') : word;
          const head = /^(\$?[A-Za-z_]\w*)\s*\(([^)]*)\)\s*(.*)$/s.exec(header);
          if (!head) throw errorAt(line, `a ${kind} needs a name and its parameters in brackets, as in !${kind} $name($a)`);
          const oneLine = /^!return\s+(.*)$/is.exec(head[3]!.trim());
          const end = oneLine ? i : this.closing(lines, i, /^!\s*(procedure|function|unquoted)\b/i, /^!\s*end\s*(procedure|function)\b/i);
          const params = head[2]!.split(',').map((p) => p.trim()).filter(Boolean).map((p) => {
            const [name, fallback] = p.split(/=(.*)/s).map((s) => s.trim());
            return { name: name!, ...(fallback !== undefined && { fallback }) };
          });
          this.callables.set(head[1]!, { kind, params, body: lines.slice(i + 1, end), ...(oneLine && { returns: oneLine[1]! }) });
          i = end;
          continue;
        }
        case 'define': {
          const head = /^([A-Za-z_]\w*)(?:\(([^)]*)\))?\s*(.*)$/s.exec(rest);
          if (!head) throw errorAt(line, '!define needs a name, as in !define NAME value');
          this.macros.set(head[1]!, { text: head[3]!, ...(head[2] !== undefined && { params: head[2].split(',').map((p) => p.trim()) }) });
          continue;
        }
        case 'definelong': {
          const head = /^([A-Za-z_]\w*)(?:\(([^)]*)\))?/.exec(rest);
          if (!head) throw errorAt(line, '!definelong needs a name, as in !definelong NAME(a)');
          const end = this.closing(lines, i, /^!\s*definelong\b/i, /^!\s*enddefinelong\b/i);
          this.macros.set(head[1]!, { text: lines.slice(i + 1, end).map((l) => l.text.trim()).join('\n'), ...(head[2] !== undefined && { params: head[2].split(',').map((p) => p.trim()) }) });
          i = end;
          continue;
        }
        case 'undef':
          this.macros.delete(rest);
          this.globals.delete(rest);
          continue;
        case 'if':
        case 'ifdef':
        case 'ifndef': {
          let end = this.closing(lines, i, /^!\s*if(n?def)?\b/i, /^!\s*endif\b/i, false);
          let within = lines;
          if (end < 0) {
            // PlantUML closes an `!if` still open at @enduml (mojaloop's FXAPI_Payer_Receive_Agreement).
            this.warnings.push(`line ${line.line}: "${text}" is never closed with !endif: read to the end`);
            within = [...lines, { text: '!endif', line: lines.at(-1)!.line }];
            end = lines.length;
          }
          const value = this.branch(within, i, end, scopes);
          if (value.lines) {
            const result = this.block(value.lines, scopes, depth, site, emit);
            if (result !== undefined) return result;
          }
          i = end;
          continue;
        }
        case 'while': {
          const end = this.closing(lines, i, /^!\s*while\b/i, /^!\s*end\s*while\b/i);
          while (this.holds(rest, scopes, depth, line)) {
            if (++this.loops > MAX_LOOPS) throw errorAt(line, `!while ran more than ${MAX_LOOPS} times: the loop never ends`);
            const result = this.block(lines.slice(i + 1, end), scopes, depth, site, emit);
            if (result !== undefined) return result;
          }
          i = end;
          continue;
        }
        case 'return':
          return this.argument(rest, scopes, depth);
        case 'global':
        case 'local':
        default: {
          const assignment = /^(?:(global|local)\s+)?(\$?[A-Za-z_]\w*)\s*(\?=|=)\s*(.*)$/s.exec(word === 'global' || word === 'local' ? `${word} ${rest}` : text.slice(1).trim());
          if (!assignment) {
            if (emit) this.emit(line, site);
            continue;
          }
          const [, where, name, operator, expression] = assignment;
          const scope = where === 'local' || (where !== 'global' && scopes.at(-1)?.has(name!)) ? scopes.at(-1) ?? this.globals : this.globals;
          if (operator === '?=' && this.lookup(name!, scopes) !== undefined) continue;
          scope.set(name!, this.argument(expression!, scopes, depth));
        }
      }
    }
    return undefined;
  }

  private emit(line: PlainLine, site: PlainLine | undefined): void {
    if (this.out.length >= LIMITS.codeLines) throw errorAt(site ?? line, `the preprocessor made more than ${LIMITS.codeLines} lines`);
    for (const text of line.text.split('\n')) this.out.push({ text, line: line.line });
  }

  /** The index of the line closing the block opened at `open`; when there is none, an error (or -1 if not `strict`). */
  private closing(lines: readonly PlainLine[], open: number, opens: RegExp, closes: RegExp, strict = true): number {
    let nested = 0;
    for (let i = open + 1; i < lines.length; i++) {
      const text = lines[i]!.text.trim();
      if (opens.test(text) && !/^!\s*(procedure|function|unquoted)\b.*!return\b/i.test(text)) nested++;
      else if (closes.test(text) && nested-- === 0) return i;
    }
    if (!strict) return -1;
    throw errorAt(lines[open]!, `"${lines[open]!.text.trim()}" is never closed`);
  }

  /** The lines of the branch of `!if … !endif` (from `open` to `end`) whose condition holds. */
  private branch(lines: readonly PlainLine[], open: number, end: number, scopes: Array<Map<string, Value>>): { lines?: PlainLine[] } {
    let nested = 0;
    let start = open;
    let holds = this.condition(lines[open]!, scopes);
    for (let i = open + 1; i <= end; i++) {
      const text = lines[i]!.text.trim();
      if (/^!\s*if(n?def)?\b/i.test(text)) nested++;
      else if (/^!\s*endif\b/i.test(text) && i !== end) nested--;
      else if (nested === 0 && (/^!\s*else\s*$/i.test(text) || /^!\s*elseif\b/i.test(text) || i === end)) {
        if (holds) return { lines: lines.slice(start + 1, i) };
        start = i;
        holds = /^!\s*else\s*$/i.test(text) || (i !== end && this.condition(lines[i]!, scopes));
      }
    }
    return {};
  }

  private condition(at: PlainLine, scopes: Array<Map<string, Value>>): boolean {
    const [, word, rest] = /^!\s*(?:else)?(\w+)\s*(.*)$/is.exec(at.text.trim())!;
    const name = rest!.trim();
    if (/^ifdef$/i.test(word!)) return this.macros.has(name) || this.lookup(name, scopes) !== undefined;
    if (/^ifndef$/i.test(word!)) return !(this.macros.has(name) || this.lookup(name, scopes) !== undefined);
    return this.holds(name, scopes, 0, at);
  }

  private lookup(name: string, scopes: Array<Map<string, Value>>): Value | undefined {
    return scopes.at(-1)?.get(name) ?? this.globals.get(name);
  }

  private argumentsOf(text: string, scopes: Array<Map<string, Value>>): { positional: Value[]; named: Map<string, Value> } {
    const positional: Value[] = [];
    const named = new Map<string, Value>();
    for (const part of splitArguments(text).map((p) => p.trim())) {
      const keyword = /^(\$[A-Za-z_]\w*)\s*=(?!=)\s*(.*)$/s.exec(part);
      const value = this.argument(keyword ? keyword[2]! : part, scopes);
      if (keyword) named.set(keyword[1]!, value);
      else positional.push(value);
    }
    return { positional, named };
  }

  /** An argument is an expression; a bare word PlantUML takes as the text it is (`$card(MyCard, "A")`). */
  private argument(text: string, scopes: Array<Map<string, Value>>, depth = 0): Value {
    const trimmed = text.trim();
    try {
      return this.evaluate(trimmed, scopes, depth);
    } catch (error) {
      if (error instanceof Unsupported) return this.substitute(trimmed, scopes, depth);
      throw error;
    }
  }

  /** A condition; one this preprocessor cannot work out (a built-in it lacks) is false, and said. */
  private holds(text: string, scopes: Array<Map<string, Value>>, depth: number, at: PlainLine): boolean {
    try {
      return truthy(this.evaluate(text, scopes, depth));
    } catch (error) {
      if (!(error instanceof Unsupported)) throw error;
      this.warnings.push(`line ${at.line}: the condition "${text}" could not be worked out (${error.message}); read as false`);
      return false;
    }
  }

  private invoke(callable: Callable, args: { positional: Value[]; named: Map<string, Value> }, scopes: Array<Map<string, Value>>, depth: number, site: PlainLine): Value | undefined {
    if (depth >= MAX_DEPTH) throw errorAt(site, `procedures and functions call each other more than ${MAX_DEPTH} deep`);
    const locals = new Map<string, Value>();
    callable.params.forEach((param, k) => {
      const value = args.named.get(param.name) ?? args.positional[k] ?? (param.fallback !== undefined ? this.argument(param.fallback, scopes) : '');
      locals.set(param.name, value);
    });
    const inner = [...scopes, locals];
    if (callable.returns !== undefined) return this.argument(callable.returns, inner, depth + 1);
    return this.block(callable.body, inner, depth + 1, site, callable.kind === 'procedure');
  }

  /** A text line with variables, function calls and macros replaced by their values. */
  private substitute(text: string, scopes: Array<Map<string, Value>>, depth: number): string {
    if (this.callables.size === 0 && this.macros.size === 0 && this.globals.size === 0 && scopes.length === 0 && !text.includes('%')) return text;
    // One pass for calls and variables (a value holding `$x` stays as it is, as in PlantUML); macros are rescanned.
    let result = this.replaceCalls(text, scopes, depth).replace(/\$[A-Za-z_]\w*/g, (name) => {
      const value = this.lookup(name, scopes);
      return value === undefined ? name : String(value);
    });
    for (let pass = 0; pass < MAX_DEPTH && this.macros.size > 0; pass++) {
      const before = result;
      result = this.expandMacros(result);
      if (result === before) break;
    }
    return result;
  }

  private replaceCalls(text: string, scopes: Array<Map<string, Value>>, depth: number): string {
    const call = /(%?\$?[A-Za-z_]\w*)\s*\(/g;
    let out = '';
    let from = 0;
    for (let m = call.exec(text); m; m = call.exec(text)) {
      const name = m[1]!;
      const callable = this.callables.get(name);
      const builtin = name.startsWith('%') ? BUILTINS[name.slice(1).toLowerCase()] : undefined;
      if (!callable && !builtin) continue;
      const close = closingBracket(text, m.index + m[0].length - 1);
      if (close < 0) continue;
      let value: Value | undefined;
      try {
        value = this.callValue(name, text.slice(m.index + m[0].length, close), scopes, depth);
      } catch (error) {
        if (error instanceof Unsupported) continue;
        throw error;
      }
      out += text.slice(from, m.index) + String(value ?? '');
      from = close + 1;
      call.lastIndex = close + 1;
    }
    return out + text.slice(from);
  }

  private expandMacros(text: string): string {
    if (this.macros.size === 0) return text;
    const names = [...this.macros.keys()].sort((a, b) => b.length - a.length).map((n) => n.replace(/\$/g, '\\$'));
    const word = new RegExp(`(?<![\\w$])(${names.join('|')})(?![\\w])`, 'g');
    let out = '';
    let from = 0;
    for (let m = word.exec(text); m; m = word.exec(text)) {
      const macro = this.macros.get(m[1]!)!;
      let end = m.index + m[0].length;
      let body = macro.text;
      if (macro.params) {
        const open = /^\s*\(/.exec(text.slice(end));
        if (!open) continue;
        const close = closingBracket(text, end + open[0].length - 1);
        if (close < 0) continue;
        const args = splitArguments(text.slice(end + open[0].length, close)).map((a) => a.trim());
        macro.params.forEach((param, k) => {
          body = body.replace(new RegExp(`(?<![\\w$])${param.replace(/\$/g, '\\$')}(?![\\w])`, 'g'), () => args[k] ?? '');
        });
        body = body.replace(/##/g, '');
        end = close + 1;
      }
      out += text.slice(from, m.index) + body;
      from = end;
      word.lastIndex = end;
    }
    return out + text.slice(from);
  }

  private callValue(name: string, argsText: string, scopes: Array<Map<string, Value>>, depth: number): Value {
    const callable = this.callables.get(name);
    if (callable) {
      if (callable.kind === 'procedure') throw new Unsupported(name);
      return this.invoke(callable, this.argumentsOf(argsText, scopes), scopes, depth, this.current) ?? '';
    }
    const builtin = BUILTINS[name.slice(1).toLowerCase()];
    if (!builtin) throw new Unsupported(name);
    const args = splitArguments(argsText).map((a) => this.argument(a, scopes));
    return builtin(args, { exists: (n) => this.lookup(n, scopes) !== undefined || this.macros.has(n), valueOf: (n) => this.lookup(n, scopes) ?? '', callable: (n) => this.callables.has(n) });
  }

  /** PlantUML expressions: strings, integers, variables, calls, `+ - * / %`, comparisons, `&& || !`, brackets. */
  private evaluate(text: string, scopes: Array<Map<string, Value>>, depth: number): Value {
    const tokens = text.match(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|%?\$?[A-Za-z_]\w*|\d+|==|!=|<=|>=|&&|\|\||[-+*/%<>!(),]|\S/g) ?? [];
    let at = 0;
    const peek = () => tokens[at];
    const take = () => tokens[at++];
    const or = (): Value => {
      let left = and();
      while (peek() === '||') {
        take();
        const right = and();
        left = truthy(left) || truthy(right) ? 1 : 0;
      }
      return left;
    };
    const and = (): Value => {
      let left = compare();
      while (peek() === '&&') {
        take();
        const right = compare();
        left = truthy(left) && truthy(right) ? 1 : 0;
      }
      return left;
    };
    const compare = (): Value => {
      const left = sum();
      const op = peek();
      if (!op || !['==', '!=', '<', '>', '<=', '>='].includes(op)) return left;
      take();
      const right = sum();
      const [a, b] = typeof left === 'number' && typeof right === 'number' ? [left, right] : [String(left), String(right)];
      const result = op === '==' ? a === b : op === '!=' ? a !== b : op === '<' ? a < b : op === '>' ? a > b : op === '<=' ? a <= b : a >= b;
      return result ? 1 : 0;
    };
    const sum = (): Value => {
      let left = product();
      while (peek() === '+' || peek() === '-') {
        const op = take();
        const right = product();
        if (op === '+') left = typeof left === 'number' && typeof right === 'number' ? left + right : String(left) + String(right);
        else left = Number(left) - Number(right);
      }
      return left;
    };
    const product = (): Value => {
      let left = unary();
      while (peek() === '*' || peek() === '/' || peek() === '%') {
        const op = take();
        const right = Number(unary());
        left = op === '*' ? Number(left) * right : op === '/' ? Math.trunc(Number(left) / (right || 1)) : Number(left) % (right || 1);
      }
      return left;
    };
    const unary = (): Value => {
      if (peek() === '!') {
        take();
        return truthy(unary()) ? 0 : 1;
      }
      if (peek() === '-') {
        take();
        return -Number(unary());
      }
      return primary();
    };
    const primary = (): Value => {
      const token = take();
      if (token === undefined) throw new Unsupported('end of expression');
      if (token === '(') {
        const value = or();
        if (take() !== ')') throw new Unsupported('bracket');
        return value;
      }
      if (/^\d+$/.test(token)) return Number(token);
      if (/^["']/.test(token)) return token.slice(1, -1).replace(/\\(["'\\])/g, '$1');
      if (peek() === '(') {
        take();
        const start = at;
        let nested = 1;
        while (at < tokens.length && nested > 0) {
          if (tokens[at] === '(') nested++;
          else if (tokens[at] === ')') nested--;
          at++;
        }
        if (nested > 0) throw new Unsupported('bracket');
        return this.callValue(token, tokens.slice(start, at - 1).join(' '), scopes, depth);
      }
      const value = this.lookup(token, scopes);
      if (value !== undefined) return value;
      const macro = this.macros.get(token);
      if (macro && !macro.params) return this.argument(macro.text, scopes);
      if (token.startsWith('$')) return '';
      // A bare word is the text it is (`!$simplified = false`, `!if ($simplified != true)`).
      if (/^[A-Za-z_]\w*$/.test(token)) return token;
      throw new Unsupported(token);
    };
    const value = or();
    if (at < tokens.length) throw new Unsupported(`unexpected ${tokens[at]}`);
    return value;
  }
}

/** PlantUML's true: a number other than 0, or text other than empty. */
const truthy = (value: Value): boolean => (typeof value === 'number' ? value !== 0 : value !== '' && value !== 'false');

interface Memory {
  exists(name: string): boolean;
  valueOf(name: string): Value;
  callable(name: string): boolean;
}

const BUILTINS: Record<string, (args: Value[], memory: Memory) => Value> = dictionary({
  true: () => 1,
  false: () => 0,
  not: ([x]) => (truthy(x ?? '') ? 0 : 1),
  boolval: ([x]) => (truthy(x ?? '') ? 1 : 0),
  strlen: ([s]) => String(s ?? '').length,
  substr: ([s, from, length]) => String(s ?? '').substr(Number(from ?? 0), length === undefined ? undefined : Number(length)),
  strpos: ([s, part]) => String(s ?? '').indexOf(String(part ?? '')),
  upper: ([s]) => String(s ?? '').toUpperCase(),
  lower: ([s]) => String(s ?? '').toLowerCase(),
  string: ([s]) => String(s ?? ''),
  intval: ([s]) => Number.parseInt(String(s ?? '0'), 10) || 0,
  chr: ([n]) => String.fromCodePoint(Number(n ?? 32)),
  newline: () => '\n',
  variable_exists: ([name], memory) => (memory.exists(String(name ?? '')) ? 1 : 0),
  get_variable_value: ([name], memory) => memory.valueOf(String(name ?? '')),
  function_exists: ([name], memory) => (memory.callable(String(name ?? '')) ? 1 : 0),
});

/** The index of the `)` closing the `(` at `open`, quotes stepped over; -1 when there is none. */
function closingBracket(text: string, open: number): number {
  let depth = 0;
  let quote = '';
  for (let i = open; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === quote) quote = '';
    } else if (c === '"') quote = c;
    else if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return i;
  }
  return -1;
}
