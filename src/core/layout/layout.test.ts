import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import type { GraphIR } from '../graph/types.js';
import { dotNotation } from '../notations/dot/index.js';
import { mermaidNotation } from '../notations/mermaid/index.js';
import { plantumlNotation } from '../notations/plantuml/index.js';
import { sqlNotation } from '../notations/sql/index.js';
import { CONTAINER_MIN_WIDTH, CROWDED_HEADS, FONT, LARGE_WIDTH, MAX_ASPECT, NODE_BOX, SPACING } from './drawing-rules.js';
import { layoutGraph, separateEdgeRuns } from './elk.js';
import { measureText } from './measure.js';
import { loadRenderFonts } from '../../infra/fonts.js';
import { wrapText as renderWrap } from '../render/text.js';
import { shapeGeometry } from '../render/outlines.js';
import { LABEL_PADDING } from '../render/constants.js';
import { heightWithIcon, sizeNode, wrapText } from './node-size.js';
import { FIGURE_SIZES } from '../scene/constants.js';
import { nearestGap, placeTitles } from './titles.js';

const fonts = loadRenderFonts();
const graph = (part: Partial<GraphIR>): GraphIR => ({ layout: 'layered', direction: 'DOWN', nodes: [], edges: [], groups: [], warnings: [], ...part });

describe('measureText', () => {
  it('tells wide glyphs from narrow ones', () => {
    expect(measureText('WWWW', 16, 'normal').width).toBeGreaterThan(measureText('iiii', 16, 'normal').width * 2);
  });

  it('measures the widest line and one line height per line', () => {
    const size = measureText('short\na much longer line', 16, 'normal');
    expect(size.width).toBe(measureText('a much longer line', 16, 'normal').width);
    expect(size.height).toBe(Math.ceil(2 * 16 * 1.25));
  });

  it('gives every glyph the same advance in the code font', () => {
    expect(measureText('iiii', 10, 'code').width).toBe(measureText('WWWW', 10, 'code').width);
  });

  it('gives CJK glyphs a full em', () => {
    expect(measureText('数据库', 20, 'normal').width).toBeGreaterThanOrEqual(60);
  });
});

describe('sizeNode', () => {
  it('wraps a long label so the box stays within 420 px', () => {
    const box = sizeNode({ id: 'a', kind: 'service', label: 'a rather long label '.repeat(10) });
    expect(box.width).toBeLessThanOrEqual(NODE_BOX.maxWidth);
    expect(box.label.split('\n').length).toBeGreaterThan(1);
    for (const line of box.label.split('\n')) expect(measureText(line, FONT.label, FONT.family).width).toBeLessThanOrEqual(box.width);
  });

  it('breaks a word too long for any box after its separators, not mid-name, in the layout and the renderer alike', () => {
    const image = 'us-central1-docker.pkg.dev/online-boutique-ci/microservices-demo/frontend:v0.10.6';
    const lines = wrapText(image, 200, FONT.label);
    expect(lines.length).toBeGreaterThan(1);
    expect(lines.join('')).toBe(image);
    for (const line of lines.slice(0, -1)) expect(line).toMatch(/[/\-._:]$/);
    const drawn = renderWrap(fonts, image, 200, { family: 'normal', size: FONT.label });
    expect(drawn).toEqual(lines);
    // A piece with no separator is still cut between characters when it alone is too wide.
    expect(wrapText('x'.repeat(60), 200, FONT.label).length).toBeGreaterThan(1);
  });

  it.each(['arrow-right', 'arrow-down', 'step'] as const)('sizes a %s (block arrows, D2\'s step chevron) so its wrapped label fits the part the renderer draws it on', (shape) => {
    const label = 'Provision the cluster and wait for every node to report Ready';
    const box = sizeNode({ id: 's', kind: 'action', label, shape });
    const { textBox } = shapeGeometry(shape, { x: 0, y: 0, width: box.width, height: box.height }, 'sharp');
    const lines = renderWrap(fonts, box.label, textBox.width, { family: 'normal', size: FONT.label });
    expect(lines.length * FONT.label * 1.25).toBeLessThanOrEqual(textBox.height);
    expect(lines.join(' ').replace(/\s+/g, ' ')).toBe(label);
  });

  it.each(['diamond', 'triangle', 'star', 'ellipse', 'arrow-down'] as const)('keeps an identifier whole in a %s when the shape is wide enough for it, as the renderer draws it', (shape) => {
    for (const label of ['MachineDeploymentReconciler', 'kube-controller-manager', 'aws_iam_role_policy_attachment.cluster']) {
      const box = sizeNode({ id: 'n', kind: 'decision', label, shape });
      expect(box.label).toBe(label);
      const { textBox } = shapeGeometry(shape, { x: 0, y: 0, width: box.width, height: box.height }, 'sharp');
      expect(renderWrap(fonts, box.label, textBox.width, { family: 'normal', size: FONT.label }, box.width - 16)).toEqual([label]);
    }
  });

  it('sizes a cylinder so a label of several lines sits between its cap and its bottom rim, as the renderer draws it', () => {
    // A Kubernetes Deployment of postgres: its four lines ran onto the cap.
    const box = sizeNode({ id: 'db', kind: 'database', label: 'db\nDeployment\n1 replica\npostgres:15-alpine' });
    expect(box.shape).toBe('cylinder');
    const { textBox } = shapeGeometry('cylinder', { x: 0, y: 0, width: box.width, height: box.height }, 'sharp');
    const lines = renderWrap(fonts, box.label, textBox.width, { family: 'normal', size: FONT.label });
    expect(lines).toHaveLength(4);
    // Between the cap's front rim and the bottom rim: the renderer's label padding may be used, not the outline.
    expect(lines.length * FONT.label * 1.25).toBeLessThanOrEqual(textBox.height + 2 * LABEL_PADDING);
    // A layer's common width may widen it, and a wider cylinder has deeper rims: the label still fits.
    const wide = shapeGeometry('cylinder', { x: 0, y: 0, width: NODE_BOX.maxWidth, height: box.height }, 'sharp');
    expect(lines.length * FONT.label * 1.25).toBeLessThanOrEqual(wide.textBox.height + 2 * LABEL_PADDING);
  });

  it('sizes an actor as a person: the figure at the top, the label in the room under its feet', () => {
    for (const label of ['Customer', 'Personal Banking Customer\nA customer of the bank, with personal bank accounts.']) {
      const box = sizeNode({ id: 'c', kind: 'actor', label });
      expect(box.shape).toBe('person');
      const geometry = shapeGeometry('person', { x: 0, y: 0, width: box.width, height: box.height }, 'sharp');
      const feet = FIGURE_SIZES.person.height;
      // The figure keeps its natural height; the label starts under the feet and its lines fit the room left.
      expect(geometry.textBox.y).toBeGreaterThan(feet);
      const lines = renderWrap(fonts, box.label, geometry.textBox.width, { family: 'normal', size: FONT.label });
      expect(lines.length * FONT.label * 1.25).toBeLessThanOrEqual(geometry.textBox.height + 2 * LABEL_PADDING);
    }
  });

  it('keeps small labels at the minimum node size', () => {
    const box = sizeNode({ id: 'a', kind: 'generic', label: 'a' });
    expect([box.width, box.height]).toEqual([NODE_BOX.minWidth, NODE_BOX.minHeight]);
  });

  it('leaves room above the label for an icon when the node has a resolved icon, and none for an unresolved hint', () => {
    const plain = sizeNode({ id: 'a', kind: 'database', label: 'orders' });
    const withIcon = sizeNode({ id: 'a', kind: 'database', label: 'orders', iconRef: 'databases/PostgreSQL' });
    expect(sizeNode({ id: 'a', kind: 'database', label: 'orders', iconHint: 'unheard-of' }).icon).toBe(false);
    expect(withIcon.icon).toBe(true);
    expect(withIcon.height).toBeGreaterThan(plain.height);
    expect(withIcon.height).toBeGreaterThanOrEqual(heightWithIcon(measureText('orders', FONT.label, FONT.family).height));
    expect(withIcon.height).toBeLessThanOrEqual(NODE_BOX.maxHeight);
  });

  it('makes a table with a header band and one row per column, without an icon', () => {
    const box = sizeNode({ id: 't', kind: 'entity', label: 'users', rows: ['id int PK', 'email text'], iconHint: 'table' });
    expect(box.rows).toEqual(['id int PK', 'email text']);
    expect(box.headerHeight).toBeGreaterThan(0);
    expect(box.height).toBeGreaterThan(box.headerHeight + 2 * 14);
    expect(box.icon).toBe(false);
  });

  it('gives a diamond room for its label inside the outline', () => {
    const box = sizeNode({ id: 'd', kind: 'decision', label: 'approved?' });
    expect(box.shape).toBe('diamond');
    expect(box.width).toBeGreaterThanOrEqual(2 * measureText('approved?', FONT.label, FONT.family).width);
  });

  it('draws an unknown shape name as a rectangle', () => {
    expect(sizeNode({ id: 'a', kind: 'generic', label: 'x', shape: 'blob' }).shape).toBe('rectangle');
  });
});

describe('layoutGraph', () => {
  const nested = (direction: GraphIR['direction']) =>
    graph({
      direction,
      groups: [
        { id: 'vpc', label: 'VPC' },
        { id: 'subnet', label: 'subnet', parent: 'vpc' },
      ],
      nodes: [
        { id: 'lb', label: 'load balancer', kind: 'gateway' },
        { id: 'app', label: 'app', kind: 'service', parent: 'subnet' },
        { id: 'db', label: 'db', kind: 'database', parent: 'vpc' },
      ],
      edges: [
        { id: 'e1', from: 'lb', to: 'app', label: 'https' },
        { id: 'e2', from: 'app', to: 'db' },
      ],
    });

  for (const direction of ['DOWN', 'RIGHT'] as const) {
    it(`lays containers out around their contents, wider than 420 px (${direction})`, async () => {
      const laid = await layoutGraph(nested(direction));
      const box = (id: string) => [...laid.nodes, ...laid.groups].find((item) => item.id === id)!;
      for (const group of laid.groups) expect(group.width).toBeGreaterThanOrEqual(CONTAINER_MIN_WIDTH);
      const inside = (inner: string, outer: string) => {
        const a = box(inner);
        const b = box(outer);
        expect(a.x).toBeGreaterThanOrEqual(b.x);
        expect(a.y).toBeGreaterThanOrEqual(b.y);
        expect(a.x + a.width).toBeLessThanOrEqual(b.x + b.width);
        expect(a.y + a.height).toBeLessThanOrEqual(b.y + b.height);
      };
      inside('app', 'subnet');
      inside('subnet', 'vpc');
      inside('db', 'vpc');
      // The title sits in the container's top padding, above everything inside.
      const vpc = laid.groups.find((group) => group.id === 'vpc')!;
      expect(vpc.title.y + vpc.title.height).toBeLessThanOrEqual(box('subnet').y);
    });
  }

  it('keeps an empty container wider than 420 px too', async () => {
    for (const direction of ['DOWN', 'RIGHT'] as const) {
      const laid = await layoutGraph(graph({ direction, groups: [{ id: 'empty', label: 'empty' }] }));
      expect(laid.groups[0]!.width).toBeGreaterThanOrEqual(CONTAINER_MIN_WIDTH);
      expect(laid.groups[0]!.height).toBeLessThan(CONTAINER_MIN_WIDTH);
    }
  });

  it('routes edges as right-angle polylines from outline to outline', async () => {
    const laid = await layoutGraph(nested('DOWN'));
    for (const edge of laid.edges) {
      expect(edge.points.length).toBeGreaterThanOrEqual(2);
      for (let i = 1; i < edge.points.length; i++) {
        const [a, b] = [edge.points[i - 1]!, edge.points[i]!];
        expect(Math.abs(a.x - b.x) < 0.01 || Math.abs(a.y - b.y) < 0.01).toBe(true);
      }
    }
    const label = laid.edges[0]!.labels[0]!;
    expect(label.text).toBe('https');
    expect(label.width).toBeGreaterThanOrEqual(measureText('https', FONT.edgeLabel, FONT.family).width);
  });

  it('respects the direction: RIGHT puts the target to the right, DOWN below', async () => {
    const two = (direction: GraphIR['direction']) =>
      graph({ direction, nodes: [{ id: 'a', label: 'a', kind: 'generic' }, { id: 'b', label: 'b', kind: 'generic' }], edges: [{ id: 'e', from: 'a', to: 'b' }] });
    const right = await layoutGraph(two('RIGHT'));
    const down = await layoutGraph(two('DOWN'));
    const at = (laid: typeof right, id: string) => laid.nodes.find((node) => node.id === id)!;
    expect(at(right, 'b').x).toBeGreaterThan(at(right, 'a').x + at(right, 'a').width);
    expect(at(down, 'b').y).toBeGreaterThan(at(down, 'a').y + at(down, 'a').height);
  });

  it('breaks cycles at the back edge, so a looping chain still reads in order along the direction', async () => {
    const at = (laid: Awaited<ReturnType<typeof layoutGraph>>, id: string) => laid.nodes.find((node) => node.id === id)!;
    // a -> b -> c -> d with d looping back to b: only d -> b may point against the direction.
    const loop = dotNotation.toGraph('digraph { a -> b -> c -> d; d -> b }');
    for (const direction of ['DOWN', 'RIGHT'] as const) {
      const laid = await layoutGraph({ ...loop, direction });
      const pos = (id: string) => (direction === 'DOWN' ? at(laid, id).y : at(laid, id).x);
      expect(pos('a')).toBeLessThan(pos('b'));
      expect(pos('b')).toBeLessThan(pos('c'));
      expect(pos('c')).toBeLessThan(pos('d'));
    }
    // The Graphviz gallery's cluster graph: a3 -> a0 closes the loop; start is at the top, end at the bottom.
    const cluster = await layoutGraph(dotNotation.toGraph(readFileSync(new URL('../../../test/fixtures/dot/gallery-cluster.gv', import.meta.url), 'utf8')));
    const chain = ['start', 'a0', 'a1', 'a2', 'a3', 'end'];
    for (let i = 1; i < chain.length; i++) expect(at(cluster, chain[i - 1]!).y).toBeLessThan(at(cluster, chain[i]!).y);
  });

  it('skips, with a warning, edges to unknown ids and edges into their own container', async () => {
    const laid = await layoutGraph(
      graph({
        groups: [{ id: 'g', label: 'g' }],
        nodes: [{ id: 'a', label: 'a', kind: 'generic', parent: 'g' }],
        edges: [
          { id: 'e1', from: 'a', to: 'ghost' },
          { id: 'e2', from: 'a', to: 'g' },
        ],
      }),
    );
    expect(laid.edges).toEqual([]);
    expect(laid.warnings).toEqual([
      'edge "e1": "ghost" is neither a node nor a group; the edge is not drawn',
      'edge "e2": joins a container to something inside it; the edge is not drawn',
    ]);
  });

  it('draws items whose parent is missing or cyclic at the top level, with a warning', async () => {
    const laid = await layoutGraph(
      graph({
        groups: [
          { id: 'g1', label: 'g1', parent: 'g2' },
          { id: 'g2', label: 'g2', parent: 'g1' },
        ],
        nodes: [{ id: 'a', label: 'a', kind: 'generic', parent: 'nowhere' }],
      }),
    );
    expect(laid.nodes).toHaveLength(1);
    expect(laid.groups).toHaveLength(2);
    expect(laid.warnings).toContain('node "a": parent "nowhere" is not a group; drawn at the top level');
    expect(laid.warnings.some((warning) => warning.includes('form a cycle'))).toBe(true);
  });

  it('keeps a node and a group that share an id apart', async () => {
    const laid = await layoutGraph(graph({ groups: [{ id: 'db', label: 'db network' }], nodes: [{ id: 'db', label: 'db', kind: 'database', parent: 'db' }] }));
    expect(laid.nodes.map((node) => node.id)).toEqual(['db']);
    expect(laid.groups.map((group) => group.id)).toEqual(['db']);
  });

  it.each(['RIGHT', 'DOWN'] as const)('packs unconnected nodes into a landscape block, not one long line (%s)', async (direction) => {
    const nodes = Array.from({ length: 12 }, (_, i) => ({ id: `service-${i}`, label: `service ${i}`, kind: 'service' as const }));
    // Two connected nodes beside them, in a container, and three loose nodes in it too (below the packing threshold).
    const laid = await layoutGraph(
      graph({
        direction,
        nodes: [...nodes, ...['x', 'y', 'p', 'q', 'r'].map((id) => ({ id, label: id, kind: 'generic' as const, parent: 'box' }))],
        groups: [{ id: 'box', label: 'box' }],
        edges: [{ id: 'x-y', from: 'x', to: 'y' }],
      }),
    );
    const loose = laid.nodes.filter((node) => node.id.startsWith('service-'));
    const columns = new Set(loose.map((node) => Math.round(node.x)));
    const rows = new Set(loose.map((node) => Math.round(node.y)));
    expect(Math.min(columns.size, rows.size)).toBeGreaterThanOrEqual(3);
    expect(laid.width / laid.height).toBeGreaterThan(0.8);
    expect(laid.width / laid.height).toBeLessThan(4);
    // Only the real edge comes back.
    expect(laid.edges.map((edge) => edge.index)).toEqual([0]);
  });

  it('gives the edges that reach a hub from other containers one shared end point, so one arrowhead', async () => {
    const sources = ['a', 'b', 'c', 'd', 'e'];
    const laid = await layoutGraph(
      graph({
        direction: 'RIGHT',
        groups: [{ id: 'core', label: 'core' }, ...sources.map((id) => ({ id: `box-${id}`, label: `box ${id}` }))],
        nodes: [
          { id: 'hub', label: 'hub', kind: 'generic', parent: 'core' },
          { id: 'z', label: 'z', kind: 'generic' },
          ...sources.map((id) => ({ id, label: id, kind: 'generic' as const, parent: `box-${id}` })),
        ],
        edges: [...sources.map((id) => ({ id: `${id}-hub`, from: id, to: 'hub' })), { id: 'card', from: 'hub', to: 'z', endLabel: '0..*' }],
      }),
    );
    const hub = laid.nodes.find((node) => node.id === 'hub')!;
    const ends = laid.edges.filter((edge) => edge.index < sources.length).map((edge) => edge.points.at(-1));
    expect(new Set(ends.map((end) => JSON.stringify(end))).size).toBe(1);
    expect(ends[0]).toEqual({ x: hub.x, y: hub.y + hub.height / 2 });
    for (const edge of laid.edges) for (const [from, to] of edge.points.slice(1).map((to, i) => [edge.points[i]!, to])) expect(from!.x === to!.x || from!.y === to!.y).toBe(true);
  });

  it('gives the edges that end on a container (a box of services its sources all depend on) one shared end point too', async () => {
    const sources = ['a', 'b', 'c', 'd', 'e'];
    const laid = await layoutGraph(
      graph({
        direction: 'RIGHT',
        groups: [{ id: 'shared', label: 'used by a, b, c, d, e' }],
        nodes: [...['x', 'y', 'z'].map((id) => ({ id, label: id, kind: 'generic' as const, parent: 'shared' })), ...sources.map((id) => ({ id, label: id, kind: 'generic' as const }))],
        edges: sources.map((id) => ({ id: `${id}-shared`, from: id, to: 'shared' })),
      }),
    );
    const box = laid.groups.find((group) => group.id === 'shared')!;
    const ends = laid.edges.map((edge) => edge.points.at(-1));
    expect(new Set(ends.map((end) => JSON.stringify(end))).size).toBe(1);
    expect(ends[0]).toEqual({ x: box.x, y: box.y + box.height / 2 });
  });

  it('leaves room between the layers inside a container for the arrows there to read (a subgraph\'s chain was 15 px apart)', async () => {
    const laid = await layoutGraph(await mermaidNotation.toGraph('flowchart TD\n  subgraph Host\n    F[Azure Functions] --> G[Governance]\n    F --> G\n    F --> G\n  end\n  UI --> F'));
    const [f, g] = ['F', 'G'].map((id) => laid.nodes.find((node) => node.id === id)!);
    expect(g!.y - (f!.y + f!.height)).toBeGreaterThanOrEqual(SPACING.containerBetweenLayers);
  });

  it('centres contents narrower than a container across it, nested containers and edges included, either way the flow runs', async () => {
    /** How far the middle of what a container holds (nodes, inner containers, the edges' bends) lies from its own middle. */
    const offCentre = async (source: string) => {
      const laid = await layoutGraph(await mermaidNotation.toGraph(source));
      const inside = (box: { x: number; y: number }, group: (typeof laid.groups)[number]) => box.x > group.x && box.x < group.x + group.width && box.y > group.y && box.y < group.y + group.height;
      return laid.groups.flatMap((group) => {
        const items = [
          ...[...laid.nodes, ...laid.groups].filter((item) => item !== group && inside(item, group)),
          ...laid.edges.flatMap((edge) => edge.points.filter((point) => inside(point, group)).map((point) => ({ ...point, width: 0 }))),
        ];
        const left = Math.min(...items.map((item) => item.x));
        const right = Math.max(...items.map((item) => item.x + item.width));
        // Only containers with room to spare: one its contents fill is centred whatever ELK does.
        return group.width - (right - left) > 100 ? [Math.abs((left + right) / 2 - (group.x + group.width / 2))] : [];
      });
    };
    const nested = 'subgraph S[Small]\n    a[A]\n  end\n  subgraph T[Two]\n    b[B] --> c[C]\n    subgraph N[Nested]\n      d[D]\n    end\n  end\n  a --> b\n  c --> d\n';
    // Each sat at its container's left, the rest of 440 px empty at its right: 166–190 px off centre.
    for (const direction of ['LR', 'TB']) {
      const offs = await offCentre(`flowchart ${direction}\n  ${nested}`);
      expect(offs.length).toBeGreaterThanOrEqual(2);
      for (const off of offs) expect(off).toBeLessThan(2);
    }
    // Mermaid's docs (mermaid-js/mermaid@df032c9, packages/mermaid/src/docs/syntax/stateDiagram.md, MIT): transitions
    // between composite states, each of one state: 166 px off centre.
    const states = `stateDiagram-v2
    [*] --> First
    First --> Second
    First --> Third

    state First {
        [*] --> fir
        fir --> [*]
    }
    state Second {
        [*] --> sec
        sec --> [*]
    }
    state Third {
        [*] --> thi
        thi --> [*]
    }`;
    const offs = await offCentre(states);
    expect(offs).toHaveLength(3);
    for (const off of offs) expect(off).toBeLessThan(2);
  });

  it('keeps each of three edges into one side to its own arrowhead where the heads stand apart: no trunk hides their sources', async () => {
    const sources = ['a', 'b', 'c'];
    const laid = await layoutGraph(
      graph({
        direction: 'RIGHT',
        groups: [{ id: 'core', label: 'core' }, ...sources.map((id) => ({ id: `box-${id}`, label: `box ${id}` }))],
        nodes: [{ id: 'hub', label: 'hub', kind: 'generic', parent: 'core' }, ...sources.map((id) => ({ id, label: id, kind: 'generic' as const, parent: `box-${id}` }))],
        edges: sources.map((id) => ({ id: `${id}-hub`, from: id, to: 'hub' })),
      }),
    );
    const ends = laid.edges.map((edge) => edge.points.at(-1)!);
    expect(new Set(ends.map((end) => JSON.stringify(end))).size).toBe(3);
    for (const [i, p] of ends.entries()) for (const q of ends.slice(i + 1)) expect(Math.hypot(p.x - q.x, p.y - q.y)).toBeGreaterThanOrEqual(CROWDED_HEADS);
  });

  it('spreads the crow\'s feet of an ER hub drawn as its name alone along its side, each with room for its cardinality', async () => {
    // A library's USERS with nine relations (a real README's Mermaid ER): its side was 32 px, the nine ends piled on it.
    const relations = ['borrows', 'owes', 'charged', 'pays', 'requests', 'places', 'submits', 'receives', 'views'];
    const source = ['erDiagram', ...relations.map((verb, i) => `    USERS ||--o{ T${i} : ${verb}`)].join('\n');
    const laid = await layoutGraph(await mermaidNotation.toGraph(source));
    const users = laid.nodes.find((node) => node.id === 'USERS')!;
    const ends = laid.edges.map((edge) => edge.points[0]!).sort((p, q) => p.y - q.y || p.x - q.x);
    for (const end of ends) expect(end.x === users.x + users.width || end.y === users.y + users.height).toBe(true);
    for (let i = 1; i < ends.length; i++) expect(Math.hypot(ends[i]!.x - ends[i - 1]!.x, ends[i]!.y - ends[i - 1]!.y)).toBeGreaterThanOrEqual(16);
    // Two relations into a junction table: both "0..*" stood on one another (BORROW_REQUESTS, 11 px apart).
    const junction = await layoutGraph(await mermaidNotation.toGraph('erDiagram\n    USERS ||--o{ BORROW_REQUESTS : requests\n    BOOKS ||--o{ BORROW_REQUESTS : target_of'));
    const [p, q] = junction.edges.map((edge) => edge.points.at(-1)!);
    expect(Math.hypot(p!.x - q!.x, p!.y - q!.y)).toBeGreaterThanOrEqual(20);
  });

  it('widens a small state for the ends on its busiest side, each arrowhead clear of the next', async () => {
    // The shape of an ID generator's state machine in a README: three transitions back into Idle, its transition out
    // and its note's line reached its 60 px lower side 10 px apart, the heads one dark wedge.
    const source = `stateDiagram-v2
    [*] --> Idle
    note right of Idle : counter = 0
    Idle --> Working : next() called
    Working --> Fresh : new tick
    Working --> Same : same tick
    Fresh --> Idle : reset, return ID
    Same --> Room : counter fits
    Same --> Wait : counter overflows
    Room --> Idle : return ID
    Wait --> Idle : tick passes, return ID`;
    const graph = await mermaidNotation.toGraph(source);
    const laid = await layoutGraph(graph);
    const idle = laid.nodes.find((node) => node.id === 'Idle')!;
    const below = laid.edges
      .flatMap((edge) => [edge.points[0]!, edge.points.at(-1)!].filter((_, i) => [graph.edges[edge.index]!.from, graph.edges[edge.index]!.to][i] === 'Idle'))
      .filter((end) => Math.abs(end.y - (idle.y + idle.height)) < 1)
      .map((end) => end.x)
      .sort((a, b) => a - b);
    expect(below.length).toBeGreaterThanOrEqual(4);
    for (let i = 1; i < below.length; i++) expect(below[i]! - below[i - 1]!).toBeGreaterThanOrEqual(16);
  });

  it('fans the edges out of one node through one shared line, not one nested track each', async () => {
    const source = readFileSync(new URL('../../../test/fixtures/mermaid/kyma-nats-watches-flowchart.mmd', import.meta.url), 'utf8');
    const laid = await layoutGraph(await mermaidNotation.toGraph(source));
    const controller = laid.nodes.find((node) => node.id === 'Con')!;
    // The rows where the edges run sideways below the controller: ELK gave each edge its own.
    const rows = new Set<number>();
    for (const edge of laid.edges) {
      for (const [from, to] of edge.points.slice(1).map((to, i) => [edge.points[i]!, to] as const)) {
        if (from.y === to.y && from.x !== to.x) rows.add(Math.round(from.y));
      }
    }
    expect(rows.size).toBe(1);
    expect([...rows][0]).toBeGreaterThan(controller.y + controller.height);
  });
});

describe('placeTitles', () => {
  it('finds the stretch nearest a title’s place that it fits between blocked ranges (the first from the left), or none', () => {
    expect(nearestGap([], 10, 500, 100)).toBe(10);
    expect(nearestGap([[50, 70], [0, 20]], 10, 500, 100)).toBe(70);
    expect(nearestGap([[50, 70], [180, 200]], 10, 500, 100)).toBe(70);
    expect(nearestGap([[50, 70], [150, 200]], 10, 500, 100)).toBe(200);
    expect(nearestGap([[50, 450]], 10, 500, 100)).toBeUndefined();
    // From the middle (a Graphviz cluster's title): either way, the nearer.
    expect(nearestGap([[180, 260]], 10, 500, 100, 200)).toBe(260);
    expect(nearestGap([[180, 340]], 10, 500, 100, 200)).toBe(80);
    expect(nearestGap([[400, 450]], 10, 500, 100, 200)).toBe(200);
  });

  it('slides a container title right, past the edges entering through it, and leaves an unblocked one alone', () => {
    const title = { text: 'Apache Tomcat', x: 24, y: 24, width: 120, height: 20 };
    const { laid, blocked } = placeTitles({
      nodes: [],
      groups: [
        { id: 'crossed', x: 0, y: 0, width: 440, height: 200, depth: 0, title },
        { id: 'clear', x: 0, y: 300, width: 440, height: 200, depth: 0, title: { ...title, y: 324 } },
      ],
      edges: [{ index: 0, points: [{ x: 60, y: -50 }, { x: 60, y: 100 }], labels: [{ text: 'calls', placement: 'center', x: 100, y: 20, width: 40, height: 16 }] }],
      warnings: [],
      width: 440,
      height: 500,
    });
    expect(laid.groups[0]!.title.x).toBe(148);
    expect(laid.groups[1]!.title.x).toBe(24);
    expect(blocked.size).toBe(0);
  });

  it('keeps a title clear of the arrowhead of an edge entering the node just under it, not only of its line', () => {
    // oauth-persistence-and-services (openframe): the title slid to 8 px right of the line, and the arrowhead,
    // 9 px to each side of it, touched the title's first letter.
    const title = { text: 'Oauth Persistence And Services', x: 24, y: 24, width: 200, height: 20 };
    const { laid } = placeTitles({
      nodes: [],
      groups: [{ id: 'persistence', x: 0, y: 0, width: 440, height: 200, depth: 0, title }],
      edges: [{ index: 0, points: [{ x: 60, y: -80 }, { x: 60, y: 56 }], labels: [] }],
      warnings: [],
      width: 440,
      height: 200,
    });
    const headHalfWidth = 9;
    expect(laid.groups[0]!.title.x - 60).toBeGreaterThanOrEqual(headHalfWidth + 8);
  });

  it('leaves a title where it is when the edge through its band is laid out but not drawn (Mermaid ~~~)', () => {
    const title = { text: 'Router-Schicht', x: 24, y: 24, width: 120, height: 20 };
    const laid = {
      nodes: [],
      groups: [{ id: 'routers', x: 0, y: 0, width: 440, height: 200, depth: 0, title }],
      edges: [{ index: 0, points: [{ x: 60, y: -50 }, { x: 60, y: 100 }], labels: [] }],
      warnings: [],
      width: 440,
      height: 200,
    };
    const edge = { id: 'e1', from: 'a', to: 'b', startArrowhead: 'none', endArrowhead: 'none' } as const;
    expect(placeTitles(laid, { edges: [{ ...edge, hidden: true }] }).laid.groups[0]!.title.x).toBe(24);
    expect(placeTitles(laid, { edges: [edge] }).laid.groups[0]!.title.x).toBeGreaterThan(60);
  });

  it('lays a container out again, wider, when the edges entering it leave its title no gap', async () => {
    const laid = await layoutGraph(
      graph({
        groups: [
          { id: 'host', label: 'bigbank-api*** x8 [Ubuntu 16.04 LTS]' },
          { id: 'tomcat', label: 'Apache Tomcat [Apache Tomcat 8.x]', parent: 'host' },
        ],
        nodes: [
          { id: 'app', label: 'Mobile App', kind: 'service' },
          { id: 'spa', label: 'Single Page Application', kind: 'service' },
          { id: 'api', label: 'API Application with a long name', kind: 'service', parent: 'tomcat' },
        ],
        edges: [
          { id: 'app-api', from: 'app', to: 'api' },
          { id: 'spa-api', from: 'spa', to: 'api' },
        ],
      }),
    );
    for (const group of laid.groups) {
      const { title } = group;
      for (const edge of laid.edges) {
        for (const [a, b] of edge.points.slice(1).map((to, i) => [edge.points[i]!, to] as const)) {
          const inBand = Math.max(a.y, b.y) >= title.y && Math.min(a.y, b.y) <= title.y + title.height;
          const inSpan = Math.max(a.x, b.x) >= title.x && Math.min(a.x, b.x) <= title.x + title.width;
          expect(inBand && inSpan, `an edge crosses the title of ${group.id}`).toBe(false);
        }
      }
    }
  });
});

describe('long words and long rows', () => {
  it('breaks a CamelCase name between its words, never inside one, when it is wider than its box', () => {
    const lines = wrapText('Check MachineDeploymentReconcilerController status', 150, FONT.label);
    expect(lines.join(' ').replace(/ /g, '')).toBe('CheckMachineDeploymentReconcilerControllerstatus');
    for (const line of lines) expect(line).toMatch(/^(?:[A-Z][a-z]+|[a-z]+)+(?: [a-z]+)?$/);
  });

  it('keeps a list mark with the word it marks when the item wraps (a Mermaid label\'s `<br/>- name`)', () => {
    const item = 'mobon-gateway-service-aggregation';
    const width = measureText(item, FONT.label, 'normal').width + 4;
    const text = `Service Gateway\n- ${item}\n: 10.251.0.184`;
    for (const lines of [wrapText(text, width, FONT.label, 2 * width), renderWrap(fonts, text, width, { family: 'normal', size: FONT.label }, 2 * width)]) {
      expect(lines).toContain(`- ${item}`);
      expect(lines).not.toContain('-');
    }
  });

  it('opens no blank line for the space an author left before a break (a Mermaid decision\'s `enough state <br>based contract`)', () => {
    // The decision of a public procurement flowchart (mgifford/mermaid-graphs' DSC decision tree), each break after a space.
    const text = 'Are there enough state \nbased contract established \nwith DSC members';
    const width = measureText('Are there enough state', FONT.label, 'normal').width + 1;
    for (const lines of [wrapText(text, width, FONT.label), renderWrap(fonts, text, width, { family: 'normal', size: FONT.label })]) {
      expect(lines).not.toContain('');
      expect(lines[0]).toBe('Are there enough state');
    }
  });

  it('wraps a member too long for the widest class box onto indented lines instead of cutting it with an ellipsis', () => {
    const member = '+ fulfillInAsync(task : Callable<T>, executor : Executor, timeout : Duration, onError : Consumer<? super Throwable>) : Promise<T>';
    const box = sizeNode({ id: 'p', label: 'Promise<T>', kind: 'class', rows: [member, '+ get() : T'] });
    expect(box.rows.join('')).not.toContain('…');
    expect(box.rows.length).toBeGreaterThan(2);
    expect(box.rows.slice(1, -1).every((line) => line.startsWith('    '))).toBe(true);
    expect(box.rows.map((line) => line.trim()).join(' ').replace(/\s+/g, ' ')).toBe(`${member} + get() : T`);
    expect(box.width).toBeLessThanOrEqual(NODE_BOX.maxWidth);
  });

  it('widens a class box to hold a long identifier whole, never cut inside it (java-design-patterns’ CpuHealthIndicator)', () => {
    const constant = 'HIGH_PROCESS_CPU_LOAD_MESSAGE_WITHOUT_PARAM';
    const box = sizeNode({ id: 'c', label: 'CpuHealthIndicator', kind: 'class', rows: [`- static ${constant} : String`, '+ health() : Health'] });
    // It was cut after its last underscore, `PARAM` on the next line.
    expect(box.rows.some((line) => line.includes(constant))).toBe(true);
    expect(box.width).toBeGreaterThan(NODE_BOX.maxWidth);
  });
});

describe('layoutGraph when nothing fits a README column', () => {
  it('keeps a drawing within 3:1 rather than a narrower column past it (java-design-patterns’ onion architecture)', async () => {
    const code = readFileSync(new URL('../../../test/fixtures/plantuml/jdp-onion-architecture-class.puml', import.meta.url), 'utf8');
    const laid = await layoutGraph(await plantumlNotation.toGraph(code));
    expect(laid.height / laid.width).toBeLessThanOrEqual(3);
  }, 120_000);

  it('fits a large schema to a wide page: its unrelated tables on a skyline under the joined ones, not in a grid among them (Camunda)', async () => {
    // 43 tables, 27 of them joined to none of the 16 others. Laid out at once it was 2,889 × 5,751 px: 14 px rows read at
    // 7.8 px on a page 1,600 px wide.
    const code = readFileSync(new URL('../../../test/fixtures/sql/camunda-postgres-engine.sql', import.meta.url), 'utf8');
    const laid = await layoutGraph(await sqlNotation.toGraph(code));
    // 10.1 px with the margin round the drawing (10.4 before its tables were drawn as columns, a tenth wider).
    expect((FONT.row * LARGE_WIDTH) / laid.width).toBeGreaterThan(10);
    expect(laid.height / laid.width).toBeLessThanOrEqual(MAX_ASPECT);
    // In rows, each as tall as its tallest table, the 27 took 6,254 px in all.
    expect(laid.height).toBeLessThan(5600);
  }, 120_000);

  it('keeps sibling packages side by side, as PlantUML draws them, rather than a column of them on more paper (BlazeMeter RTE plugin)', async () => {
    const code = readFileSync(new URL('../../../test/fixtures/plantuml/blazemeter-rte-class.puml', import.meta.url), 'utf8');
    const laid = await layoutGraph(await plantumlNotation.toGraph(code));
    const group = (id: string) => laid.groups.find((g) => g.id === id)!;
    // tn5250 and tn3270 join nothing to each other: PlantUML sets them in one row. Stacked, they and the rest made a
    // column of 1,467 × 2,763 px, 1.47 times the paper of the drawing that keeps them side by side (1,848 × 1,491).
    const [tn5250, tn3270] = [group('package:tn5250'), group('package:tn3270')];
    expect(tn3270.y).toBeLessThan(tn5250.y + tn5250.height);
    expect(tn5250.y).toBeLessThan(tn3270.y + tn3270.height);
    expect(laid.height).toBeLessThan(laid.width);
  }, 120_000);
});

describe('separateEdgeRuns', () => {
  it('moves two relations between one pair of tables apart, each end label kept beside its own leg', () => {
    // AdventureWorks' SalesOrderHeader → Address twice (BillToAddressID, ShipToAddressID), routed alike: one line.
    const graph: GraphIR = {
      layout: 'layered',
      direction: 'RIGHT',
      nodes: [
        { id: 'header', label: 'SalesOrderHeader', kind: 'entity' },
        { id: 'address', label: 'Address', kind: 'entity' },
      ],
      edges: [
        { id: 'bill', from: 'header', to: 'address', label: 'BillToAddressID', startLabel: '0..*' },
        { id: 'ship', from: 'header', to: 'address', label: 'ShipToAddressID', startLabel: '0..*' },
      ],
      groups: [],
      warnings: [],
    };
    const route = () => [{ x: 1722, y: 1944 }, { x: 2484, y: 1944 }, { x: 2484, y: 804 }, { x: 2779, y: 804 }];
    const node = (id: string, x: number, y: number, width: number, height: number) => ({ id, x, y, width, height, box: sizeNode(graph.nodes.find((n) => n.id === id)!) });
    const laid = {
      nodes: [node('header', 1290, 1834, 432, 231), node('address', 2779, 749, 196, 109)],
      groups: [],
      edges: [
        { index: 0, points: route(), labels: [{ x: 2091, y: 1922, width: 24, height: 18, text: '0..*', placement: 'start' as const }] },
        { index: 1, points: route(), labels: [{ x: 2091, y: 1948, width: 24, height: 18, text: '0..*', placement: 'start' as const }] },
      ],
      warnings: [],
      width: 3000,
      height: 2100,
    };
    const apart = separateEdgeRuns(laid, graph);
    const [bill, ship] = apart.edges;
    expect(ship!.points[0]!.y - bill!.points[0]!.y).toBeGreaterThanOrEqual(8);
    // Each end label as far from its leg as ELK set it: 4 px above the one, 4 px below the other.
    expect(bill!.points[0]!.y - (bill!.labels[0]!.y + bill!.labels[0]!.height)).toBe(4);
    expect(ship!.labels[0]!.y - ship!.points[0]!.y).toBe(4);
  });
});
