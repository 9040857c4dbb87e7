/**
 * DOT that Graphviz reads but the parser (`@ts-graphviz/ast`) refuses, rewritten to what the parser takes, position
 * for position (a character becomes a space or another single character) so its error lines and columns stay true:
 * - empty statements: `;` after `{`, `}` or another `;` (`{ rank=same; a b };`, `a;;`) — DOT's grammar allows a `;`
 *   after any statement, a subgraph included;
 * - several attribute lists on one statement, `a -> b [color=red] [label="x"]`, read as one;
 * - an attribute list on the line after its node (`"N11"⏎[shape=record]`): the line break moves after the list's `]`,
 *   so only lines inside that list shift;
 * - a line break after `=` (`label=⏎<<table>…>`): it moves after the value;
 * - a file of several graphs: Graphviz draws each; the first is kept and the rest said;
 * - a subgraph as an end of an edge holding more than node names (`TOP -> {rank=same a b} -> BOTTOM`): the end keeps
 *   only its nodes' names and the whole subgraph is repeated as a statement of its own before the graph's last `}`,
 *   which Graphviz reads the same (its nodes get the edges, the subgraph its attributes).
 * - a line break inside a quoted string (`label="Flush local pending,⏎    Rotate list"`): Graphviz draws it as a line
 *   break, the parser refuses it; it becomes `\n`, without the indentation that lays out the source (Graphviz keeps
 *   those spaces, which push the line off centre), and the line break moves after the string.
 * Otherwise strings, HTML labels and comments are stepped over, never changed.
 */

export interface LenientDot {
  code: string;
  warnings: string[];
}

export function lenientDot(code: string): LenientDot {
  // UTF-16 units, like the offsets of `code.slice`.
  const chars = code.split('');
  const warnings: string[] = [];
  let depth = 0;
  /** The last character outside strings and comments that is not white space, and where it is. */
  let last = '';
  let lastAt = -1;
  let graphs = 0;
  /** Line breaks taken from between `=` and its value, given back after the value. */
  let pendingBreaks = 0;
  const giveBack = (at: number) => {
    if (pendingBreaks === 0) return;
    chars[at] += '\n'.repeat(pendingBreaks);
    pendingBreaks = 0;
  };
  let firstGraphEnd = -1;
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i]!;
    if (c === '"') {
      for (i++; i < chars.length && chars[i] !== '"'; i++) {
        if (chars[i] === '\\') i++;
        else if (chars[i] === '\n') {
          chars[i] = '\\n';
          pendingBreaks++;
          for (let k = i + 1; k < chars.length && (chars[k] === ' ' || chars[k] === '\t'); k++) chars[k] = '';
        }
      }
      last = '"';
      lastAt = i;
      giveBack(i);
      continue;
    }
    if (c === '<') {
      let nested = 0;
      for (; i < chars.length; i++) {
        if (chars[i] === '<') nested++;
        else if (chars[i] === '>' && --nested === 0) break;
      }
      last = '>';
      lastAt = i;
      giveBack(i);
      continue;
    }
    if (c === '/' && chars[i + 1] === '/') {
      while (i < chars.length && chars[i] !== '\n') i++;
      continue;
    }
    if (c === '/' && chars[i + 1] === '*') {
      for (i += 2; i < chars.length && !(chars[i] === '*' && chars[i + 1] === '/'); i++);
      i++;
      continue;
    }
    // `#` at the start of a line is a C preprocessor line, which Graphviz skips.
    if (c === '#' && (i === 0 || /\n\s*$/.test(chars.slice(Math.max(0, i - 40), i).join('')))) {
      while (i < chars.length && chars[i] !== '\n') i++;
      continue;
    }
    if (/\s/.test(c)) continue;
    if (c === ';' && (last === '{' || last === '}' || last === ';')) {
      chars[i] = ' ';
      continue;
    }
    if (c === '[' && /^["\w.>]$/.test(last)) {
      const gap = chars.slice(lastAt + 1, i);
      if (gap.includes('\n')) {
        const close = chars.indexOf(']', i);
        if (close > 0) {
          for (let k = lastAt + 1; k < i; k++) if (chars[k] === '\n') chars[k] = ' ';
          chars[close] = ']' + '\n'.repeat(gap.filter((g) => g === '\n').length);
        }
      }
    }
    if (c === '[' && last === ']') {
      // `[a=1] [b=2]` → `[a=1, b=2]`; after an empty or already separated list, just a space.
      const before = chars.slice(0, lastAt).join('').trimEnd().slice(-1);
      chars[lastAt] = before === '[' || before === ',' || before === ';' ? ' ' : ',';
      chars[i] = ' ';
      last = ',';
      continue;
    }
    if (c === '{') depth++;
    if (c === '}' && --depth === 0 && firstGraphEnd < 0) firstGraphEnd = i;
    if (depth === 0 && /^(di)?graph\b/i.test(code.slice(i, i + 8)) && (i === 0 || !/[\w.]/.test(chars[i - 1]!))) graphs++;
    if (c === '=') {
      let j = i + 1;
      while (j < chars.length && /\s/.test(chars[j]!)) j++;
      for (let k = i + 1; k < j; k++) {
        if (chars[k] === '\n') {
          chars[k] = ' ';
          pendingBreaks++;
        }
      }
    } else if (!/[\w.]/.test(chars[i + 1] ?? '')) giveBack(i);
    last = c;
    lastAt = i;
  }
  let text = chars.join('');
  if (graphs > 1 && firstGraphEnd >= 0) {
    warnings.push(`the input holds ${graphs} graphs; only the first is drawn`);
    text = text.slice(0, firstGraphEnd + 1);
  }
  return edgeSubgraphsAsNodeLists(text, warnings);
}

interface Token {
  text: string;
  at: number;
  /** A name, a number, a quoted string or an HTML string; otherwise punctuation. */
  id: boolean;
}

/** DOT's tokens, strings, HTML and comments each one token (comments dropped). */
function tokenize(code: string): Token[] {
  const tokens: Token[] = [];
  for (let i = 0; i < code.length; i++) {
    const c = code[i]!;
    if (/\s/.test(c)) continue;
    const start = i;
    if (c === '/' && code[i + 1] === '/') {
      while (i < code.length && code[i] !== '\n') i++;
    } else if (c === '/' && code[i + 1] === '*') {
      i = code.indexOf('*/', i + 2);
      if (i < 0) break;
      i++;
    } else if (c === '#' && (start === 0 || code[start - 1] === '\n')) {
      while (i < code.length && code[i] !== '\n') i++;
    } else if (c === '"') {
      for (i++; i < code.length && code[i] !== '"'; i++) if (code[i] === '\\') i++;
      tokens.push({ text: code.slice(start, i + 1), at: start, id: true });
    } else if (c === '<') {
      let nested = 0;
      for (; i < code.length; i++) {
        if (code[i] === '<') nested++;
        else if (code[i] === '>' && --nested === 0) break;
      }
      tokens.push({ text: code.slice(start, i + 1), at: start, id: true });
    } else if ((c === '-' && (code[i + 1] === '>' || code[i + 1] === '-'))) {
      tokens.push({ text: code.slice(i, i + 2), at: i, id: false });
      i++;
    } else if (/[\w.\-\u0080-\uffff]/.test(c)) {
      while (i + 1 < code.length && /[\w.\u0080-\uffff]/.test(code[i + 1]!) ) i++;
      tokens.push({ text: code.slice(start, i + 1), at: start, id: true });
    } else tokens.push({ text: c, at: i, id: false });
  }
  return tokens;
}

const EDGE_OPS = new Set(['->', '--']);
const KEYWORDS = /^(node|edge|graph|subgraph|strict|digraph)$/i;

/**
 * The parser takes a subgraph as an end of an edge only when it lists node names. Such a subgraph that says more
 * keeps its node names in place (everything else blanked, line breaks kept, so positions stay true) and is repeated
 * whole as a statement of its own just before the graph's closing `}`.
 */
function edgeSubgraphsAsNodeLists(code: string, warnings: string[]): LenientDot {
  const tokens = tokenize(code);
  const chars = code.split('');
  const repeated: string[] = [];
  const lines: number[] = [];
  for (let t = 0; t < tokens.length; t++) {
    if (tokens[t]!.text !== '{') continue;
    // The block's head: `{`, `subgraph {` or `subgraph name {`.
    let head = t;
    if (tokens[head - 1]?.text.toLowerCase() === 'subgraph') head--;
    else if (tokens[head - 1]?.id && tokens[head - 2]?.text.toLowerCase() === 'subgraph') head -= 2;
    let close = t;
    for (let depth = 0; close < tokens.length; close++) {
      if (tokens[close]!.text === '{') depth++;
      else if (tokens[close]!.text === '}' && --depth === 0) break;
    }
    if (close >= tokens.length) break;
    const isEnd = EDGE_OPS.has(tokens[head - 1]?.text ?? '') || EDGE_OPS.has(tokens[close + 1]?.text ?? '');
    const body = tokens.slice(t + 1, close);
    const names = nodeNames(body);
    if (!isEnd || names.length === body.filter((token) => token.text !== ';' && token.text !== ',').length) continue;
    const start = tokens[head]!.at;
    const end = tokens[close]!.at + 1;
    repeated.push(code.slice(start, end));
    lines.push(code.slice(0, start).split('\n').length);
    const kept = new Set(names.flatMap((token) => Array.from({ length: token.text.length }, (_, k) => token.at + k)));
    for (let k = tokens[t]!.at + 1; k < tokens[close]!.at; k++) if (!kept.has(k) && chars[k] !== '\n') chars[k] = ' ';
    // A name given to the end would name a second subgraph; the repeated one keeps it.
    for (let k = start; k < tokens[t]!.at; k++) if (chars[k] !== '\n') chars[k] = ' ';
    t = close;
  }
  if (repeated.length === 0) return { code, warnings };
  const last = chars.lastIndexOf('}');
  // Put where the last `}` was, after a `;` unless the statement before ends a block: a dangling `a ->` is still an
  // error at that `}`'s place, not the start of a new edge into the repeated subgraph.
  const before = tokens.filter((token) => token.at < last).at(-1)?.text ?? '{';
  chars[last] = `${['{', '}', ';'].includes(before) ? ' ' : ';'} ${repeated.join(' ')} }`;
  warnings.push(`a subgraph at an end of an edge sets more than its nodes (line ${lines.join(', ')}): its nodes take the edge and the subgraph is read as a statement of its own, as Graphviz does`);
  return { code: chars.join(''), warnings };
}

/** The node names a subgraph's body mentions (statement heads and edge ends), not attribute names, values or ports. */
function nodeNames(body: Token[]): Token[] {
  const names: Token[] = [];
  let bracket = 0;
  for (let i = 0; i < body.length; i++) {
    const token = body[i]!;
    if (token.text === '[') bracket++;
    else if (token.text === ']') bracket--;
    if (bracket > 0 || !token.id) continue;
    if (body[i + 1]?.text === '=') {
      i += 2;
      continue;
    }
    if (KEYWORDS.test(token.text) && !token.text.startsWith('"')) {
      if (token.text.toLowerCase() === 'subgraph' && body[i + 1]?.id) i++;
      continue;
    }
    if (body[i - 1]?.text === ':') continue;
    names.push(token);
  }
  return names;
}
