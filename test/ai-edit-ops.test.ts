/**
 * Edit by prompt, applied as operations (issue 25): the model is shown the whole structure (labels of nodes and
 * edges, kinds, groups, icons, vendor) and its answer is turned into edits by element, so what it did not change is
 * not rewritten. Through the REST door with the fake provider speaking the real wire format.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { showDiagram } from '../src/core/ai/edit.js';
import type { DiagramAnswer } from '../src/core/ai/answer.js';
import { checkScene } from '../src/core/quality/check.js';
import type { Element } from '../src/core/scene/schema.js';
import { containerOf } from '../src/core/scene/structure.js';
import { startFakeProvider, type FakeProvider } from './support/fake-ai.js';
import { bearer, useTestService } from './support/world.js';
import { THREE_TIER } from './fixtures/three-tier.js';

const byId = (elements: readonly Element[], id: string) => elements.find((e) => e.id === id)!;
const inside = (outer: Element, inner: Element) =>
  inner.x >= outer.x && inner.y >= outer.y && inner.x + inner.width <= outer.x + outer.width && inner.y + inner.height <= outer.y + outer.height;
/** JSON with keys sorted: a write may store an element's keys in another order, never other values. */
const canonical = (value: unknown): string =>
  JSON.stringify(value, (_key, v: unknown) => (v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b))) : v));
const parents = (elements: readonly Element[]) => new Map(elements.flatMap((e) => (containerOf(e) ? [[e.id, containerOf(e)!] as const] : [])));

describe('an AI edit applied as operations', () => {
  const service = useTestService({ config: { aiAllowPrivateUrls: true, aiTimeoutSeconds: 5 } });
  let fake: FakeProvider;
  let id: string;

  beforeAll(async () => {
    fake = await startFakeProvider();
  });
  afterAll(async () => {
    await fake?.close();
  });

  const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
    service.runtime.app.inject({ method, url, headers: bearer(service.world.tokens.annAll), ...(payload ? { payload } : {}) });
  const read = async () => (await call('GET', `/api-v1/documents/${id}`)).json() as { version: number; elements: Element[] };
  const edit = (prompt: string, expectedVersion?: number) => call('POST', `/api-v1/documents/${id}/generate`, { prompt, ...(expectedVersion !== undefined && { expectedVersion }) });

  it('shows the model the whole structure: labels of nodes and edges, kinds, groups, icons and vendor', async () => {
    const created = await call('POST', '/api-v1/documents', { workspaceId: service.world.annWorkspace, name: '3-tier', elements: THREE_TIER, layout: 'auto', vendor: 'aws', autoIcons: false });
    expect(created.statusCode, created.body).toBe(201);
    id = created.json().id;
    expect((await call('PUT', '/api-v1/me/ai', { provider: 'openai', model: 'gpt-fake', key: 'sk-test-0123456789abcdef', baseUrl: `${fake.url}/openai/v1` })).statusCode).toBe(200);
    const { elements } = await read();
    const { shown } = showDiagram(elements);
    fake.queue.push({ answer: shown });
    const asked = fake.received.length;
    const unchanged = await edit('nothing, really');
    expect(unchanged.statusCode, unchanged.body).toBe(200);
    // An answer that changes nothing writes no version.
    expect(unchanged.json()).toMatchObject({ version: 1, warnings: [expect.stringContaining('no version was written')] });
    const told = JSON.parse(JSON.stringify(fake.received[asked]!.body.messages)).map((m: { content: unknown }) => JSON.stringify(m.content)).join('');
    expect(told).toContain('aws library');
    for (const [node, kind, group, icon] of [
      ['alb', 'gateway', 'vpc', 'Elastic Load Balancing'],
      ['db', 'database', 'vpc', 'Amazon RDS'],
      ['s3', 'storage', 'aws', 'Amazon S3'],
      ['user', 'user', null, null],
    ] as const) {
      expect(shown.nodes.find((n) => n.id === node), node).toMatchObject({ kind, group, ...(icon && { icon }) });
    }
    expect(shown.groups).toEqual(expect.arrayContaining([expect.objectContaining({ id: 'vpc', label: 'VPC', parent: 'aws' })]));
    expect(shown.edges).toEqual(expect.arrayContaining([expect.objectContaining({ from: 'user', to: 'alb', label: 'HTTPS' }), expect.objectContaining({ from: 'app', to: 'db', label: 'SQL' })]));
    for (const text of ['\\"kind\\":\\"gateway\\"', '\\"group\\":\\"vpc\\"', 'HTTPS', 'Amazon RDS']) expect(told).toContain(text);
  });

  it('adds a node into its group, relabels an edge and removes a node: every other element stays byte-identical', async () => {
    const before = await read();
    const { shown } = showDiagram(before.elements);
    const answer: DiagramAnswer = {
      ...shown,
      nodes: [...shown.nodes.filter((n) => n.id !== 's3'), { id: 'cache', label: 'ElastiCache', kind: 'cache', icon: 'aws elasticache', group: 'vpc', rows: null }],
      edges: [
        ...shown.edges.filter((e) => e.to !== 's3').map((e) => (e.from === 'user' && e.to === 'alb' ? { ...e, label: 'HTTPS :443' } : e)),
        { from: 'app', to: 'cache', label: null, style: 'solid', startArrowhead: 'none', endArrowhead: 'arrow' },
      ],
    };
    fake.queue.push({ answer });
    const response = await edit('add an ElastiCache for the app, say the port on HTTPS, drop S3', before.version);
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(body.version).toBe(before.version + 1);
    expect(body.warnings).toEqual(
      expect.arrayContaining([
        'the model added "cache" in "vpc", "app-cache"',
        'the model changed "u-alb" (label)',
        'the model removed "s3"',
        'removing "s3" removed the arrow bound to it: "app-s3"',
      ]),
    );
    const { elements } = await read();
    const after = new Map(elements.map((e) => [e.id, e]));

    const cache = byId(elements, 'cache');
    expect(cache).toMatchObject({ type: 'rectangle', role: 'cache', parentId: 'vpc', text: 'ElastiCache' });
    expect(inside(byId(elements, 'vpc'), cache)).toBe(true);
    expect(inside(byId(elements, 'aws'), byId(elements, 'vpc'))).toBe(true);
    expect(elements.find((e) => e.type === 'arrow' && e.startBinding?.elementId === 'app' && e.endBinding?.elementId === 'cache')).toBeDefined();
    expect(checkScene(elements, parents(elements)).violations).toEqual([]);

    // S3, its arrow and that arrow's label are gone; nothing is left pointing at them.
    for (const gone of ['s3', 'app-s3']) expect(after.has(gone), gone).toBe(false);
    expect(elements.some((e) => e.labelOf === 's3' || e.labelOf === 'app-s3' || (e.type === 'arrow' && [e.startBinding?.elementId, e.endBinding?.elementId].includes('s3')))).toBe(false);
    // The relabelled edge: its label says the new text, its route is the one it had.
    const httpsLabel = elements.find((e) => e.type === 'text' && e.labelOf === 'u-alb');
    expect(httpsLabel?.text ?? byId(elements, 'u-alb').text).toBe('HTTPS :443');
    expect((byId(elements, "u-alb") as { points?: unknown }).points).toEqual((byId(before.elements, "u-alb") as { points?: unknown }).points);

    // Everything else is exactly as stored (the same JSON, whatever the order of keys; arrows included). The VPC and AWS frame grew in place.
    const allowed = new Set(['s3', 'app-s3', 'vpc', 'aws', ...(httpsLabel ? [httpsLabel.id] : ['u-alb'])]);
    const differs = before.elements.filter((e) => !allowed.has(e.id) && canonical(after.get(e.id)) !== canonical(e)).map((e) => e.id);
    expect(differs).toEqual([]);
    const place = ({ width: _w, height: _h, ...rest }: Element) => rest;
    for (const grown of ['vpc', 'aws']) expect(place(after.get(grown)!), grown).toEqual(place(byId(before.elements, grown)));

    const versions = (await call('GET', `/api-v1/documents/${id}/versions`)).json().items;
    expect(versions[0]).toMatchObject({ version: before.version + 1, door: 'ai', summary: expect.stringMatching(/^AI edit: .*added.*removed/) });
  });

  it.each([
    ['an edge to a node that is not there, twice', () => [{ answer: withEdgeTo('nowhere') }, { answer: withEdgeTo('nowhere') }], /refers to node "nowhere", which is not in nodes/],
    ['a new node taking the id of an arrow, twice', () => [{ answer: withNode('u-alb') }, { answer: withNode('u-alb') }], /id "u-alb" is already taken by an arrow/],
    ['text that is not a diagram, twice', () => [{ text: 'Sure, here you go' }, { text: '{"nodes": [' }], /not a usable diagram/],
  ] as const)('answers %s with a clear error and writes nothing', async (_case, script, message) => {
    const before = await read();
    current = showDiagram(before.elements).shown;
    fake.queue.length = 0;
    fake.queue.push(...script());
    const response = await edit('change something', before.version);
    expect(response.statusCode, response.body).toBe(502);
    expect(response.json().error).toMatchObject({ code: 'ai_invalid_output', message: expect.stringMatching(message) });
    expect(await read()).toEqual(before);
  });
});

let current: DiagramAnswer;
const withEdgeTo = (to: string): DiagramAnswer => ({ ...current, edges: [...current.edges, { from: 'app', to, label: null, style: 'solid', startArrowhead: 'none', endArrowhead: 'arrow' }] });
const withNode = (id: string): DiagramAnswer => ({ ...current, nodes: [...current.nodes, { id, label: 'Another', kind: 'service', icon: null, group: null, rows: null }] });
