/**
 * A whole scene sent back with the ids its sender changed (the canvas editor knows them), turned into edits by
 * element: only the named elements are written, every other one stays as stored, byte for byte, and the version
 * history counts exactly what changed.
 */
import { applyOperations, type Operation } from './operations.js';
import type { Element } from './schema.js';

/** Stamped on the way in from each element's iconRef or label: never part of an edit. */
const DERIVED = new Set(['icon', 'labelPlacement']);

type Fields = Record<string, unknown> & { id: string; type: string };

/**
 * The operations on the elements `changed` names that turn `previous` into `next`, or undefined when they cannot say it
 * exactly (an element changed but not named; an operation's own rules — a moved container carrying members along, a
 * removed shape taking its arrows — reaching further): the caller then writes the whole scene.
 */
export function operationsFor(previous: readonly Element[], next: readonly Element[], changed: ReadonlySet<string>): Operation[] | undefined {
  const before = new Map(previous.map((e) => [e.id, e as unknown as Fields]));
  const after = new Map(next.map((e) => [e.id, e as unknown as Fields]));
  const updates: Array<{ depth: number; op: Operation }> = [];
  const adds: Operation[] = [];
  const removes: Operation[] = [];
  for (const id of changed) {
    const old = before.get(id);
    const now = after.get(id);
    if (old && now) {
      const set: Record<string, unknown> = {};
      for (const key of new Set([...Object.keys(old), ...Object.keys(now)])) {
        if (DERIVED.has(key) || same(old[key], now[key])) continue;
        set[key] = now[key] ?? null;
      }
      if (Object.keys(set).length === 0) continue;
      // A new text without a width is widened to fit by the update; the editor's width is the one drawn.
      if ('text' in set && now.width !== undefined) set.width = now.width;
      updates.push({ depth: depthOf(now, after), op: { op: 'update', id, set } });
    } else if (now) adds.push({ op: 'add', element: now });
    else if (old) removes.push({ op: 'remove', id });
  }
  // Containers before their members, so a member's own position is the last word; arrows are unbound before a shape
  // they left is removed.
  const operations = [...updates.sort((a, b) => a.depth - b.depth).map((u) => u.op), ...adds, ...removes];
  if (operations.length === 0) return undefined;
  let result: Fields[];
  try {
    result = applyOperations(previous, operations).elements;
  } catch {
    return undefined;
  }
  if (result.length !== next.length) return undefined;
  // The edits must give exactly the scene sent: a change the sender did not name is not lost, it makes a whole write.
  for (const element of result) {
    const expected = after.get(element.id);
    if (!expected || !sameFields(element, expected)) return undefined;
  }
  return operations;
}

const same = (a: unknown, b: unknown) => a === b || JSON.stringify(a) === JSON.stringify(b);

function sameFields(a: Fields, b: Fields): boolean {
  for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) if (!DERIVED.has(key) && !same(a[key], b[key])) return false;
  return true;
}

function depthOf(element: Fields, scene: ReadonlyMap<string, Fields>): number {
  let depth = 0;
  for (let at: Fields | undefined = element; at && depth < 100; depth++) at = scene.get(String(at.parentId ?? at.frameId ?? ''));
  return depth;
}
