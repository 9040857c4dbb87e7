import { describe, expect, it } from 'vitest';
import { checkScene, segmentCrossesBox } from '../quality/check.js';
import { intakeScene, type Element } from '../scene/intake.js';
import type { Point } from '../layout/types.js';

const rect = (id: string, x: number, y: number, width = 100, height = 60) => ({ id, type: 'rectangle', x, y, width, height });
const smart = (id: string, from: string, to: string) => ({ id, type: 'arrow', arrowShape: 'smart', startBinding: { elementId: from }, endBinding: { elementId: to } });

const pointsOf = (elements: readonly Element[], id: string): Point[] => {
  const arrow = elements.find((e) => e.id === id);
  if (arrow?.type !== 'arrow') throw new Error(`no arrow ${id}`);
  return arrow.points;
};
const boxOf = (elements: readonly Element[], id: string) => {
  const { x, y, width, height } = elements.find((e) => e.id === id) as { x: number; y: number; width: number; height: number };
  return { x, y, width, height };
};
const crosses = (points: Point[], box: { x: number; y: number; width: number; height: number }) =>
  points.slice(1).some((point, i) => segmentCrossesBox(points[i]!, point, box));
const rightAngled = (points: Point[]) => points.slice(1).every((p, i) => p.x === points[i]!.x || p.y === points[i]!.y);

describe('smart arrows', () => {
  // a and b on one row with a tall wall between them.
  const scene = [rect('a', 0, 100), rect('wall', 200, 0, 60, 300), rect('b', 400, 100), smart('link', 'a', 'b')];

  it('are routed around a shape in the way, at right angles, from side to side', () => {
    const { elements, warnings } = intakeScene(scene);
    const points = pointsOf(elements, 'link');
    expect(warnings).toEqual([]);
    expect(crosses(points, boxOf(elements, 'wall'))).toBe(false);
    expect(rightAngled(points)).toBe(true);
    expect(points.length).toBeGreaterThan(2);
    expect(checkScene(elements).violations).toEqual([]);
  });

  it('are re-routed when the shape in the way moves', () => {
    const first = intakeScene(scene).elements;
    // The client moves the wall off the row and sends the arrow back with its old path and focus points.
    const moved = first.map((e) => (e.id === 'wall' ? { ...e, y: 400 } : e));
    const { elements } = intakeScene(moved, { previous: first });
    // Nothing in the way any more: one straight leg from a's right side to b's left side.
    expect(pointsOf(elements, 'link')).toEqual([
      { x: 100, y: 130 },
      { x: 400, y: 130 },
    ]);
  });

  it('are re-routed when an end shape moves, and stay bound to it', () => {
    const first = intakeScene(scene).elements;
    const moved = first.map((e) => (e.id === 'b' ? { ...e, x: 0, y: 400 } : e));
    const { elements } = intakeScene(moved, { previous: first });
    const points = pointsOf(elements, 'link');
    // b is now right below a: straight down from a's bottom to b's top.
    expect(points).toEqual([
      { x: 50, y: 160 },
      { x: 50, y: 400 },
    ]);
    expect(checkScene(elements).violations).toEqual([]);
  });

  it('may cross a container around an end, but not one around neither end', () => {
    const elements = intakeScene([
      { id: 'zone', type: 'frame', name: 'zone', x: -40, y: 60, width: 180, height: 140 },
      rect('a', 0, 100),
      { id: 'other', type: 'frame', name: 'other', x: 180, y: 0, width: 140, height: 300 },
      rect('b', 400, 100),
      smart('link', 'a', 'b'),
    ]).elements;
    const points = pointsOf(elements, 'link');
    expect(crosses(points, boxOf(elements, 'other'))).toBe(false);
    expect(crosses(points, boxOf(elements, 'zone'))).toBe(true);
    const parents = new Map([['a', 'zone']]);
    expect(checkScene(elements, parents).violations).toEqual([]);
  });

  it('pass a scene of many shapes cleanly through the quality checker', () => {
    const shapes = Array.from({ length: 24 }, (_, i) => rect(`s${i}`, (i % 6) * 170 + (i % 3) * 7, Math.floor(i / 6) * 130 + (i % 4) * 5, 90 + (i % 3) * 10, 50));
    const arrows = Array.from({ length: 30 }, (_, i) => smart(`r${i}`, `s${(i * 7) % 24}`, `s${(i * 11 + 5) % 24}`));
    const { elements, warnings } = intakeScene([...shapes, ...arrows]);
    expect(warnings).toEqual([]);
    // Shapes a few pixels off a grid put one shape's margin line a hair from its neighbour, and thirty arrows share
    // few channels: no arrow grazes a shape it does not touch, none runs along one of different ends.
    expect(checkScene(elements).violations).toEqual([]);
    for (const arrow of arrows) expect(rightAngled(pointsOf(elements, arrow.id))).toBe(true);
    // Deterministic: the same scene routes the same way.
    expect(intakeScene([...shapes, ...arrows]).elements).toEqual(elements);
  });

  it('keep off the lines of arrows with other ends, so each can be followed from its start to its end', () => {
    // Two arrows crossing over from a1 to b2 and a2 to b1, a tall wall between: the shortest way for both is over it.
    const { elements } = intakeScene([
      rect('a1', 0, 100),
      rect('a2', 0, 220),
      rect('wall', 200, 40, 60, 400),
      rect('b1', 400, 100),
      rect('b2', 400, 220),
      smart('one', 'a1', 'b2'),
      smart('two', 'a2', 'b1'),
    ]);
    expect(checkScene(elements).violations).toEqual([]);
    expect(crosses(pointsOf(elements, 'two'), boxOf(elements, 'wall'))).toBe(false);
  });

  it('end on the outline of round shapes', () => {
    const { elements } = intakeScene([
      { ...rect('a', 0, 100), type: 'ellipse' },
      rect('wall', 200, 0, 60, 300),
      { ...rect('b', 400, 103), type: 'diamond' },
      smart('link', 'a', 'b'),
    ]);
    expect(checkScene(elements).violations).toEqual([]);
  });

  it('loop from a shape back to itself around its corner', () => {
    const { elements } = intakeScene([rect('a', 0, 0), smart('self', 'a', 'a')]);
    const points = pointsOf(elements, 'self');
    expect(points[0]).toEqual({ x: 100, y: 30 });
    expect(points[points.length - 1]).toEqual({ x: 50, y: 0 });
    expect(crosses(points, boxOf(elements, 'a'))).toBe(false);
  });

  it('are kept as drawn when not bound at both ends, until they are', () => {
    const { elements, warnings } = intakeScene([
      rect('a', 0, 0),
      { id: 'loose', type: 'arrow', arrowShape: 'smart', startBinding: { elementId: 'a' }, points: [{ x: 100, y: 30 }, { x: 300, y: 30 }, { x: 300, y: 200 }] },
    ]);
    expect(warnings).toEqual([]);
    expect(pointsOf(elements, 'loose')).toEqual([{ x: 100, y: 30 }, { x: 300, y: 30 }, { x: 300, y: 200 }]);
    // Bound at its end too, on the next update: now it is routed, across from a's right side and down into b's top.
    const bound = intakeScene(
      [...elements, rect('b', 300, 200)].map((e) => (e.id === 'loose' ? { ...e, endBinding: { elementId: 'b' } } : e)),
      { previous: elements },
    ).elements;
    expect(pointsOf(bound, 'loose')).toEqual([{ x: 100, y: 30 }, { x: 350, y: 30 }, { x: 350, y: 200 }]);
  });

  it('fall back to a plain right-angle connection, with a warning, when walled in', () => {
    const { elements, warnings } = intakeScene([
      rect('a', 0, 0),
      rect('north', -60, -60, 220, 40),
      rect('south', -60, 80, 220, 40),
      rect('west', -60, -60, 40, 180),
      rect('east', 120, -60, 40, 180),
      rect('b', 400, 0),
      smart('link', 'a', 'b'),
    ]);
    expect(warnings).toEqual(['elements[6] (id "link"): no route around the other shapes; drawn as a plain right-angle connection']);
    expect(pointsOf(elements, 'link')).toEqual([
      { x: 100, y: 30 },
      { x: 400, y: 30 },
    ]);
  });

  describe('added to a drawing whose arrows keep their routes', () => {
    // Two rows of three; a → f is routed and stored first. c → d and d → c, added later, would go the same way
    // (down the channel between the rows and along it) as it.
    const grid = ['a', 'b', 'c', 'd', 'e', 'f'].map((id, i) => rect(id, (i % 3) * 260, Math.floor(i / 3) * 200, 160, 80));
    const stored = intakeScene([...grid, smart('a-f', 'a', 'f')]).elements;

    it.each([['c', 'd'], ['d', 'c']])('run apart from them: %s → %s shares no stretch with a → f, which stays as stored', (from, to) => {
      const { elements } = intakeScene([...stored, smart('new', from, to)], { previous: stored });
      expect(checkScene(elements).violations).toEqual([]);
      expect(JSON.stringify(elements.find((e) => e.id === 'a-f'))).toBe(JSON.stringify(stored.find((e) => e.id === 'a-f')));
    });

    it('run apart from an arrow that is not smart, drawn by a layout', () => {
      // The stored route of a → f, as a plain multipoint arrow: it is never routed again, yet it is still in the way.
      const drawn = stored.map((e) => (e.id === 'a-f' ? { ...e, arrowShape: 'multipoint' as const } : e));
      const { elements } = intakeScene([...drawn, smart('new', 'c', 'd')], { previous: drawn });
      expect(checkScene(elements).violations).toEqual([]);
      expect(JSON.stringify(elements.find((e) => e.id === 'a-f'))).toBe(JSON.stringify(drawn.find((e) => e.id === 'a-f')));
    });
  });

  // The time this takes is a goal of `npm run bench` (smartRouting), not a timed test that a busy machine fails.
  it('routes 200 hand-placed shapes and 300 arrows with every arrow placed', () => {
    let seed = 1;
    const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    // Hand-placed: a loose grid, every shape a few pixels off.
    const shapes = Array.from({ length: 200 }, (_, i) =>
      rect(`s${i}`, (i % 20) * 180 + Math.floor(random() * 30), Math.floor(i / 20) * 140 + Math.floor(random() * 30), 80 + Math.floor(random() * 40), 50),
    );
    const arrows = Array.from({ length: 300 }, (_, i) => smart(`r${i}`, `s${Math.floor(random() * 200)}`, `s${Math.floor(random() * 200)}`));
    const { elements, warnings } = intakeScene([...shapes, ...arrows]);
    expect(warnings).toEqual([]);
    for (let i = 0; i < 300; i++) expect(pointsOf(elements, `r${i}`).length, `r${i}`).toBeGreaterThanOrEqual(2);
  });
});
