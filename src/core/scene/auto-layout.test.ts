import { describe, expect, it } from 'vitest';
import { stampIcons } from '../icons/index.js';
import { resolveIconHints } from '../notations/icon-hints.js';
import { drawGraph } from '../notations/index.js';
import { checkScene } from '../quality/check.js';
import { codeToScene } from '../notations/index.js';
import { containerOf } from './structure.js';
import { placeScene, planAutoLayout, sceneToGraph } from './auto-layout.js';
import { STRUCTURE_FIRST } from './capabilities.js';
import { intakeScene, type Element } from './intake.js';

/** As the service runs it (src/service/scene.ts), with drawGraph in place of the worker. */
export async function laidOut(raw: unknown, autoIcons = false) {
  const { raw: planned, plan } = planAutoLayout(raw);
  const read = intakeScene(planned);
  const graph = sceneToGraph(read.elements, plan);
  const drawn = await drawGraph(resolveIconHints(graph.graph));
  const placed = placeScene(read.elements, plan, graph, drawn.elements);
  const intake = intakeScene(placed.elements);
  const stamped = stampIcons(intake.elements, { autoIcons });
  const parents = new Map(stamped.elements.flatMap((e) => (containerOf(e) === undefined ? [] : [[e.id, containerOf(e)!] as const])));
  return { elements: stamped.elements, warnings: [...read.warnings, ...drawn.warnings, ...intake.warnings, ...stamped.warnings], parents, plan };
}
const byId = (elements: readonly Element[], id: string) => elements.find((e) => e.id === id)!;
const inside = (outer: Element, inner: Element) =>
  inner.x >= outer.x && inner.y >= outer.y && inner.x + inner.width <= outer.x + outer.width && inner.y + inner.height <= outer.y + outer.height;

describe('layout auto', () => {
  it('places an architecture without one coordinate: nested containers from parentId and frame children, icons, routed arrows', async () => {
    const { elements, warnings, parents } = await laidOut([
      { type: 'frame', id: 'aws', name: 'AWS account' },
      { type: 'rectangle', id: 'vpc', text: 'VPC', parentId: 'aws', strokeStyle: 'dashed' },
      { type: 'rectangle', id: 'api', text: 'API', iconRef: 'aws/AWS Lambda', parentId: 'vpc', fillColor: '#ffd8a8' },
      { type: 'cylinder', id: 'db', text: 'Orders', iconRef: 'aws/Amazon RDS', parentId: 'vpc' },
      { type: 'rectangle', id: 'bucket', text: 'Uploads', iconRef: 'aws/Amazon S3', parentId: 'aws' },
      { type: 'ellipse', id: 'user', text: 'User' },
      { type: 'arrow', startBinding: { elementId: 'user' }, endBinding: { elementId: 'api' }, text: 'HTTPS' },
      { type: 'arrow', id: 'q', startBinding: { elementId: 'api' }, endBinding: { elementId: 'db' }, strokeStyle: 'dashed' },
      { type: 'arrow', startBinding: { elementId: 'api' }, endBinding: { elementId: 'bucket' } },
    ]);
    expect(warnings).toEqual([]);
    expect(checkScene(elements, parents).violations).toEqual([]);
    // Ids, styles and text are the client's; containers hold their members and paint first.
    expect(byId(elements, 'api')).toMatchObject({ text: 'API', fillColor: '#ffd8a8', iconRef: 'aws/AWS Lambda' });
    expect(byId(elements, 'q')).toMatchObject({ strokeStyle: 'dashed', startBinding: { elementId: 'api' }, endBinding: { elementId: 'db' } });
    expect(inside(byId(elements, 'aws'), byId(elements, 'vpc'))).toBe(true);
    expect(inside(byId(elements, 'vpc'), byId(elements, 'db'))).toBe(true);
    expect(inside(byId(elements, 'aws'), byId(elements, 'bucket'))).toBe(true);
    expect(inside(byId(elements, 'aws'), byId(elements, 'user'))).toBe(false);
    expect(elements.findIndex((e) => e.id === 'aws')).toBeLessThan(elements.findIndex((e) => e.id === 'vpc'));
    // The shape container's text is its standalone title above its members (the guide's one title rule).
    expect(byId(elements, 'vpc').text).toBeUndefined();
    expect(byId(elements, 'vpc-title')).toMatchObject({ type: 'text', text: 'VPC' });
  });

  it('reads Excalidraw skeletons without positions (label, start/end by id) and keeps what was placed', async () => {
    const { elements, warnings } = await laidOut([
      { type: 'rectangle', id: 'fixed', x: 0, y: 0, width: 160, height: 80, text: 'Fixed' },
      { type: 'rectangle', id: 'a', label: { text: 'Client' } },
      { type: 'diamond', id: 'b', label: { text: 'OK?' } },
      { type: 'arrow', start: { id: 'a' }, end: { id: 'b' } },
      { type: 'arrow', start: { id: 'b' }, end: { id: 'fixed' } },
    ]);
    expect(warnings).toEqual([]);
    expect(byId(elements, 'fixed')).toMatchObject({ x: 0, y: 0, width: 160, height: 80 });
    expect(byId(elements, 'a').x).toBeGreaterThanOrEqual(160 + 80);
    expect(byId(elements, 'a').text).toBe('Client');
    // The smart route from a laid-out node to the fixed one keeps clear of the neighbour it passes.
    expect(checkScene(elements).violations).toEqual([]);
  });

  it('says when a member\'s container is missing or was placed by the client', async () => {
    const { warnings } = await laidOut([
      { type: 'rectangle', id: 'box', x: 0, y: 0, width: 400, height: 300 },
      { type: 'rectangle', id: 'a', text: 'A', parentId: 'box' },
      { type: 'rectangle', id: 'b', text: 'B', parentId: 'nowhere' },
    ]);
    expect(warnings).toEqual(['elements[2] (id "b"): parentId "nowhere" is not an element of this scene; the link was dropped', '"a": its container "box" has a position, so it is laid out beside it, not inside']);
  });

  it('refuses membership that loops or names an arrow, and says so', async () => {
    const { elements, warnings } = await laidOut([
      { type: 'rectangle', id: 'a', text: 'A', parentId: 'b' },
      { type: 'rectangle', id: 'b', text: 'B', parentId: 'a' },
      { type: 'rectangle', id: 'self', text: 'Self', parentId: 'self' },
      { type: 'rectangle', id: 'c', text: 'C', parentId: 'link' },
      { type: 'arrow', id: 'link', startBinding: { elementId: 'a' }, endBinding: { elementId: 'c' } },
    ]);
    expect(warnings).toEqual([
      'elements[2] (id "self"): parentId "self" is the element itself; the link was dropped',
      'elements[3] (id "c"): parentId "link" is an arrow, not a container; the link was dropped',
      'elements[0] (id "a"): parentId "b" leads back to itself; the link was dropped',
    ]);
    expect(checkScene(elements, new Map([['b', 'a']])).violations).toEqual([]);
  });

  it('changes nothing when every element has a position', () => {
    const raw = [{ type: 'rectangle', id: 'a', x: 0, y: 0, width: 100, height: 50 }];
    expect(planAutoLayout(raw)).toEqual({ raw, plan: { unplaced: new Set(), unstyledText: new Set() } });
  });
});

describe('the guide\'s structure-first section cannot drift', () => {
  it('its layout-auto example is placed with no warning and passes the quality checker', async () => {
    const { elements, warnings, parents } = await laidOut(STRUCTURE_FIRST.example);
    expect(warnings).toEqual([]);
    expect(checkScene(elements, parents).violations).toEqual([]);
  });

  it('its Mermaid is read as an ER diagram with crow\'s feet and passes the quality checker', async () => {
    const scene = await codeToScene(STRUCTURE_FIRST.mermaid);
    expect(scene.notation).toBe('mermaid');
    expect(scene.graph.edges[0]).toMatchObject({ startArrowhead: 'double-bar', endArrowhead: 'circle-crows-foot' });
    expect(checkScene(intakeScene(scene.elements).elements).violations).toEqual([]);
  });
});
