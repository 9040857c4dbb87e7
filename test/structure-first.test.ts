/**
 * Issue 16's "done when": the official MCP SDK client draws five kinds of diagram using only what the guide teaches
 * (layout "auto" with membership and iconRef from search_icons, or Mermaid to diagram_from_code) and without one
 * coordinate; every stored result passes the quality checker, and skeleton and Mermaid inputs come back the same
 * through export. Prints what each call cost in tokens (characters / 4) against the same scene with coordinates.
 */
import { writeFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEMPLATES } from '../src/adapters/web/templates.js';
import { recoverGraph } from '../src/core/export/graph-recovery.js';
import { checkScene } from '../src/core/quality/check.js';
import type { Element } from '../src/core/scene/schema.js';
import { structureOf } from './support/structure.js';
import { bearer, useTestService } from './support/world.js';

const service = useTestService({ listen: true });
let client: Client;
const rows: string[] = [];
/** Tokens each kind's call sent, by kind. */
const sent = new Map<string, number>();
const tokens = (value: unknown) => Math.round((typeof value === 'string' ? value : JSON.stringify(value)).length / 4);

beforeAll(async () => {
  client = new Client({ name: 'structure-first', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(service.mcpUrl), { requestInit: { headers: { Authorization: `Bearer ${service.world.tokens.annAll}` } } }));
});
afterAll(async () => {
  await client?.close();
  console.log(`structure-first drawing, tokens (characters / 4) per call:\n${rows.join('\n')}`);
});

async function call(name: string, args: Record<string, unknown>) {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const text = result.content.map((c) => ('text' in c ? c.text : '')).join('');
  expect(result.isError, text).toBeFalsy();
  return { content: result.structuredContent as any, text, args };
}

/** The first icon search_icons offers for a query, as the guide tells a model to find one. */
async function icon(query: string, vendor?: string): Promise<string> {
  const { content } = await call('search_icons', { query, ...(vendor && { vendor }), limit: 1 });
  expect(content.items.length, query).toBe(1);
  return content.items[0].ref as string;
}

/** The stored scene, read back as a client would, and its containers from the membership the client sent. */
async function stored(id: string) {
  const { content } = await call('get_diagram', { id });
  return content.elements as Element[];
}

function membership(sent: Array<Record<string, unknown>>): Map<string, string> {
  return new Map(sent.flatMap((e) => (typeof e.parentId === 'string' ? [[e.id as string, e.parentId]] : [])));
}

async function drawn(kind: string, name: string, args: Record<string, unknown>, parents = new Map<string, string>()) {
  const answer = await call(name, { workspaceId: service.world.annWorkspace, name: kind, ...args });
  expect(answer.content.warnings).toEqual([]);
  const elements = await stored(answer.content.id);
  const report = checkScene(elements, parents);
  expect(report.violations, kind).toEqual([]);
  expect(report.nodes).toBeGreaterThan(2);
  // STRUCTURE_FIRST_PNG=<dir> writes each preview, to look at what was drawn.
  const dir = process.env.STRUCTURE_FIRST_PNG;
  if (dir) {
    const preview = (await client.callTool({ name: 'get_diagram', arguments: { id: answer.content.id, preview: true, scene: 'none' } })) as CallToolResult;
    const image = preview.content.find((c) => c.type === 'image') as { data: string } | undefined;
    if (image) writeFileSync(`${dir}/${kind}.png`, Buffer.from(image.data, 'base64'));
  }
  sent.set(kind, tokens(args));
  rows.push(`${kind.padEnd(14)} ${name.padEnd(18)} sent ${String(tokens(args)).padStart(5)}  answer ${String(tokens(answer.text)).padStart(5)}  stored scene ${String(tokens(elements)).padStart(6)}  nodes ${report.nodes} edges ${report.edges}`);
  return { id: answer.content.id as string, elements, args };
}

describe('five kinds of diagram through the official SDK client, no coordinates', () => {
  it('architecture with nested containers and icons (layout auto)', async () => {
    const elements = [
      { type: 'text', id: 'title', text: 'Photo sharing on AWS', fontSize: 24 },
      { type: 'frame', id: 'aws', name: 'AWS account' },
      { type: 'rectangle', id: 'vpc', text: 'VPC', parentId: 'aws', strokeStyle: 'dashed' },
      { type: 'rectangle', id: 'cdn', text: 'CDN', iconRef: await icon('cloudfront', 'aws'), parentId: 'aws' },
      { type: 'rectangle', id: 'api', text: 'API', iconRef: await icon('lambda', 'aws'), parentId: 'vpc' },
      { type: 'rectangle', id: 'db', text: 'Metadata', iconRef: await icon('dynamodb', 'aws'), parentId: 'vpc' },
      { type: 'rectangle', id: 'photos', text: 'Photos', iconRef: await icon('s3', 'aws'), parentId: 'aws' },
      { type: 'ellipse', id: 'user', text: 'User' },
      { type: 'arrow', startBinding: { elementId: 'user' }, endBinding: { elementId: 'cdn' }, text: 'HTTPS' },
      { type: 'arrow', startBinding: { elementId: 'cdn' }, endBinding: { elementId: 'api' } },
      { type: 'arrow', startBinding: { elementId: 'api' }, endBinding: { elementId: 'db' } },
      { type: 'arrow', startBinding: { elementId: 'api' }, endBinding: { elementId: 'photos' }, text: 'store' },
    ];
    const { elements: scene } = await drawn('architecture', 'create_diagram', { elements, layout: 'auto', autoIcons: false }, membership(elements));
    const box = (id: string) => scene.find((e) => e.id === id)!;
    expect(box('api').x).toBeGreaterThanOrEqual(box('vpc').x);
    expect(box('vpc').y).toBeGreaterThanOrEqual(box('aws').y);
    expect(box('api').icon).toBeDefined();
  });

  it('flowchart with a decision and labelled branches (layout auto)', async () => {
    const elements = [
      { type: 'terminator', id: 'start', text: 'Order received' },
      { type: 'diamond', id: 'paid', text: 'Paid?' },
      { type: 'rectangle', id: 'ship', text: 'Ship' },
      { type: 'rectangle', id: 'remind', text: 'Send reminder' },
      { type: 'terminator', id: 'end', text: 'Done' },
      { type: 'arrow', startBinding: { elementId: 'start' }, endBinding: { elementId: 'paid' } },
      { type: 'arrow', startBinding: { elementId: 'paid' }, endBinding: { elementId: 'ship' }, text: 'yes' },
      { type: 'arrow', startBinding: { elementId: 'paid' }, endBinding: { elementId: 'remind' }, text: 'no', strokeStyle: 'dashed' },
      { type: 'arrow', startBinding: { elementId: 'ship' }, endBinding: { elementId: 'end' } },
    ];
    await drawn('flowchart', 'create_diagram', { elements, layout: 'auto', autoIcons: false });
  });

  it('UML classes with inheritance, composition and multiplicities (Mermaid)', async () => {
    const code = [
      'classDiagram',
      '  class Shape {',
      '    <<abstract>>',
      '    +area() double',
      '  }',
      '  class Circle {',
      '    -double radius',
      '  }',
      '  class Drawing {',
      '    +String name',
      '  }',
      '  Shape <|-- Circle',
      '  Shape <|-- Square',
      '  Drawing "1" *-- "many" Shape : contains',
    ].join('\n');
    const { elements } = await drawn('class', 'diagram_from_code', { code });
    expect(elements.filter((e) => e.type === 'arrow').map((e) => (e as { endArrowhead: string; startArrowhead: string }).startArrowhead).sort()).toEqual(['diamond', 'triangle-outline', 'triangle-outline']);
  });

  it('ER tables with crow\'s feet (Mermaid)', async () => {
    // The same sample the New diagram page offers as its ER template.
    const code = (TEMPLATES.find((t) => t.id === 'er') as { code: string }).code;
    await drawn('ER', 'diagram_from_code', { code, notation: 'mermaid' });
  });

  it('Kubernetes workloads in a namespace with their icons (layout auto)', async () => {
    const elements = [
      { type: 'rectangle', id: 'ns', text: 'namespace shop' },
      { type: 'rectangle', id: 'ing', text: 'ingress', iconRef: await icon('ingress', 'kubernetes'), parentId: 'ns' },
      { type: 'rectangle', id: 'svc', text: 'web svc', iconRef: await icon('service', 'kubernetes'), parentId: 'ns' },
      { type: 'rectangle', id: 'deploy', text: 'web', iconRef: await icon('deployment', 'kubernetes'), parentId: 'ns' },
      { type: 'rectangle', id: 'sts', text: 'postgres', iconRef: await icon('statefulset', 'kubernetes'), parentId: 'ns' },
      { type: 'rectangle', id: 'pvc', text: 'data', iconRef: await icon('pvc', 'kubernetes'), parentId: 'ns' },
      { type: 'arrow', startBinding: { elementId: 'ing' }, endBinding: { elementId: 'svc' } },
      { type: 'arrow', startBinding: { elementId: 'svc' }, endBinding: { elementId: 'deploy' } },
      { type: 'arrow', startBinding: { elementId: 'deploy' }, endBinding: { elementId: 'sts' }, text: '5432' },
      { type: 'arrow', startBinding: { elementId: 'sts' }, endBinding: { elementId: 'pvc' } },
    ];
    await drawn('Kubernetes', 'create_diagram', { elements, layout: 'auto', autoIcons: false }, membership(elements));
  });
});

describe('layout auto at both doors', () => {
  const rest = (method: 'POST' | 'PATCH', url: string, token: string, payload: object) => service.runtime.app.inject({ method, url, headers: bearer(token), payload });
  const boxes = [
    { type: 'rectangle', id: 'a', text: 'A' },
    { type: 'rectangle', id: 'b', text: 'B' },
    { type: 'arrow', startBinding: { elementId: 'a' }, endBinding: { elementId: 'b' } },
  ];

  it('REST create places what came without coordinates; a layout it does not know is refused by name', async () => {
    const created = await rest('POST', '/api-v1/documents', service.world.tokens.annAll, { workspaceId: service.world.annWorkspace, name: 'rest auto', elements: boxes, layout: 'auto', autoIcons: false });
    expect(created.statusCode, created.body).toBe(201);
    const elements = created.json().elements as Element[];
    expect(elements.find((e) => e.id === 'a')!.y).toBeLessThan(elements.find((e) => e.id === 'b')!.y);
    const refused = await rest('POST', '/api-v1/documents', service.world.tokens.annAll, { workspaceId: service.world.annWorkspace, name: 'x', elements: boxes, layout: 'grid' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toMatchObject({ code: 'validation_failed', message: expect.stringContaining('layout') });
    // Without layout auto a shape needs its coordinates, as before.
    const unplaced = await rest('POST', '/api-v1/documents', service.world.tokens.annAll, { workspaceId: service.world.annWorkspace, name: 'x', elements: boxes });
    expect(unplaced.statusCode).toBe(400);
  });

  it('update_diagram lays out what is added without coordinates beside what stays; a read-only token may not', async () => {
    const { content } = await call('create_diagram', { workspaceId: service.world.annWorkspace, name: 'grows', elements: boxes, layout: 'auto', autoIcons: false });
    const stored1 = await stored(content.id);
    const a = stored1.find((e) => e.id === 'a')!;
    const grown = [...stored1, { type: 'rectangle', id: 'c', text: 'C' }, { type: 'arrow', startBinding: { elementId: 'b' }, endBinding: { elementId: 'c' } }];
    const updated = await call('update_diagram', { id: content.id, elements: grown, layout: 'auto', autoIcons: false });
    expect(updated.content.warnings).toEqual([]);
    const after = await stored(content.id);
    expect(after.find((e) => e.id === 'a')).toMatchObject({ x: a.x, y: a.y });
    const c = after.find((e) => e.id === 'c')!;
    expect(c.x).toBeGreaterThan(Math.max(...stored1.filter((e) => e.type !== 'arrow').map((e) => e.x + e.width)));
    expect(checkScene(after).violations).toEqual([]);
    const reader = await rest('PATCH', `/api-v1/documents/${content.id}`, service.world.tokens.annRead, { elements: grown, layout: 'auto' });
    expect(reader.statusCode).toBe(403);
  });
});

describe('round trips through export', () => {
  async function exportedAndReadBack(id: string) {
    const { content } = await call('export_to_code', { id, format: 'mermaid' });
    const again = await call('diagram_from_code', { workspaceId: service.world.annWorkspace, code: content.code, notation: 'mermaid' });
    return recoverGraph(await stored(again.content.id));
  }

  it('an Excalidraw skeleton laid out by the server comes back as the same structure', async () => {
    const skeleton = [
      { type: 'rectangle', id: 'client', label: { text: 'Client' } },
      { type: 'rectangle', id: 'gateway', label: { text: 'Gateway' } },
      { type: 'diamond', id: 'auth', label: { text: 'Auth?' } },
      { type: 'arrow', start: { id: 'client' }, end: { id: 'gateway' }, label: { text: 'calls' } },
      { type: 'arrow', start: { id: 'gateway' }, end: { id: 'auth' } },
    ];
    const { id, elements } = await drawn('skeleton', 'create_diagram', { elements: skeleton, layout: 'auto', autoIcons: false });
    const first = recoverGraph(elements);
    expect(first.nodes.map((n) => n.label).sort()).toEqual(['Auth?', 'Client', 'Gateway']);
    expect(first.edges.find((e) => e.label === 'calls')).toBeDefined();
    expect(structureOf(await exportedAndReadBack(id))).toEqual(structureOf(first));
  });

  it('a Mermaid ER diagram exports to Mermaid that draws the same tables and crow\'s feet', async () => {
    const { id, elements } = await drawn('Mermaid ER', 'diagram_from_code', { code: 'erDiagram\n  A ||--o{ B : has\n  B }|..|| C : uses\n  A {\n    int id PK\n  }' });
    expect(structureOf(await exportedAndReadBack(id))).toEqual(structureOf(recoverGraph(elements)));
  });
});

describe('the same architecture with coordinates, as a model had to write it before', () => {
  it('costs several times more to send, and the full answer several times more to read', async () => {
    const { content: list } = await call('list_diagrams', { workspaceId: service.world.annWorkspace });
    const laid = list.items.find((d: any) => d.name === 'architecture');
    const { content } = await call('get_diagram', { id: laid.id });
    // What a model wrote before layout auto: its own fields, plus every position, size and arrow route it computed.
    const geometry = ['x', 'y', 'width', 'height', 'points', 'startBinding', 'endBinding', 'text', 'type', 'id', 'name', 'iconRef', 'fillColor', 'strokeStyle', 'fontSize'];
    const byHand = (content.elements as Array<Record<string, unknown>>).map((e) => Object.fromEntries(geometry.filter((key) => e[key] !== undefined).map((key) => [key, e[key]])));
    const full = await call('create_diagram', { workspaceId: service.world.annWorkspace, name: 'placed by hand', elements: byHand, autoIcons: false, answer: 'full' });
    const summary = await call('create_diagram', { workspaceId: service.world.annWorkspace, name: 'placed by hand', elements: byHand, autoIcons: false });
    rows.push(`architecture   by hand (x/y/size/points)  sent ${String(tokens({ elements: byHand })).padStart(5)}  answer full ${String(tokens(full.text)).padStart(5)}  answer summary ${String(tokens(summary.text)).padStart(5)}`);
    expect(tokens({ elements: byHand })).toBeGreaterThan(2 * sent.get('architecture')!);
    expect(tokens(full.text)).toBeGreaterThan(3 * tokens(summary.text));
  });
});
