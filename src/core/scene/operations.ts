/**
 * Edits by element: a short list of operations applied to the stored scene, so a client changes three elements by
 * sending three operations instead of reading and resending the whole scene. The result goes through the same intake
 * as any scene (validation, bindings, icons); this step only says what the new element list is and why elements that
 * were not named changed too (a removed shape's title and arrows, a moved container's members).
 */
import { z } from 'zod';
import { AppError } from '../errors.js';
import { LIMITS } from '../limits.js';
import { measureText } from '../layout/measure.js';
import { titleContainer } from './container-title.js';
import { containerOf, dependentsOf } from './structure.js';
import type { Element } from './schema.js';

const elementId = z.string().min(1, 'must not be empty').max(200, 'must be at most 200 characters');
const fields = z.record(z.string(), z.unknown(), { error: 'must be an object of element fields' });

export const operationSchema = z.discriminatedUnion(
  'op',
  [
    z.strictObject({ op: z.literal('add'), element: fields.describe('A new element (native schema); without x/y and with layout "auto" it is placed for you') }),
    z.strictObject({
      op: z.literal('update'),
      id: elementId,
      set: fields.describe('Only the fields to change; null removes a field. Moving a container moves its members; an arrow\'s or container\'s text changes its label or title'),
    }),
    z.strictObject({ op: z.literal('remove'), id: elementId.describe('Removes the element, its title or label, and the arrows bound to it') }),
    z.strictObject({ op: z.literal('move'), id: elementId, parentId: elementId.nullable().describe('The new container, or null to take it out of its container') }),
  ],
  { error: 'must be {op:"add",element}, {op:"update",id,set}, {op:"remove",id} or {op:"move",id,parentId}' },
);
export type Operation = z.infer<typeof operationSchema>;

export const operationsInput = z
  .array(operationSchema)
  .min(1, 'must have at least one operation')
  .max(LIMITS.elementsPerDocument, `must have at most ${LIMITS.elementsPerDocument} operations`)
  .describe('Edits by element, applied in order, all or nothing: add, update (only the fields sent), remove, move into or out of a container');

export interface Touched {
  added: string[];
  updated: string[];
  removed: string[];
}

type Raw = Record<string, unknown> & { id: string; type: string };

const LINEAR = new Set(['arrow', 'line', 'freedraw', 'highlight']);
const GEOMETRY = ['x', 'y'] as const;

/**
 * Applies `operations` to `current` (the stored scene) and returns the elements to store, in input form. A bad
 * operation (unknown id, id taken) throws before anything is written; field values are checked by the intake.
 */
export function applyOperations(current: readonly Element[], operations: readonly Operation[]): { elements: Raw[]; touched: Touched; warnings: string[] } {
  // Untouched elements stay the stored objects (every change below writes a copy), so the intake sees at a glance
  // that they are as stored and skips checking them again.
  const scene = new Map<string, Raw>(current.map((element) => [element.id, element as unknown as Raw]));
  const touched = { added: new Set<string>(), updated: new Set<string>(), removed: new Set<string>() };
  const warnings: string[] = [];
  const fail = (index: number, message: string): never => {
    throw new AppError('validation_failed', `operations[${index}]: ${message}`);
  };
  const existing = (index: number, id: string) => scene.get(id) ?? fail(index, `no element with id "${id}" in this diagram`);
  const list = () => [...scene.values()] as unknown as Element[];

  operations.forEach((operation, index) => {
    switch (operation.op) {
      case 'add': {
        const element = { ...operation.element } as Raw;
        if (typeof element.type !== 'string') fail(index, 'element.type is required');
        if (typeof element.id !== 'string' || element.id === '') element.id = freshId(scene, element.type);
        if (scene.has(element.id)) fail(index, `an element with id "${element.id}" already exists (use op "update" to change it)`);
        scene.set(element.id, element);
        touched.added.add(element.id);
        break;
      }
      case 'update': {
        const element = existing(index, operation.id);
        if ('id' in operation.set && operation.set.id !== operation.id) fail(index, 'set.id: an element\'s id cannot change (remove it and add a new one)');
        const set = { ...operation.set };
        // The text of a container drawn with a standalone title, or of an arrow with a label of its own, is that text.
        const label = set.text !== undefined && element.text === undefined ? list().find((e) => e.type === 'text' && e.labelOf === element.id) : undefined;
        if (label !== undefined) {
          scene.set(label.id, relettered(scene.get(label.id) as Raw, String(set.text)));
          touched.updated.add(label.id);
          delete set.text;
        }
        const dx = typeof set.x === 'number' && typeof element.x === 'number' ? set.x - element.x : 0;
        const dy = typeof set.y === 'number' && typeof element.y === 'number' ? set.y - element.y : 0;
        const next: Raw = { ...element };
        for (const [key, value] of Object.entries(set)) {
          if (value === null) delete next[key];
          else next[key] = value;
        }
        // Derived from what changed, so a resent stamped icon box or a point list of a moved shape is recomputed.
        if (!LINEAR.has(element.type)) delete next.icon;
        if (typeof set.text === 'string' && set.width === undefined) widenToFit(next);
        scene.set(element.id, next);
        touched.updated.add(element.id);
        if ((dx !== 0 || dy !== 0) && !LINEAR.has(element.type)) moveDependents(scene, element.id, dx, dy, touched.updated);
        break;
      }
      case 'remove': {
        const element = existing(index, operation.id);
        const { labels } = dependentsOf(list(), element.id);
        const doomed = new Set([element.id, ...labels]);
        // Members of a removed container stay, one level up: removing a box never deletes what it held.
        const up = containerOf(element as { id: string; type: string; parentId?: string; frameId?: string });
        for (const member of list().filter((e) => containerOf(e) === element.id)) {
          const moved = { ...(scene.get(member.id) as Raw) };
          delete moved.parentId;
          delete moved.frameId;
          if (up !== undefined) moved[element.parentId !== undefined ? 'parentId' : 'frameId'] = up;
          scene.set(member.id, moved);
          touched.updated.add(member.id);
        }
        const arrows = list().filter(
          (e) => e.type === 'arrow' && (doomed.has(e.startBinding?.elementId ?? '') || doomed.has(e.endBinding?.elementId ?? '')),
        );
        for (const arrow of arrows) {
          doomed.add(arrow.id);
          for (const label of dependentsOf(list(), arrow.id).labels) doomed.add(label);
        }
        if (arrows.length > 0) warnings.push(`operations[${index}]: removing "${element.id}" removed the arrow${arrows.length > 1 ? 's' : ''} bound to it: ${arrows.map((a) => `"${a.id}"`).join(', ')}`);
        for (const id of doomed) {
          scene.delete(id);
          touched.removed.add(id);
          touched.added.delete(id);
          touched.updated.delete(id);
        }
        break;
      }
      case 'move': {
        const element = existing(index, operation.id);
        const target = operation.parentId === null ? undefined : existing(index, operation.parentId);
        if (target !== undefined && (LINEAR.has(target.type) || target.id === element.id || dependentsOf(list(), element.id).members.has(target.id))) {
          fail(index, `"${target.id}" cannot hold "${element.id}" (a container must be a box that is not inside it)`);
        }
        const next = { ...element };
        delete next.parentId;
        delete next.frameId;
        if (target !== undefined) next[target.type === 'frame' ? 'frameId' : 'parentId'] = target.id;
        // Placed anew inside its container by incremental layout, unless it already lies inside it.
        if (target !== undefined && !LINEAR.has(element.type) && !insideBox(element, target)) for (const key of GEOMETRY) delete next[key];
        scene.set(element.id, next);
        touched.updated.add(element.id);
        break;
      }
    }
  });
  // A container added with its place and its text: the text is its title, at its top as layout draws it. (One added
  // without a place gets its title where it is placed: by layout, or inside its container in place-inside.ts.)
  const holders = new Set(touched.added.size > 0 ? list().map(containerOf) : []);
  for (const id of [...touched.added]) {
    if (!holders.has(id) || typeof scene.get(id)!.text !== 'string') continue;
    const title = titleContainer(list() as unknown as Raw[], scene.get(id)!);
    if (title === undefined) continue;
    scene.set(title.id, title as Raw);
    touched.added.add(title.id);
  }
  rerouteAcross(scene, new Set([...touched.added, ...touched.updated]), touched.updated);
  return {
    elements: [...scene.values()],
    touched: { added: [...touched.added], updated: [...touched.updated].filter((id) => !touched.added.has(id)), removed: [...touched.removed] },
    warnings,
  };
}

/** Room a label needs beside it in its shape; round and slanted outlines hold less of their box. */
const TEXT_PADDING = 40;
const ROUND_SHAPES = new Set(['ellipse', 'diamond', 'cloud', 'hexagon', 'parallelogram', 'trapezoid']);

/** A renamed shape grows to its new label (rightwards), as an editor's auto-sizing box does; it never shrinks. */
function widenToFit(shape: Raw): void {
  if (LINEAR.has(shape.type) || shape.type === 'text' || typeof shape.width !== 'number') return;
  const family = shape.fontFamily === 'code' || shape.fontFamily === 'hand' ? shape.fontFamily : 'normal';
  const text = measureText(String(shape.text), Number(shape.fontSize ?? 20), family);
  const needed = Math.ceil((text.width + TEXT_PADDING) * (ROUND_SHAPES.has(shape.type) ? 1.45 : 1));
  if (needed > shape.width) shape.width = needed;
}

/** A standalone label or title with a new text, sized to it; a centred label (an arrow's) keeps its centre. */
function relettered(label: Raw, text: string): Raw {
  const size = measureText(text, Number(label.fontSize ?? 20), String(label.fontFamily ?? 'hand'));
  const x = label.textAlign === 'left' || typeof label.x !== 'number' ? label.x : label.x + (Number(label.width ?? size.width) - size.width) / 2;
  return { ...label, text, x, width: size.width, height: size.height };
}

type Point = { x: number; y: number };

/** Whether segment a–b enters the box (shrunk by 1 px, so a route along an edge does not count): Liang–Barsky. */
function segmentEnters(a: Point, b: Point, box: { x: number; y: number; width: number; height: number }): boolean {
  const [x0, y0, x1, y1] = [box.x + 1, box.y + 1, box.x + box.width - 1, box.y + box.height - 1];
  let t0 = 0;
  let t1 = 1;
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  for (const [p, q] of [[-dx, a.x - x0], [dx, x1 - a.x], [-dy, a.y - y0], [dy, y1 - a.y]] as const) {
    if (p === 0) {
      if (q < 0) return false;
      continue;
    }
    const t = q / p;
    if (p < 0) t0 = Math.max(t0, t);
    else t1 = Math.min(t1, t);
    if (t0 > t1) return false;
  }
  return true;
}

/**
 * A shape an edit added, moved or widened may now lie across an arrow that kept its route: such an arrow (bound at
 * both ends) is routed again around the shapes, the rest keep theirs.
 */
function rerouteAcross(scene: Map<string, Raw>, changed: Set<string>, updated: Set<string>): void {
  const boxes = [...changed].map((id) => scene.get(id)).filter((e): e is Raw => e !== undefined && !LINEAR.has(e.type) && e.type !== 'text' && typeof e.x === 'number');
  if (boxes.length === 0) return;
  for (const arrow of scene.values()) {
    const points = arrow.points as Point[] | undefined;
    const ends = [arrow.startBinding, arrow.endBinding].map((b) => (b as { elementId?: string } | undefined)?.elementId);
    if (arrow.type !== 'arrow' || points === undefined || ends.includes(undefined) || arrow.arrowShape === 'smart') continue;
    const crossed = boxes.some((box) => !ends.includes(box.id) && points.slice(1).some((p, i) => segmentEnters(points[i]!, p, box as never)));
    if (!crossed) continue;
    const rerouted: Raw = { ...arrow, arrowShape: 'smart' };
    for (const key of ['points', 'x', 'y', 'width', 'height']) delete rerouted[key];
    scene.set(arrow.id, rerouted);
    updated.add(arrow.id);
  }
}

function freshId(scene: ReadonlyMap<string, unknown>, type: string): string {
  let n = 1;
  while (scene.has(`${type}-${n}`)) n++;
  return `${type}-${n}`;
}

const insideBox = (inner: Record<string, unknown>, outer: Record<string, unknown>) => {
  const [x, y, w, h] = [inner.x, inner.y, inner.width, inner.height].map(Number) as [number, number, number, number];
  const [ox, oy, ow, oh] = [outer.x, outer.y, outer.width, outer.height].map(Number) as [number, number, number, number];
  return x >= ox && y >= oy && x + w <= ox + ow && y + h <= oy + oh;
};

/**
 * A container moves with what it holds and what labels it: members and titles move by the same offset, arrows between
 * two moved elements keep their shape, and an arrow with one moved end is routed again around the shapes.
 */
function moveDependents(scene: Map<string, Raw>, id: string, dx: number, dy: number, updated: Set<string>): void {
  const all = [...scene.values()] as unknown as Element[];
  const { members, labels } = dependentsOf(all, id);
  const moved = new Set([id, ...members]);
  for (const other of [...members, ...labels]) {
    const element = scene.get(other)!;
    if (LINEAR.has(element.type)) continue;
    scene.set(other, { ...element, x: Number(element.x) + dx, y: Number(element.y) + dy });
    updated.add(other);
  }
  for (const arrow of all) {
    if (arrow.type !== 'arrow') continue;
    const start = moved.has(arrow.startBinding?.elementId ?? '');
    const end = moved.has(arrow.endBinding?.elementId ?? '');
    if (!start && !end) continue;
    const next = { ...(scene.get(arrow.id) as Raw) };
    if (start && end) next.points = arrow.points.map((p) => ({ x: p.x + dx, y: p.y + dy }));
    else if (arrow.startBinding && arrow.endBinding && arrow.points.length > 2) {
      for (const key of ['points', 'x', 'y', 'width', 'height']) delete next[key];
      next.arrowShape = 'smart';
    }
    scene.set(arrow.id, next);
    updated.add(arrow.id);
    for (const label of dependentsOf(all, arrow.id).labels) {
      if (!start || !end) continue;
      const text = scene.get(label)!;
      scene.set(label, { ...text, x: Number(text.x) + dx, y: Number(text.y) + dy });
      updated.add(label);
    }
  }
}
