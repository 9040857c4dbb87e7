/**
 * Mermaid `sequenceDiagram` → GraphIR with `layout: 'sequence'`, drawn by the same lifeline layout as PlantUML's:
 * participants in column order, then messages, notes, activations and fragments (loop, alt/else, opt, par/and,
 * critical/option, break) in order.
 */
import type { Arrowhead, GraphIR, GraphNode, GraphStyle } from '../../graph/types.js';
import type { SequenceBox, SequenceFragment, SequenceMessage, SequenceStep } from '../../layout/sequence.js';
import { cssColor } from './style.js';
import { PARTICIPANT_KINDS } from '../plantuml/sequence.js';
import { decodeMermaid } from './parser.js';
import { dictionary } from '../../dictionary.js';

interface Actor {
  name: string;
  description?: string;
  type?: string;
}
interface Entry {
  from?: string;
  to?: string;
  message?: string | { text?: string };
  type?: number;
  placement?: number;
}
export interface SequenceDb {
  getActors(): Map<string, Actor>;
  getMessages(): Entry[];
  showSequenceNumbers?(): boolean;
  LINETYPE: Record<string, number>;
  PLACEMENT: Record<string, number>;
}

/** Message line types: dashed or not, and the head at the receiving end (and the sending end for `<<->>`). */
/** `approximate`: what the warning says ours draws instead. */
const MESSAGES: Record<string, { dashed: boolean; end: Arrowhead; both?: true; approximate?: string }> = dictionary({
  SOLID: { dashed: false, end: 'arrow' },
  DOTTED: { dashed: true, end: 'arrow' },
  SOLID_CROSS: { dashed: false, end: 'bar', approximate: 'cross heads (-x, --x) drawn as bars' },
  DOTTED_CROSS: { dashed: true, end: 'bar', approximate: 'cross heads (-x, --x) drawn as bars' },
  SOLID_OPEN: { dashed: false, end: 'none' },
  DOTTED_OPEN: { dashed: true, end: 'none' },
  SOLID_POINT: { dashed: false, end: 'arrow' },
  DOTTED_POINT: { dashed: true, end: 'arrow' },
  BIDIRECTIONAL_SOLID: { dashed: false, end: 'arrow', both: true },
  BIDIRECTIONAL_DOTTED: { dashed: true, end: 'arrow', both: true },
});

/** Fragment openers → our fragment kind; `else`, `and` and `option` open a new section; END closes. */
const OPENERS: Record<string, string> = dictionary({ LOOP_START: 'loop', ALT_START: 'alt', OPT_START: 'opt', PAR_START: 'par', PAR_OVER_START: 'par', CRITICAL_START: 'critical', BREAK_START: 'break' });
const SECTIONS = new Set(['ALT_ELSE', 'PAR_AND', 'CRITICAL_OPTION']);
const CLOSERS = new Set(['LOOP_END', 'ALT_END', 'OPT_END', 'PAR_END', 'CRITICAL_END', 'BREAK_END']);

const textOf = (message: Entry['message']) => decodeMermaid(typeof message === 'string' ? message : (message?.text ?? '')).trim();

/**
 * `box Aqua Group … end` lines taken out of the code before Mermaid reads it: Mermaid checks a box colour with the
 * browser's CSS (`window.CSS`, `new Option()`) and fails in Node, refusing the diagram. A box holds participant
 * declarations only, so its `end` is the first after it. The lines are blanked, not removed, so Mermaid's error
 * positions stay right.
 */
export function takeBoxes(code: string): { code: string; boxes: SequenceBox[] } {
  const lines = code.split('\n');
  const boxes: SequenceBox[] = [];
  let open: SequenceBox | undefined;
  lines.forEach((line, i) => {
    const text = line.trim();
    const box = /^box\b\s*(.*)$/.exec(text);
    if (box && !open) {
      // Mermaid's rule: a first word that is a colour (a CSS name, rgb(…), hsl(…)) is the colour; the rest is the title.
      const [, first = '', rest = ''] = /^((?:rgba?|hsla?)\s*\(.*?\)|\w*)\s*(.*)$/.exec(box[1]!) ?? [];
      const isColor = /^(rgba?|hsla?)\s*\(/.test(first) || first === 'transparent' || (first !== '' && cssColor(first) !== undefined);
      const fill = isColor && first !== 'transparent' ? cssColor(first) : undefined;
      open = { label: decodeMermaid(isColor ? rest : box[1]!).trim(), participants: [], ...(fill && { fillColor: fill }) };
      boxes.push(open);
      lines[i] = '';
    } else if (open && /^end$/.test(text)) {
      open = undefined;
      lines[i] = '';
    } else if (open) {
      const declared = /^(?:participant|actor)\s+(.+?)(?:\s+as\s+.*)?$/.exec(text);
      if (declared) open.participants.push(declared[1]!.trim());
    }
  });
  return { code: lines.join('\n'), boxes };
}

/**
 * `actorStyle`: the theme's colours for participant heads (theme.ts), laid on every head but an actor's figure;
 * `mirrored`: the participants drawn under their lifelines too (Mermaid's `mirrorActors`, its default).
 */
export function sequenceToGraph(db: SequenceDb, declaredBoxes: readonly SequenceBox[] = [], actorStyle?: GraphStyle, mirrored = true): GraphIR {
  const warnings: string[] = [];
  const names = new Map(Object.entries(db.LINETYPE).map(([name, value]) => [value, name]));
  const nodes: GraphNode[] = [...db.getActors().values()].map((actor) => {
    const spec = PARTICIPANT_KINDS[actor.type ?? 'participant'] ?? PARTICIPANT_KINDS.participant!;
    const node: GraphNode = { id: actor.name, label: decodeMermaid(actor.description ?? actor.name), kind: spec.kind, shape: spec.shape };
    if (actorStyle !== undefined && spec.shape !== 'person') node.style = { ...actorStyle };
    return node;
  });
  const root: SequenceStep[] = [];
  const stack: SequenceFragment[] = [];
  const target = () => {
    const top = stack[stack.length - 1];
    return top ? top.sections[top.sections.length - 1]!.steps : root;
  };
  // `autonumber [start [step]]` (and `autonumber off`) arrives in order among the messages.
  let numbering: { next: number; step: number } | undefined = db.showSequenceNumbers?.() ? { next: 1, step: 1 } : undefined;
  const skipped = new Map<string, number>();
  for (const entry of db.getMessages()) {
    const name = names.get(entry.type ?? -1) ?? 'UNKNOWN';
    const message = MESSAGES[name] ?? (/^(SOLID|STICK)/.test(name) ? { dashed: name.endsWith('DOTTED'), end: 'arrow' as const, approximate: 'half-arrow heads drawn as full arrows' } : undefined);
    if (message && entry.from !== undefined && entry.to !== undefined) {
      const text = textOf(entry.message);
      let label = text;
      if (numbering !== undefined) {
        label = `${numbering.next}. ${text}`.trim();
        numbering.next += numbering.step;
      }
      const step: SequenceMessage = { type: 'message', from: entry.from, to: entry.to, dashed: message.dashed, startArrowhead: message.both ? message.end : 'none', endArrowhead: message.end };
      if (label !== '') step.label = label;
      if (message.approximate) skipped.set(message.approximate, (skipped.get(message.approximate) ?? 0) + 1);
      target().push(step);
    } else if (name === 'NOTE' && entry.from !== undefined) {
      const over = entry.placement === db.PLACEMENT.OVER;
      const participants = over && entry.to !== undefined && entry.to !== entry.from ? [entry.from, entry.to] : [entry.from];
      const position = over ? 'over' : entry.placement === db.PLACEMENT.LEFTOF ? 'left' : 'right';
      target().push({ type: 'note', position, participants, text: textOf(entry.message), shape: 'document' });
    } else if ((name === 'ACTIVE_START' || name === 'ACTIVE_END') && entry.from !== undefined) {
      target().push({ type: name === 'ACTIVE_START' ? 'activate' : 'deactivate', participant: entry.from });
    } else if (OPENERS[name] !== undefined) {
      const fragment: SequenceFragment = { type: 'fragment', kind: OPENERS[name]!, sections: [{ label: textOf(entry.message), steps: [] }] };
      target().push(fragment);
      stack.push(fragment);
    } else if (SECTIONS.has(name) && stack.length > 0) {
      stack[stack.length - 1]!.sections.push({ label: textOf(entry.message), steps: [] });
    } else if (CLOSERS.has(name)) {
      stack.pop();
    } else if (name === 'RECT_START') {
      // `rect rgb(…)`: a background behind the messages it holds, as Mermaid paints it; no name, no frame.
      const fill = cssColor(textOf(entry.message));
      const fragment: SequenceFragment = { type: 'fragment', kind: 'rect', sections: [{ label: '', steps: [] }], ...(fill !== undefined && { fillColor: fill }) };
      target().push(fragment);
      stack.push(fragment);
    } else if (name === 'RECT_END') {
      stack.pop();
    } else if (name === 'AUTONUMBER') {
      const spec = (typeof entry.message === 'object' ? entry.message : {}) as { start?: number; step?: number; visible?: boolean };
      numbering = spec.visible === false ? undefined : { next: spec.start ?? 1, step: spec.step ?? 1 };
    } else {
      skipped.set(`${name.toLowerCase()} statements left out`, (skipped.get(`${name.toLowerCase()} statements left out`) ?? 0) + 1);
    }
  }
  // A titled box around its participants, as PlantUML's `box`.
  const boxes = declaredBoxes.map((box) => ({ ...box, participants: box.participants.filter((id) => nodes.some((n) => n.id === id)) })).filter((box) => box.participants.length > 0);
  for (const [what, count] of skipped) warnings.push(`${count} ${what}`);
  return { layout: 'sequence', direction: 'RIGHT', nodes, edges: [], groups: [], warnings, sequence: { steps: root, ...(boxes.length > 0 && { boxes }), ...(mirrored && { mirrored: true as const }) } };
}
