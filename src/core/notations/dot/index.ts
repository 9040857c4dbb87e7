/** The DOT notation converter for the registry. */
import type { NotationConverter } from '../../graph/types.js';
import { dotToGraph } from './to-graph.js';

/** `[strict] (graph|digraph) [id] {` at the start, after comments: DOT's one fixed opening. */
const OPENING = /^(?:\s|\/\/[^\n]*\n|#[^\n]*\n|\/\*[\s\S]*?\*\/)*(?:strict\s+)?(?:di)?graph\s*(?:"(?:[^"\\]|\\.)*"|[\w.\u0080-\uffff]+)?\s*\{/i;

export const dotNotation: NotationConverter = {
  id: 'dot',
  detect(code) {
    if (OPENING.test(code)) return 0.95;
    // indexOf, not /digraph[^{]*\{[\s\S]*->/: the regex rescans to the end from every "digraph" (quadratic).
    const brace = code.indexOf('{', Math.max(0, code.search(/\bdigraph\b/)));
    return /\bdigraph\b/.test(code) && brace >= 0 && code.includes('->', brace) ? 0.5 : 0;
  },
  toGraph: dotToGraph,
};
