/**
 * PlantUML sequence diagrams → GraphIR with `layout: 'sequence'`: participants are the nodes (in column order) and
 * the ordered messages, notes, activations and fragments go into `sequence` (drawn by `layoutSequence`).
 */
import type { Arrowhead, GraphIR, GraphNode, NodeKind } from '../../graph/types.js';
import type { SequenceBox, SequenceFragment, SequenceNote, SequenceStep } from '../../layout/sequence.js';
import { parseError, plainText, plantumlColor, unquote, type DiagramSource, type SourceLine } from './source.js';

/** Participant keyword → role and outline. */
export const PARTICIPANT_KINDS: Readonly<Record<string, { kind: NodeKind; shape: string }>> = {
  participant: { kind: 'component', shape: 'rectangle' },
  actor: { kind: 'actor', shape: 'ellipse' },
  boundary: { kind: 'gateway', shape: 'hexagon' },
  control: { kind: 'service', shape: 'ellipse' },
  entity: { kind: 'entity', shape: 'rectangle' },
  database: { kind: 'database', shape: 'cylinder' },
  collections: { kind: 'storage', shape: 'document' },
  queue: { kind: 'queue', shape: 'data-storage' },
};

const NAME = String.raw`"[^"]+"|[^\s"#<:]+`;
const PARTICIPANT = new RegExp(String.raw`^(${Object.keys(PARTICIPANT_KINDS).join('|')})\s+(${NAME})(?:\s+as\s+(${NAME}))?\s*(?:<<[^>]*>>\s*)?(?:order\s+-?\d+\s*)?(#\S+)?\s*(?:order\s+-?\d+)?\s*$`, 'i');
// `[` and `]` are the diagram's edges, `?` a lost or found message's unknown end.
const END = String.raw`"[^"]+"|[\w.$@]+|\[|\]|\?`;
const MESSAGE = new RegExp(
  String.raw`^(${END})?\s*([xo]?(?:<<|<|\\\\|\\|//|/)?)(-{1,2}(?:\[[^\]]*\])?-?)((?:>>|>|\\\\|\\|//|/)?(?:[xo](?!\w))?)\s*(${END})?\s*(\+\+|--|\*\*|!!)?\s*(?:#\S+\s*)?(?::\s*(.*))?$`,
);
const FRAGMENT = /^(alt|opt|loop|par|par2|break|critical|group)\b\s*(.*)$/i;
const NOTE = /^([hr]?note|ref)\s+(over|left|right|across)\b(?:\s+of)?\s*([^:#]*?)\s*(#\w+)?\s*(?::\s*(.*))?$/i;

const HEAD: Record<string, Arrowhead> = { '': 'none', '>': 'arrow', '>>': 'arrow', '<': 'arrow', '<<': 'arrow', '\\': 'arrow', '\\\\': 'arrow', '/': 'arrow', '//': 'arrow', x: 'bar', o: 'circle' };

/** A leading PlantUML colour (`#FFFFFFCC`, `#LightBlue`, `#lightblue/pink`) removed from a group's label. */
const withoutColor = (label: string): string => label.replace(/^#[\w/|\\-]+\s*/, '');

function arrowhead(token: string): Arrowhead {
  // `->x` ends in a cross, `->o` in a circle; a head plus a mark keeps the mark.
  if (token.includes('x')) return 'bar';
  if (token.includes('o')) return 'circle';
  return HEAD[token] ?? 'arrow';
}

export function sequenceToGraph(source: DiagramSource): GraphIR {
  const warnings = [...source.warnings];
  const participants = new Map<string, GraphNode>();
  /** Display name and alias → id. */
  const names = new Map<string, string>();
  const root: SequenceStep[] = [];
  const stack: { fragment: SequenceFragment; line: SourceLine }[] = [];
  /** Who activated whom, for `return`. */
  const activations: { participant: string; caller?: string }[] = [];
  let numbering: { next: number; step: number } | undefined;
  let lastMessage: { from: string; to: string } | undefined;
  const boxes: SequenceBox[] = [];
  let openBox: SequenceBox | undefined;
  const target = () => {
    const top = stack[stack.length - 1];
    return top ? top.fragment.sections[top.fragment.sections.length - 1]!.steps : root;
  };
  const add = (step: SequenceStep) => target().push(step);

  const declare = (keyword: string, name: string, alias: string | undefined, color: string | undefined): string => {
    const id = alias ?? name;
    const known = names.get(id);
    if (known !== undefined) return known;
    const spec = PARTICIPANT_KINDS[keyword]!;
    const node: GraphNode = { id, label: plainText(name), kind: spec.kind, shape: spec.shape };
    const fill = color ? plantumlColor(color) : undefined;
    if (fill) node.style = { fillColor: fill };
    participants.set(id, node);
    names.set(id, id);
    if (!names.has(name)) names.set(name, id);
    return id;
  };
  const participant = (token: string) => {
    const name = unquote(token);
    return names.get(name) ?? declare('participant', name, undefined, undefined);
  };

  const lines = source.lines;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const { text } = line;
    const declared = PARTICIPANT.exec(text);
    if (declared) {
      const [, keyword, first, second, color] = declared as unknown as [string, string, string, string | undefined, string | undefined];
      // `participant "Long name" as A`, `participant A as "Long name"` and `participant Long as A`: the quoted one, or
      // else the first, is what is shown; the other is the code the messages use.
      const displayFirst = second === undefined || !second.startsWith('"');
      const name = unquote(displayFirst ? first : second);
      const alias = second === undefined ? undefined : unquote(displayFirst ? second : first);
      const id = declare(keyword.toLowerCase(), name, alias, color);
      openBox?.participants.push(id);
      continue;
    }
    const box = /^box\b\s*("[^"]*"|[^#]*?)?\s*(#\S+)?\s*$/i.exec(text);
    if (box) {
      const fill = box[2] ? plantumlColor(box[2]) : undefined;
      openBox = { label: plainText(unquote(box[1] ?? '')), participants: [], ...(fill && { fillColor: fill }) };
      boxes.push(openBox);
      continue;
    }
    if (/^end\s*box$/i.test(text)) {
      openBox = undefined;
      continue;
    }

    const note = NOTE.exec(text);
    if (note) {
      const [, keyword, position, over, color, inline] = note as unknown as [string, string, string, string, string | undefined, string | undefined];
      let body = inline;
      if (body === undefined) {
        const collected: string[] = [];
        let j = i + 1;
        for (; j < lines.length && !/^end\s*[hr]?(note|ref)$/i.test(lines[j]!.text); j++) collected.push(lines[j]!.text);
        if (j >= lines.length) throw parseError(line, `${keyword} is never closed with "end ${keyword.toLowerCase().replace(/^[hr]/, '')}"`);
        body = collected.join('\n');
        i = j;
      }
      let attached = over
        .split(',')
        .map((p) => p.trim())
        .filter(Boolean)
        .map(participant);
      const place = position.toLowerCase();
      if (place === 'across') attached = [...participants.keys()];
      else if (attached.length === 0) {
        // `note left: …` belongs to the message just before it.
        if (!lastMessage) throw parseError(line, 'a note without "of <participant>" must follow a message');
        attached = [place === 'left' ? lastMessage.from : lastMessage.to];
      }
      if (attached.length === 0) throw parseError(line, 'note across: the diagram has no participants yet');
      const lower = keyword.toLowerCase();
      const step: SequenceNote = {
        type: 'note',
        position: place === 'across' ? 'over' : (place as SequenceNote['position']),
        participants: attached,
        text: lower === 'ref' ? `ref\n${plainText(body)}` : plainText(body),
        shape: lower === 'hnote' ? 'hexagon' : lower === 'note' ? 'document' : 'rectangle',
      };
      const fill = color ? plantumlColor(color) : undefined;
      if (fill) step.fillColor = fill;
      add(step);
      continue;
    }
    const fragment = FRAGMENT.exec(text);
    if (fragment) {
      const kind = fragment[1]!.toLowerCase().replace('par2', 'par');
      // A colour before the label (`group #FFFFFFCC Retry`, `alt #LightBlue ok`) styles the group; it is not its text.
      const step: SequenceFragment = { type: 'fragment', kind, sections: [{ label: plainText(withoutColor(fragment[2]!)), steps: [] }] };
      add(step);
      stack.push({ fragment: step, line });
      continue;
    }
    const elseMatch = /^else\b\s*(.*)$/i.exec(text);
    if (elseMatch) {
      const top = stack[stack.length - 1];
      if (!top) throw parseError(line, '"else" outside alt/opt/loop/group');
      top.fragment.sections.push({ label: plainText(withoutColor(elseMatch[1]!)), steps: [] });
      continue;
    }
    // PlantUML also closes a group with its keyword repeated: `end loop`, `end alt`, `end group`.
    if (/^end(?:\s+(?:alt|opt|loop|par|par2|break|critical|group))?$/i.test(text)) {
      if (!stack.pop()) throw parseError(line, '"end" without an open alt/opt/loop/group');
      continue;
    }
    const activation = /^(activate|deactivate|destroy|create)\s+(?:(participant|actor|boundary|control|entity|database|collections|queue)\s+)?("[^"]+"|[^\s#]+)\s*(#\S+)?$/i.exec(text);
    if (activation) {
      const verb = activation[1]!.toLowerCase();
      const who = activation[2] ? declare(activation[2].toLowerCase(), unquote(activation[3]!), undefined, undefined) : participant(activation[3]!);
      if (verb === 'activate') {
        add({ type: 'activate', participant: who });
        activations.push({ participant: who, ...(lastMessage && lastMessage.to === who && { caller: lastMessage.from }) });
      } else if (verb === 'deactivate' || verb === 'destroy') {
        add({ type: 'deactivate', participant: who });
        const k = activations.map((a) => a.participant).lastIndexOf(who);
        if (k >= 0) activations.splice(k, 1);
      }
      continue;
    }
    const returned = /^return\b\s*(.*)$/i.exec(text);
    if (returned) {
      const top = activations.pop();
      if (!top?.caller) throw parseError(line, '"return" needs an activation started by a message');
      const label = numbered(plainText(returned[1]!));
      add({ type: 'message', from: top.participant, to: top.caller, dashed: true, startArrowhead: 'none', endArrowhead: 'arrow', ...(label && { label }) });
      add({ type: 'deactivate', participant: top.participant });
      continue;
    }
    const autonumber = /^autonumber\b\s*(stop|resume|off)?\s*(\d+)?\s*(\d+)?/i.exec(text);
    if (autonumber) {
      const verb = autonumber[1]?.toLowerCase();
      if (verb === 'stop' || verb === 'off') numbering = undefined;
      else numbering = { next: autonumber[2] ? Number(autonumber[2]) : (numbering?.next ?? 1), step: autonumber[3] ? Number(autonumber[3]) : 1 };
      continue;
    }
    const divider = /^==\s*(.*?)\s*==$/.exec(text) ?? /^\.\.\.\s*(.*?)\s*(?:\.\.\.)?$/.exec(text);
    if (divider) {
      add({ type: 'divider', text: plainText(divider[1]!) });
      continue;
    }
    if (/^autoactivate\s+on\b/i.test(text)) {
      warnings.push(`line ${line.line}: autoactivate is not applied; activation bars are drawn where activate, ++ or return say`);
      continue;
    }
    if (/^\|\|\d*\|\|$|^\|\|\|$/.test(text) || /^(autoactivate|hide|show)\b/i.test(text)) continue;
    const message = MESSAGE.exec(text);
    if (message && /[<>\\/xo]/.test(message[2]! + message[4]!) && (message[1] || message[5])) {
      const [, left, headLeft, body, headRight, right, suffix, label] = message as unknown as (string | undefined)[];
      // `[->`, `->]` and lost/found `?` come from or go out of the diagram; they are drawn at the nearest participant.
      const outside = (token: string | undefined) => token === undefined || token === '[' || token === ']' || token === '?';
      const edge = (token: string | undefined) => (outside(token) ? undefined : participant(token!));
      const fromId = edge(left) ?? edge(right)!;
      const toId = edge(right) ?? fromId;
      if (outside(left) || outside(right)) warnings.push(`line ${line.line}: message from or to outside the diagram drawn on its participant`);
      const text = numbered(label ? plainText(label) : '');
      add({
        type: 'message',
        from: fromId,
        to: toId,
        dashed: body!.replace(/\[[^\]]*\]/g, '').length >= 2,
        startArrowhead: headLeft ? arrowhead(headLeft) : 'none',
        endArrowhead: headRight ? arrowhead(headRight) : 'none',
        ...(text && { label: text }),
      });
      lastMessage = { from: fromId, to: toId };
      if (suffix === '++') {
        add({ type: 'activate', participant: toId });
        activations.push({ participant: toId, caller: fromId });
      } else if (suffix === '--' || suffix === '!!') {
        add({ type: 'deactivate', participant: fromId });
        const k = activations.map((a) => a.participant).lastIndexOf(fromId);
        if (k >= 0) activations.splice(k, 1);
      }
      continue;
    }
    throw parseError(line, `expected a participant, a message (A -> B : text), a note, a group (alt/opt/loop … end) or an activation, got "${text.slice(0, 60)}"`);
  }
  const open = stack[stack.length - 1];
  if (open) throw parseError(open.line, `"${open.fragment.kind}" is never closed with "end"`);
  if (participants.size === 0) throw parseError({ line: 1, column: 1 }, 'the sequence diagram has no participants');
  const drawnBoxes = boxes.filter((b) => b.participants.length > 0);
  return {
    layout: 'sequence',
    direction: 'RIGHT',
    nodes: [...participants.values()],
    edges: [],
    groups: [],
    warnings,
    sequence: { steps: root, ...(drawnBoxes.length > 0 && { boxes: drawnBoxes }) },
  };

  function numbered(label: string): string {
    if (!numbering) return label;
    const number = numbering.next;
    numbering.next += numbering.step;
    return label ? `${number} ${label}` : String(number);
  }
}
