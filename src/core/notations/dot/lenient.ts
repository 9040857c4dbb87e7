/**
 * DOT that Graphviz reads but the parser (`@ts-graphviz/ast`) refuses, rewritten to what the parser takes, position
 * for position (a character becomes a space or another single character) so its error lines and columns stay true:
 * - empty statements: `;` after `{`, `}` or another `;` (`{ rank=same; a b };`, `a;;`) — DOT's grammar allows a `;`
 *   after any statement, a subgraph included;
 * - several attribute lists on one statement, `a -> b [color=red] [label="x"]`, read as one;
 * - an attribute list on the line after its node (`"N11"⏎[shape=record]`): the line break moves after the list's `]`,
 *   so only lines inside that list shift;
 * - a line break after `=` (`label=⏎<<table>…>`): it moves after the value;
 * - a file of several graphs: Graphviz draws each; the first is kept and the rest said.
 * Strings, HTML labels and comments are stepped over, never changed.
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
      for (i++; i < chars.length && chars[i] !== '"'; i++) if (chars[i] === '\\') i++;
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
  return { code: text, warnings };
}
