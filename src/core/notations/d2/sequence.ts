/**
 * A compiled D2 `shape: sequence_diagram` at the root → the steps of our sequence layout (`GraphIR.sequence`).
 * D2 compiles it into plain shapes and connections placed by its own sequence layout, so the order is read from
 * where D2 put things: actors are the shapes whose lifeline D2 drew (`alice -> alice-lifeline-end-…`, in their left
 * to right order), messages go top to bottom by the height of their first point, a group (a container of messages,
 * `shower thoughts: { alice -> bob }`) is a named frame around what lies within its height, an actor's child that
 * messages reach (`bob.t`) is a span (an activation bar over its height), and one no message reaches is a note.
 */
import type { Arrowhead } from '../../graph/types.js';
import type { SequenceFragment, SequenceStep } from '../../layout/sequence.js';

export interface SequenceShape {
  id: string;
  label: string;
  pos?: { x: number; y: number };
  height?: number;
}
export interface SequenceConnection {
  src: string;
  dst: string;
  label: string;
  strokeDash?: number;
  srcArrow: string;
  dstArrow: string;
  route?: Array<{ x: number; y: number }> | null;
}

/** D2's own connection from an actor to the end of its lifeline (a generated id with a hash). */
const LIFELINE = /-lifeline-end-\d+$/;

export function isLifeline(connection: SequenceConnection): boolean {
  return LIFELINE.test(connection.dst);
}

/** The actors of a sequence diagram, left to right: the shapes D2 drew a lifeline under. */
export function sequenceActors<S extends SequenceShape>(shapes: readonly S[], connections: readonly SequenceConnection[]): S[] {
  const withLifeline = new Set(connections.filter(isLifeline).map((c) => c.src));
  return shapes.filter((shape) => withLifeline.has(shape.id)).sort((a, b) => (a.pos?.x ?? 0) - (b.pos?.x ?? 0));
}

type Event =
  | { y: number; order: number; step: SequenceStep }
  | { y: number; order: number; open: SequenceFragment; id: string }
  | { y: number; order: number; close: string };

/**
 * The steps in D2's order. `keysOf` splits an id into its keys; `headOf` maps D2's arrowheads to ours. Events at the
 * same height: frames open first, then bars start, then messages and notes in the order written, then bars end and
 * frames close (the innermost first).
 */
export function sequenceSteps(
  shapes: readonly SequenceShape[],
  connections: readonly SequenceConnection[],
  keysOf: (id: string) => string[],
  headOf: (arrow: string) => Arrowhead,
): SequenceStep[] {
  const actors = new Set(sequenceActors(shapes, connections).map((a) => a.id));
  // Actors sit at the top level: `bob.t` is a span or note of bob.
  const actorOf = (id: string) => {
    const first = keysOf(id)[0];
    return first !== undefined && actors.has(first) ? first : undefined;
  };
  const reached = new Set(connections.filter((c) => !isLifeline(c)).flatMap((c) => [c.src, c.dst]));
  const events: Event[] = [];
  connections.forEach((c, index) => {
    if (isLifeline(c)) return;
    const from = actorOf(c.src);
    const to = actorOf(c.dst);
    if (!from || !to) return;
    const [start, end] = [headOf(c.srcArrow), headOf(c.dstArrow)];
    // `a <- b` compiles as a → b with its head at a: a message from b to a.
    const backwards = start !== 'none' && end === 'none';
    const step: SequenceStep = backwards
      ? { type: 'message', from: to, to: from, dashed: (c.strokeDash ?? 0) > 0, startArrowhead: end, endArrowhead: start }
      : { type: 'message', from, to, dashed: (c.strokeDash ?? 0) > 0, startArrowhead: start, endArrowhead: end };
    if (c.label) step.label = c.label;
    events.push({ y: c.route?.[0]?.y ?? 0, order: 2 + index / connections.length, step });
  });
  for (const shape of shapes) {
    if (actors.has(shape.id)) continue;
    const top = shape.pos?.y ?? 0;
    const bottom = top + (shape.height ?? 0);
    const actor = actorOf(shape.id);
    if (actor && reached.has(shape.id)) {
      events.push({ y: top, order: 1, step: { type: 'activate', participant: actor } });
      events.push({ y: bottom, order: 3, step: { type: 'deactivate', participant: actor } });
    } else if (actor) {
      if (shape.label) events.push({ y: top, order: 2, step: { type: 'note', position: 'over', participants: [actor], text: shape.label, shape: 'document' } });
    } else {
      events.push({ y: top, order: 0, open: { type: 'fragment', kind: shape.label, sections: [{ label: '', steps: [] }] }, id: shape.id });
      // The innermost frame (the one opened last) closes first.
      events.push({ y: bottom, order: 4 - top / 1e9, close: shape.id });
    }
  }
  events.sort((a, b) => a.y - b.y || a.order - b.order);
  const root: SequenceStep[] = [];
  const open: Array<{ id: string; fragment: SequenceFragment }> = [];
  const target = () => open.at(-1)?.fragment.sections[0]!.steps ?? root;
  for (const event of events) {
    if ('step' in event) target().push(event.step);
    else if ('open' in event) {
      target().push(event.open);
      open.push({ id: event.id, fragment: event.open });
    } else {
      const at = open.findIndex((o) => o.id === event.close);
      if (at >= 0) open.length = at;
    }
  }
  return root;
}
