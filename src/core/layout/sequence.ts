/**
 * Sequence diagrams: the model a parser fills (`GraphIR.sequence`, participants are `GraphIR.nodes` in column order)
 * and `layoutSequence`, which draws it as native elements: participant boxes over dashed lifelines, messages as
 * horizontal arrows top to bottom with their labels above, dashed replies, notes, activation bars and combined
 * fragments (alt/opt/loop/…) as named frames with their `else` sections split by dashed lines; the diagram title, if
 * any, above it all.
 */
import type { Arrowhead, GraphIR, GraphNode } from '../graph/types.js';
import { DIAGRAM_TITLE_ID, withDiagramTitle, type GeneratedElement } from '../scene/from-graph.js';
import { isFigure } from '../scene/constants.js';
import { readableStroke } from './contrast.js';
import { FONT, ROLE_COLORS, SPACING } from './drawing-rules.js';
import { measureText } from './measure.js';
import { sizeNode, wrapText } from './node-size.js';

export interface SequenceMessage {
  type: 'message';
  /** Participant (node) ids; equal for a message to self. */
  from: string;
  to: string;
  label?: string;
  /** Replies and other dashed messages (`-->`). */
  dashed: boolean;
  startArrowhead: Arrowhead;
  endArrowhead: Arrowhead;
  /**
   * The message's other end is the diagram's edge on this side, not a participant (PlantUML's found and lost messages,
   * `[-> A`, `A ->]`, `-> A`): `from` and `to` are both the one participant.
   */
  outside?: 'left' | 'right';
}

export interface SequenceNote {
  type: 'note';
  /** `over` spans every participant named (one or more); left/right sit beside the first. */
  position: 'left' | 'right' | 'over';
  participants: string[];
  text: string;
  /** Native outline: notes are documents, `hnote` hexagons, `rnote` and `ref` plain boxes. */
  shape: 'document' | 'hexagon' | 'rectangle';
  fillColor?: string;
  /** PlantUML's `note left|right : …` with no participant named belongs to the message just before it and is drawn
   * level with it, beside the arrow's end, not on a row of its own. */
  withMessage?: true;
}

export interface SequenceFragmentSection {
  /** The guard or title (`alt success` → "success"; `else failure` → "failure"). */
  label: string;
  steps: SequenceStep[];
}

export interface SequenceFragment {
  type: 'fragment';
  /** alt, opt, loop, par, break, critical, group; `rect` for Mermaid's highlight. */
  kind: string;
  sections: SequenceFragmentSection[];
  /** A highlight (Mermaid `rect rgb(…)`): a background of this colour behind what it holds, without name or border. */
  fillColor?: string;
}

export interface SequenceActivation {
  type: 'activate' | 'deactivate';
  participant: string;
}

/** `== Title ==` separators and `...` delays: a full-width break in time. */
export interface SequenceDivider {
  type: 'divider';
  text: string;
  /** `== Title ==`: drawn across the lifelines as a double line with the title boxed on it. */
  line?: 'double';
}

/** `|||` and `||45||`: extra room between two steps, nothing drawn. */
export interface SequenceSpace {
  type: 'space';
  /** In px; PlantUML's `|||` leaves its default gap. */
  height?: number;
}

export type SequenceStep = SequenceMessage | SequenceNote | SequenceFragment | SequenceActivation | SequenceDivider | SequenceSpace;

/** `box "Title" #colour … end box`: participants declared together, drawn inside one titled box. */
export interface SequenceBox {
  label: string;
  /** Participant ids; where they are not neighbouring columns, each run of them is boxed on its own. */
  participants: string[];
  fillColor?: string;
}

/** `GraphIR.sequence`: what happens, in order. */
export interface SequenceDiagram {
  steps: SequenceStep[];
  boxes?: SequenceBox[];
  /**
   * The participants drawn again under their lifelines, where a long diagram's reader is (Mermaid's `mirrorActors`,
   * on unless its config turns it off).
   */
  mirrored?: true;
}

/** Spacing of sequence drawings, in px. */
export const SEQUENCE_SPACING = {
  /** Least gap between two neighbouring participant boxes. */
  participantGap: 40,
  /** Vertical room of one message row besides its label. */
  messageGap: 16,
  /** Width and height of the loop a message to self draws. */
  selfLoopWidth: 36,
  selfLoopHeight: 24,
  /** Gap between a lifeline and a note beside it, and between stacked rows. */
  noteGap: 12,
  rowGap: 14,
  /** How far a fragment frame reaches past the lifelines it covers, per nesting level. */
  framePadding: 16,
  /** Room above a frame for its name, and under its top edge before the first row. */
  frameNameHeight: 24,
  frameTopGap: 24,
  /** Activation bars are lines this thick (the schema's widest stroke). */
  activationWidth: 8,
  /** Widest message label before it wraps; widest note. */
  labelMaxWidth: 340,
  noteMaxWidth: 360,
  /**
   * A single word in a message label (a call written as one identifier, `RespondWorkflowTaskCompleted(ScheduleActivity)`)
   * stands whole on its line up to this width, its columns moved apart for it, as Mermaid and PlantUML do: cut at a
   * hump it read as two words.
   */
  wordMaxWidth: 560,
} as const;

const TEXT_COLOR = '#1e1e1e';
/**
 * Lines, and fragment frames with their names: PlantUML draws a frame in the ink of its arrows, and a lighter grey
 * name (3.3:1 on white) fades to a smudge where a tall diagram is scaled to a README column.
 */
const LINE_COLOR = '#495057';

export interface SequenceScene {
  elements: GeneratedElement[];
  /** Element id → element id of the fragment frame drawn around it (what the quality checker calls containers). */
  parents: Map<string, string>;
  warnings: string[];
  width: number;
  height: number;
}

interface Column {
  node: GraphNode;
  center: number;
  box: ReturnType<typeof sizeNode>;
}

const round = (value: number) => Math.round(value * 100) / 100;

/** Labels wrapped for drawing, with their size. */
function labelText(text: string, maxWidth: number, fontSize: number): { text: string; width: number; height: number } {
  const wrapped = wrapText(text, maxWidth, fontSize, SEQUENCE_SPACING.wordMaxWidth).join('\n');
  return { text: wrapped, ...measureText(wrapped, fontSize, FONT.family) };
}

function noteNode(note: SequenceNote): GraphNode {
  return { id: 'note', label: note.text, kind: 'note', shape: note.shape };
}

/** Walks every step, fragments included. */
function* allSteps(steps: readonly SequenceStep[]): Generator<SequenceStep> {
  for (const step of steps) {
    yield step;
    if (step.type === 'fragment') for (const section of step.sections) yield* allSteps(section.steps);
  }
}

/** Column centres: boxes side by side, then widened until every message label and note fits between its lifelines. */
function placeColumns(graph: GraphIR, steps: readonly SequenceStep[]): Column[] {
  const columns: Column[] = graph.nodes.map((node) => ({ node, center: 0, box: sizeNode(node) }));
  const index = new Map(columns.map((column, i) => [column.node.id, i]));
  // Least distance between neighbouring centres i and i+1.
  const gaps = columns.slice(1).map((column, i) => columns[i]!.box.width / 2 + column.box.width / 2 + SEQUENCE_SPACING.participantGap);
  const spans: { from: number; to: number; width: number }[] = [];
  for (const step of allSteps(steps)) {
    if (step.type === 'message') {
      const a = index.get(step.from)!;
      const b = index.get(step.to)!;
      const label = step.label ? labelText(step.label, SEQUENCE_SPACING.labelMaxWidth, FONT.edgeLabel).width : 0;
      // A message from or to the diagram's edge has its label beside its participant, on that side.
      if (step.outside) spans.push(step.outside === 'left' ? { from: a - 1, to: a, width: label + 3 * SEQUENCE_SPACING.noteGap } : { from: a, to: a + 1, width: label + 3 * SEQUENCE_SPACING.noteGap });
      else if (a === b) spans.push({ from: a, to: a + 1, width: SEQUENCE_SPACING.selfLoopWidth + label + 2 * SEQUENCE_SPACING.noteGap });
      else spans.push({ from: Math.min(a, b), to: Math.max(a, b), width: label + 2 * SEQUENCE_SPACING.noteGap });
    } else if (step.type === 'note' && step.position !== 'over') {
      const a = index.get(step.participants[0]!)!;
      const width = sizeNoteBox(step).width + 2 * SEQUENCE_SPACING.noteGap;
      spans.push(step.position === 'right' ? { from: a, to: a + 1, width } : { from: a - 1, to: a, width });
    }
  }
  // Where a participant box ends, its border must clear its members' notes with a box's padding, and the next box or
  // head must clear the border as far as two heads would clear each other: the notes reaching past the edge columns
  // widen the gap across the border, as PlantUML spaces its boxes.
  const boxOf = new Map((graph.sequence?.boxes ?? []).flatMap((group, k) => group.participants.map((p) => [p, k] as const)));
  const reach = columns.map((column) => ({ left: column.box.width / 2, right: column.box.width / 2 }));
  for (const step of allSteps(steps)) {
    if (step.type !== 'note' || step.participants.length !== 1) continue;
    const i = index.get(step.participants[0]!)!;
    const width = sizeNoteBox(step).width;
    const side = step.position === 'over' ? { left: width / 2, right: width / 2 } : { [step.position]: SEQUENCE_SPACING.noteGap + width };
    reach[i] = { left: Math.max(reach[i]!.left, side.left ?? 0), right: Math.max(reach[i]!.right, side.right ?? 0) };
  }
  gaps.forEach((gap, i) => {
    const a = boxOf.get(columns[i]!.node.id);
    const b = boxOf.get(columns[i + 1]!.node.id);
    if (a !== b) gaps[i] = Math.max(gap, reach[i]!.right + reach[i + 1]!.left + SEQUENCE_SPACING.participantGap);
  });
  // Widen the last gap of each span as needed, shortest spans first so long ones reuse the room already made.
  spans.sort((s, t) => s.to - s.from - (t.to - t.from));
  for (const span of spans) {
    if (span.from < 0 || span.to >= columns.length) continue;
    let have = 0;
    for (let i = span.from; i < span.to; i++) have += gaps[i]!;
    if (have < span.width) gaps[span.to - 1]! += span.width - have;
  }
  // Room for a note or self-loop beside the first or last participant.
  let x = columns[0] ? columns[0].box.width / 2 : 0;
  for (const span of spans) if (span.from < 0) x = Math.max(x, span.width);
  columns.forEach((column, i) => {
    column.center = x;
    x += gaps[i] ?? 0;
  });
  return columns;
}

function sizeNoteBox(note: SequenceNote): { width: number; height: number; label: string } {
  // Notes wrap at their own width (sizeNode allows up to 420 px): sequence rows read better narrower.
  const wrapped = wrapText(note.text, SEQUENCE_SPACING.noteMaxWidth, FONT.label).join('\n');
  const box = sizeNode({ ...noteNode(note), label: wrapped });
  return { width: box.width, height: box.height, label: box.label };
}

/** Draws a sequence GraphIR (`layout: 'sequence'`). Elements are in the input form, like `graphToScene`'s. */
export function layoutSequence(graph: GraphIR): SequenceScene {
  const steps = graph.sequence?.steps ?? [];
  const warnings: string[] = [];
  const elements: GeneratedElement[] = [];
  const parents = new Map<string, string>();
  const columns = placeColumns(graph, steps);
  const byId = new Map(columns.map((column) => [column.node.id, column]));
  const lifelineId = (participant: string) => `lifeline-${participant}`;
  let counter = 0;
  const nextId = (prefix: string) => `${prefix}-${++counter}`;

  const headHeight = Math.max(0, ...columns.map((column) => column.box.height));
  const firstCenter = columns[0]?.center ?? 0;
  const lastCenter = columns[columns.length - 1]?.center ?? 0;
  let y = headHeight + SEQUENCE_SPACING.rowGap * 2;
  /** Open activation bars: participant → start y of each nested activation. */
  const active = new Map<string, number[]>();
  const bars: { participant: string; top: number; bottom: number; depth: number }[] = [];
  /** Fragment frames open at this moment, innermost last: what they hold gets them as parent. */
  const openFrames: string[] = [];
  /** Where fragment names and `else` guards are written: activation bars stop short of them. */
  const labelBoxes: { left: number; right: number; top: number; bottom: number }[] = [];

  const place = (element: GeneratedElement) => {
    elements.push(element);
    const frame = openFrames[openFrames.length - 1];
    if (frame !== undefined && element.type !== 'arrow' && element.type !== 'line') parents.set(element.id, frame);
  };

  /** Draws `list` from the current y down; returns the horizontal extent used, for the frames around it. */
  const drawSteps = (list: readonly SequenceStep[]): { min: number; max: number } => {
    let min = Infinity;
    let max = -Infinity;
    const use = (a: number, b: number) => {
      min = Math.min(min, a);
      max = Math.max(max, b);
    };
    /** Top of the row of the message just drawn, while the step after it may still share that row. */
    let messageRow: { top: number; self: boolean } | undefined;
    for (const step of list) {
      const row = messageRow;
      if (step.type !== 'activate' && step.type !== 'deactivate') messageRow = undefined;
      switch (step.type) {
        case 'message': {
          messageRow = { top: y, self: step.from === step.to };
          const from = byId.get(step.from)!;
          const to = byId.get(step.to)!;
          const label = step.label ? labelText(step.label, SEQUENCE_SPACING.labelMaxWidth, FONT.edgeLabel) : undefined;
          const self = from === to && step.outside === undefined;
          const loopX = from.center + SEQUENCE_SPACING.selfLoopWidth;
          const labelLeft = self
            ? loopX + SEQUENCE_SPACING.noteGap
            : step.outside === 'left'
              ? from.center - SEQUENCE_SPACING.noteGap - (label?.width ?? 0)
              : Math.min(from.center, to.center) + SEQUENCE_SPACING.noteGap;
          // From or to the diagram's edge: a level arrow out past the first (or last) participant's head and its label.
          const edgeX =
            step.outside === 'left'
              ? Math.min(firstCenter - columns[0]!.box.width / 2, labelLeft)
              : Math.max(lastCenter + columns[columns.length - 1]!.box.width / 2, labelLeft + (label?.width ?? 0));
          if (label) place(textElement(nextId('message-label'), label, labelLeft, y));
          // A label goes above its arrow; beside a loop to self it starts level with the loop.
          const arrowY = y + (label && !self ? label.height : 0) + SEQUENCE_SPACING.messageGap / 2;
          const points = self
            ? [
                { x: from.center, y: arrowY },
                { x: loopX, y: arrowY },
                { x: loopX, y: arrowY + SEQUENCE_SPACING.selfLoopHeight },
                { x: from.center, y: arrowY + SEQUENCE_SPACING.selfLoopHeight },
              ]
            : [
                { x: step.outside === 'left' ? edgeX : from.center, y: arrowY },
                { x: step.outside === 'right' ? edgeX : to.center, y: arrowY },
              ];
          place(messageArrow(nextId('message'), step, points));
          const ends = points.map((point) => point.x);
          use(Math.min(...ends, label ? labelLeft : Infinity), Math.max(...ends, label ? labelLeft + label.width : 0));
          const loopBottom = self ? Math.max(arrowY + SEQUENCE_SPACING.selfLoopHeight, y + (label?.height ?? 0)) : arrowY;
          y = loopBottom + SEQUENCE_SPACING.rowGap;
          break;
        }
        case 'note': {
          const size = sizeNoteBox(step);
          const centers = step.participants.map((p) => byId.get(p)!.center);
          let width = size.width;
          let x: number;
          if (step.position === 'over') {
            const a = Math.min(...centers);
            const b = Math.max(...centers);
            width = Math.max(size.width, b - a + 2 * SEQUENCE_SPACING.noteGap);
            x = (a + b) / 2 - width / 2;
          } else x = step.position === 'right' ? centers[0]! + SEQUENCE_SPACING.noteGap : centers[0]! - SEQUENCE_SPACING.noteGap - width;
          // Level with its message, as PlantUML draws it; beside a loop to self its label is already there.
          const top = step.withMessage && row && !row.self ? row.top : y;
          const role = ROLE_COLORS.note;
          place({
            id: nextId('note'),
            type: step.shape,
            x: round(x),
            y: round(top),
            width: Math.ceil(width),
            height: size.height,
            text: size.label,
            fontSize: FONT.label,
            fontFamily: FONT.family,
            textAlign: 'left',
            // Labels are drawn in the stroke colour: keep them readable on the fill.
            strokeColor: readableStroke(role.strokeColor, step.fillColor ?? role.fillColor),
            fillColor: step.fillColor ?? role.fillColor,
            strokeStyle: 'solid',
            corner: 'sharp',
          });
          use(x, x + Math.ceil(width));
          y = Math.max(y, top + size.height + SEQUENCE_SPACING.rowGap);
          break;
        }
        case 'activate': {
          const stack = active.get(step.participant) ?? [];
          stack.push(y - SEQUENCE_SPACING.rowGap / 2);
          active.set(step.participant, stack);
          break;
        }
        case 'deactivate': {
          const stack = active.get(step.participant);
          const top = stack?.pop();
          if (top !== undefined) bars.push({ participant: step.participant, top, bottom: y - SEQUENCE_SPACING.rowGap / 2, depth: stack!.length });
          break;
        }
        case 'divider': {
          // As PlantUML draws `== Title ==`: a double line across every lifeline, the title boxed on it. A `...` delay
          // keeps its text alone.
          const label = labelText(step.text || '…', SEQUENCE_SPACING.labelMaxWidth, FONT.edgeLabel);
          const middle = (firstCenter + lastCenter) / 2;
          if (step.line === 'double' && columns.length > 0) {
            const [first, last] = [columns[0]!, columns[columns.length - 1]!];
            // The box holds its title with a shape's padding, as every labelled box does.
            const [width, height] = [Math.ceil(label.width + 2 * SPACING.nodePaddingX), Math.ceil(label.height + 2 * SPACING.nodePaddingY)];
            const lineY = y + height / 2;
            for (const dy of [-1.5, 1.5]) {
              place({ id: nextId('divider-line'), type: 'line', points: [{ x: round(first.center - first.box.width / 2), y: round(lineY + dy) }, { x: round(last.center + last.box.width / 2), y: round(lineY + dy) }], strokeColor: LINE_COLOR, fillColor: 'transparent', strokeStyle: 'solid', corner: 'sharp' });
            }
            place({ id: nextId('divider'), type: 'rectangle', x: round(middle - width / 2), y: round(y), width, height, text: label.text, fontSize: FONT.edgeLabel, fontFamily: FONT.family, textAlign: 'center', strokeColor: TEXT_COLOR, fillColor: '#eeeeee', strokeStyle: 'solid', corner: 'sharp' });
            y += height + SEQUENCE_SPACING.rowGap;
            break;
          }
          place(textElement(nextId('divider'), label, middle - label.width / 2, y));
          y += label.height + SEQUENCE_SPACING.rowGap;
          break;
        }
        case 'space':
          y += step.height ?? SEQUENCE_SPACING.rowGap * 2;
          break;
        case 'fragment': {
          // Room above the frame for its name, then the frame's slot, so it sits under what it holds. A highlight has
          // no name: it only paints the background behind its messages.
          const highlight = step.fillColor;
          if (highlight === undefined) y += SEQUENCE_SPACING.frameNameHeight;
          const id = nextId('fragment');
          const slot = elements.length;
          const outer = openFrames[openFrames.length - 1];
          if (outer !== undefined) parents.set(id, outer);
          openFrames.push(id);
          const top = y;
          y += SEQUENCE_SPACING.frameTopGap;
          const separators: { y: number; label: string }[] = [];
          let inner = { min: Infinity, max: -Infinity };
          step.sections.forEach((section, k) => {
            if (k > 0) {
              separators.push({ y, label: section.label });
              y += SEQUENCE_SPACING.frameTopGap + (section.label ? measureText(`[${section.label}]`, FONT.edgeLabel, FONT.family).height : 0);
            }
            const used = drawSteps(section.steps);
            inner = { min: Math.min(inner.min, used.min), max: Math.max(inner.max, used.max) };
          });
          openFrames.pop();
          const name = `${step.kind}${step.sections[0]?.label ? ` [${step.sections[0].label}]` : ''}`;
          const nameWidth = measureText(name, FONT.edgeLabel, FONT.family).width;
          if (inner.min === Infinity) inner = { min: firstCenter, max: firstCenter };
          const pad = SEQUENCE_SPACING.framePadding;
          const box = { left: inner.min - pad, right: highlight === undefined ? Math.max(inner.max + pad, inner.min - pad + nameWidth + 2 * pad) : inner.max + pad, top, bottom: y };
          if (highlight === undefined) labelBoxes.push({ left: box.left, right: box.left + nameWidth + 2 * pad, top: top - SEQUENCE_SPACING.frameNameHeight, bottom: top });
          const drawn: GeneratedElement[] = [
            {
              id,
              type: 'frame',
              x: round(box.left),
              y: round(box.top),
              width: round(box.right - box.left),
              height: round(box.bottom - box.top),
              name: highlight === undefined ? name : '',
              strokeColor: highlight ?? LINE_COLOR,
              fillColor: highlight ?? 'transparent',
              strokeStyle: 'solid',
              corner: 'sharp',
            },
          ];
          separators.forEach((separator, k) => {
            const lineY = round(separator.y);
            drawn.push({
              id: `${id}-else-${k + 1}`,
              type: 'line',
              points: [
                { x: round(box.left), y: lineY },
                { x: round(box.right), y: lineY },
              ],
              strokeColor: LINE_COLOR,
              fillColor: 'transparent',
              strokeStyle: 'dashed',
              corner: 'sharp',
            });
            if (separator.label) {
              const label = { text: `[${separator.label}]`, ...measureText(`[${separator.label}]`, FONT.edgeLabel, FONT.family) };
              const element = textElement(`${id}-else-${k + 1}-label`, label, box.left + SEQUENCE_SPACING.noteGap, separator.y + 4);
              labelBoxes.push({ left: element.x!, right: element.x! + label.width, top: element.y!, bottom: element.y! + label.height });
              drawn.push(element);
              parents.set(element.id, id);
            }
          });
          elements.splice(slot, 0, ...drawn);
          use(box.left, box.right);
          y += SEQUENCE_SPACING.rowGap;
          break;
        }
      }
    }
    return { min, max };
  };

  drawSteps(steps);
  for (const [participant, stack] of active) {
    for (const top of stack) bars.push({ participant, top, bottom: y, depth: 0 });
    if (stack.length > 0) warnings.push(`participant "${participant}" is still active at the end of the diagram`);
  }
  const lifelineEnd = y + SEQUENCE_SPACING.rowGap;
  const lifelineHeight = lifelineEnd - headHeight;
  // Where the drawing ends: under the participants' feet when they are drawn again there.
  const bottom = lifelineEnd + (graph.sequence?.mirrored ? headHeight : 0);

  // Participant heads over their lifelines. A lifeline is a zero-width dashed rectangle rather than a line: arrows
  // bind to shapes only, and each message stays bound to its lifeline at its own height (the focus y).
  const heads: GeneratedElement[] = [];
  for (const column of columns) {
    const { node, box } = column;
    const role = ROLE_COLORS[node.kind];
    const groupIds = [`participant-${node.id}`];
    const fill = node.style?.fillColor ?? role.fillColor;
    const border = readableStroke(node.style?.strokeColor ?? role.strokeColor, fill);
    // A font colour of the author's own (Mermaid's `actorTextColor`: white names on royal blue heads) is the text's,
    // written over the head, which keeps its border; a head's text is otherwise drawn in its border colour.
    const ink = node.style?.textColor === undefined ? border : readableStroke(node.style.textColor, fill);
    const head: GeneratedElement = {
      id: `participant-${node.id}`,
      type: box.shape,
      x: round(column.center - box.width / 2),
      y: round(headHeight - box.height),
      width: box.width,
      height: box.height,
      text: box.label,
      fontSize: FONT.label,
      fontFamily: FONT.family,
      strokeColor: border,
      fillColor: fill,
      strokeStyle: 'solid',
      corner: 'sharp',
      groupIds,
    };
    // The head, and its foot at the lifeline's end (top aligned, as Mermaid's mirrored actors).
    const drawnAt = (suffix: string, top: number): GeneratedElement[] => {
      const at = { ...head, id: `participant-${node.id}${suffix}`, y: round(top) };
      if (ink === border || isFigure(box.shape)) return [at];
      const size = measureText(box.label, FONT.label, FONT.family);
      const { text: _text, fontSize: _size, fontFamily: _family, ...shape } = at;
      return [
        shape,
        {
          ...textElement(`participant-${node.id}${suffix}-label`, { text: box.label, ...size }, column.center - size.width / 2, top + (box.height - size.height) / 2),
          fontSize: FONT.label,
          strokeColor: ink,
          textAlign: 'center' as const,
          groupIds,
        },
      ];
    };
    heads.push(...drawnAt('', head.y!));
    if (graph.sequence?.mirrored) heads.push(...drawnAt('-foot', lifelineEnd));
    heads.push({
      id: lifelineId(node.id),
      type: 'rectangle',
      x: round(column.center),
      y: round(headHeight),
      width: 0,
      height: round(lifelineHeight),
      strokeColor: LINE_COLOR,
      fillColor: 'transparent',
      strokeStyle: 'dashed',
      strokeWidth: 1,
      corner: 'sharp',
      groupIds,
    });
  }
  // Activation bars: thick translucent lines on the lifeline, under the messages and never in their way. A bar is
  // cut where a fragment's name or guard is written across its lifeline, so it never strikes through the text.
  const half = SEQUENCE_SPACING.activationWidth / 2;
  const segments = bars.flatMap((bar) => {
    const x = round(byId.get(bar.participant)!.center + bar.depth * half);
    const cuts = labelBoxes.filter((b) => b.left <= x + half && b.right >= x - half && b.bottom > bar.top && b.top < bar.bottom).sort((a, b) => a.top - b.top);
    const pieces: { x: number; top: number; bottom: number }[] = [];
    let top = bar.top;
    for (const cut of cuts) {
      if (cut.top > top) pieces.push({ x, top, bottom: cut.top });
      top = Math.max(top, cut.bottom);
    }
    if (bar.bottom > top) pieces.push({ x, top, bottom: bar.bottom });
    return pieces;
  });
  const barLines: GeneratedElement[] = segments.map((bar, k) => {
    const x = bar.x;
    return {
      id: `activation-${k + 1}`,
      type: 'line',
      points: [
        { x, y: round(bar.top) },
        { x, y: round(bar.bottom) },
      ],
      strokeColor: LINE_COLOR,
      fillColor: 'transparent',
      strokeStyle: 'solid',
      strokeWidth: SEQUENCE_SPACING.activationWidth,
      opacity: 30,
      corner: 'sharp',
    };
  });
  // Message ends bind to their lifelines; the focus y is only known now that the lifelines' length is.
  for (const element of elements) {
    if (element.type !== 'arrow') continue;
    const points = element.points!;
    // A message from or to the diagram's edge is bound at its participant's end only.
    if (element.startBinding) element.startBinding.focus = { x: 0.5, y: (points[0]!.y - headHeight) / lifelineHeight };
    if (element.endBinding) element.endBinding.focus = { x: 0.5, y: (points[points.length - 1]!.y - headHeight) / lifelineHeight };
  }
  // Participant boxes: a titled frame behind the heads and lifelines of the participants declared in it. Members that
  // are not neighbours (moved apart by `order`, or declared out of turn) get one frame per run, as PlantUML draws them,
  // so a box never covers a column outside it.
  const pad = SEQUENCE_SPACING.noteGap;
  const boxFrames: GeneratedElement[] = (graph.sequence?.boxes ?? []).flatMap((group, k) => {
    const member = new Set(group.participants);
    const runs: Column[][] = [];
    columns.forEach((column, i) => {
      if (!member.has(column.node.id)) return;
      if (i > 0 && member.has(columns[i - 1]!.node.id)) runs[runs.length - 1]!.push(column);
      else runs.push([column]);
    });
    return runs.map((inside, r) => {
      const left = Math.min(...inside.map((c) => c.center - c.box.width / 2)) - pad;
      const right = Math.max(...inside.map((c) => c.center + c.box.width / 2)) + pad;
      const top = -pad;
      return {
        id: r === 0 ? `box-${k + 1}` : `box-${k + 1}-${r + 1}`,
        type: 'frame',
        x: round(left),
        y: round(top),
        width: round(right - left),
        height: round(bottom + pad - top),
        name: group.label,
        // A box titles the participants under it, as a container does (PlantUML and Mermaid write it in the text's
        // colour): not the small grey of a fragment's name, which labels a stretch of time.
        fontSize: FONT.containerTitle,
        strokeColor: TEXT_COLOR,
        fillColor: group.fillColor ?? 'transparent',
        strokeStyle: 'solid',
        corner: 'sharp',
      };
    });
  });
  // What lies inside a box belongs to it (the quality checker reads the box as its container, like a fragment frame).
  // A note or frame that starts in the box and reaches past it widens the box, so the box never cuts through it; but
  // a box keeps to its own columns, as PlantUML's does: it stops short of the next box's heads and of the head of a
  // participant outside any box (placeColumns left room there for its members' notes). What reaches further (a
  // fragment across several boxes) is drawn across the box, as PlantUML draws it; so are message labels.
  const spans = boxFrames.map((box) => ({ left: box.x!, right: box.x! + box.width! }));
  const members = new Set(graph.sequence?.boxes?.flatMap((group) => group.participants));
  const unboxed = columns.filter((c) => !members.has(c.node.id)).map((c) => ({ left: c.center - c.box.width / 2 - pad, right: c.center + c.box.width / 2 + pad }));
  for (const [k, box] of boxFrames.entries()) {
    const { left, right } = spans[k]!;
    const others = spans.filter((_, j) => j !== k);
    const leftLimit = Math.max(
      -Infinity,
      ...others.filter((o) => o.right <= left).map((o) => o.right),
      ...unboxed.filter((o) => o.right <= left).map((o) => o.right),
    );
    const rightLimit = Math.min(
      Infinity,
      ...others.filter((o) => o.left >= right).map((o) => o.left),
      ...unboxed.filter((o) => o.left >= right).map((o) => o.left),
    );
    let grownLeft = left;
    let grownRight = right;
    for (const e of elements) {
      if (e.type === 'arrow' || e.type === 'line' || e.type === 'text' || e.x === undefined || e.width === undefined) continue;
      const wantLeft = e.x - pad;
      const wantRight = e.x + e.width + pad;
      if (e.x < right && e.x + e.width > left && wantLeft >= leftLimit && wantRight <= rightLimit) {
        grownLeft = Math.min(grownLeft, wantLeft);
        grownRight = Math.max(grownRight, wantRight);
      }
    }
    box.x = round(grownLeft);
    box.width = round(grownRight - grownLeft);
    const inside = (e: GeneratedElement) =>
      e.x! >= box.x! && e.y! >= box.y! && e.x! + (e.width ?? 0) <= box.x! + box.width! && e.y! + (e.height ?? 0) <= box.y! + box.height!;
    for (const element of [...heads, ...elements]) {
      if (element.type === 'arrow' || element.type === 'line' || element.x === undefined || parents.has(element.id)) continue;
      if (inside(element)) parents.set(element.id, box.id);
    }
  }
  const drawn = [...boxFrames, ...heads, ...barLines, ...elements];
  const all = graph.title ? withDiagramTitle(drawn, graph.title, DIAGRAM_TITLE_ID) : drawn;
  const xs = all.flatMap((e) => (e.x === undefined ? [] : [e.x, e.x + (e.width ?? 0)]));
  const ys = all.flatMap((e) => (e.y === undefined ? [] : [e.y, e.y + (e.height ?? 0)]));
  return { elements: all, parents, warnings, width: Math.max(...xs) - Math.min(...xs), height: Math.max(...ys) - Math.min(...ys) };

  function messageArrow(id: string, step: SequenceMessage, points: { x: number; y: number }[]): GeneratedElement {
    const rounded = points.map((p) => ({ x: round(p.x), y: round(p.y) }));
    const xs = rounded.map((p) => p.x);
    const ys = rounded.map((p) => p.y);
    return {
      id,
      type: 'arrow',
      x: Math.min(...xs),
      y: Math.min(...ys),
      width: round(Math.max(...xs) - Math.min(...xs)),
      height: round(Math.max(...ys) - Math.min(...ys)),
      arrowShape: rounded.length === 2 ? 'straight' : 'multipoint',
      points: rounded,
      strokeColor: LINE_COLOR,
      fillColor: 'transparent',
      strokeStyle: step.dashed ? 'dashed' : 'solid',
      corner: 'sharp',
      startArrowhead: step.startArrowhead,
      endArrowhead: step.endArrowhead,
      ...(step.outside !== 'left' && { startBinding: { elementId: lifelineId(step.from), focus: { x: 0.5, y: 0 } } }),
      ...(step.outside !== 'right' && { endBinding: { elementId: lifelineId(step.to), focus: { x: 0.5, y: 0 } } }),
    };
  }
}

function textElement(id: string, label: { text: string; width: number; height: number }, x: number, top: number): GeneratedElement {
  return {
    id,
    type: 'text',
    x: round(x),
    y: round(top),
    width: label.width,
    height: label.height,
    text: label.text,
    fontSize: FONT.edgeLabel,
    fontFamily: FONT.family,
    strokeColor: TEXT_COLOR,
    fillColor: 'transparent',
    strokeStyle: 'solid',
    corner: 'sharp',
    textAlign: 'left',
  };
}
