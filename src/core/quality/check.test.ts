import { describe, expect, it } from 'vitest';
import { checkScene, countCrossings, segmentCrossesBox } from './check.js';

const box = (id: string, x: number, y: number, width = 100, height = 50, extra: Record<string, unknown> = {}) => ({ id, type: 'rectangle', x, y, width, height, ...extra });
const arrow = (id: string, from: string, to: string, points: Array<{ x: number; y: number }>, focus = [{ x: 1, y: 0.5 }, { x: 0, y: 0.5 }]) => ({
  id,
  type: 'arrow',
  points,
  startBinding: { elementId: from, focus: focus[0] },
  endBinding: { elementId: to, focus: focus[1] },
});

describe('checkScene', () => {
  const a = box('a', 0, 0);
  const b = box('b', 300, 0);

  it('passes a clean drawing and counts its nodes and edges', () => {
    const report = checkScene([a, b, arrow('ab', 'a', 'b', [{ x: 100, y: 25 }, { x: 300, y: 25 }])]);
    expect(report).toEqual({ violations: [], nodes: 2, edges: 1, crossings: 0, textCrossings: 0, width: 400, height: 50 });
  });

  it('counts arrows through free text (a title, a label), not through the label inside a shape', () => {
    const text = (id: string, x: number, y: number) => ({ id, type: 'text', x, y, width: 40, height: 20, text: 'ab', fontSize: 14, fontFamily: 'normal' });
    const ab = arrow('ab', 'a', 'b', [{ x: 100, y: 25 }, { x: 300, y: 25 }]);
    expect(checkScene([a, b, ab, text('title', 180, 15)]).textCrossings).toBe(1);
    expect(checkScene([a, b, ab, text('beside', 180, 40)]).textCrossings).toBe(0);
    expect(checkScene([box('wide', 0, 0, 400, 50), b, arrow('in', 'wide', 'b', [{ x: 20, y: 25 }, { x: 300, y: 25 }]), text('inside', 180, 15)]).textCrossings).toBe(0);
  });

  it('reports arrowheads piled a few pixels apart on one shape, not ones sharing a point', () => {
    const hub = box('hub', 300, 0, 100, 100);
    const into = (id: string, y: number) => ({ ...arrow(id, `s${id}`, 'hub', [{ x: 100, y }, { x: 300, y }]), endArrowhead: 'arrow' });
    const sources = ['1', '2', '3'].map((id, i) => box(`s${id}`, 0, i * 60));
    const fanned = checkScene([hub, ...sources, into('1', 45), into('2', 50), into('3', 55)]);
    expect(fanned.violations).toContain('arrowheads at 3 places a few pixels apart crowd "hub" (under 8 px)');
    const merged = checkScene([hub, ...sources, into('1', 50), into('2', 50), into('3', 50)]);
    expect(merged.violations.filter((v) => v.includes('crowd'))).toEqual([]);
  });

  it('reports overlapping shapes, but not a container around its child', () => {
    const group = box('g', -20, -20, 500, 200);
    const report = checkScene([group, a, box('c', 50, 10)], new Map([['a', 'g'], ['c', 'g']]));
    expect(report.violations).toEqual(['shapes "a" and "c" overlap']);
  });

  it('takes a ring round its dot, grouped as one mark (a final state), for one shape, not two overlapping', () => {
    const ring = box('end', 0, 0, 36, 36, { type: 'ellipse', groupIds: ['end-mark'] });
    const dot = box('end-dot', 7, 7, 22, 22, { type: 'ellipse', groupIds: ['end-mark'] });
    expect(checkScene([ring, dot]).violations).toEqual([]);
    expect(checkScene([ring, box('end-dot', 7, 7, 22, 22, { type: 'ellipse' })]).violations).toEqual(['shapes "end" and "end-dot" overlap']);
    expect(checkScene([ring, { ...dot, x: 20 }]).violations).toEqual(['shapes "end" and "end-dot" overlap']);
  });

  it('reports a container that does not contain its child', () => {
    const report = checkScene([box('g', 0, 0, 80, 40), box('x', 500, 500)], new Map([['x', 'g']]));
    expect(report.violations).toContain('container "g" does not contain its child "x"');
  });

  it('reports an arrow passing through a shape it is not bound to', () => {
    const report = checkScene([a, b, box('mid', 150, 0), arrow('ab', 'a', 'b', [{ x: 100, y: 25 }, { x: 300, y: 25 }])]);
    expect(report.violations).toEqual(['arrow "ab" passes through "mid", which it is not bound to']);
  });

  it('lets an arrow pass a shape with no outline, fill or text, which no reader sees, but not one with a label', () => {
    const ab = arrow('ab', 'a', 'b', [{ x: 100, y: 25 }, { x: 300, y: 25 }]);
    // A blank cell of a D2 grid (`stroke-width: 0`, transparent fill) between the cells an edge joins.
    const blank = box('blank', 150, 0, 100, 50, { strokeColor: '#00000000', fillColor: 'transparent' });
    expect(checkScene([a, b, blank, ab]).violations).toEqual([]);
    const unstroked = box('blank', 150, 0, 100, 50, { strokeWidth: 0, strokeColor: '#000000' });
    expect(checkScene([a, b, unstroked, ab]).violations).toEqual([]);
    const label = { id: 'blank-label', type: 'text', x: 160, y: 15, width: 40, height: 20, text: 'n', fontSize: 14, fontFamily: 'normal', containerId: 'blank' };
    expect(checkScene([a, b, blank, label, ab]).violations).toEqual(['arrow "ab" passes through "blank", which it is not bound to']);
    const filled = box('blank', 150, 0, 100, 50, { strokeColor: '#00000000', fillColor: '#dfeffa' });
    expect(checkScene([a, b, filled, ab]).violations).toEqual(['arrow "ab" passes through "blank", which it is not bound to']);
  });

  it('reports an arrow running along a border it does not pass through: it reads as an edge into that node', () => {
    const report = checkScene([a, b, box('below', 150, 25), arrow('ab', 'a', 'b', [{ x: 100, y: 25 }, { x: 300, y: 25 }])]);
    expect(report.violations).toEqual(['arrow "ab" passes 0.0 px from "below", which it does not touch']);
  });

  it('reports arrow ends that are unbound or not where their binding says', () => {
    const loose = { id: 'loose', type: 'arrow', points: [{ x: 0, y: 0 }, { x: 10, y: 0 }] };
    const off = arrow('off', 'a', 'b', [{ x: 100, y: 40 }, { x: 300, y: 25 }]);
    const report = checkScene([a, b, loose, off]);
    expect(report.violations).toEqual([
      'arrow "loose": its start is not bound to a shape',
      'arrow "loose": its end is not bound to a shape',
      'arrow "loose" passes 0.0 px from "a", which it does not touch',
      'arrow "off": its start point is not where its binding to "a" says',
    ]);
  });

  it('reports a label that does not fit its shape, and a free text over a shape', () => {
    const label = { id: 't', type: 'text', x: 280, y: 10, width: 200, height: 20, text: 'edge label', fontSize: 14, fontFamily: 'normal' };
    const report = checkScene([box('small', 0, 0, 60, 40, { text: 'a label far too long for this box', fontSize: 16, fontFamily: 'normal' }), label, b]);
    expect(report.violations).toEqual([
      'label of "small" (231.11×20) does not fit its rectangle (60×40)',
      'text "t" overlaps shape "b"',
    ]);
  });

  it('reports a label whose text (its stroke colour) has contrast below 3:1 on its fill', () => {
    const label = { text: 'x', fontSize: 16, fontFamily: 'normal' };
    const report = checkScene([
      box('white', 0, 0, 100, 50, { ...label, strokeColor: '#ffffff', fillColor: '#ffffff' }),
      box('pale', 200, 0, 100, 50, { ...label, strokeColor: '#f08c00', fillColor: 'transparent' }),
      box('fine', 400, 0, 100, 50, { ...label, strokeColor: '#1e1e1e', fillColor: '#fff9db' }),
      // Unlabelled shapes are only borders: a dark stroke on a dark fill is fine.
      box('dot', 600, 0, 20, 20, { strokeColor: '#1e1e1e', fillColor: '#343a40' }),
    ]);
    expect(report.violations).toEqual([
      'label of "white" has text/fill contrast 1.00:1, below 3:1',
      'label of "pale" has text/fill contrast 2.48:1, below 3:1',
    ]);
  });

  it("reads a person's label against the paper it sits on under the figure, not against the figure's fill", () => {
    const label = { text: 'Customer', fontSize: 16, fontFamily: 'normal', strokeColor: '#ff0000', fillColor: '#808080' };
    const report = checkScene([box('figure', 0, 0, 160, 120, { ...label, type: 'person' }), box('card', 300, 0, 160, 120, label)]);
    expect(report.violations).toEqual(['label of "card" has text/fill contrast 1.01:1, below 3:1']);
  });

  it('reports text drawn on a shape (a table’s header or rows) that does not read on its fill', () => {
    const text = (id: string, x: number, strokeColor: string) => ({ id, type: 'text', x, y: 10, width: 40, height: 20, text: 'ab', fontSize: 14, fontFamily: 'normal', strokeColor });
    const report = checkScene([
      box('black', 0, 0, 100, 50, { fillColor: '#000000' }),
      text('dark-rows', 10, '#1e1e1e'),
      box('white', 200, 0, 100, 50, { fillColor: '#000000' }),
      text('light-rows', 210, '#ffffff'),
    ]);
    expect(report.violations).toEqual(['text "dark-rows" on "black" has text/fill contrast 1.26:1, below 3:1']);
  });

  it('counts proper crossings between different arrows only', () => {
    expect(
      countCrossings([
        [{ x: 0, y: 5 }, { x: 10, y: 5 }],
        [{ x: 5, y: 0 }, { x: 5, y: 10 }],
        // Touching at an end is not a crossing.
        [{ x: 10, y: 5 }, { x: 10, y: 20 }],
      ]),
    ).toBe(1);
    expect(segmentCrossesBox({ x: 0, y: 0 }, { x: 10, y: 10 }, { x: 4, y: 4, width: 4, height: 4 })).toBe(true);
    expect(segmentCrossesBox({ x: 0, y: 0 }, { x: 10, y: 0 }, { x: 4, y: 1, width: 2, height: 2 })).toBe(false);
  });
});

describe('checkScene, what a reader misreads', () => {
  const a = box('a', 0, 0);
  const b = box('b', 300, 0);
  const c = box('c', 0, 200);
  const d = box('d', 300, 200);

  it('reports two edges of different ends running together, not two sharing a target', () => {
    const ab = arrow('ab', 'a', 'b', [{ x: 100, y: 25 }, { x: 200, y: 25 }, { x: 200, y: 225 }, { x: 300, y: 225 }], [{ x: 1, y: 0.5 }, { x: 0, y: 4.5 }]);
    const cd = arrow('cd', 'c', 'd', [{ x: 100, y: 225 }, { x: 300, y: 225 }]);
    expect(checkScene([a, b, c, d, ab, cd]).violations).toContain('arrows "ab" and "cd" run together for 100 px without sharing an end');
    const cb = arrow('cb', 'c', 'b', [{ x: 100, y: 225 }, { x: 200, y: 225 }, { x: 200, y: 25 }, { x: 300, y: 25 }], [{ x: 1, y: 0.5 }, { x: 0, y: 0.5 }]);
    const ab2 = arrow('ab2', 'a', 'b', [{ x: 100, y: 25 }, { x: 300, y: 25 }]);
    expect(checkScene([a, b, c, ab2, cb]).violations.filter((v) => v.includes('run together'))).toEqual([]);
  });

  it('reports an edge grazing a node it does not touch, and an end off its outline', () => {
    const graze = arrow('ad', 'a', 'd', [{ x: 50, y: 50 }, { x: 50, y: 100 }, { x: 350, y: 100 }, { x: 350, y: 200 }], [{ x: 0.5, y: 1 }, { x: 0.5, y: 0 }]);
    const mid = box('mid', 150, 102, 100, 50);
    expect(checkScene([a, d, mid, graze]).violations).toContain('arrow "ad" passes 2.0 px from "mid", which it does not touch');
    const short = arrow('ab', 'a', 'b', [{ x: 100, y: 25 }, { x: 290, y: 25 }], [{ x: 1, y: 0.5 }, { x: -0.1, y: 0.5 }]);
    expect(checkScene([a, b, short]).violations).toContain('arrow "ab": its end is 10.0 px off the outline of "b"');
  });

  it('reports free texts on top of each other', () => {
    const text = (id: string, x: number) => ({ id, type: 'text', x, y: 100, width: 40, height: 20, text: 'ab', fontSize: 14, fontFamily: 'normal' });
    expect(checkScene([a, text('t1', 150), text('t2', 170)]).violations).toContain('texts "t1" and "t2" overlap');
  });

  it('at a README’s width: small text and a long strip fail, unless the direction was the author’s', () => {
    const row = Array.from({ length: 13 }, (_, i) => box(`n${i}`, i * 200, 0, 100, 50, { text: 'x', fontSize: 16, fontFamily: 'normal' }));
    const report = checkScene(row);
    expect(report.violations).toContain('at 880 px wide the smallest text is 5.6 px (under 11); the drawing is 2500 px wide');
    expect(report.violations).toContain('the drawing is 2500 × 50 px, beyond 3:1');
    expect(checkScene(row, new Map(), { forcedDirection: true }).violations.filter((v) => v.includes('beyond'))).toEqual([]);
    expect(checkScene(row.slice(0, 4)).violations).toEqual([]);
  });

  it('on a wide page: a graph of 41 to 100 nodes keeps its text at 11 px when fitted to 1,600 px', () => {
    // 60 nodes in a 10 × 6 grid: 10 columns 300 px apart make 2,800 px, whose 14 px text shows at 8 px.
    const grid = (gap: number) => Array.from({ length: 60 }, (_, i) => box(`n${i}`, (i % 10) * gap, Math.floor(i / 10) * 100, 100, 50, { text: 'x', fontSize: 14, fontFamily: 'normal' }));
    expect(checkScene(grid(300)).violations).toContain('at 1600 px wide the smallest text is 8.0 px (under 11); the drawing of 60 nodes is 2800 px wide');
    expect(checkScene(grid(200)).violations.filter((v) => v.includes('px wide'))).toEqual([]);
  });

  it('reports edges of different meaning merged into one trunk, not edges that say the same', () => {
    const hub = box('hub', 300, 100);
    const label = (of: string, text: string) => ({ id: `${of}-label`, type: 'text', x: 120, y: of === 'e1' ? -20 : 230, width: 60, height: 18, text, fontSize: 14, fontFamily: 'normal', labelOf: of });
    // a and c each run to x 200, then share one vertical leg and the last 100 px into the hub.
    const into = (id: string, from: string, y: number) =>
      arrow(id, from, 'hub', [{ x: 100, y }, { x: 200, y }, { x: 200, y: 125 }, { x: 300, y: 125 }], [{ x: 1, y: 0.5 }, { x: 0, y: 0.5 }]);
    const e1 = into('e1', 'a', 25);
    const e2 = into('e2', 'c', 225);
    const scene = (one: string, two: string) => [a, c, hub, e1, e2, label('e1', one), label('e2', two)];
    expect(checkScene(scene('store_id', 'address_id')).violations).toContain('arrows "e1" and "e2" run together into "hub" for 100 px though they mean different things ("store_id" / "address_id")');
    expect(checkScene(scene('store_id', 'store_id')).violations.filter((v) => v.includes('run together'))).toEqual([]);
  });
});
