/**
 * PlantUML state diagrams: states (with descriptions), composite states as containers, `[*]` start and end
 * points per container, fork/join/choice pseudo-states and labelled transitions.
 */
import type { GraphEdge, GraphGroup, GraphIR, GraphNode } from '../../graph/types.js';
import { linkEdge, parseLink } from './links.js';
import { noteElements, noteOnLink, readNote } from './notes.js';
import { parseError, plainText, plantumlColor, unquote, type DiagramSource, type SourceLine } from './source.js';

const STATE = /^state\s+("[^"]+"|[^\s{<#:"]+)(?:\s+as\s+("[^"]+"|[^\s{<#:]+))?\s*(<<\w+>>)?\s*(#\S+)?\s*(?::\s*(.*?))?\s*(\{)?$/i;
const PSEUDO: Record<string, Partial<GraphNode>> = {
  '<<fork>>': { kind: 'fork', label: '' },
  '<<join>>': { kind: 'fork', label: '' },
  '<<choice>>': { kind: 'decision', label: '' },
  '<<start>>': { kind: 'start', label: '' },
  '<<end>>': { kind: 'end', label: '' },
  '<<entrypoint>>': { kind: 'start', label: '' },
  '<<exitpoint>>': { kind: 'end', label: '' },
};

export function stateToGraph(source: DiagramSource): GraphIR {
  const nodes = new Map<string, GraphNode>();
  const groups = new Map<string, GraphGroup>();
  const edges: GraphEdge[] = [];
  const warnings = [...source.warnings];
  const names = new Map<string, string>();
  const stack: { id: string; line: SourceLine }[] = [];
  let lastElement: string | undefined;
  const parent = () => stack[stack.length - 1]?.id;

  const state = (name: string): string => {
    const known = names.get(name);
    if (known !== undefined) return known;
    const node: GraphNode = { id: name, label: name, kind: 'state' };
    const up = parent();
    if (up) node.parent = up;
    nodes.set(name, node);
    names.set(name, name);
    return name;
  };
  /** `[*]` is the start point of its container when a link leaves it, and its end point when a link enters it. */
  const pseudo = (role: 'start' | 'end'): string => {
    const id = `[*]${role}${parent() ? `@${parent()}` : ''}`;
    if (!nodes.has(id)) {
      const node: GraphNode = { id, label: '', kind: role };
      const up = parent();
      if (up) node.parent = up;
      nodes.set(id, node);
    }
    return id;
  };

  const lines = source.lines;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const { text } = line;
    if (text === '}') {
      if (!stack.pop()) throw parseError(line, 'unexpected "}": no open composite state');
      continue;
    }
    if (/^(--|\|\|)$/.test(text)) continue;
    const onLink = noteOnLink(lines, i, edges, warnings);
    if (onLink > 0) {
      i += onLink - 1;
      continue;
    }
    const note = readNote(lines, i);
    if (note) {
      i += note.consumed - 1;
      const target = note.target !== undefined ? names.get(note.target) : note.attachedToLast ? lastElement : undefined;
      const id = `note-${line.line}`;
      const { node, edge } = noteElements(id, note, target, parent());
      nodes.set(id, node);
      if (edge) edges.push(edge);
      continue;
    }
    const declared = STATE.exec(text);
    if (declared) {
      const [, first, second, stereotype, color, description, opens] = declared as unknown as (string | undefined)[];
      const firstQuoted = first!.startsWith('"');
      const name = unquote(second !== undefined && !firstQuoted ? second : first!);
      const id = second === undefined ? name : unquote(firstQuoted ? second : first!);
      const fill = color ? plantumlColor(color) : undefined;
      if (opens) {
        const group: GraphGroup = { id, label: plainText(name), kind: 'state' };
        const up = parent();
        if (up) group.parent = up;
        if (fill) group.style = { fillColor: fill };
        groups.set(id, group);
        names.set(id, id);
        stack.push({ id, line });
        continue;
      }
      const node = nodes.get(state(id))!;
      node.label = plainText(name);
      const pseudoState = stereotype ? PSEUDO[stereotype.toLowerCase()] : undefined;
      if (pseudoState) Object.assign(node, pseudoState);
      if (description) node.rows = [...(node.rows ?? []), plainText(description)];
      if (fill) node.style = { fillColor: fill };
      lastElement = id;
      continue;
    }
    const link = parseLink(text);
    if (link) {
      if (link.hidden) continue;
      const from = link.from.form === 'pseudo' ? pseudo('start') : state(link.from.name);
      const to = link.to.form === 'pseudo' ? pseudo('end') : state(link.to.name);
      // State transitions are drawn with an open arrow at the target whatever head was written.
      edges.push(linkEdge(`e${edges.length + 1}`, from, to, { ...link, endArrowhead: link.endArrowhead === 'none' ? 'arrow' : link.endArrowhead }));
      continue;
    }
    const described = /^("[^"]+"|[\w.$]+)\s*:\s*(.*)$/.exec(text);
    if (described) {
      const node = nodes.get(state(unquote(described[1]!)));
      if (node) node.rows = [...(node.rows ?? []), plainText(described[2]!)];
      continue;
    }
    throw parseError(line, `expected a state, a transition (A --> B : event) or "}", got "${text.slice(0, 60)}"`);
  }
  const open = stack[stack.length - 1];
  if (open) throw parseError(open.line, `composite state "${open.id}" is never closed with "}"`);
  return { layout: 'layered', direction: source.direction, nodes: [...nodes.values()], edges, groups: [...groups.values()], warnings };
}
