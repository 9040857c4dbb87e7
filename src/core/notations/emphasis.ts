/**
 * Emphasis of a whole label, as the notations write it: HTML-like tags (DOT's, Mermaid's and PlantUML's `<b>`, `<i>`),
 * Markdown's `**`, `__`, `*`, `_` (Mermaid's markdown strings) and creole's `**`, `//` (PlantUML). Marks are peeled off
 * while one pair wraps the whole text, so `<b><i>x</i></b>` is both; a label emphasised only in part gets none (the
 * scene sets a text in one face), its marks dropped by the notation as before.
 */
import type { GraphStyle } from '../graph/types.js';

export type EmphasisSyntax = 'html' | 'markdown' | 'creole';
export type Emphasis = Pick<GraphStyle, 'fontWeight' | 'fontStyle'>;

const PAIRS: Record<EmphasisSyntax, readonly (readonly [RegExp, keyof Emphasis])[]> = {
  html: [
    [/^<(b|strong)>([\s\S]*)<\/(?:b|strong)>$/i, 'fontWeight'],
    [/^<(i|em)>([\s\S]*)<\/(?:i|em)>$/i, 'fontStyle'],
  ],
  markdown: [
    [/^(\*\*|__)([\s\S]*)\1$/, 'fontWeight'],
    [/^(\*|_)([\s\S]*)\1$/, 'fontStyle'],
  ],
  creole: [
    [/^(\*\*)([\s\S]*)\1$/, 'fontWeight'],
    [/^(\/\/)([\s\S]*)\1$/, 'fontStyle'],
  ],
};

/** The emphasis wrapping all of `text` in the given syntaxes; empty when none does. */
export function wholeEmphasis(text: string, syntaxes: readonly EmphasisSyntax[]): Emphasis {
  const found: Emphasis = {};
  let rest = text.trim();
  for (let peeled = true; peeled; ) {
    peeled = false;
    for (const [pattern, field] of syntaxes.flatMap((syntax) => PAIRS[syntax])) {
      const match = pattern.exec(rest);
      if (match === null || match[2]!.trim() === '') continue;
      // The mark closing again inside is two emphasised parts (`**a** and **b**`), not one emphasised label.
      const mark = /^[a-z]+$/i.test(match[1]!) ? new RegExp(`</?${match[1]}>`, 'i') : match[1]!;
      if (typeof mark === 'string' ? match[2]!.includes(mark) : mark.test(match[2]!)) continue;
      if (field === 'fontWeight') found.fontWeight = 'bold';
      else found.fontStyle = 'italic';
      rest = match[2]!.trim();
      peeled = true;
      break;
    }
  }
  return found;
}
