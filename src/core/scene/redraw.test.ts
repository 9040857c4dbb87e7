import { describe, expect, it } from 'vitest';
import { carryOver } from './redraw.js';
import type { Element } from './schema.js';

const shape = (id: string, x: number, y: number, more: Record<string, unknown> = {}) =>
  ({ id, type: 'rectangle', x, y, width: 100, height: 50, strokeColor: '#1e1e1e', fillColor: '#ffffff', ...more }) as unknown as Element;

describe('carrying hand changes onto a redraw', () => {
  it('moves what the code puts inside a moved container with it, and leaves the untouched where the layout puts them', () => {
    const before = [shape('vpc', 0, 0, { width: 300, height: 200 }), shape('api', 20, 20, { parentId: 'vpc' }), shape('user', 400, 0)];
    const stored = [shape('vpc', 50, 100, { width: 300, height: 200 }), shape('api', 70, 120, { parentId: 'vpc' }), shape('user', 400, 0)];
    const after = [shape('vpc', 0, 0, { width: 300, height: 300 }), shape('api', 20, 20, { parentId: 'vpc' }), shape('cache', 20, 120, { parentId: 'vpc' }), shape('user', 450, 0)];
    const { elements, warnings } = carryOver(stored, before, after);
    const at = (id: string) => elements.find((e) => e.id === id)!;
    expect([at('vpc').x, at('vpc').y, at('vpc').height]).toEqual([50, 100, 300]);
    expect([at('api').x, at('api').y]).toEqual([70, 120]);
    expect([at('cache').x, at('cache').y]).toEqual([70, 220]);
    expect([at('user').x, at('user').y]).toEqual([450, 0]);
    expect(warnings).toEqual(['redraw kept your changes to: vpc (moved), api (moved)']);
  });

  it('lets the code win a field it changes too, replaces a label edited by hand, and draws again what was removed by hand', () => {
    const before = [shape('a', 0, 0, { fillColor: '#ffffff', text: 'A' }), shape('b', 200, 0)];
    const stored = [shape('a', 0, 0, { fillColor: '#ffc9c9', text: 'Mine' })];
    const after = [shape('a', 0, 0, { fillColor: '#a5d8ff', text: 'A' }), shape('b', 200, 0)];
    const { elements, warnings } = carryOver(stored, before, after);
    expect(elements.find((e) => e.id === 'a')).toMatchObject({ fillColor: '#a5d8ff', text: 'A' });
    expect(warnings).toEqual([
      'redraw dropped your changes to: a (fillColor; the new code sets it), a (text edited by hand; the code\'s text is drawn)',
      'redraw drew again elements you had removed, since the code still has them: b',
    ]);
  });

  it('keeps nothing it cannot tell apart when the previous code no longer draws, and says so', () => {
    const after = [shape('a', 0, 0)];
    const { elements, warnings } = carryOver([shape('a', 90, 90), shape('note', 0, 0)], undefined, after);
    expect(elements).toEqual(after);
    expect(warnings[0]).toMatch(/previous code could not be drawn again/);
  });
});
