/**
 * PlantUML sequence diagrams → GraphIR with `layout: 'sequence'`: participants are the nodes (in column order) and
 * the ordered messages, notes, activations and fragments go into `sequence` (drawn by `layoutSequence`).
 */
import type { Arrowhead, GraphIR, GraphNode, NodeKind } from '../../graph/types.js';
import type { SequenceBox, SequenceFragment, SequenceNote, SequenceStep } from '../../layout/sequence.js';
import { parseError, plainText, plantumlColor, unquote, type DiagramSource, type SourceLine } from './source.js';
import { dictionary } from '../../dictionary.js';
import { macroArguments } from './description.js';

/** Participant keyword → role and outline. */
export const PARTICIPANT_KINDS: Readonly<Record<string, { kind: NodeKind; shape: string }>> = dictionary({
  participant: { kind: 'component', shape: 'rectangle' },
  actor: { kind: 'actor', shape: 'person' },
  // The robustness glyphs with the name under them, as PlantUML draws these participants (description.ts).
  boundary: { kind: 'gateway', shape: 'boundary' },
  control: { kind: 'service', shape: 'control' },
  entity: { kind: 'entity', shape: 'entity' },
  database: { kind: 'database', shape: 'cylinder' },
  collections: { kind: 'storage', shape: 'document' },
  queue: { kind: 'queue', shape: 'horizontal-cylinder' },
});

const NAME = String.raw`"[^"]+"|[^\s"#<:]+`;
const PARTICIPANT = new RegExp(String.raw`^(${Object.keys(PARTICIPANT_KINDS).join('|')})\s+(${NAME})(?:\s+as\s+(${NAME}))?\s*(?:<<.*>>\s*)?(?:order\s+(-?\d+)\s*)?(#\S+)?\s*(?:order\s+(-?\d+))?\s*(\[)?$`, 'i');
// `[` and `]` are the diagram's edges, `?` a lost or found message's unknown end.
const END = String.raw`"[^"]+"|[\w.$@]+|\[|\]|\?`;
const MESSAGE = new RegExp(
  String.raw`^(${END})?\s*([xo]?(?:<<|<|\\\\|\\|//|/)?)((?:\[[^\]]*\])?-{1,2}(?:\[[^\]]*\])?-?)((?:>>|>|\\\\|\\|//|/)?(?:[xXo](?!\w))?)(\(\d+\))?\s*(${END})?\s*(\+\+|--|\*\*|!!)?\s*(?:#[^\s:]+\s*)?(?::\s*(.*))?$`,
);
const FRAGMENT = /^(alt|opt|loop|par|par2|break|critical|group)\b\s*(.*)$/i;
const NOTE = /^([hr]?note|ref)\s+(over|left|right|across)\b(?:\s+of)?\s*([^:#]*?)\s*(#\w+)?\s*(?::\s*(.*))?$/i;

const HEAD: Record<string, Arrowhead> = dictionary({ '': 'none', '>': 'arrow', '>>': 'arrow', '<': 'arrow', '<<': 'arrow', '\\': 'arrow', '\\\\': 'arrow', '/': 'arrow', '//': 'arrow', x: 'bar', o: 'circle' });

/** A leading PlantUML colour (`#FFFFFFCC`, `#LightBlue`, `#lightblue/pink`) removed from a group's label. */
const withoutColor = (label: string): string => label.replace(/^(?:#[\w/|\\-]+\s*)+/, '');

/** `autonumber` state: the figures of the next number (1.1.1 has three), what each message adds, the display format. */
interface Numbering {
  parts: number[];
  step: number;
  format?: string;
}

function arrowhead(token: string): Arrowhead {
  // `->x` (or `->X`) ends in a cross, `->o` in a circle; a head plus a mark keeps the mark.
  if (token.toLowerCase().includes('x')) return 'bar';
  if (token.includes('o')) return 'circle';
  return HEAD[token] ?? 'arrow';
}

/** C4-PlantUML's element macros, which C4_Sequence.puml turns into participants. */
const C4_PARTICIPANT = /^(Person|System|Container|Component)(_Ext)?(Db|Queue)?(_Ext)?\s*\((.*)\)$/;
const C4_REL = /^(Rel|BiRel)(_[A-Za-z]+)?\s*\((.*)\)$/;
const C4_BOUNDARY = /^(\w*Boundary)\s*\((.*)\)\s*$/;

/**
 * C4-PlantUML's sequence diagrams (`!include C4_Sequence.puml`) write participants and messages as macros:
 * `Person(alice, "Alice")` is a participant, `Rel(alice, bob, "Request")` a message, `Boundary(b, "Bank")` …
 * `Boundary_End()` a box. Each is read as the plain statement the library expands it to.
 */
function c4SequenceLine(line: SourceLine): SourceLine {
  const quoted = (text: string | undefined) => `"${unquote((text ?? '').trim()).replace(/"/g, "'")}"`;
  let m: RegExpExecArray | null;
  if ((m = C4_PARTICIPANT.exec(line.text))) {
    const [alias, label] = macroArguments(m[5]!).positional;
    if (alias) return { ...line, text: `participant ${quoted(label ?? alias)} as ${alias.trim()}` };
  } else if ((m = C4_REL.exec(line.text))) {
    const [from, to, label] = macroArguments(m[3]!).positional;
    if (from && to) return { ...line, text: `${from.trim()} ${m[1] === 'BiRel' ? '<->' : '->'} ${to.trim()}${label ? ` : ${unquote(label.trim())}` : ''}` };
  } else if ((m = C4_BOUNDARY.exec(line.text))) {
    const [alias, label] = macroArguments(m[2]!).positional;
    return { ...line, text: `box ${quoted(label ?? alias)}` };
  } else if (/^Boundary_End\s*\(\s*\)$/.test(line.text)) return { ...line, text: 'end box' };
  return line;
}

const FOOTBOX = /^(hide|show)\s+footbox$/i;

export function sequenceToGraph(source: DiagramSource): GraphIR {
  const warnings = [...source.warnings];
  const participants = new Map<string, GraphNode>();
  /** Display name and alias → id. */
  const names = new Map<string, string>();
  const root: SequenceStep[] = [];
  const stack: { fragment: SequenceFragment; line: SourceLine }[] = [];
  /** Who activated whom, for `return`. */
  const activations: { participant: string; caller?: string }[] = [];
  let numbering: Numbering | undefined;
  /** Kept by `autonumber stop` for `autonumber resume`. */
  let paused: Numbering | undefined;
  /** `order N` of participants that say it. */
  const orders = new Map<string, number>();
  let lastMessage: { from: string; to: string } | undefined;
  /**
   * Notes `left`/`right` of the message before them, with its ends: set beside its leftmost or rightmost end once the
   * columns are known (a message may run right to left: PlantUML set `note right` of PUT payee → scheme right of the
   * payee, where beside the scheme it covered the message).
   */
  const besideMessages: { note: SequenceNote; message: { from: string; to: string }; side: 'left' | 'right' }[] = [];
  /** Open `box`es, innermost last: a participant created while one is open belongs to the innermost. */
  const openBoxes: SequenceBox[] = [];
  const boxes: SequenceBox[] = [];
  const boxOf = new Map<string, SequenceBox>();
  const enter = (id: string) => {
    const box = openBoxes[openBoxes.length - 1];
    if (box) boxOf.set(id, box);
    else boxOf.delete(id);
  };
  const target = () => {
    const top = stack[stack.length - 1];
    return top ? top.fragment.sections[top.fragment.sections.length - 1]!.steps : root;
  };
  const add = (step: SequenceStep) => target().push(step);

  /** `again`: a declaration, which PlantUML lets move a participant it already knows to the last column, into the box open there. */
  const declare = (keyword: string, name: string, alias: string | undefined, color: string | undefined, again = false): string => {
    const id = alias ?? name;
    const known = names.get(id);
    if (known !== undefined) {
      if (again) {
        const node = participants.get(known)!;
        participants.delete(known);
        participants.set(known, node);
        enter(known);
      }
      return known;
    }
    const spec = PARTICIPANT_KINDS[keyword]!;
    const node: GraphNode = { id, label: plainText(name), kind: spec.kind, shape: spec.shape };
    const fill = color ? plantumlColor(color) : undefined;
    if (fill) node.style = { fillColor: fill };
    participants.set(id, node);
    enter(id);
    names.set(id, id);
    if (!names.has(name)) names.set(name, id);
    return id;
  };
  const participant = (token: string) => {
    const name = unquote(token);
    return names.get(name) ?? declare('participant', name, undefined, undefined);
  };

  /** `participant "Long name" as A`, `A as "Long name"` and `Long as A`: the quoted one, or else the first, is shown. */
  const declareNamed = (keyword: string, first: string, second: string | undefined, color: string | undefined, again = false): string => {
    const displayFirst = second === undefined || !second.startsWith('"');
    const name = unquote(displayFirst ? first : second);
    const alias = second === undefined ? undefined : unquote(displayFirst ? second : first);
    return declare(keyword, name, alias, color, again);
  };

  const lines = source.lines.map(c4SequenceLine);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    // Hyperlinks ([[url]]) are not drawn; teoz anchors ({start}) only name a point for a duration arrow.
    if (/^\{[\w-]+\}\s*<?-+>?\s*\{[\w-]+\}/.test(line.text)) {
      warnings.push(`line ${line.line}: duration arrow between teoz anchors is not drawn`);
      continue;
    }
    let text = line.text.replace(/\s*\[\[[^\]]*\]\]/g, '').replace(/^\{[\w-]+\}\s*/, '');
    // Teoz `& A -> B` (beside the previous message) and `/ note` (level with the previous note) go below it here.
    const level = /^[&/]\s*/.exec(text);
    if (level) {
      text = text.slice(level[0].length);
      warnings.push(`line ${line.line}: "${level[0].trim()}" (level with the step before) is drawn below that step`);
    }
    const declared = PARTICIPANT.exec(text);
    if (declared) {
      const [, keyword, first, second, order, color, orderAfter, opensBlock] = declared as unknown as (string | undefined)[];
      let shown = second;
      // `participant P [ =Title ---- ""SubTitle"" ]`: the lines up to `]` are what the box shows.
      if (opensBlock) {
        const collected: string[] = [];
        let j = i + 1;
        for (; j < lines.length && lines[j]!.text !== ']'; j++) if (!/^-{2,}$|^={2,}$/.test(lines[j]!.text)) collected.push(lines[j]!.text.replace(/^=+\s*/, ''));
        if (j >= lines.length) throw parseError(line, 'participant description "[" is never closed with "]"');
        i = j;
        shown = `"${collected.join('\\n')}"`;
      }
      const id = declareNamed(keyword!.toLowerCase(), first!, shown, color, true);
      // `<< Generated >>` and `<< (C,#ADD1B2) Testable >>` (spot letter and colour left out) are shown over the name.
      const stereotype = /<<\s*(?:\([^)]*\)\s*)?(.*?)\s*>>/.exec(text)?.[1];
      if (stereotype) participants.get(id)!.label = `«${plainText(stereotype)}»\n${participants.get(id)!.label}`;
      if (order ?? orderAfter) orders.set(id, Number(order ?? orderAfter));
      continue;
    }
    // `"Bob()" -> "This is very\nlong" as Long`: a message may declare its target with an alias.
    const aliased = /^([^:"]*?(?:"[^"]+"[^:"]*?)?[-\]][^:\s"]*\s*)("[^"]+"|[^\s":]+)\s+as\s+("[^"]+"|[^\s":]+)(\s*(?::.*)?)$/.exec(text);
    if (aliased && MESSAGE.test(`${aliased[1]}X${aliased[4]}`)) {
      const id = declareNamed('participant', aliased[2]!, aliased[3]!, undefined);
      text = `${aliased[1]}${id}${aliased[4]}`;
    }
    const box = /^box\b\s*("[^"]*"|[^#]*?)?\s*(#\S+)?\s*$/i.exec(text);
    if (box) {
      const fill = box[2] ? plantumlColor(box[2]) : undefined;
      openBoxes.push({ label: plainText(unquote(box[1] ?? '')), participants: [], ...(fill && { fillColor: fill }) });
      boxes.push(openBoxes[openBoxes.length - 1]!);
      continue;
    }
    if (/^end\s*box$/i.test(text)) {
      openBoxes.pop();
      continue;
    }

    const note = NOTE.exec(text);
    if (note) {
      const [, keyword, position, over, color, inline] = note as unknown as [string, string, string, string, string | undefined, string | undefined];
      let body = inline;
      if (body === undefined) {
        const collected: string[] = [];
        let j = i + 1;
        // A ref closes with `end ref` or a bare `end` (both drawn by PlantUML); a note only with `end note`.
        const closer = keyword.toLowerCase() === 'ref' ? /^end(\s*ref)?$/i : /^end\s*[hr]?note$/i;
        for (; j < lines.length && !closer.test(lines[j]!.text); j++) collected.push(lines[j]!.text);
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
      // `note left: …` belongs to the message just before it, and is drawn level with it.
      const withMessage = (place === 'left' || place === 'right') && attached.length === 0;
      if (place === 'across') attached = [...participants.keys()];
      else if (attached.length === 0) {
        if (!lastMessage) throw parseError(line, 'a note without "of <participant>" must follow a message');
        attached = [lastMessage.to];
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
      if (withMessage) {
        step.withMessage = true;
        besideMessages.push({ note: step, message: lastMessage!, side: place as 'left' | 'right' });
      }
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
    // PlantUML closes a group with `end` and whatever follows it (`end loop`, `end opt;`), but for the closers of boxes and notes.
    if (/^end(?:\b(?!\s*(?:box|[hr]?note|ref|legend)\b).*)?$/i.test(text)) {
      if (!stack.pop()) throw parseError(line, '"end" without an open alt/opt/loop/group');
      continue;
    }
    // A bare `deactivate` ends the latest activation (mojaloop's rules handler).
    if (/^deactivate$/i.test(text)) {
      const latest = activations.pop();
      if (latest) add({ type: 'deactivate', participant: latest.participant });
      else warnings.push(`line ${line.line}: "deactivate" with no activation open was skipped`);
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
      if (verb !== 'activate' && verb !== 'deactivate') warnings.push(lifetime(line, verb));
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
    const autonumber = /^autonumber\b\s*(stop|off|resume|inc\s+([a-z]))?\s*(\d+(?:\.\d+)*)?\s*(\d+)?\s*(?:"(.*)")?\s*$/i.exec(text);
    if (autonumber) {
      const [, verb, level, first, second, format] = autonumber as unknown as (string | undefined)[];
      const word = verb?.split(/\s/)[0]!.toLowerCase();
      if (word === 'stop' || word === 'off') {
        paused = numbering;
        numbering = undefined;
      } else if (word === 'resume') {
        // `autonumber resume [increment] ["format"]` goes on from where `stop` left.
        const from = paused ?? numbering ?? { parts: [1], step: 1 };
        numbering = { ...from, ...(first && { step: Number(first) }), ...(format !== undefined && { format }) };
      } else if (word === 'inc') {
        // `autonumber inc A` counts up the first figure of 1.1.1 and starts the ones after it again.
        const k = level!.toUpperCase().charCodeAt(0) - 65;
        if (numbering && k < numbering.parts.length) numbering.parts = numbering.parts.map((n, p) => (p < k ? n : p === k ? n + 1 : 1));
      } else numbering = { parts: (first ?? '1').split('.').map(Number), step: second ? Number(second) : 1, ...(format !== undefined && { format }) };
      continue;
    }
    const page = /^newpage\b\s*(.*)$/i.exec(text);
    if (page) {
      add({ type: 'divider', text: plainText(page[1]!) });
      warnings.push(`line ${line.line}: newpage is drawn as a separator: the diagram is one page`);
      continue;
    }
    const space = /^\|\|(\d*)\|\|$|^\|\|\|$/.exec(text);
    if (space) {
      add({ type: 'space', ...(space[1] && { height: Number(space[1]) }) });
      continue;
    }
    const separator = /^==\s*(.*?)\s*==$/.exec(text);
    const divider = separator ?? /^\.\.\.\s*(.*?)\s*(?:\.\.\.)?$/.exec(text);
    if (divider) {
      add({ type: 'divider', text: plainText(divider[1]!), ...(separator && { line: 'double' as const }) });
      continue;
    }
    if (/^autoactivate\s+on\b/i.test(text)) {
      warnings.push(`line ${line.line}: autoactivate is not applied; activation bars are drawn where activate, ++ or return say`);
      continue;
    }
    if (/^(autoactivate|hide|show)\b/i.test(text)) continue;
    const message = MESSAGE.exec(text);
    if (message && /[<>\\/xo]/.test(message[2]! + message[4]!) && (message[1] || message[6])) {
      const [, left, headLeft, body, headRight, slant, right, suffix, label] = message as unknown as (string | undefined)[];
      // `[->`, `->]`, `-> A` and lost/found `?` come from or go out of the diagram: drawn from or to its edge on that side.
      const outside = (token: string | undefined) => token === undefined || token === '[' || token === ']' || token === '?';
      const edge = (token: string | undefined) => (outside(token) ? undefined : participant(token!));
      const fromId = edge(left) ?? edge(right)!;
      const toId = edge(right) ?? fromId;
      const text = numbered(label ? plainText(label) : '');
      add({
        type: 'message',
        from: fromId,
        to: toId,
        ...(outside(left) ? { outside: 'left' as const } : outside(right) && { outside: 'right' as const }),
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
        // `--` ends the sender's activation; `!!` destroys the receiver, ending its activation if it has one.
        const who = suffix === '--' ? fromId : toId;
        const k = activations.map((a) => a.participant).lastIndexOf(who);
        if (k >= 0 || suffix === '--') add({ type: 'deactivate', participant: who });
        if (k >= 0) activations.splice(k, 1);
      }
      if (slant) warnings.push(`line ${line.line}: slanted message ${slant} is drawn level`);
      if (suffix === '**' || suffix === '!!') warnings.push(lifetime(line, suffix === '**' ? 'create' : 'destroy'));
      continue;
    }
    throw parseError(line, `expected a participant, a message (A -> B : text), a note, a group (alt/opt/loop … end) or an activation, got "${text.slice(0, 60)}"`);
  }
  // PlantUML closes groups still open at @enduml.
  for (const open of stack) warnings.push(`line ${open.line.line}: "${open.fragment.kind}" is never closed with "end": closed at @enduml`);
  if (participants.size === 0) throw parseError({ line: 1, column: 1 }, 'the sequence diagram has no participants');
  // `order N` places a participant; the others keep their place in the order of declaration (order 0).
  let nodes = [...participants.values()].sort((a, b) => (orders.get(a.id) ?? 0) - (orders.get(b.id) ?? 0));
  if (source.visibility.some((command) => /^hide\s+@?unlinked$/i.test(command.text))) {
    const used = new Set(participantsIn(root));
    nodes = nodes.filter((n) => used.has(n.id));
  }
  for (const node of nodes) boxOf.get(node.id)?.participants.push(node.id);
  const column = new Map(nodes.map((node, index) => [node.id, index]));
  for (const { note, message, side } of besideMessages) {
    const [left, right] = (column.get(message.from) ?? 0) <= (column.get(message.to) ?? 0) ? [message.from, message.to] : [message.to, message.from];
    note.participants = [side === 'left' ? left : right];
  }
  const drawnBoxes = boxes.filter((box) => box.participants.length > 0);
  // PlantUML draws the participants again under their lifelines (the foot box) unless the last word is `hide footbox`.
  const footbox = source.visibility.filter((command) => FOOTBOX.test(command.text)).at(-1);
  const mirrored = footbox === undefined || /^show/i.test(footbox.text);
  return {
    layout: 'sequence',
    direction: 'RIGHT',
    nodes,
    edges: [],
    groups: [],
    warnings,
    sequence: { steps: root, ...(drawnBoxes.length > 0 && { boxes: drawnBoxes }), ...(mirrored && { mirrored: true as const }) },
  };

  function numbered(label: string): string {
    if (!numbering) return label;
    const { parts, step, format } = numbering;
    const figures = parts.join('.');
    // A format's run of 0s pads the number ("[000]" → "[007]"); its markup is dropped like any label's.
    const number = format === undefined ? figures : plainText(format.replace(/0+|#+/, (run) => (parts.length === 1 ? figures.padStart(run.length, '0') : figures)));
    numbering.parts = [...parts.slice(0, -1), parts[parts.length - 1]! + step];
    return label ? `${number} ${label}` : number;
  }
}

/** Lifelines run the whole height here: a participant created late or destroyed early is said, with its line. */
const lifetime = (line: SourceLine, verb: string): string =>
  verb === 'create' ? `line ${line.line}: create: the participant is drawn from the top, not from its creation` : `line ${line.line}: destroy: the lifeline runs on, without the cross that ends it`;

/** Every participant a step names, fragments searched through. */
function participantsIn(steps: readonly SequenceStep[]): string[] {
  return steps.flatMap((step) => {
    switch (step.type) {
      case 'message':
        return [step.from, step.to];
      case 'note':
        return step.participants;
      case 'activate':
      case 'deactivate':
        return [step.participant];
      case 'fragment':
        return step.sections.flatMap((section) => participantsIn(section.steps));
      default:
        return [];
    }
  });
}
