/**
 * Issue 25: a diagram stays editable. Its structure (containment, titles and labels linked to what they label, roles,
 * vendor) survives every write, and operations change a few elements without resending the scene: a node added to a
 * container lands inside it, the container grows and pushes its neighbours, removals take titles, labels and bound
 * arrows along, and a bad operation changes nothing.
 */
import { describe, expect, it } from 'vitest';
import { checkScene } from '../src/core/quality/check.js';
import { containerOf } from '../src/core/scene/structure.js';
import type { Element } from '../src/core/scene/schema.js';
import { type BackendName, requireServer } from './support/backends.js';
import { bearer, useTestService } from './support/world.js';
import { THREE_TIER } from './fixtures/three-tier.js';

const backends: BackendName[] = ['sqlite'];
if (await requireServer('postgres')) backends.push('postgres');

const byId = (elements: readonly Element[], id: string) => elements.find((e) => e.id === id)!;
const inside = (outer: Element, inner: Element) =>
  inner.x >= outer.x && inner.y >= outer.y && inner.x + inner.width <= outer.x + outer.width && inner.y + inner.height <= outer.y + outer.height;
const parents = (elements: readonly Element[]) => new Map(elements.flatMap((e) => (containerOf(e) ? [[e.id, containerOf(e)!] as const] : [])));

describe.each(backends)('editing a diagram on %s', (backend) => {
  const service = useTestService({ backend });
  const api = async (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: unknown, token = service.world.tokens.annAll, headers: Record<string, string> = {}) => {
    const response = await service.runtime.app.inject({ method, url: `/api-v1${url}`, headers: { ...bearer(token), ...headers }, ...(payload !== undefined && { payload: payload as object }) });
    return { status: response.statusCode, body: response.json(), size: response.body.length };
  };
  const draw = async () => {
    const created = await api('POST', '/documents', { workspaceId: service.world.annWorkspace, name: '3-tier', elements: THREE_TIER, layout: 'auto', vendor: 'aws', autoIcons: false });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return created.body.id as string;
  };
  const read = async (id: string) => (await api('GET', `/documents/${id}`)).body as { version: number; elements: Element[] };

  it('keeps containment, titles, labels and roles through layout and every read', async () => {
    const { elements } = await read(await draw());
    expect(byId(elements, 'vpc')).toMatchObject({ parentId: 'aws' });
    expect(byId(elements, 'db')).toMatchObject({ parentId: 'vpc', role: 'database', fillColor: '#d3f9d8' });
    expect(byId(elements, 's3')).toMatchObject({ parentId: 'aws', role: 'storage', fillColor: '#d3f9d8' });
    expect(elements.find((e) => e.type === 'text' && e.labelOf === 'vpc')).toMatchObject({ text: 'VPC' });
    expect(elements.find((e) => e.type === 'text' && e.labelOf === 'app-db')).toMatchObject({ text: 'SQL' });
    expect(checkScene(elements, parents(elements)).violations).toEqual([]);
  });

  it('adds a node inside its container with one operation: it lands inside, the container grows, nothing overlaps', async () => {
    const id = await draw();
    const before = await read(id);
    const operations = [
      { op: 'add', element: { type: 'rectangle', id: 'cache', text: 'ElastiCache', role: 'cache', iconRef: 'aws/Amazon ElastiCache', parentId: 'vpc' } },
      { op: 'add', element: { type: 'arrow', id: 'app-cache', startBinding: { elementId: 'app' }, endBinding: { elementId: 'cache' } } },
      { op: 'update', id: 'db', set: { text: 'Orders (Aurora)' } },
    ];
    const sent = JSON.stringify({ operations });
    const edited = await api('PATCH', `/documents/${id}`, { operations }, undefined, { 'if-match': `"${before.version}"` });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.body.touched.added).toEqual(['cache', 'app-cache']);
    expect(edited.body.touched.updated).toContain('db');
    expect(edited.body.elements).toBeUndefined();
    console.log(`3-element edit: ${sent.length} characters sent, ${edited.size} received`);
    expect(sent.length).toBeLessThan(1500);
    expect(edited.size).toBeLessThan(2000);
    const { elements } = await read(id);
    expect(inside(byId(elements, 'vpc'), byId(elements, 'cache'))).toBe(true);
    expect(inside(byId(elements, 'aws'), byId(elements, 'vpc'))).toBe(true);
    expect(byId(elements, 'vpc').width * byId(elements, 'vpc').height).toBeGreaterThanOrEqual(byId(before.elements, 'vpc').width * byId(before.elements, 'vpc').height);
    expect(byId(elements, 'db').text).toBe('Orders (Aurora)');
    expect(byId(elements, 'cache').fontFamily).toBe(byId(elements, 'app').fontFamily);
    expect(checkScene(elements, parents(elements)).violations).toEqual([]);
    // Untouched elements keep their place.
    expect(byId(elements, 'user')).toMatchObject({ x: byId(before.elements, 'user').x, y: byId(before.elements, 'user').y });
  });

  it('layout "all" lays everything out again and keeps ids, containment, colours, labels, roles and icons', async () => {
    const id = await draw();
    const moved = await api('PATCH', `/documents/${id}`, {
      operations: [
        { op: 'update', id: 'user', set: { x: 2000, y: 1500 } },
        { op: 'update', id: 'app', set: { fillColor: '#ffec99', strokeColor: '#e8590c' } },
      ],
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    const before = await read(id);
    const relaid = await api('PATCH', `/documents/${id}`, { layout: 'all' });
    expect(relaid.status, JSON.stringify(relaid.body)).toBe(200);
    expect(relaid.body.warnings.join('\n')).not.toMatch(/beside/);
    const { elements } = await read(id);
    expect(elements.map((e) => e.id).sort()).toEqual(before.elements.map((e) => e.id).sort());
    expect(parents(elements)).toEqual(parents(before.elements));
    expect(byId(elements, 'app')).toMatchObject({ fillColor: '#ffec99', strokeColor: '#e8590c', role: 'service', iconRef: 'aws/Amazon EC2' });
    expect(byId(elements, 'db')).toMatchObject({ role: 'database', fillColor: byId(before.elements, 'db').fillColor });
    expect(byId(elements, 'user').x).not.toBe(2000);
    for (const label of before.elements.filter((e) => e.type === 'text' && e.labelOf !== undefined)) {
      expect(byId(elements, label.id)).toMatchObject({ text: (label as { text: string }).text, labelOf: label.labelOf });
    }
    for (const [child, parent] of parents(elements)) expect(inside(byId(elements, parent), byId(elements, child)), `${parent} holds ${child}`).toBe(true);
    expect(checkScene(elements, parents(elements)).violations).toEqual([]);
    // Nothing to lay out again on a bad field: refused, nothing written.
    expect((await api('PATCH', `/documents/${id}`, { layout: 'everything' })).status).toBe(400);
  });

  it('a container added into a placed container lands inside it with its members; the parent grows and pushes its neighbours', async () => {
    const id = await draw();
    const before = await read(id);
    const operations = [
      { op: 'add', element: { type: 'rectangle', id: 'worker', text: 'Worker', parentId: 'private' } },
      { op: 'add', element: { type: 'rectangle', id: 'private', text: 'Private subnet', parentId: 'vpc' } },
      { op: 'add', element: { type: 'rectangle', id: 'queue', text: 'Queue', role: 'queue', parentId: 'private' } },
    ];
    const edited = await api('PATCH', `/documents/${id}`, { operations, layout: 'auto' });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.body.warnings.join('\n')).not.toMatch(/beside/);
    const { elements } = await read(id);
    expect(byId(elements, 'private')).toMatchObject({ parentId: 'vpc' });
    expect(inside(byId(elements, 'vpc'), byId(elements, 'private'))).toBe(true);
    expect(inside(byId(elements, 'private'), byId(elements, 'worker'))).toBe(true);
    expect(inside(byId(elements, 'private'), byId(elements, 'queue'))).toBe(true);
    expect(inside(byId(elements, 'aws'), byId(elements, 'vpc'))).toBe(true);
    expect(byId(elements, 'vpc').width * byId(elements, 'vpc').height).toBeGreaterThan(byId(before.elements, 'vpc').width * byId(before.elements, 'vpc').height);
    // Its text is its title at its top, lettered like the VPC's, with its members under it.
    const title = elements.find((e) => e.type === 'text' && e.labelOf === 'private')!;
    expect(byId(elements, 'private').text).toBeUndefined();
    expect(title).toMatchObject({ text: 'Private subnet', fontFamily: byId(elements, 'vpc-title').fontFamily, fontSize: byId(elements, 'vpc-title').fontSize });
    expect(inside(byId(elements, 'private'), title)).toBe(true);
    for (const member of ['worker', 'queue']) expect(byId(elements, member).y).toBeGreaterThanOrEqual(title.y + title.height);
    expect(checkScene(elements, parents(elements)).violations).toEqual([]);
  });

  it('a container added with its place keeps its text as a linked title at its top, which goes with it', async () => {
    const id = await draw();
    const aws = byId((await read(id)).elements, 'aws');
    const x = aws.x + aws.width + 100;
    const operations = [
      { op: 'add', element: { type: 'rectangle', id: 'onprem', text: 'On premises', x, y: aws.y, width: 320, height: 200 } },
      { op: 'add', element: { type: 'rectangle', id: 'ldap', text: 'LDAP', x: x + 40, y: aws.y + 80, width: 140, height: 80, parentId: 'onprem' } },
    ];
    const edited = await api('PATCH', `/documents/${id}`, { operations });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.body.touched.added).toEqual(['onprem', 'ldap', 'onprem-title']);
    const { elements } = await read(id);
    expect(byId(elements, 'onprem').text).toBeUndefined();
    expect(byId(elements, 'onprem-title')).toMatchObject({ text: 'On premises', labelOf: 'onprem', fontFamily: byId(elements, 'vpc-title').fontFamily });
    expect(inside(byId(elements, 'onprem'), byId(elements, 'onprem-title'))).toBe(true);
    expect(checkScene(elements, parents(elements)).violations).toEqual([]);
    const removed = await api('PATCH', `/documents/${id}`, { operations: [{ op: 'remove', id: 'onprem' }] });
    expect(removed.body.touched.removed).toEqual(['onprem', 'onprem-title']);
  });

  it('a new arrow is routed apart from the arrows drawn already, which stay byte-identical', async () => {
    // Two rows of three boxes; a → f runs down between the rows and along them. c → d would take the same channel.
    const grid = ['a', 'b', 'c', 'd', 'e', 'f'].map((name, i) => ({ id: name, type: 'rectangle', text: name.toUpperCase(), x: (i % 3) * 260, y: Math.floor(i / 3) * 200, width: 160, height: 80 }));
    const created = await api('POST', '/documents', { workspaceId: service.world.annWorkspace, name: 'grid', autoIcons: false, elements: [...grid, { id: 'a-f', type: 'arrow', arrowShape: 'smart', startBinding: { elementId: 'a' }, endBinding: { elementId: 'f' } }] });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const before = await read(created.body.id);
    const operations = [{ op: 'add', element: { type: 'arrow', id: 'c-d', startBinding: { elementId: 'c' }, endBinding: { elementId: 'd' } } }];
    const edited = await api('PATCH', `/documents/${created.body.id}`, { operations, layout: 'auto' });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    const { elements } = await read(created.body.id);
    expect(byId(elements, 'c-d')).toMatchObject({ arrowShape: 'smart' });
    expect(checkScene(elements).violations).toEqual([]);
    for (const e of before.elements) expect(JSON.stringify(byId(elements, e.id)), e.id).toBe(JSON.stringify(e));
  });

  it('an operation leaves every element it does not touch byte-identical, a guessed icon included', async () => {
    const created = await api('POST', '/documents', {
      workspaceId: service.world.annWorkspace,
      name: 'icons',
      elements: [
        { id: 'pg', type: 'rectangle', x: 0, y: 0, width: 160, height: 80, text: 'PostgreSQL' },
        { id: 'b', type: 'rectangle', x: 300, y: 0, width: 160, height: 80, text: 'B' },
        { id: 'pg-b', type: 'arrow', startBinding: { elementId: 'pg' }, endBinding: { elementId: 'b' } },
      ],
    });
    const before = await read(created.body.id);
    expect(byId(before.elements, 'pg').icon).toMatchObject({ auto: true });
    const edited = await api('PATCH', `/documents/${created.body.id}`, { operations: [{ op: 'update', id: 'b', set: { text: 'C' } }] });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    const after = await read(created.body.id);
    expect(JSON.stringify(byId(after.elements, 'pg'))).toBe(JSON.stringify(byId(before.elements, 'pg')));
    expect(JSON.stringify(byId(after.elements, 'pg-b'))).toBe(JSON.stringify(byId(before.elements, 'pg-b')));
    expect(byId(after.elements, 'b').text).toBe('C');
  });

  it('removing an arrow takes its label; removing a shape takes its title and the arrows bound to it, and says so', async () => {
    const id = await draw();
    const removed = await api('PATCH', `/documents/${id}`, { operations: [{ op: 'remove', id: 'app-db' }] });
    expect(removed.body.touched.removed).toEqual(['app-db', 'app-db-label']);
    const shape = await api('PATCH', `/documents/${id}`, { operations: [{ op: 'remove', id: 'vpc' }] });
    expect(shape.status, JSON.stringify(shape.body)).toBe(200);
    const { elements } = await read(id);
    expect(elements.some((e) => e.labelOf === 'vpc' || e.labelOf === 'app-db')).toBe(false);
    // The VPC's members stay, one level up.
    expect(byId(elements, 'app')).toMatchObject({ parentId: 'aws' });
    const arrows = await api('PATCH', `/documents/${id}`, { operations: [{ op: 'remove', id: 'app' }] });
    expect(arrows.body.warnings.join('\n')).toMatch(/removed the arrows bound to it: .*"alb-app"/);
    expect((await read(id)).elements.some((e) => e.id === 'alb-app' || e.id === 'app-s3')).toBe(false);
  });

  it('moving a container moves its members and title', async () => {
    const id = await draw();
    const before = await read(id);
    const vpc = byId(before.elements, 'vpc');
    await api('PATCH', `/documents/${id}`, { operations: [{ op: 'update', id: 'vpc', set: { x: vpc.x + 100 } }] });
    const { elements } = await read(id);
    expect(byId(elements, 'db').x).toBe(byId(before.elements, 'db').x + 100);
    const title = (list: Element[]) => list.find((e) => e.labelOf === 'vpc')!;
    expect(title(elements).x).toBe(title(before.elements).x + 100);
  });

  it('keeps the vendor a diagram was drawn for and the code it was drawn from', async () => {
    const id = await draw();
    await api('PATCH', `/documents/${id}`, { operations: [{ op: 'add', element: { type: 'rectangle', id: 'net', text: 'VPC endpoint', parentId: 'vpc' } }] });
    expect((await api('GET', `/documents/${id}`)).body).toMatchObject({ vendor: 'aws', source: null });
    const code = 'services:\n  web:\n    image: nginx\n    depends_on: [db]\n  db:\n    image: postgres:16\n';
    const drawn = await api('POST', '/documents/from-code', { workspaceId: service.world.annWorkspace, code });
    expect(drawn.status).toBe(201);
    expect((await api('GET', `/documents/${drawn.body.id}`)).body.source).toEqual({ notation: 'compose', code });
  });

  it('refuses a bad operation naming it, and writes nothing', async () => {
    const id = await draw();
    const before = await read(id);
    for (const [operations, message] of [
      [[{ op: 'update', id: 'nope', set: { text: 'x' } }], /operations\[0\]: no element with id "nope"/],
      [[{ op: 'add', element: { type: 'rectangle', id: 'db' } }], /operations\[0\]: an element with id "db" already exists/],
      [[{ op: 'update', id: 'db', set: { strokeWidth: 99 } }], /\(id "db"\): strokeWidth must be between 1 and 8/],
      [[{ op: 'explode', id: 'db' }], /operations/],
      [[{ op: 'update', id: 'db', set: { text: 'fine' } }, { op: 'move', id: 'aws', parentId: 'vpc' }], /operations\[1\]: "vpc" cannot hold "aws"/],
    ] as const) {
      const answer = await api('PATCH', `/documents/${id}`, { operations });
      expect(answer.status, JSON.stringify(answer.body)).toBe(400);
      expect(answer.body.error.message).toMatch(message);
    }
    expect((await read(id)).version).toBe(before.version);
  });

  it('a whole-scene write that drops elements says so; a viewer or a read-only token cannot edit', async () => {
    const id = await draw();
    const replaced = await api('PATCH', `/documents/${id}`, { elements: [{ id: 'only', type: 'rectangle', x: 0, y: 0, width: 100, height: 50 }] });
    expect(replaced.body.warnings.join('\n')).toMatch(/elements replaced the whole scene: \d+ elements not sent were removed .*send operations/);
    const readOnly = await api('PATCH', `/documents/${id}`, { operations: [{ op: 'remove', id: 'only' }] }, service.world.tokens.annRead);
    expect(readOnly.status).toBe(403);
    const bobs = await api('POST', '/documents', { workspaceId: service.world.bobWorkspace, name: 'Bob', elements: [{ id: 'a', type: 'rectangle', x: 0, y: 0, width: 100, height: 50 }] }, service.world.tokens.bobAll);
    const viewer = await api('PATCH', `/documents/${bobs.body.id}`, { operations: [{ op: 'remove', id: 'a' }] });
    expect(viewer.status).toBe(403);
    expect((await api('GET', `/documents/${bobs.body.id}`, undefined, service.world.tokens.bobAll)).body.elements).toHaveLength(1);
  });
});
