/**
 * PlantUML's legacy activity syntax, still in real files: `(*) --> "Action"`, `"A" -->[label] "B"`, a source left out
 * meaning the last activity (`--> "Next"`), `===bar===` synchronisation bars, `if "…" then … else … endif` and notes
 * on the last activity. `(*)` is the start on an arrow's left and the end on its right.
 */
import type { GraphEdge, GraphIR, GraphNode } from '../../graph/types.js';
import { noteElements, readNote } from './notes.js';
import { parseError, plainText, unquote, type DiagramSource } from './source.js';

const END = String.raw`\(\*(?:top)?\)|===+[^=]+===+|"[^"]*"(?:\s+as\s+[\w.]+)?|[\w.]+`;
// The target may also be an unquoted name of several words (`--> Return kubeconfig`), as PlantUML reads it.
const ARROW = new RegExp(String.raw`^(${END})?\s*([-.]+(?:\[[^\]]*\]|left|right|up|down|l|r|u|d)*[-.]*>)\s*(?:\[([^\]]*)\])?\s*(${END}|[^"[\]\s][^"[\]]*?)\s*$`, 'i');

/** Tells the legacy syntax from the new one: its start point `(*)`. */
export const LEGACY_ACTIVITY = /^\(\*(?:top)?\)\s*[-.]/;

export function legacyActivityToGraph(source: DiagramSource): GraphIR {
  const nodes: GraphNode[] = [];
  const edges: GraphEdge[] = [];
  const warnings = [...source.warnings];
  const byName = new Map<string, string>();
  /** Where an arrow without a source starts: the last activity, or the ends of the branches an `endif` closed. */
  let last: string[] = [];
  const decisions: { id: string; ends: string[] }[] = [];

  const add = (node: GraphNode): string => {
    nodes.push(node);
    return node.id;
  };
  const end = (token: string, side: 'from' | 'to'): string => {
    if (token.startsWith('(*')) {
      const kind = side === 'from' ? 'start' : 'end';
      const known = byName.get(`(*)${kind}`);
      if (known !== undefined) return known;
      const id = add({ id: `${kind}-${nodes.length + 1}`, label: '', kind });
      byName.set(`(*)${kind}`, id);
      return id;
    }
    const bar = /^===+([^=]+)===+$/.exec(token);
    const aliased = /^"([^"]*)"\s+as\s+([\w.]+)$/.exec(token);
    const name = bar ? `===${bar[1]!.trim()}` : aliased ? aliased[2]! : unquote(token);
    const known = byName.get(name) ?? (aliased ? undefined : byName.get(unquote(token)));
    if (known !== undefined) return known;
    const id = `${bar ? 'fork' : 'action'}-${nodes.length + 1}`;
    byName.set(name, id);
    return add(bar ? { id, label: '', kind: 'fork' } : { id, label: plainText(aliased ? aliased[1]! : name), kind: 'action' });
  };

  const lines = source.lines;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const { text } = line;
    // An arrow into a decision, `(*) --> if "ok" then` or `-->[yes] if "ok" then`: the decision opens here.
    const intoIf = /^(.*?)\s*if\s+"([^"]*)"\s+then$/i.exec(text);
    const arrowIntoIf = intoIf && intoIf[1] !== '' ? ARROW.exec(`${intoIf[1]} "if"`) : null;
    if (intoIf && arrowIntoIf) {
      const [, left, body, label] = arrowIntoIf as unknown as (string | undefined)[];
      const from = left !== undefined ? [end(left, 'from')] : last;
      if (from.length === 0) throw parseError(line, 'an arrow without a source needs an activity before it');
      const id = add({ id: `decision-${nodes.length + 1}`, label: plainText(intoIf[2]!), kind: 'decision' });
      for (const f of from) {
        const edge: GraphEdge = { id: `e${edges.length + 1}`, from: f, to: id, startArrowhead: 'none', endArrowhead: 'arrow' };
        if (label?.trim()) edge.label = plainText(label);
        if (body!.includes('.')) edge.style = { strokeStyle: 'dashed' };
        edges.push(edge);
      }
      decisions.push({ id, ends: [] });
      last = [id];
      continue;
    }
    const arrow = ARROW.exec(text);
    if (arrow) {
      const [, left, body, label, right] = arrow as unknown as (string | undefined)[];
      const from = left !== undefined ? [end(left, 'from')] : last;
      if (from.length === 0) throw parseError(line, 'an arrow without a source needs an activity before it');
      const to = end(right!, 'to');
      for (const f of from) {
        const edge: GraphEdge = { id: `e${edges.length + 1}`, from: f, to, startArrowhead: 'none', endArrowhead: 'arrow' };
        if (label?.trim()) edge.label = plainText(label);
        if (body!.includes('.')) edge.style = { strokeStyle: 'dashed' };
        edges.push(edge);
      }
      last = [to];
      continue;
    }
    const test = /^if\s+"([^"]*)"\s+then$/i.exec(text);
    if (test) {
      const id = add({ id: `decision-${nodes.length + 1}`, label: plainText(test[1]!), kind: 'decision' });
      for (const f of last) edges.push({ id: `e${edges.length + 1}`, from: f, to: id, startArrowhead: 'none', endArrowhead: 'arrow' });
      decisions.push({ id, ends: [] });
      last = [id];
      continue;
    }
    if (/^else$/i.test(text) || /^end\s*if$/i.test(text)) {
      const open = decisions[decisions.length - 1];
      if (!open) throw parseError(line, `"${text}" without an open if`);
      open.ends.push(...last.filter((id) => id !== open.id));
      if (/^else$/i.test(text)) last = [open.id];
      else {
        decisions.pop();
        last = open.ends;
      }
      continue;
    }
    const note = readNote(lines, i);
    if (note) {
      i += note.consumed - 1;
      const { node, edge } = noteElements(`note-${line.line}`, note, note.attachedToLast ? last[last.length - 1] : note.target === undefined ? undefined : byName.get(note.target), undefined);
      nodes.push(node);
      if (edge) edges.push(edge);
      continue;
    }
    throw parseError(line, `expected an arrow ("A" --> "B"), if "…" then, else, endif or a note, got "${text.slice(0, 60)}"`);
  }
  const open = decisions[decisions.length - 1];
  if (open) warnings.push(`decision "${nodes.find((n) => n.id === open.id)!.label}" is never closed with endif`);
  return { layout: 'layered', direction: source.direction, nodes, edges, groups: [], warnings };
}
