/**
 * PlantUML activity diagrams (the "new" syntax): start/stop, `:action;`, if/elseif/else/endif, while/endwhile,
 * repeat/repeat while (with `backward` and `break`), switch/case, fork/split, connectors, partitions and swimlanes. The flow is built by keeping the open ends that the
 * next action connects to, the way PlantUML itself reads the statements top to bottom.
 */
import type { GraphEdge, GraphGroup, GraphIR, GraphNode, NodeKind } from '../../graph/types.js';
import { noteElements, readNote } from './notes.js';
import { parseError, plainText, plantumlColor, type DiagramSource, type SourceLine } from './source.js';

/** An open end of the flow: the next node is linked from it, with the branch label it carries. */
interface End {
  from: string;
  label?: string;
  /** `-[#blue,dashed]->`: the arrow's own colour and line. */
  style?: GraphEdge['style'];
  /**
   * A switch's case: its label goes on its own leg, not beside the decision, where the cases of one switch (three,
   * four, leaving one hexagon side by side) would stack their labels into one block (EcoScoop's profile switch).
   */
  onLeg?: true;
}

type Block =
  | { type: 'if'; line: SourceLine; decision: string; done: End[]; elseSeen: boolean; chained: boolean; elseLabel?: string; branchFrom: number }
  | { type: 'while'; line: SourceLine; decision: string; breaks: End[] }
  | { type: 'repeat'; line: SourceLine; start: string; breaks: End[]; backward?: string }
  | { type: 'switch'; line: SourceLine; decision: string; done: End[]; cases: number }
  | { type: 'fork'; line: SourceLine; fork: string; done: End[] }
  | { type: 'split'; line: SourceLine; from: End[]; done: End[] }
  | { type: 'group'; line: SourceLine; group: string; closer: RegExp };

/** The blocks PlantUML closes at the end of the diagram, with what closes them. */
const CLOSED_AT_END: Partial<Record<Block['type'], string>> = { split: 'end split', fork: 'end fork', if: 'endif', group: 'end group' };

/** `:text;` — the text may span lines; it ends at `;` (or one of the SDL endings `| < > / ] }`). */
const ACTION_END = /[;|<>/\]}]$/;

/**
 * The box an action's ending asks for (PlantUML's SDL shapes): `/` input or output, a parallelogram; `]` a square box.
 * `|` procedure (double sides), `<` receive, `>` send and `}` have no shape of ours: square boxes too, said in warnings.
 */
const ACTION_SHAPES: Record<string, { shape: string; approximate?: true }> = {
  '/': { shape: 'parallelogram' },
  ']': { shape: 'rectangle' },
  '|': { shape: 'rectangle', approximate: true },
  '<': { shape: 'rectangle', approximate: true },
  '>': { shape: 'rectangle', approximate: true },
  '}': { shape: 'rectangle', approximate: true },
};
/** The bracket of `-[#blue,dashed]->`: a colour and a line kind (bold, dashed, dotted), in any order. */
function arrowStyle(bracket: string | undefined): GraphEdge['style'] | undefined {
  if (bracket === undefined) return undefined;
  const style: NonNullable<GraphEdge['style']> = {};
  for (const token of bracket.split(/[,;]/).map((t) => t.trim().toLowerCase())) {
    if (token === 'dashed' || token === 'dotted') style.strokeStyle = token;
    else if (token === 'bold') style.strokeWidth = 2;
    else if (token.startsWith('#')) {
      const colour = plantumlColor(token);
      if (colour) style.strokeColor = colour;
    }
  }
  return Object.keys(style).length > 0 ? style : undefined;
}

const label = (text: string | undefined) => (text === undefined || text.trim() === '' ? undefined : plainText(text));

/** Whether `text` opens more parentheses than it closes. */
function unclosedParentheses(text: string): boolean {
  let depth = 0;
  for (const char of text) depth += char === '(' ? 1 : char === ')' ? -1 : 0;
  return depth > 0;
}

export function activityToGraph(source: DiagramSource): GraphIR {
  const nodes: GraphNode[] = [];
  const edges: GraphEdge[] = [];
  const groups: GraphGroup[] = [];
  const warnings = [...source.warnings];
  const blocks: Block[] = [];
  let ends: End[] = [];
  let lane: string | undefined;
  let lastNode: string | undefined;
  /**
   * Finals that are a branch on their own (`if (Error?) then (yes)⏎stop`): PlantUML draws them right of their decision
   * and the flow that goes on straight down, whichever branch they are. Laid out last, they come right of that flow.
   */
  const asides = new Set<string>();
  /** Actions whose SDL ending (`|`, `<`, `>`, `}`) is drawn as a square box. */
  let approximated = 0;
  /** A branch of `block` that ended at its first node, a final, is one of the asides. */
  const closeBranch = (block: Extract<Block, { type: 'if' }>) => {
    const only = nodes[block.branchFrom];
    if (ends.length === 0 && nodes.length === block.branchFrom + 1 && only?.kind === 'end') asides.add(only.id);
    block.branchFrom = nodes.length;
  };

  const laneOfGroup = (id: string | undefined): string | undefined => {
    for (let up = id, depth = 0; up !== undefined && depth <= groups.length; depth++) {
      const group = groups.find((g) => g.id === up);
      if (!group || group.kind === 'swimlane') return up;
      up = group.parent;
    }
    return undefined;
  };
  /**
   * A partition in the lane the flow is in now: itself, or its part in that lane when the flow switched lanes inside
   * it. PlantUML draws one box per lane, each round the steps in that lane (`continues` names the partition).
   */
  const inLane = (id: string): string => {
    if (lane === undefined || laneOfGroup(id) === lane) return id;
    const group = groups.find((g) => g.id === id)!;
    const twinId = `${id}@${lane}`;
    if (!groups.some((g) => g.id === twinId)) {
      const outer = group.parent !== undefined && group.parent !== laneOfGroup(id) ? inLane(group.parent) : lane;
      groups.push({ ...group, id: twinId, parent: outer, continues: group.continues ?? id });
    }
    return twinId;
  };
  const parent = () => {
    const group = [...blocks].reverse().find((b): b is Extract<Block, { type: 'group' }> => b.type === 'group')?.group;
    return group === undefined ? lane : inLane(group);
  };
  const node = (kind: NodeKind, text: string, extra: Partial<GraphNode> = {}): string => {
    const id = `${kind}-${nodes.length + 1}`;
    // A decision that asks something is PlantUML's flat hexagon, one line of text high; a bare merge stays a small diamond.
    const created: GraphNode = { id, label: text, kind, ...(kind === 'decision' && text !== '' && { shape: 'hexagon' }), ...extra };
    const up = parent();
    if (up) created.parent = up;
    nodes.push(created);
    for (const end of ends) link(end.from, id, end.label, false, end.style, end.onLeg);
    ends = [{ from: id }];
    lastNode = id;
    return id;
  };
  /** A branch's label is written at the edge's start, beside its decision, as PlantUML writes it: a branch can run the
   * length of the diagram (a loop's way back, a `no` that skips a block), and a label in its middle would float far
   * from the condition it answers. `atStart` does the same for an edge from another node. */
  const link = (from: string, to: string, text?: string, atStart = false, style?: GraphEdge['style'], onLeg?: true) => {
    const edge: GraphEdge = { id: `e${edges.length + 1}`, from, to, startArrowhead: 'none', endArrowhead: 'arrow', ...(style && { style }) };
    if (text && !onLeg && (atStart || nodes.find((n) => n.id === from)?.kind === 'decision')) edge.startLabel = text;
    else if (text) edge.label = text;
    edges.push(edge);
  };
  /** PlantUML joins the branches that go on past `endif` or `endswitch` in a small empty diamond, the flow leaving it
   * as one line; a single branch that goes on (the others stopped) needs none. */
  const merge = () => {
    if (ends.length > 1) node('decision', '');
  };
  const open = <T extends Block['type']>(type: T, line: SourceLine): Extract<Block, { type: T }> => {
    const block = blocks[blocks.length - 1];
    if (!block || block.type !== type) throw parseError(line, `"${line.text}" without an open ${type}`);
    return block as Extract<Block, { type: T }>;
  };

  const lines = source.lines;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    // `:read; <<input>>`: an SDL stereotype after the action's end only styles it.
    let text = line.text.replace(/;\s*<<\w+>>$/, ';');
    // A condition may run over several lines (`if (Check that the X matches⏎a Y template) then (no)`): PlantUML reads
    // on to the line that closes its parenthesis.
    if (/^(if|else\s*if|elseif|while|repeat\s*while)\s*\(/i.test(text)) {
      while (unclosedParentheses(text) && i + 1 < lines.length) text += `\n${lines[++i]!.text}`;
    }
    let m: RegExpExecArray | null;
    if (/^start;?$/i.test(text)) {
      ends = [];
      node('start', '');
    } else if ((m = /^(stop|end);?$/i.exec(text))) {
      // PlantUML draws `end` as a flow final (⊗), `stop` as the activity's final (◉).
      node('end', '', m[1]!.toLowerCase() === 'end' ? { flowFinal: true } : {});
      ends = [];
    } else if (/^break;?$/i.test(text)) {
      // `break` leaves the innermost loop: the flow goes on after it.
      const loop = [...blocks].reverse().find((b): b is Extract<Block, { type: 'while' | 'repeat' }> => b.type === 'while' || b.type === 'repeat');
      if (!loop) throw parseError(line, '"break" outside repeat or while');
      loop.breaks.push(...ends);
      ends = [];
    } else if (/^(kill|detach);?$/i.test(text)) {
      ends = [];
    } else if ((m = /^backward\s*:(.*);$/i.exec(text))) {
      // The action on a repeat loop's way back, drawn at `repeat while`.
      const loop = [...blocks].reverse().find((b): b is Extract<Block, { type: 'repeat' }> => b.type === 'repeat');
      if (!loop) throw parseError(line, '"backward" outside repeat');
      loop.backward = plainText(m[1]!);
    } else if ((m = /^\(([^()]+)\)$/.exec(text))) {
      // A connector `(A)`: the flow leaves at one circle and comes back at another of the same name, as PlantUML draws it.
      node('generic', plainText(m[1]!), { shape: 'ellipse' });
    } else if ((m = /^(#[\w#]+)?:(.*)$/s.exec(text)) && !/^:[^:]+:\s*(-|$)/.test(text)) {
      let body = m[2]!;
      let j = i;
      while (!ACTION_END.test(body.trimEnd())) {
        j++;
        if (j >= lines.length) throw parseError(line, 'action ":…" is never closed with ";"');
        body += `\n${lines[j]!.text}`;
      }
      i = j;
      const fill = m[1] ? plantumlColor(m[1]) : undefined;
      const ending = ACTION_SHAPES[body.trimEnd().slice(-1)];
      if (ending?.approximate) approximated++;
      const style: GraphNode['style'] = { ...(fill && { fillColor: fill }), ...(ending?.shape === 'rectangle' && { corner: 'sharp' as const }) };
      node('action', plainText(body.trimEnd().slice(0, -1)), { ...(ending && { shape: ending.shape }), ...(Object.keys(style).length > 0 && { style }) });
    } else if ((m = /^if\s*\((.*?)\)\s*(?:then|is|equals)?\s*(?:\((.*)\))?\s*;?$/is.exec(text))) {
      const decision = node('decision', plainText(m[1]!));
      blocks.push({ type: 'if', line, decision, done: [], elseSeen: false, chained: false, branchFrom: nodes.length });
      ends = [{ from: decision, ...(label(m[2]) && { label: label(m[2]) }) }];
    } else if ((m = /^(?:else\s*if|elseif)\s*\((.*?)\)\s*(?:then|is|equals)?\s*(?:\((.*)\))?\s*;?$/is.exec(text))) {
      const block = open('if', line);
      closeBranch(block);
      block.done.push(...ends);
      block.chained = true;
      // PlantUML chains an elseif as a new decision on the "no" side of the previous one.
      ends = [{ from: block.decision }];
      block.decision = node('decision', plainText(m[1]!));
      block.branchFrom = nodes.length;
      ends = [{ from: block.decision, ...(label(m[2]) && { label: label(m[2]) }) }];
    } else if ((m = /^else\b\s*(?:\((.*)\))?\s*;?$/i.exec(text))) {
      const block = open('if', line);
      closeBranch(block);
      block.done.push(...ends);
      block.elseSeen = true;
      ends = [{ from: block.decision, ...(label(m[1]) && { label: label(m[1]) }) }];
    } else if (/^end\s*if;?$/i.test(text)) {
      const block = open('if', line);
      closeBranch(block);
      blocks.pop();
      ends = [...block.done, ...ends, ...(block.elseSeen ? [] : [{ from: block.decision }])];
      // An elseif chain's branches meet on a line, without a diamond, in PlantUML's drawing.
      if (!block.chained) merge();
    } else if ((m = /^while\s*\((.*?)\)\s*(?:is\s*\((.*)\))?\s*;?$/is.exec(text))) {
      const decision = node('decision', plainText(m[1]!));
      blocks.push({ type: 'while', line, decision, breaks: [] });
      ends = [{ from: decision, ...(label(m[2]) && { label: label(m[2]) }) }];
    } else if ((m = /^end\s*while\b\s*(?:\((.*)\))?\s*;?$/i.exec(text))) {
      const block = open('while', line);
      blocks.pop();
      for (const end of ends) link(end.from, block.decision, end.label, false, end.style);
      ends = [{ from: block.decision, ...(label(m[1]) && { label: label(m[1]) }) }, ...block.breaks];
    } else if (/^repeat\s*;?$/i.test(text) || (m = /^repeat\s*:(.*);$/i.exec(text))) {
      const start = m?.[1] !== undefined ? node('action', plainText(m[1])) : node('decision', '');
      blocks.push({ type: 'repeat', line, start, breaks: [] });
      m = null;
    } else if ((m = /^repeat\s*while\s*\((.*?)\)\s*(?:(?:is|then)\s*\((.*?)\))?\s*(?:not\s*\((.*?)\))?\s*;?$/is.exec(text))) {
      const block = open('repeat', line);
      blocks.pop();
      const decision = node('decision', plainText(m[1]!));
      if (block.backward !== undefined) {
        ends = [{ from: decision, ...(label(m[2]) && { label: label(m[2]) }) }];
        link(node('action', block.backward), block.start);
      } else link(decision, block.start, label(m[2]), true);
      ends = [{ from: decision, ...(label(m[3]) && { label: label(m[3]) }) }, ...block.breaks];
    } else if ((m = /^switch\s*\((.*)\)\s*;?$/i.exec(text))) {
      const decision = node('decision', plainText(m[1]!));
      blocks.push({ type: 'switch', line, decision, done: [], cases: 0 });
      ends = [];
    } else if ((m = /^case\s*\((.*)\)\s*;?$/i.exec(text))) {
      const block = open('switch', line);
      if (block.cases++ > 0) block.done.push(...ends);
      ends = [{ from: block.decision, ...(label(m[1]) && { label: label(m[1]), onLeg: true as const }) }];
    } else if (/^end\s*switch;?$/i.test(text)) {
      const block = open('switch', line);
      blocks.pop();
      ends = [...block.done, ...ends];
      merge();
    } else if (/^fork\s*;?$/i.test(text)) {
      const fork = node('fork', '');
      blocks.push({ type: 'fork', line, fork, done: [] });
    } else if (/^fork\s+again\s*;?$/i.test(text)) {
      const block = open('fork', line);
      block.done.push(...ends);
      ends = [{ from: block.fork }];
    } else if (/^end\s*(fork|merge)\b.*$/i.test(text)) {
      const block = open('fork', line);
      blocks.pop();
      ends = [...block.done, ...ends];
      node('fork', '');
    } else if (/^split\s*;?$/i.test(text)) {
      // A split has no bar, unlike a fork: PlantUML draws its branches leaving the flow side by side and meeting again.
      blocks.push({ type: 'split', line, from: ends, done: [] });
    } else if (/^split\s+again\s*;?$/i.test(text)) {
      const block = open('split', line);
      block.done.push(...ends);
      ends = block.from;
    } else if (/^end\s*split\b.*$/i.test(text)) {
      const block = open('split', line);
      blocks.pop();
      ends = [...block.done, ...ends];
    } else if ((m = /^(partition|group|package|rectangle|card)\s+("[^"]*"|[^{#]+?)\s*(#\S+)?\s*(\{)?$/i.exec(text))) {
      const id = `group-${groups.length + 1}`;
      const group: GraphGroup = { id, label: plainText(m[2]!.replace(/^"|"$/g, '')), kind: m[1]!.toLowerCase() };
      const up = parent();
      if (up) group.parent = up;
      groups.push(group);
      blocks.push({ type: 'group', line, group: id, closer: m[4] ? /^\}$/ : /^end\s*(group|partition)$/i });
    } else if (blocks.length > 0 && blocks[blocks.length - 1]!.type === 'group' && (blocks[blocks.length - 1] as Extract<Block, { type: 'group' }>).closer.test(text)) {
      blocks.pop();
    } else if ((m = /^\|(?:(#?\w+)\|)?\s*([^|]+)\|$/.exec(text))) {
      // Swimlanes are containers; the flow crosses between them. `|#AntiqueWhite|Lane|` colours the lane's background.
      const name = plainText(m[2]!);
      const existing = groups.find((g) => g.kind === 'swimlane' && g.label === name);
      lane = existing?.id ?? `lane-${groups.length + 1}`;
      const fill = m[1] ? plantumlColor(m[1]) : undefined;
      // PlantUML rules its lanes off with solid lines, square.
      if (!existing) groups.push({ id: lane, label: name, kind: 'swimlane', style: { strokeStyle: 'solid', corner: 'sharp', ...(fill && { fillColor: fill }) } });
      else if (fill) existing.style = { ...existing.style, fillColor: fill };
    } else if ((m = /^-+(?:\[([^\]]*)\]-*)?>\s*(.*?);?$/.exec(text))) {
      const text2 = label(m[2]);
      const style = arrowStyle(m[1]);
      ends = ends.map((end) => ({ ...end, ...(text2 && { label: text2 }), ...(style && { style }) }));
    } else if (readNote(lines, i) || /^note\s*(?::|$)/i.test(text)) {
      // A note with no side (`note` … `end note`, `note: text`) belongs to the last activity; PlantUML draws it on the left.
      const note = readNote([{ ...line, text: text.replace(/^note(?=\s*(?::|$))/i, 'note left') }, ...lines.slice(i + 1)], 0)!;
      i += note.consumed - 1;
      const id = `note-${nodes.length + 1}`;
      const { node: created, edge } = noteElements(id, note, lastNode, parent());
      nodes.push(created);
      if (edge) edges.push(edge);
    } else if (/^floating\s+note\b/i.test(text)) {
      // A floating note stands beside the flow, tied to nothing.
      const note = readNote([{ ...line, text: text.replace(/^floating\s+/i, '') }, ...lines.slice(i + 1)], 0)!;
      i += note.consumed - 1;
      nodes.push(noteElements(`note-${nodes.length + 1}`, note, undefined, parent()).node);
    } else if (/^(label|goto)\s+\w+;?$/i.test(text)) {
      warnings.push(`line ${line.line}: ${text} is not drawn (goto jumps are left out)`);
    } else {
      throw parseError(line, `expected an activity statement (start, :action;, if (…) then, while, repeat, fork, stop), got "${text.slice(0, 60)}"`);
    }
  }
  // PlantUML ends a split, fork, if (IRS's chains of `else (Yes)` with one endif) or partition left open at the end of
  // the diagram there, its branches ending where they stop.
  for (let open = blocks[blocks.length - 1]; open !== undefined && open.type in CLOSED_AT_END; open = blocks[blocks.length - 1]) {
    blocks.pop();
    const closer = open.type === 'group' && open.closer.test('}') ? '}' : CLOSED_AT_END[open.type];
    warnings.push(`line ${open.line.line}: "${open.line.text.slice(0, 40)}" is never closed with "${closer}": closed at the end`);
  }
  const block = blocks[blocks.length - 1];
  if (block) throw parseError(block.line, `"${block.line.text.slice(0, 40)}" is never closed`);
  if (nodes.length === 0) throw parseError({ line: 1, column: 1 }, 'the activity diagram has no steps');
  if (approximated > 0) warnings.push(`${approximated} action${approximated === 1 ? '' : 's'} ending in | < > or } (PlantUML's procedure and signal shapes) drawn as square boxes`);
  const last = <T>(items: T[], isAside: (item: T) => boolean) => [...items.filter((item) => !isAside(item)), ...items.filter(isAside)];
  return {
    layout: 'layered',
    direction: source.direction,
    ...(source.forcedDirection && { forcedDirection: true }),
    inSourceOrder: true,
    closeSteps: true,
    nodes: last(nodes, (n) => asides.has(n.id)),
    edges: last(edges, (e) => asides.has(e.to)),
    groups,
    warnings,
  };
}
