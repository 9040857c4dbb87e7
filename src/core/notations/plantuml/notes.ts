/** Notes of the graph-like PlantUML diagrams (component, class, state, use case, activity), one- or multi-line. */
import type { GraphEdge, GraphNode } from '../../graph/types.js';
import { parseError, plainText, unquote, type SourceLine } from './source.js';

export interface Note {
  text: string;
  /** What the note is attached to (`note left of X`); `undefined` target with `attachedToLast` for `note left: …`. */
  target?: string;
  attachedToLast: boolean;
  /** The side written (`note left`), where it is attached. */
  side?: 'left' | 'right' | 'top' | 'bottom';
  /** `note "…" as N` names a free note that links may use. */
  alias?: string;
  /** Lines used, including the `end note` line. */
  consumed: number;
}

const ATTACHED = /^[rh]?note\s+(left|right|top|bottom)(?:\s+of\s+("[^"]+"|\[[^\]]+\]|\([^)]+\)|\S+))?\s*(#\S+)?\s*(?::\s*(.*))?$/i;
const FREE = /^note\s+(?:"((?:[^"\\]|\\.)*)"\s+as\s+(\S+)|as\s+(\S+)\s*(?:#\S+)?)\s*$/i;

/** A note's text: given on its first line, or the lines up to `end note`; with the lines it used. */
function noteBody(lines: readonly SourceLine[], index: number, inline: string | undefined, what: string): { text: string; consumed: number } {
  if (inline !== undefined) return { text: inline, consumed: 1 };
  const body: string[] = [];
  for (let i = index + 1; ; i++) {
    const line = lines[i];
    if (line === undefined) throw parseError(lines[index]!, `${what} is never closed with "end note"`);
    if (/^end\s*note$/i.test(line.text)) break;
    body.push(line.text);
  }
  return { text: body.join('\n'), consumed: body.length + 2 };
}

/** Reads the note starting at `lines[index]`, or undefined when that line starts no note. */
export function readNote(lines: readonly SourceLine[], index: number): Note | undefined {
  const first = lines[index]!;
  const attached = ATTACHED.exec(first.text);
  const free = attached ? undefined : FREE.exec(first.text);
  if (!attached && !free) return undefined;
  const { text, consumed } = noteBody(lines, index, attached ? attached[4] : free![1], 'note');
  const note: Note = { text: plainText(text), attachedToLast: attached !== null && attached !== undefined && attached[2] === undefined, consumed };
  // `note right of [First Component]` names the component `[First Component]` stands for.
  if (attached) note.side = attached[1]!.toLowerCase() as Note['side'];
  if (attached?.[2]) note.target = unquote(attached[2]).replace(/^\[(.*)\]$|^\((.*)\)$/, '$1$2').trim();
  const alias = free?.[2] ?? free?.[3];
  if (alias) note.alias = alias;
  return note;
}

/** The note node and, when attached, its dashed connector (PlantUML draws it as a dotted line, no heads). */
export function noteElements(id: string, note: Note, target: string | undefined, parent: string | undefined, beside = true): { node: GraphNode; edge?: GraphEdge } {
  const node: GraphNode = { id, label: note.text, kind: 'note' };
  if (parent) node.parent = parent;
  if (target === undefined) return { node };
  // A note under what it is attached to (`note bottom`) follows it along the flow; any other comes first.
  const [from, to] = note.side === 'bottom' ? [target, id] : [id, target];
  const edge: GraphEdge = { id: `${id}-link`, from, to, startArrowhead: 'none', endArrowhead: 'none', style: { strokeStyle: 'dashed' } };
  // Beside what it is attached to, as PlantUML draws it: a note left or right of a step is not a step of the flow above it.
  const toward = !beside ? undefined : note.side === 'left' ? 'RIGHT' : note.side === 'right' ? 'LEFT' : undefined;
  return { node, edge: toward ? { ...edge, toward } : edge };
}

/**
 * `note on link: …` or `note right on link` … `end note` belongs to the link just before it. PlantUML boxes it beside
 * the link; here its text is written under the link's label (said in a warning). Returns the lines used, 0 if none.
 */
export function noteOnLink(lines: readonly SourceLine[], index: number, edges: GraphEdge[], warnings: string[]): number {
  const first = lines[index]!;
  const match = /^note\s+(?:(?:left|right|top|bottom)\s+)?on\s+link\s*(?:#\S+)?\s*(?::\s*(.*))?$/i.exec(first.text);
  if (!match) return 0;
  const { text: body, consumed } = noteBody(lines, index, match[1], 'note on link');
  const last = edges[edges.length - 1];
  if (!last) throw parseError(first, 'note on link must follow a link');
  last.label = [last.label, plainText(body)].filter(Boolean).join('\n');
  warnings.push(`line ${first.line}: note on link is written under the link's label, not in a note box`);
  return consumed;
}
