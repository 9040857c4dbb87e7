/**
 * Issue 25's "done when": the trial that found the editing defects, run again as an AI client runs it (the official
 * MCP SDK client over a real socket) on both databases. The 3-tier AWS diagram is drawn structure-first, read back,
 * edited by operations, by a rename and an arrow deletion, by a prompt (through the fake provider), and restored to
 * version 1. Prints what the 3-element edit cost in characters of MCP text.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { showDiagram } from '../src/core/ai/edit.js';
import { checkScene } from '../src/core/quality/check.js';
import type { Element } from '../src/core/scene/schema.js';
import { containerOf } from '../src/core/scene/structure.js';
import { availableBackends } from './support/backends.js';
import { startFakeProvider, type FakeProvider } from './support/fake-ai.js';
import { bearer, useTestService } from './support/world.js';
import { THREE_TIER } from './fixtures/three-tier.js';

const backends = await availableBackends();

const byId = (elements: readonly Element[], id: string) => elements.find((e) => e.id === id)!;
const labelOf = (elements: readonly Element[], id: string) => elements.find((e) => e.type === 'text' && e.labelOf === id);
const inside = (outer: Element, inner: Element) =>
  inner.x >= outer.x && inner.y >= outer.y && inner.x + inner.width <= outer.x + outer.width && inner.y + inner.height <= outer.y + outer.height;
const parents = (elements: readonly Element[]) => new Map(elements.flatMap((e) => (containerOf(e) ? [[e.id, containerOf(e)!] as const] : [])));

describe.each(backends)('the editing trial through the official MCP SDK client on %s', (backend) => {
  const service = useTestService({ backend, listen: true, config: { aiAllowPrivateUrls: true, aiTimeoutSeconds: 5 } });
  let client: Client;
  let fake: FakeProvider;
  let id: string;
  let version1: Element[];

  beforeAll(async () => {
    fake = await startFakeProvider();
    client = new Client({ name: 'editable-trial', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(service.mcpUrl), { requestInit: { headers: bearer(service.world.tokens.annAll) } }));
  });
  afterAll(async () => {
    await client?.close();
    await fake?.close();
  });

  async function call(name: string, args: Record<string, unknown>) {
    const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
    const text = result.content.map((c) => ('text' in c ? c.text : '')).join('');
    expect(result.isError, text).toBeFalsy();
    return { content: result.structuredContent as any, text };
  }
  const read = async () => (await call('get_diagram', { id })).content as { version: number; vendor: string | null; elements: Element[] };

  it('draws the 3-tier AWS diagram structure-first and reads it back with containment, labels, roles and vendor intact', async () => {
    const created = await call('create_diagram', { workspaceId: service.world.annWorkspace, name: '3-tier', elements: THREE_TIER, layout: 'auto', vendor: 'aws', autoIcons: false });
    expect(created.content.warnings).toEqual([]);
    id = created.content.id;
    const diagram = await read();
    version1 = diagram.elements;
    expect(diagram).toMatchObject({ version: 1, vendor: 'aws' });
    const elements = diagram.elements;
    for (const sent of THREE_TIER.filter((e) => 'parentId' in e)) expect(containerOf(byId(elements, sent.id)), sent.id).toBe(sent.parentId);
    for (const sent of THREE_TIER.filter((e) => 'role' in e || 'kind' in e)) expect(byId(elements, sent.id).role, sent.id).toBe(sent.role ?? sent.kind);
    expect(labelOf(elements, 'vpc')).toMatchObject({ text: 'VPC' });
    for (const arrow of THREE_TIER.filter((e) => e.type === 'arrow' && e.text)) expect(labelOf(elements, arrow.id), arrow.id).toMatchObject({ text: arrow.text });
    expect(inside(byId(elements, 'vpc'), byId(elements, 'db'))).toBe(true);
    expect(inside(byId(elements, 'aws'), byId(elements, 'vpc'))).toBe(true);
    expect(checkScene(elements, parents(elements)).violations).toEqual([]);
  });

  it('adds an ElastiCache node inside the VPC with one operations call that costs under 1,500 characters sent and 2,000 received', async () => {
    const before = await read();
    const args = {
      id,
      expectedVersion: before.version,
      operations: [
        { op: 'add', element: { type: 'rectangle', id: 'cache', text: 'ElastiCache', role: 'cache', iconRef: 'aws/Amazon ElastiCache', parentId: 'vpc' } },
        { op: 'add', element: { type: 'arrow', id: 'app-cache', startBinding: { elementId: 'app' }, endBinding: { elementId: 'cache' } } },
        { op: 'update', id: 'db', set: { text: 'Orders (Aurora)' } },
      ],
    };
    const edited = await call('update_diagram', args);
    const sent = JSON.stringify(args).length;
    console.log(`3-element edit over MCP on ${backend}: ${sent} characters sent, ${edited.text.length} received`);
    expect(sent).toBeLessThan(1500);
    expect(edited.text.length).toBeLessThan(2000);
    expect(edited.content.touched.added).toEqual(['cache', 'app-cache']);

    const { elements } = await read();
    expect(byId(elements, 'cache')).toMatchObject({ parentId: 'vpc', role: 'cache' });
    expect(inside(byId(elements, 'vpc'), byId(elements, 'cache'))).toBe(true);
    expect(inside(byId(elements, 'aws'), byId(elements, 'vpc'))).toBe(true);
    const area = (e: Element) => e.width * e.height;
    // The VPC had room for the node here: it keeps its size or grows, never shrinks around its members.
    expect(area(byId(elements, 'vpc'))).toBeGreaterThanOrEqual(area(byId(before.elements, 'vpc')));
    expect(byId(elements, 'db').text).toBe('Orders (Aurora)');
    expect(checkScene(elements, parents(elements)).violations).toEqual([]);
  });

  it('renames a node and deletes an arrow: its label goes with it', async () => {
    const renamed = await call('update_diagram', { id, operations: [{ op: 'update', id: 'alb', set: { text: 'ALB' } }] });
    expect(renamed.content.touched.updated).toContain('alb');
    const removed = await call('update_diagram', { id, operations: [{ op: 'remove', id: 'app-db' }] });
    const label = labelOf(version1, 'app-db')!;
    expect(removed.content.touched.removed).toEqual(['app-db', label.id]);
    const { elements } = await read();
    expect(byId(elements, 'alb').text).toBe('ALB');
    expect(elements.some((e) => e.id === 'app-db' || e.id === label.id || e.labelOf === 'app-db')).toBe(false);
    expect(elements.find((e) => e.type === 'text' && e.text === 'SQL')).toBeUndefined();
    expect(byId(elements, 'db')).toBeDefined();
  });

  it('edits by prompt through the fake provider: what the model sent back unchanged stays in place, the new node lands in its group', async () => {
    const saved = await service.runtime.app.inject({ method: 'PUT', url: '/api-v1/me/ai', headers: bearer(service.world.tokens.annAll), payload: { provider: 'openai', model: 'gpt-fake', key: 'sk-test-0123456789abcdef', baseUrl: `${fake.url}/openai/v1` } });
    expect(saved.statusCode, saved.body).toBe(200);
    const before = await read();
    // A faithful model: it hands back the structure it was shown and adds a queue inside the VPC.
    const { shown } = showDiagram(before.elements);
    fake.queue.push({
      answer: {
        ...shown,
        nodes: [...shown.nodes, { id: 'jobs', label: 'Jobs queue', kind: 'queue', icon: 'aws sqs', group: 'vpc', rows: null }],
        edges: [...shown.edges, { from: 'app', to: 'jobs', label: 'enqueue', style: 'solid', startArrowhead: 'none', endArrowhead: 'arrow' }],
      },
    });
    const asked = fake.received.length;
    const edited = await call('generate_from_prompt', { documentId: id, prompt: 'add an SQS queue the app servers enqueue jobs on', expectedVersion: before.version });
    expect(edited.content.version).toBe(before.version + 1);
    const told = JSON.stringify(fake.received[asked]!.body.messages);
    for (const text of ['ALB', 'Orders (Aurora)', 'ElastiCache', 'HTTPS']) expect(told).toContain(text);

    const { elements } = await read();
    const jobs = elements.find((e) => e.text === 'Jobs queue')!;
    expect(jobs).toBeDefined();
    expect(inside(byId(elements, 'vpc'), jobs)).toBe(true);
    expect(checkScene(elements, parents(elements)).violations).toEqual([]);
    const untouched = before.elements;
    const changed = untouched.filter((e) => JSON.stringify(elements.find((a) => a.id === e.id)) !== JSON.stringify(e));
    console.log(`prompt edit on ${backend}: ${untouched.length - changed.length} of ${untouched.length} untouched elements byte-identical; changed: ${changed.map((e) => e.id).join(', ')}`);
    // Applied as operations: only the new node and its arrow are written, and the containers around the node grow
    // to hold it (same place, larger); everything else, arrows included, is byte-identical.
    expect(changed.map((e) => e.id).sort()).toEqual(['aws', 'vpc']);
    const place = ({ width: _w, height: _h, ...rest }: Element) => rest;
    for (const container of changed) expect(place(byId(elements, container.id)), container.id).toEqual(place(container));
    expect(edited.content.warnings).toEqual(expect.arrayContaining([expect.stringMatching(/the model added "jobs" in "vpc", "app-jobs"/)]));
  });

  it('restore_version of version 1 gives exactly version 1', async () => {
    const one = await call('get_version', { id, version: 1 });
    expect(one.content.elements).toEqual(version1);
    const current = await read();
    const restored = await call('restore_version', { id, version: 1, expectedVersion: current.version });
    expect(restored.content.version).toBe(current.version + 1);
    expect((await read()).elements).toEqual(version1);
    const { content } = await call('list_versions', { id, limit: 1 });
    expect(content.items[0].summary).toMatch(/^restored version 1/);
  });
});
