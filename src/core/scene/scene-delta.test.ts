import { describe, expect, it } from 'vitest';
import { operationsFor } from './scene-delta.js';
import type { Element } from './schema.js';
import { validateElements } from './validate.js';

const scene = (raw: unknown[]) => validateElements(raw).elements;
const box = (id: string, x: number, extra: Record<string, unknown> = {}) => ({ id, type: 'rectangle', x, y: 0, width: 120, height: 60, text: id, ...extra });

describe('operationsFor: a whole scene and the ids changed, as edits by element', () => {
  const before = scene([box('a', 0), box('b', 200), { id: 'ab', type: 'arrow', startBinding: { elementId: 'a' }, endBinding: { elementId: 'b' } }]);

  it('updates only the fields that changed, keeping the width drawn when the text changes', () => {
    const after = before.map((e) => (e.id === 'a' ? { ...e, text: 'A much longer label than before' } : e)) as Element[];
    expect(operationsFor(before, after, new Set(['a']))).toEqual([{ op: 'update', id: 'a', set: { text: 'A much longer label than before', width: 120 } }]);
  });

  it('adds and removes what was named, and nothing for a named element that did not change', () => {
    const after = [...before.filter((e) => e.id !== 'ab'), ...scene([box('c', 400)])];
    expect(operationsFor(before, after, new Set(['ab', 'c', 'b']))).toEqual([{ op: 'add', element: after.at(-1) }, { op: 'remove', id: 'ab' }]);
  });

  it('declines (the whole scene is written) when the edits would reach an element not named', () => {
    // Removing "b" removes the arrow bound to it, which the canvas kept.
    const after = before.filter((e) => e.id !== 'b');
    expect(operationsFor(before, after, new Set(['b']))).toBeUndefined();
    // An element changed but not named: edits by element would leave it as it was.
    const moved = before.map((e) => (e.id === 'a' || e.id === 'b' ? { ...e, y: 40 } : e)) as Element[];
    expect(operationsFor(before, moved, new Set(['a']))).toBeUndefined();
    expect(operationsFor(before, before, new Set(['a']))).toBeUndefined();
  });
});
