/**
 * PlantUML state diagrams: states (with descriptions), composite states as containers, `[*]` start and end
 * points per container (and per concurrent region), `[H]`/`[H*]` history, fork/join/choice pseudo-states and labelled
 * transitions.
 */
import { mergeParallelEdges } from '../../graph/parallel-edges.js';
import type { GraphEdge, GraphGroup, GraphIR, GraphNode } from '../../graph/types.js';
import { linkEdge, parseLink, placedHint } from './links.js';
import { noteElements, noteOnLink, readNote } from './notes.js';
import { parseError, plainText, plantumlElementStyle, unquote, type DiagramSource, type SourceLine } from './source.js';
import { applyVisibility } from './visibility.js';
import { dictionary } from '../../dictionary.js';

const STATE = /^state\s+("[^"]+"|[^\s{<#:"]+)(?:\s+as\s+("[^"]+"|[^\s{<#:]+))?\s*(<<\w+>>)?\s*(#[^\s#]+)?\s*(?:##(?:\[\w+\])?\S*)?\s*(?::\s*(.*?))?\s*(\{)?$/i;
const PSEUDO: Record<string, Partial<GraphNode>> = dictionary({
  '<<fork>>': { kind: 'fork', label: '' },
  '<<join>>': { kind: 'fork', label: '' },
  '<<choice>>': { kind: 'decision', label: '' },
  '<<start>>': { kind: 'start', label: '' },
  '<<end>>': { kind: 'end', label: '' },
  '<<entrypoint>>': { kind: 'start', label: '' },
  '<<exitpoint>>': { kind: 'end', label: '' },
});

export function stateToGraph(source: DiagramSource): GraphIR {
  const nodes = new Map<string, GraphNode>();
  const groups = new Map<string, GraphGroup>();
  const edges: GraphEdge[] = [];
  const warnings = [...source.warnings];
  const names = new Map<string, string>();
  /** Open composite states; `region` counts the `--`/`||` separators of concurrent regions seen so far. */
  const stack: { id: string; line: SourceLine; region: number }[] = [];
  // A note set beside its state asks for Graphviz's placement, which draws a composite state's self-transition on a
  // state inside it and the composite's initial state last (learn-note's State3 `--> State3 : Failed`): beside
  // composite states, notes keep a rank of their own.
  const composite = source.lines.some((line) => /^state\s.*\{$/i.test(line.text));
  let lastElement: string | undefined;
  const parent = () => stack[stack.length - 1]?.id;

  /** A state by name; a composite state is its box (the group), which transitions reach as they do in PlantUML. */
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
    const top = stack[stack.length - 1];
    const id = `[*]${role}${top ? `@${top.id}${top.region > 0 ? `#${top.region + 1}` : ''}` : ''}`;
    if (!nodes.has(id)) {
      const node: GraphNode = { id, label: '', kind: role };
      const up = parent();
      if (up) node.parent = up;
      nodes.set(id, node);
    }
    return id;
  };

  /** `[H]` and `[H*]`: the (deep) history pseudo-state of a composite state, one per container. */
  const history = (mark: string, container: string | undefined): string => {
    const id = `[${mark}]${container ? `@${container}` : ''}`;
    if (!nodes.has(id)) nodes.set(id, { id, label: mark, kind: 'state', shape: 'ellipse', ...(container && { parent: container }) });
    return id;
  };

  /**
   * `state A {\n}` with nothing inside is a plain state, as PlantUML draws it (a state box, which takes
   * `A : description` rows), not an empty container.
   */
  const collapseIfEmpty = (id: string): void => {
    const group = groups.get(id);
    if (!group) return;
    const inside = (item: { parent?: string }) => item.parent === id;
    if ([...nodes.values()].some(inside) || [...groups.values()].some(inside)) return;
    groups.delete(id);
    const node: GraphNode = { id, label: group.label, kind: 'state' };
    if (group.parent) node.parent = group.parent;
    if (group.style) node.style = group.style;
    nodes.set(id, node);
  };

  const lines = source.lines;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const { text } = line;
    if (text === '}') {
      const closed = stack.pop();
      if (!closed) throw parseError(line, 'unexpected "}": no open composite state');
      collapseIfEmpty(closed.id);
      continue;
    }
    if (/^(--|\|\|)$/.test(text)) {
      const top = stack[stack.length - 1];
      if (!top) throw parseError(line, `"${text}" (concurrent regions) outside a composite state`);
      top.region++;
      warnings.push(`line ${line.line}: concurrent regions of ${top.id} are drawn in one box, without the ${text} separator`);
      continue;
    }
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
      const { node, edge } = noteElements(id, note, target, parent(), !composite);
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
      const paint = color ? plantumlElementStyle(color) : {};
      const painted = Object.keys(paint).length > 0;
      if (opens) {
        // PlantUML outlines a composite state as it does a state, solid: a dashed one read as a mere grouping.
        const group: GraphGroup = { id, label: plainText(name), kind: 'state', style: { strokeStyle: 'solid', ...paint } };
        const up = parent();
        if (up) group.parent = up;
        groups.set(id, group);
        names.set(id, id);
        // Named by a transition before it was declared composite: it is the box, not a state beside it, and it is
        // where its braces are, as PlantUML draws it: the manual's Configuring, named inside NotShooting by
        // `Idle --> Configuring`, then opened at the top level, sits beside NotShooting, not in it.
        nodes.delete(id);
        stack.push({ id, line, region: 0 });
        continue;
      }
      const node = nodes.get(state(id))!;
      node.label = plainText(name);
      const pseudoState = stereotype ? PSEUDO[stereotype.toLowerCase()] : undefined;
      if (pseudoState) Object.assign(node, pseudoState);
      if (description) node.rows = [...(node.rows ?? []), plainText(description)];
      if (painted) node.style = paint;
      lastElement = id;
      continue;
    }
    // `State3[H*]` (the history of State3) is one link end.
    const written = parseLink(text.replace(/([\w.$]+)\[(H\*?)\]/g, '"$1[$2]"'));
    if (written) {
      // A short link (`A -> B`) sets its target beside its source, as PlantUML does (IRS's job state machine runs its
      // registered, running and finished states in one row so).
      const link = { ...placedHint(written.long ? written : { ...written, hidden: true }, source.direction), hidden: written.hidden };
      const end = (e: typeof link.from, role: 'start' | 'end') => {
        if (e.form === 'pseudo') return pseudo(role);
        const historyOf = /^(?:(.+)\[)?(H\*?)\]?$/.exec(e.name);
        if (historyOf && (e.form === 'component' || historyOf[1] !== undefined)) return history(historyOf[2]!, historyOf[1] === undefined ? parent() : state(historyOf[1]));
        return state(e.name);
      };
      const from = end(link.from, 'start');
      const to = end(link.to, 'end');
      // State transitions are drawn with an open arrow at the target whatever head was written.
      edges.push(linkEdge(`e${edges.length + 1}`, from, to, { ...link, endArrowhead: link.endArrowhead === 'none' ? 'arrow' : link.endArrowhead }));
      continue;
    }
    const described = /^("[^"]+"|[\w.$]+)\s*:\s*(.*)$/.exec(text);
    if (described) {
      const id = state(unquote(described[1]!));
      const node = nodes.get(id);
      if (node) node.rows = [...(node.rows ?? []), plainText(described[2]!)];
      // A composite's description: PlantUML writes it under the composite's name, so it goes on the title's lines.
      const group = groups.get(id);
      if (group) group.label = `${group.label}\n${plainText(described[2]!)}`;
      continue;
    }
    throw parseError(line, `expected a state, a transition (A --> B : event) or "}", got "${text.slice(0, 60)}"`);
  }
  const open = stack[stack.length - 1];
  if (open) throw parseError(open.line, `composite state "${open.id}" is never closed with "}"`);
  applyVisibility({ nodes, edges, names }, source.visibility, warnings);
  return { layout: 'layered', direction: source.direction, ...(source.forcedDirection && { forcedDirection: true }), nodes: [...nodes.values()], edges: mergeParallelEdges(edges), groups: [...groups.values()], warnings };
}
