import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { GraphIR } from '../graph/types.js';
import { helmNotation } from '../notations/helm/index.js';
import { sizeInsets } from '../scene/insets.js';
import { README_WIDTH, READABLE_TEXT } from './drawing-rules.js';
import { layoutGraph } from './elk.js';
import { connectedComponents, packComponents, wrapInContainer } from './pack.js';
import type { Box, LaidOutGraph } from './types.js';

const graph = (part: Partial<GraphIR>): GraphIR => ({ layout: 'layered', direction: 'DOWN', nodes: [], edges: [], groups: [], warnings: [], ...part });
/** The widest drawing whose 14 px text stays at 11 px when fitted to a README column. */
const READABLE_WIDTH = (README_WIDTH * 14) / READABLE_TEXT;
const image = (name: string) => `${name}\nDeployment\nghcr.io/azure-samples/aks-store-demo/${name}:2.2.0`;

/** Six Service → Deployment pairs with long image names, as a Kubernetes manifest gives them, drawn top-down. */
const pairs = (part: Partial<GraphIR> = {}) =>
  graph({
    direction: 'DOWN',
    forcedDirection: true,
    nodes: ['orders', 'products', 'store-front', 'store-admin', 'makeline', 'virtual-worker'].flatMap((name) => [
      { id: `svc-${name}`, kind: 'service' as const, label: `${name}\nService` },
      { id: `deploy-${name}`, kind: 'service' as const, label: image(name) },
    ]),
    edges: ['orders', 'products', 'store-front', 'store-admin', 'makeline', 'virtual-worker'].map((name) => ({ id: name, from: `svc-${name}`, to: `deploy-${name}` })),
    ...part,
  });

const overlap = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
const overlaps = (laid: LaidOutGraph) => laid.nodes.flatMap((a, i) => laid.nodes.slice(i + 1).filter((b) => overlap(a, b)).map((b) => `${a.id}/${b.id}`));
const inside = (box: Box, outer: Box) => box.x >= outer.x && box.y >= outer.y && box.x + box.width <= outer.x + outer.width && box.y + box.height <= outer.y + outer.height;
const at = (laid: LaidOutGraph, id: string) => laid.nodes.find((node) => node.id === id)!;
/** Rows the nodes `ids` take: distinct tops. A staircase or a column takes one per node. */
const rowsOf = (laid: LaidOutGraph, ids: readonly string[]) => new Set(ids.map((id) => Math.round(at(laid, id).y))).size;

describe('fitting a README column', () => {
  it('packs unconnected pairs in rows narrow enough for 11 px text, each pair still drawn top-down as the author said', async () => {
    const laid = await layoutGraph(pairs());
    expect(laid.width).toBeLessThanOrEqual(READABLE_WIDTH);
    expect(overlaps(laid)).toEqual([]);
    // Every edge still joins its own pair, end to end.
    expect(laid.edges.map((edge) => edge.index).sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5]);
    for (const edge of laid.edges) {
      const { from, to } = pairs().edges[edge.index]!;
      const [source, target] = [at(laid, from), at(laid, to)];
      expect(edge.points[0]!.y).toBeCloseTo(source.y + source.height, 0);
      expect(edge.points.at(-1)!.y).toBeCloseTo(target.y, 0);
    }
  });

  it('sets a chart’s unrelated workloads in a grid on a landscape page, not one column (linkerd-viz)', async () => {
    // ELK starts every component in the first layer, so flowing sideways the six parts came out one column of
    // 404 × 1,072 px, more than half the page empty; top-down and packed they read as a grid. (They were Service →
    // workload pairs then; each Service is a row on its workload now.)
    const code = readFileSync(new URL('../../../test/fixtures/helm/linkerd-viz.values.yaml', import.meta.url), 'utf8');
    const { graph: chart } = sizeInsets(await helmNotation.toGraph(code));
    const laid = await layoutGraph(chart);
    expect(laid.width).toBeGreaterThan(laid.height);
    expect(laid.width).toBeLessThanOrEqual(READABLE_WIDTH);
    expect(overlaps(laid)).toEqual([]);
    const served = chart.nodes.filter((node) => node.rows?.some((row) => row.startsWith('Service'))).map((node) => node.id);
    expect(served).toHaveLength(4);
    // Two or more across, where the column had one.
    expect(new Set(chart.nodes.map((node) => Math.round(at(laid, node.id).x))).size).toBeGreaterThanOrEqual(2);
  });

  it('packs the contents of the one container that holds everything, and draws the container around them', async () => {
    const inNamespace = pairs({ groups: [{ id: 'ns', label: 'aks-store' }] });
    inNamespace.nodes = inNamespace.nodes.map((node) => ({ ...node, parent: 'ns' }));
    const laid = await layoutGraph(inNamespace);
    expect(laid.width).toBeLessThanOrEqual(READABLE_WIDTH);
    const [namespace] = laid.groups;
    expect(laid.nodes.filter((node) => !inside(node, namespace!)).map((node) => node.id)).toEqual([]);
    expect(inside(namespace!.title, namespace!)).toBe(true);
    expect(laid.nodes.every((node) => node.y > namespace!.title.y + namespace!.title.height)).toBe(true);
  });

  it('stacks the unrelated classes of a package along the flow when the package is not alone at the top', async () => {
    const member = (name: string) => ({ id: name, kind: 'class' as const, label: `${name}\n${'+ someRatherLongMethodName(argument: String): Result\n'.repeat(4)}`, parent: 'pkg' });
    const laid = await layoutGraph(
      graph({
        forcedDirection: true,
        groups: [{ id: 'pkg', label: 'com.example' }],
        nodes: [member('App'), member('Utility'), member('Promise'), member('Support'), { id: 'Map', kind: 'class', label: 'Map' }],
        edges: [{ id: 'uses', from: 'Utility', to: 'Map' }],
      }),
    );
    expect(laid.width).toBeLessThanOrEqual(READABLE_WIDTH);
    expect(overlaps(laid)).toEqual([]);
    const [pkg] = laid.groups;
    expect(laid.nodes.filter((node) => node.id !== 'Map' && !inside(node, pkg!)).map((node) => node.id)).toEqual([]);
  });


  it('sets the members of a subgraph that join nothing among themselves in rows, not a staircase', async () => {
    // A Mermaid subgraph of six agents, each called from outside and calling out (BusinessInfinity's architecture):
    // stacked one after the other along the flow, each stepped aside of its neighbour's edges, a node per step.
    const agents = ['Marketing', 'Finance', 'Technology', 'Operations', 'Sales', 'Legal'].map((name) => `${name} Agent → ${name} LoRA adapter`);
    const laid = await layoutGraph(
      graph({
        forcedDirection: true,
        groups: [{ id: 'sk', label: 'Semantic Kernel Multi-Agents' }],
        nodes: [
          { id: 'gov', kind: 'service', label: 'Governance / Validation' },
          ...agents.map((label, i) => ({ id: `agent${i}`, kind: 'service' as const, label, parent: 'sk' })),
          { id: 'endpoints', kind: 'service', label: 'Online Endpoints' },
        ],
        edges: agents.flatMap((_, i) => [
          { id: `call${i}`, from: 'gov', to: `agent${i}` },
          { id: `infer${i}`, from: `agent${i}`, to: 'endpoints' },
        ]),
      }),
    );
    expect(overlaps(laid)).toEqual([]);
    // Two or three to a row (the edges to the rows below pass between them); the staircase took six.
    expect(rowsOf(laid, agents.map((_, i) => `agent${i}`))).toBeLessThanOrEqual(3);
  });

  it('sets the unrelated classes of a package in rows when it stacks the package, not in one column', async () => {
    // java-design-patterns' commander: test-case classes no edge touches, beside classes that use each other; stacked
    // one after the other, they made the package a column (924 × 2,434 px here, six rows of them).
    const member = (name: string, parent = 'pkg') => ({ id: name, kind: 'class' as const, label: `${name}\n${'~ employeeDatabaseUnavailableCase() : void\n'.repeat(6)}+ main(args : String[])`, parent });
    const cases = ['EmployeeDbFailCases', 'MessagingFailCases', 'PaymentFailCases', 'QueueFailCases', 'ShippingFailCases', 'AllCases'].map((name) => `App${name}`);
    const laid = await layoutGraph(
      graph({
        groups: [{ id: 'pkg', label: 'com.iluwatar.commander' }, { id: 'queue', label: 'com.iluwatar.commander.queue' }],
        nodes: [...cases.map((name) => member(name)), member('Order'), member('User'), member('Commander'), member('QueueTask', 'queue')],
        edges: [
          { id: 'user', from: 'Order', to: 'User' },
          { id: 'order', from: 'QueueTask', to: 'Order' },
          { id: 'queue', from: 'Commander', to: 'QueueTask' },
        ],
      }),
    );
    expect(overlaps(laid)).toEqual([]);
    expect(rowsOf(laid, cases)).toBeLessThanOrEqual(3);
    expect(laid.height / laid.width).toBeLessThan(2);
  });

  it('spreads one too-wide layer over more rows when the flow must stay top-down and nothing can be packed', async () => {
    const table = (id: string) => ({ id, kind: 'entity' as const, label: id, rows: ['id int', 'name varchar(45)', 'created_at timestamp', 'updated_at timestamp'] });
    const sources = Array.from({ length: 6 }, (_, i) => `child_table_${i}`);
    const laid = await layoutGraph(
      graph({
        forcedDirection: true,
        nodes: [table('parent_table'), ...sources.map(table)],
        edges: sources.map((id) => ({ id, from: id, to: 'parent_table' })),
      }),
    );
    // Six tables side by side would need 1,295 px.
    expect(laid.width).toBeLessThanOrEqual(READABLE_WIDTH);
    expect(overlaps(laid)).toEqual([]);
    const parent = at(laid, 'parent_table');
    for (const id of sources) expect(at(laid, id).y + at(laid, id).height).toBeLessThan(parent.y);
  });

  it('cuts a long flow into columns side by side, every edge still ending on its nodes', async () => {
    // A 30-step flow with a decision every third step, its "yes" branch skipping one step.
    const steps = Array.from({ length: 30 }, (_, i) => ({ id: `step${i}`, kind: 'service' as const, label: `step number ${i}` }));
    const next = steps.slice(1).map((step, i) => ({ id: `next${i}`, from: `step${i}`, to: step.id }));
    const skips = steps.filter((_, i) => i % 3 === 0 && i + 2 < steps.length).map((_, k) => ({ id: `yes${k}`, from: `step${3 * k}`, to: `step${3 * k + 2}`, label: 'yes' }));
    const flow = graph({ nodes: steps, edges: [...next, ...skips] });
    const laid = await layoutGraph(flow);
    // In one column the flow is 13 times as tall as it is wide.
    expect(Math.max(laid.width / laid.height, laid.height / laid.width)).toBeLessThanOrEqual(3);
    expect(overlaps(laid)).toEqual([]);
    const near = (point: { x: number; y: number }, box: Box) => point.x >= box.x - 1 && point.x <= box.x + box.width + 1 && point.y >= box.y - 1 && point.y <= box.y + box.height + 1;
    for (const edge of laid.edges) {
      const { from, to } = flow.edges[edge.index]!;
      expect(near(edge.points[0]!, at(laid, from)) && near(edge.points.at(-1)!, at(laid, to)), flow.edges[edge.index]!.id).toBe(true);
    }
  });

  it('turns a long chain whose direction is free, and keeps one the author wrote', async () => {
    const chain = (forcedDirection?: true) =>
      graph({
        direction: 'RIGHT',
        nodes: Array.from({ length: 8 }, (_, i) => ({ id: `step${i}`, kind: 'service' as const, label: `step number ${i}` })),
        edges: Array.from({ length: 7 }, (_, i) => ({ id: `e${i}`, from: `step${i}`, to: `step${i + 1}` })),
        ...(forcedDirection && { forcedDirection }),
      });
    const free = await layoutGraph(chain());
    expect(free.width).toBeLessThanOrEqual(READABLE_WIDTH);
    expect(at(free, 'step7').y).toBeGreaterThan(at(free, 'step0').y);
    const kept = await layoutGraph(chain(true));
    expect(kept.width).toBeGreaterThan(READABLE_WIDTH);
    expect(at(kept, 'step7').x).toBeGreaterThan(at(kept, 'step0').x);
  });
});

describe('connectedComponents', () => {
  it('keeps a container with everything inside it and joins what an edge to its contents reaches', () => {
    const parts = connectedComponents(
      graph({
        groups: [{ id: 'vpc', label: 'VPC' }],
        nodes: [
          { id: 'subnet', kind: 'network', label: 'subnet', parent: 'vpc' },
          { id: 'lb', kind: 'network', label: 'lb' },
          { id: 'alone', kind: 'service', label: 'alone' },
        ],
        edges: [{ id: 'e', from: 'lb', to: 'subnet' }],
      }),
    );
    expect(parts?.map((part) => [...part.groups.map((g) => g.id), ...part.nodes.map((n) => n.id)])).toEqual([['vpc', 'subnet', 'lb'], ['alone']]);
  });

  it('finds nothing to pack in a connected graph', () => {
    expect(connectedComponents(pairs({ edges: [...pairs().edges, { id: 'x', from: 'deploy-orders', to: 'svc-products' }] }))?.length).toBe(5);
    expect(connectedComponents(graph({ nodes: [{ id: 'a', kind: 'service', label: 'a' }, { id: 'b', kind: 'service', label: 'b' }], edges: [{ id: 'e', from: 'a', to: 'b' }] }))).toBeUndefined();
  });
});

describe('packComponents', () => {
  it('stacks a short component under another beside a tall one, rather than opening a row for it', () => {
    // aks-store's quickstart: a chain of four beside two Service → Deployment pairs; the third pair opened a row of its own.
    const one = (id: string, width: number, height: number) => ({
      part: graph({ nodes: [{ id, label: id, kind: 'service' }] }),
      laid: { nodes: [{ id, x: 0, y: 0, width, height, box: {} as LaidOutGraph['nodes'][number]['box'] }], groups: [], edges: [], warnings: [], width, height } as LaidOutGraph,
    });
    const parts = [one('orders', 386, 916), one('products', 404, 424), one('store-front', 383, 424)];
    const whole = graph({ nodes: parts.flatMap(({ part }) => part.nodes) });
    const packed = packComponents(whole, parts.map(({ part }) => part), parts.map(({ laid }) => laid), 900);
    const [products, storeFront] = [at(packed, 'products'), at(packed, 'store-front')];
    expect(storeFront.x).toBe(products.x);
    expect(storeFront.y).toBe(products.y + products.height + 70);
    // Two px taller than the chain, where a row of its own made it 1,410 px.
    expect([packed.width, packed.height]).toEqual([386 + 70 + 404, 918]);
  });

  it('on a skyline, fills the room a row leaves under its shorter parts', () => {
    // Unrelated tables of a schema, as tall as their columns are many: a row is as tall as its tallest.
    const table = (id: string, height: number) => ({
      part: graph({ nodes: [{ id, label: id, kind: 'entity' }] }),
      laid: { nodes: [{ id, x: 0, y: 0, width: 300, height, box: {} as LaidOutGraph['nodes'][number]['box'] }], groups: [], edges: [], warnings: [], width: 300, height } as LaidOutGraph,
    });
    const parts = [table('job', 600), table('detail', 550), table('batch', 500), table('task', 250), table('comment', 250), table('filter', 250)];
    const whole = graph({ nodes: parts.flatMap(({ part }) => part.nodes) });
    const args = [whole, parts.map(({ part }) => part), parts.map(({ laid }) => laid), 1100] as const;
    const [rows, skyline] = [packComponents(...args), packComponents(...args, { skyline: true })];
    // Tables joined to nothing stand SPACING.nodeNode apart, as the nodes of a layer (16 px within ELK's 12 px padding).
    // Rows: task under batch, then comment and filter in a second row under the tallest, 1,032 px in all.
    expect([rows.width, rows.height]).toEqual([932, 1032]);
    // Skyline: each short table under one of the three tall ones, the lowest first.
    expect([skyline.width, skyline.height]).toEqual([932, 866]);
    expect(overlaps(skyline)).toEqual([]);
    expect(['task', 'comment', 'filter'].map((id) => at(skyline, id).x).sort((a, b) => a - b)).toEqual([0, 316, 632]);
  });

  it('on a skyline, sets a part as wide as the drawing above the others, not as a roof over the room beside a taller one', () => {
    // Flowable's schema: a fan of job tables 1,264 × 2,050 px, its CMMN chain 2,481 px wide and 450 tall, and tables
    // joined to nothing. Placed second, the chain went under the fan and the tables under the chain: 2,505 × 4,097 px,
    // the 1,240 px beside the fan left empty.
    // A box stands for a component, its tables joined (an edge), or for a table joined to nothing.
    const part = (id: string, width: number, height: number, joined = true) => ({
      part: graph({ nodes: [{ id, label: id, kind: 'entity' }], edges: joined ? [{ id: `${id}-joined`, from: id, to: id }] : [] }),
      laid: { nodes: [{ id, x: 0, y: 0, width, height, box: {} as LaidOutGraph['nodes'][number]['box'] }], groups: [], edges: [], warnings: [], width, height } as LaidOutGraph,
    });
    const tables = Array.from({ length: 12 }, (_, i) => part(`table${i}`, 300, 250, false));
    const parts = [part('fan', 1264, 2050), part('cmmn', 2481, 450), ...tables];
    const whole = graph({ nodes: parts.flatMap(({ part }) => part.nodes) });
    const skyline = packComponents(whole, parts.map(({ part }) => part), parts.map(({ laid }) => laid), 2036, { skyline: true });
    expect(overlaps(skyline)).toEqual([]);
    // The chain on top, the fan under it at the left, the twelve tables in three columns of four beside the fan.
    expect([at(skyline, 'cmmn').y, at(skyline, 'fan').y]).toEqual([0, 450 + 70]);
    expect(tables.every(({ laid }) => at(skyline, laid.nodes[0]!.id).x > 1264)).toBe(true);
    expect(skyline.height).toBe(450 + 70 + 2050);
  });
});

describe('wrapInContainer', () => {
  it('centres contents narrower than the container across it, as ELK does with the containers it lays out', () => {
    // A namespace's two packed services, 200 px in all, in a container 440 px wide at least: they sat at its left.
    const inner = { nodes: [{ id: 'web', x: 12, y: 12, width: 176, height: 60, box: {} as LaidOutGraph['nodes'][number]['box'] }], groups: [], edges: [{ index: 0, points: [{ x: 100, y: 72 }, { x: 100, y: 120 }], labels: [] }], warnings: [], width: 200, height: 84 } as LaidOutGraph;
    const wrapped = wrapInContainer(inner, { id: 'shop', label: 'shop' });
    const [container, web] = [wrapped.groups[0]!, at(wrapped, 'web')];
    expect(container.width).toBeGreaterThan(inner.width + 100);
    expect(web.x + web.width / 2).toBeCloseTo(container.x + container.width / 2, 0);
    expect(wrapped.edges[0]!.points[0]!.x).toBeCloseTo(container.x + container.width / 2, 0);
  });
});
