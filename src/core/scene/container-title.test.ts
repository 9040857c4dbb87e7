import { describe, expect, it } from 'vitest';
import { checkScene } from '../quality/check.js';
import { planAutoLayout } from './auto-layout.js';
import { intakeScene, type Element } from './intake.js';
import { applyOperations } from './operations.js';
import { placeInsideContainers } from './place-inside.js';
import { containerOf } from './structure.js';

type Raw = Record<string, unknown> & { id: string; type: string };

/** A drawing as layout leaves it: a VPC with its title at its top (16 px Inter) and one service under it. */
const drawing = intakeScene([
  { id: 'vpc', type: 'rectangle', x: 0, y: 0, width: 400, height: 200 },
  { id: 'vpc-title', type: 'text', x: 24, y: 24, width: 33, height: 20, text: 'VPC', fontSize: 16, fontFamily: 'normal', textAlign: 'left', labelOf: 'vpc' },
  { id: 'app', type: 'rectangle', x: 40, y: 80, width: 124, height: 91, text: 'App', fontSize: 16, fontFamily: 'normal', parentId: 'vpc' },
]).elements;

const byId = (elements: readonly { id: string }[], id: string) => elements.find((e) => e.id === id) as Raw;
const parents = (elements: readonly Element[]) => new Map(elements.flatMap((e) => (containerOf(e) ? [[e.id, containerOf(e)!] as const] : [])));
const box = (e: Raw) => ({ x: Number(e.x), y: Number(e.y), width: Number(e.width), height: Number(e.height) });
const within = (outer: Raw, inner: Raw) => {
  const [o, i] = [box(outer), box(inner)];
  return i.x >= o.x && i.y >= o.y && i.x + i.width <= o.x + o.width && i.y + i.height <= o.y + o.height;
};

describe('a container added by an edit keeps its text as a title at its top, like a laid-out one', () => {
  it('with its place: the title sits in its top-left corner, lettered like the drawing\'s titles and linked to it', () => {
    const { elements, touched } = applyOperations(drawing, [
      { op: 'add', element: { id: 'subnet', type: 'rectangle', x: 500, y: 0, width: 300, height: 200, text: 'Private subnet' } },
      { op: 'add', element: { id: 'worker', type: 'rectangle', x: 540, y: 80, width: 120, height: 80, text: 'Worker', parentId: 'subnet' } },
    ]);
    expect(touched.added).toEqual(['subnet', 'worker', 'subnet-title']);
    expect(byId(elements, 'subnet').text).toBeUndefined();
    expect(byId(elements, 'subnet-title')).toMatchObject({ type: 'text', text: 'Private subnet', labelOf: 'subnet', x: 524, y: 24, fontSize: 16, fontFamily: 'normal' });
    const stored = intakeScene(elements, { previous: drawing }).elements;
    expect(checkScene(stored, parents(stored)).violations).toEqual([]);
    // Untouched elements stay as stored.
    for (const id of ['vpc', 'vpc-title', 'app']) expect(JSON.stringify(byId(stored, id))).toBe(JSON.stringify(byId(drawing, id)));
  });

  it('with its place and a member in its top-left corner: the title goes just above it', () => {
    const { elements } = applyOperations(drawing, [
      { op: 'add', element: { id: 'subnet', type: 'rectangle', x: 500, y: 100, width: 300, height: 200, text: 'Private subnet' } },
      { op: 'add', element: { id: 'worker', type: 'rectangle', x: 510, y: 110, width: 120, height: 80, parentId: 'subnet' } },
    ]);
    const title = byId(elements, 'subnet-title');
    expect(title).toMatchObject({ x: 500, labelOf: 'subnet' });
    expect(Number(title.y) + Number(title.height)).toBeLessThan(100);
  });

  it('without a place, inside a placed container: placed with its members, which go under its title', () => {
    const { elements } = applyOperations(drawing, [
      { op: 'add', element: { id: 'subnet', type: 'rectangle', text: 'Private subnet', parentId: 'vpc' } },
      { op: 'add', element: { id: 'worker', type: 'rectangle', text: 'Worker', parentId: 'subnet' } },
    ]);
    const { raw, plan } = planAutoLayout(elements);
    const list = raw as Raw[];
    placeInsideContainers(list, plan);
    const [subnet, title, worker] = ['subnet', 'subnet-title', 'worker'].map((id) => byId(list, id));
    expect(subnet!.text).toBeUndefined();
    expect(title).toMatchObject({ text: 'Private subnet', labelOf: 'subnet', fontSize: 16, fontFamily: 'normal', x: Number(subnet!.x) + 24, y: Number(subnet!.y) + 24 });
    expect(Number(worker!.y)).toBeGreaterThanOrEqual(Number(title!.y) + Number(title!.height));
    // Its first member is lettered like the shapes around it, though it has no sibling to take after.
    expect(worker).toMatchObject({ fontSize: 16, fontFamily: 'normal' });
    const stored = intakeScene(list, { previous: drawing }).elements;
    expect(within(byId(stored, 'vpc'), byId(stored, 'subnet'))).toBe(true);
    expect(within(byId(stored, 'subnet'), byId(stored, 'subnet-title'))).toBe(true);
    expect(checkScene(stored, parents(stored)).violations).toEqual([]);
  });

  it('a placed shape that gets its first member keeps its text as a title above that member', () => {
    const scene = intakeScene([{ id: 'box', type: 'rectangle', x: 0, y: 0, width: 300, height: 120, text: 'Cluster' }]).elements;
    const { elements } = applyOperations(scene, [{ op: 'add', element: { id: 'pod', type: 'rectangle', text: 'Pod', parentId: 'box' } }]);
    const { raw, plan } = planAutoLayout(elements);
    const list = raw as Raw[];
    placeInsideContainers(list, plan);
    expect(byId(list, 'box-title')).toMatchObject({ text: 'Cluster', labelOf: 'box' });
    const stored = intakeScene(list, { previous: scene }).elements;
    expect(checkScene(stored, parents(stored)).violations).toEqual([]);
  });
});
