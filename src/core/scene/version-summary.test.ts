import { describe, expect, it } from 'vitest';
import { summariseChange } from './version-summary.js';

const el = (id: string, text = id) => ({ id, type: 'rectangle', text });

describe('summariseChange', () => {
  it('counts the elements of a new document', () => {
    expect(summariseChange(null, { name: 'A', elements: [el('a'), el('b')] })).toBe('created with 2 elements');
  });
  it('says what was added, changed, removed and renamed', () => {
    const before = { name: 'Plan', elements: [el('a'), el('b'), el('c')] };
    const after = { name: 'Plan v2', elements: [el('a'), el('b', 'B!'), el('d'), el('e')] };
    expect(summariseChange(before, after)).toBe('2 added, 1 changed, 1 removed, renamed "Plan" → "Plan v2"');
  });
  it('says when nothing changed', () => {
    const same = { name: 'X', elements: [el('a')] };
    expect(summariseChange(same, same)).toBe('no change');
  });
});
