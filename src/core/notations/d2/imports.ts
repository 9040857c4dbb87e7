/**
 * A D2 file that imports another (`...@../theme`, `db: @shared/db`) comes without it when sent alone, and D2 refuses
 * the whole diagram at the import line. As PlantUML's `!include` is skipped and said, the import is left out and said,
 * and a value that reads a variable only the missing file could define (`style.fill: ${color-browser}`, a theme's
 * palette) is left out too, so the shape keeps D2's default. Without an import, an undefined variable is the author's
 * slip and D2's own error stands.
 */

/** `...@file` on a line of its own: the imported map spread here. */
const SPREAD_IMPORT = /^\s*\.\.\.@[^\s#]+\s*(#.*)?$/;
/** `key: @file`: the imported map as this key's value. */
const VALUE_IMPORT = /^(\s*[^\s:#][^:#]*?)\s*:\s*@[^\s#{}]+\s*(#.*)?$/;
/** A key whose whole value is substitutions (`fill: ${a}`, `label: ${a}${b}`). */
const SUBSTITUTED_VALUE = /^\s*[^:#]+:\s*((?:\$\{[^}]+\}\s*)+)(#.*)?$/;
/** The same in braces on a line: `{style.fill: ${a}}`, `{shape: circle; style.stroke: ${b}}`. */
const INLINE_SUBSTITUTED = /([{;]\s*)[\w.-]+\s*:\s*((?:\$\{[^}]+\}\s*)+);?(?=\s*[;}])/g;
const SUBSTITUTION = /\$\{([^}]+)\}/g;

/** Every key inside the file's `vars: { … }` blocks, at any depth: the variables the file defines itself. */
function definedVariables(lines: readonly string[]): Set<string> {
  const defined = new Set<string>();
  let depth = 0;
  for (const line of lines) {
    const code = line.replace(/#.*$/, '');
    if (depth === 0 && !/^\s*vars\s*:\s*\{/.test(code)) continue;
    const key = /^\s*([^\s:{}]+)\s*:/.exec(code);
    if (depth > 0 && key) defined.add(key[1]!.replace(/^["']|["']$/g, ''));
    depth += (code.match(/\{/g) ?? []).length - (code.match(/\}/g) ?? []).length;
    if (depth < 0) depth = 0;
  }
  return defined;
}

/** The code with its imports left out (each line kept, blank, so D2's line numbers still match the author's) and what was left out. */
export function withoutImports(code: string): { code: string; warnings: string[] } {
  const lines = code.split('\n');
  const imports: string[] = [];
  const kept = lines.map((line) => {
    if (SPREAD_IMPORT.test(line)) {
      imports.push(line.trim().replace(/^\.\.\./, '').replace(/\s*#.*$/, ''));
      return '';
    }
    const value = VALUE_IMPORT.exec(line);
    if (value) {
      imports.push(line.slice(line.indexOf('@')).replace(/\s*#.*$/, '').trim());
      return value[1]!;
    }
    return line;
  });
  if (imports.length === 0) return { code, warnings: [] };
  const defined = definedVariables(kept);
  const undefinedIn = (text: string) => [...text.matchAll(SUBSTITUTION)].map((m) => m[1]!.trim()).filter((name) => !defined.has(name));
  const unread = new Set<string>();
  const resolved = kept.map((line) => {
    const missing = undefinedIn(line);
    if (missing.length === 0) return line;
    missing.forEach((name) => unread.add(name));
    // A style or other value read from the missing file: D2's default instead, on a line of its own or in braces
    // (`{style.stroke: ${arrow-https}}`). In a longer text, the variable's name.
    if (SUBSTITUTED_VALUE.test(line)) return '';
    return line
      .replace(INLINE_SUBSTITUTED, (whole, before: string, values: string) => (undefinedIn(values).length > 0 ? before : whole))
      .replace(SUBSTITUTION, (whole, name: string) => (defined.has(name.trim()) ? whole : name.trim()));
  });
  const warnings = [`D2 import${imports.length === 1 ? '' : 's'} ${imports.join(', ')} left out: only the one file was given`];
  if (unread.size > 0) warnings.push(`variables from the imported file left out, their shapes drawn in D2's defaults: ${[...unread].join(', ')}`);
  return { code: withoutEmptyBlocks(resolved).join('\n'), warnings };
}

/** `style: {` … `}` with nothing left inside: D2 refuses a style that sets nothing, so the block goes too. */
function withoutEmptyBlocks(lines: string[]): string[] {
  const out = [...lines];
  for (let changed = true; changed; ) {
    changed = false;
    out.forEach((line, open) => {
      if (!/^\s*[^\s:#{}][^:#{}]*:\s*\{\s*$/.test(line)) return;
      let close = open + 1;
      while (close < out.length && out[close]!.trim() === '') close++;
      if (close < out.length && out[close]!.trim() === '}') {
        out[open] = '';
        out[close] = '';
        changed = true;
      }
    });
  }
  return out;
}
