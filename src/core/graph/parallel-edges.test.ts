import { describe, expect, it } from 'vitest';
import { mergeParallelEdges } from './parallel-edges.js';

describe('parallel transitions', () => {
  it('draws transitions from one state to the same other state as one arrow listing their triggers', () => {
    // An auth token's two ways from Authenticated back to Verified, and its one way there.
    const merged = mergeParallelEdges([
      { id: 'e1', from: 'Authenticated', to: 'Verified', label: 'POST /auth/logout' },
      { id: 'e2', from: 'Verified', to: 'Authenticated', label: 'POST /auth/login' },
      { id: 'e3', from: 'Authenticated', to: 'Verified', label: 'password or role changed' },
      { id: 'e4', from: 'Authenticated', to: 'Verified', label: 'POST /auth/logout' },
    ]);
    expect(merged.map((edge) => [edge.from, edge.to, edge.label])).toEqual([
      ['Authenticated', 'Verified', 'POST /auth/logout\npassword or role changed'],
      ['Verified', 'Authenticated', 'POST /auth/login'],
    ]);
  });

  it('keeps apart arrows that differ in more than their label, and leaves its input as it was', () => {
    const edges = [
      { id: 'e1', from: 'a', to: 'b', label: 'x' },
      { id: 'e2', from: 'a', to: 'b', label: 'y', style: { strokeStyle: 'dashed' as const } },
      { id: 'e3', from: 'a', to: 'b', label: 'z', endLabel: '1' },
    ];
    expect(mergeParallelEdges(edges)).toEqual(edges);
    mergeParallelEdges([...edges, { id: 'e4', from: 'a', to: 'b', label: 'w' }]);
    expect(edges[0]!.label).toBe('x');
  });
});
