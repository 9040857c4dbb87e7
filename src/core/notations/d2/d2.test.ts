import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { structureOf } from '../../../../test/support/structure.js';
import { AppError } from '../../errors.js';
import { toD2 } from '../../export/d2.js';
import { recoverGraph } from '../../export/graph-recovery.js';
import { stampIcons } from '../../icons/index.js';
import { intakeScene } from '../../scene/intake.js';
import { resolveIconHints } from '../icon-hints.js';
import { drawGraph } from '../index.js';
import { checkScene } from '../../quality/check.js';
import { createD2Compiler } from '../../../infra/d2-compiler.js';
import { d2ToGraph, detectD2 } from './index.js';

const fixture = (name: string): string => readFileSync(new URL(`../../../../test/fixtures/d2/${name}`, import.meta.url), 'utf8');
// The first compile starts D2's Go runtime in its worker: seconds.
const SLOW = 120_000;
// D2's compiler runs in infra (a thread of its own); the mapping read here is core's.
const compiler = createD2Compiler({ timeoutSeconds: 60, queue: 8 });
afterAll(() => compiler.close());
const readD2 = async (code: string) => d2ToGraph(await compiler.compile(code));

describe('d2Notation on the D2 docs', () => {
  it('reads nested containers by their paths, and connections between them', async () => {
    const graph = await readD2(fixture('d2-docs-containers-2.d2'));
    // Solid and square, as D2 draws a container.
    const style = { strokeStyle: 'solid', corner: 'sharp' };
    expect(graph.groups).toEqual([{ id: 'clouds', label: 'clouds', style }, { id: 'clouds.aws', label: 'aws', parent: 'clouds', style }, { id: 'clouds.gcloud', label: 'gcloud', parent: 'clouds', style }]);
    expect(graph.nodes.map((n) => [n.id, n.parent])).toEqual([
      ['clouds.aws.load_balancer', 'clouds.aws'],
      ['clouds.aws.api', 'clouds.aws'],
      ['clouds.aws.db', 'clouds.aws'],
      ['clouds.gcloud.auth', 'clouds.gcloud'],
      ['clouds.gcloud.db', 'clouds.gcloud'],
    ]);
    expect(graph.edges.find((e) => e.from === 'clouds.gcloud')).toMatchObject({ to: 'clouds.aws', endArrowhead: 'triangle' });
    expect(graph.warnings).toEqual([]);
  }, SLOW);

  it('turns icon URLs into our icons, and says that a connection\'s icon is left out', async () => {
    const graph = resolveIconHints(await readD2(fixture('d2-docs-icons-1.d2')));
    expect(graph.nodes.map((n) => n.iconRef)).toEqual(['aws/AWS CodeDeploy', 'aws/AWS Backup']);
    expect(graph.warnings).toEqual(['1 connection icon left out (icons are drawn on shapes)']);
  }, SLOW);

  it('keeps colours written as colours, on each of two connections between the same shapes', async () => {
    const graph = await readD2(fixture('d2-docs-connections-reference.d2'));
    expect(graph.edges.map((e) => [e.label, e.style?.strokeColor])).toEqual([
      ['hi', '#ff0000'],
      ['hello', '#0000ff'],
    ]);
  }, SLOW);
});

describe('d2Notation keeps the author\'s intent (D2 docs)', () => {
  it('reads a quoted key with dots as one shape, not as shapes nested in containers', async () => {
    const graph = await readD2(fixture('d2-docs-classes-2.d2'));
    expect(graph.groups).toEqual([]);
    expect(graph.nodes.map((n) => [n.label, n.parent])).toEqual([
      ['D2 Parser', undefined],
      ['github.com/terrastruct/d2parser.git', undefined],
    ]);
    expect(graph.edges).toMatchObject([{ from: '"github.com/terrastruct/d2parser.git"', to: 'D2 Parser' }]);
  }, SLOW);

  it('draws D2\'s page with its corner folded and its package as a folder, as D2 does (the docs\' shape catalogue)', async () => {
    const graph = await readD2(fixture('d2-docs-shapes-3.d2'));
    const shapeOf = (label: string) => graph.nodes.find((n) => n.label === label)?.shape;
    expect(['page', 'package', 'document'].map(shapeOf)).toEqual(['page', 'folder', 'document']);
  }, SLOW);

  it('draws a class\'s methods under a rule below its fields, as D2 does (the D2 docs\' D2 Parser class)', async () => {
    const graph = await readD2(fixture('d2-docs-classes-2.d2'));
    const parser = graph.nodes.find((n) => n.label === 'D2 Parser')!;
    // Four fields, then four methods: they ran on as one list.
    expect(parser.rows?.slice(3, 5)).toEqual(['#lookaheadPos: d2ast.Position', '+peek(): (r rune, eof bool)']);
    expect(parser.compartments).toEqual([4]);
  }, SLOW);

  it('keeps font colours of containers and shapes, and draws them on their fills', async () => {
    const graph = await readD2(fixture('d2-docs-border-label.d2'));
    expect(graph.groups.map((g) => [g.label, g.style?.textColor])).toEqual([
      ['Your environment', '#3ddb89'],
      ['Your applicaton', '#63c08c'],
    ]);
    expect(graph.nodes.map((n) => n.style)).toEqual(Array(3).fill({ fillColor: '#306a4a', strokeColor: '#adf1c6', textColor: '#eef9f3' }));
    const scene = await drawGraph(graph);
    const texts = scene.elements.filter((e) => 'text' in e && typeof e.text === 'string').map((e) => [(e as { text: string }).text, e.strokeColor]);
    // The connection's label `hello` in its own font colour, not the default dark text on the dark container.
    expect(texts).toEqual(expect.arrayContaining([['Your environment', '#3ddb89'], ['Your applicaton', '#63c08c'], ['Workflow', '#eef9f3'], ['hello', '#adf1c6']]));
  }, SLOW);

  it('draws white text on dark shapes white, and transparent borders as no border', async () => {
    const graph = await readD2(fixture('d2-docs-grid-connections.d2'));
    const node = (id: string) => graph.nodes.find((n) => n.id === id)!;
    // `0,0`: white mono text on #30304c with `stroke: transparent`; the legend's bullets in their own colours.
    expect(node('0,0').style).toEqual({ fillColor: '#30304c', strokeColor: '#00000000', textColor: '#ffffff', corner: 'rounded', fontSize: 10 });
    expect(node('4,0.a').style?.textColor).toBe('#0033cc');
    expect(graph.groups.find((g) => g.id === '4,0')?.style).toMatchObject({ strokeColor: '#00000000', fillColor: '#00000000' });
    const scene = await drawGraph(graph);
    const zeroZero = scene.elements.find((e) => 'text' in e && e.text === 'npm i -g\n@forge/cli');
    expect(zeroZero?.strokeColor).toBe('#ffffff');
    // Set in 10 px type, the 100 px cells stay 100 px, and the blank legend container holds its entries closely: at 16
    // px and 440 px at least, the first column was 440 px wide and the grid 1,137 px where D2 draws it 580 px.
    const box = (id: string) => scene.elements.find((e) => e.id === scene.elementIds.nodes.get(id))!;
    expect(box('2,1').width).toBe(100);
    expect(box('2,0').width).toBeLessThan(160);
  }, SLOW);

  it('lays out a connection with opacity 0 (an author\'s way to place shapes) but does not draw it', async () => {
    const graph = await readD2('a -> b\nb -> c: {style.opacity: 0}\nc.style.stroke-width: 0');
    expect(graph.edges.map((e) => [e.from, e.to, e.hidden])).toEqual([['a', 'b', undefined], ['b', 'c', true]]);
    expect(graph.nodes.find((n) => n.id === 'c')?.style).toEqual({ strokeColor: '#00000000' });
    const scene = await drawGraph(graph);
    expect(scene.elements.filter((e) => e.type === 'arrow')).toHaveLength(1);
    const at = (label: string) => scene.elements.find((e) => 'text' in e && e.text === label)!;
    expect(at('c').y ?? 0).toBeGreaterThan((at('b').y ?? 0) + (at('b').height ?? 0));
  }, SLOW);
});

describe('d2Notation reads labels in D2’s own syntax', () => {
  it('shows Markdown labels as D2 renders them, not their syntax (the docs’ C4 code example)', async () => {
    const graph = await readD2(fixture('d2-docs-c4-code.d2'));
    const chatbot = graph.nodes.find((n) => n.id === 'chatbot')!;
    expect(chatbot.label).toBe('Customer Chatbot\n[Container: Node.js & NLP]\n\nAI-powered chat interface for customer support.');
    expect(graph.nodes.filter((n) => /^#|\*\*/m.test(n.label))).toEqual([]);
  }, SLOW);
});

describe('d2Notation keeps invisible shapes invisible', () => {
  it('keeps the place of a shape with opacity 0 (the blank cells of the D2 docs’ map of Japan) and draws nothing there', async () => {
    const code = fixture('d2-docs-japan.d2');
    const graph = await readD2(code);
    // The map's class NONE is `style.opacity: 0`.
    const none = new Set([...code.matchAll(/^(\S+): "" \{class: NONE\}/gm)].map((m) => m[1]));
    const blank = graph.nodes.filter((n) => none.has(n.id));
    const prefectures = graph.nodes.filter((n) => n.label !== '');
    expect(blank.length).toBeGreaterThan(60);
    for (const cell of blank) expect(cell.style).toEqual({ fillColor: '#00000000', strokeColor: '#00000000', textColor: '#00000000' });
    expect(prefectures.find((n) => n.label === 'TOKYO')?.style?.fillColor).toBe('#2b9464');
    // The map keeps its shape: every cell is still in the grid.
    expect(Object.keys(graph.grid?.cells ?? {})).toHaveLength(144);
  }, SLOW);
});

describe('d2Notation says which of the author\'s styles it does not draw', () => {
  it('rounds corners from border-radius and names shadow, 3d, multiple, double-border, fill-pattern, animated, link and tooltip', async () => {
    const graph = await readD2('a: A {style: {multiple: true; shadow: true; border-radius: 8; fill-pattern: dots}}\nb: B {style.3d: true; style.double-border: true}\na -> b: {style.animated: true}\nc: C {tooltip: hi; link: https://example.com}\nd: D');
    expect(graph.nodes.find((n) => n.id === 'a')?.style?.corner).toBe('rounded');
    expect(graph.nodes.find((n) => n.id === 'd')?.style?.corner).toBeUndefined();
    expect(graph.warnings).toEqual(
      expect.arrayContaining([
        'D2 style.shadow is not drawn ("a")',
        'D2 style.3d is not drawn ("b")',
        'D2 style.multiple is not drawn ("a")',
        'D2 style.double-border is not drawn ("b")',
        'D2 style.fill-pattern is not drawn ("a")',
        'D2 style.animated is not drawn ("a -> b")',
        'D2 link is not drawn ("c")',
        'D2 tooltip is not drawn ("c")',
      ]),
    );
    expect((await readD2('x -> y')).warnings).toEqual([]);
  }, SLOW);
});

describe('d2Notation reads a text near the top as the title', () => {
  it('takes near: top-* as the title and draws a note near the bottom as text', async () => {
    const graph = await readD2('f: Drawn by hand {shape: text; near: bottom-right}\nt: Orders {shape: text; near: top-center}\na -> b');
    expect(graph.title).toBe('Orders');
    expect(graph.nodes.map((n) => n.label)).toEqual(expect.arrayContaining(['Drawn by hand', 'a', 'b']));
  }, SLOW);
});

describe('d2Notation lays out grids and container directions as D2 does (issue 27)', () => {
  type Scene = Awaited<ReturnType<typeof drawGraph>>;
  const boxOf = (scene: Scene, id: string) => {
    const element = scene.elements.find((e) => e.id === (scene.elementIds.nodes.get(id) ?? scene.elementIds.groups.get(id)))!;
    return { x: Number(element.x), y: Number(element.y), width: Number(element.width), height: Number(element.height) };
  };
  const middle = (box: { x: number; y: number; width: number; height: number }) => ({ x: box.x + box.width / 2, y: box.y + box.height / 2 });

  it('keeps a grid of cells of different widths in its rows and columns (D2 docs\' grid-connected: Infrastructure, 2 rows of 3)', async () => {
    const graph = await readD2('infra: Infrastructure {\n  grid-rows: 2\n  ssh\n  Kubernetes\n  My SQL\n  MongoDB\n  PSQL\n  Windows\n}');
    const cells = graph.groups.find((g) => g.id === 'infra')?.grid?.cells ?? graph.grid?.cells ?? {};
    expect(Object.entries(cells).map(([id, cell]) => `${id.replace('infra.', '')}@${cell.row},${cell.column}`)).toEqual([
      'ssh@0,0', 'Kubernetes@0,1', 'My SQL@0,2', 'MongoDB@1,0', 'PSQL@1,1', 'Windows@1,2',
    ]);
    // A cell wider than two others above them does not put those two in one cell.
    const teleport = await readD2('t: Teleport {\n  grid-rows: 2\n  inp: Identity Native Proxy { width: 300 }\n  Audit Log\n  Cert Authority\n}');
    const placed = Object.values(teleport.groups.find((g) => g.id === 't')?.grid?.cells ?? {}).map((cell) => `${cell.row},${cell.column}`);
    expect(new Set(placed).size).toBe(3);
  });

  it('draws every cell of a grid D2 evens out with a cell as tall as two rows, none on top of another (an agent CLI\'s five commands in 3 columns)', async () => {
    // D2 sets five cells in three columns as columns of one, two and two, the first spanning both rows; read by
    // overlap, all five were one row and two pairs were drawn over each other (a public agent framework's docs).
    const graph = await readD2('CLI: {\n  grid-columns: 3\n  create: "aigne create"\n  run: "aigne run"\n  test: "aigne test"\n  serve-mcp: "aigne serve-mcp"\n  observe: "aigne observe"\n}\nx -> CLI.run');
    const cells = graph.groups.find((g) => g.id === 'CLI')!.grid!.cells;
    expect(Object.entries(cells).map(([id, cell]) => `${id.replace('CLI.', '')}@${cell.row},${cell.column}${cell.rowSpan ? `+${cell.rowSpan}` : ''}`)).toEqual([
      'create@0,0+2', 'run@0,1', 'test@1,1', 'serve-mcp@0,2', 'observe@1,2',
    ]);
    const scene = await drawGraph(graph);
    const boxes = ['create', 'run', 'test', 'serve-mcp', 'observe'].map((id) => boxOf(scene, `CLI.${id}`));
    const overlap = (a: ReturnType<typeof boxOf>, b: ReturnType<typeof boxOf>) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
    boxes.forEach((a, i) => boxes.slice(i + 1).forEach((b) => expect(overlap(a, b)).toBe(false)));
    // The spanning cell is as tall as both rows.
    expect(boxes[0]!.y).toBeCloseTo(boxes[1]!.y, 0);
    expect(boxes[0]!.y + boxes[0]!.height).toBeCloseTo(boxes[2]!.y + boxes[2]!.height, 0);
  }, SLOW);

  it('places the cells of the docs\' grid-connections diagram in its 5 columns, row by row in declaration order, and the legend\'s 3 rows in one column', async () => {
    const graph = await readD2(fixture('d2-docs-grid-connections.d2'));
    const scene = await drawGraph(graph);
    for (let row = 0; row <= 3; row++) {
      const cells = [0, 1, 2, 3, 4].map((column) => boxOf(scene, `${row},${column}`));
      // One row: one middle height; left to right in order, apart.
      for (const cell of cells) expect(middle(cell).y).toBeCloseTo(middle(cells[0]!).y, 0);
      for (let c = 1; c < 5; c++) expect(cells[c]!.x).toBeGreaterThanOrEqual(cells[c - 1]!.x + cells[c - 1]!.width);
    }
    for (let column = 0; column <= 4; column++) {
      const cells = [0, 1, 2, 3, 4].map((row) => boxOf(scene, `${row},${column}`));
      for (const cell of cells) expect(middle(cell).x).toBeCloseTo(middle(cells[0]!).x, 0);
      for (let r = 1; r < 5; r++) expect(cells[r]!.y).toBeGreaterThanOrEqual(cells[r - 1]!.y + cells[r - 1]!.height);
    }
    const legend = ['a', 'b', 'c'].map((key) => boxOf(scene, `4,0.${key}`));
    expect(legend[1]!.y).toBeGreaterThanOrEqual(legend[0]!.y + legend[0]!.height);
    expect(legend[2]!.y).toBeGreaterThanOrEqual(legend[1]!.y + legend[1]!.height);
    expect(scene.elements.filter((e) => e.type === 'arrow')).toHaveLength(9);
    expect(checkScene(scene.elements, scene.parents, { forcedDirection: true }).violations.filter((v) => !/^at 880 px wide/.test(v))).toEqual([]);
  }, SLOW);

  it('lays out a container with a direction of its own (docs: y with direction: right inside a downward diagram)', async () => {
    const graph = await readD2('x -> y: {\n  style.stroke: green\n}\n\ny: {\n  direction: right\n  a -> b -> c\n}\n');
    expect(graph.groups.find((g) => g.id === 'y')?.direction).toBe('RIGHT');
    const scene = await drawGraph(graph);
    const [a, b, c] = ['y.a', 'y.b', 'y.c'].map((id) => boxOf(scene, id)) as [ReturnType<typeof boxOf>, ReturnType<typeof boxOf>, ReturnType<typeof boxOf>];
    expect(b.x).toBeGreaterThan(a.x + a.width);
    expect(c.x).toBeGreaterThan(b.x + b.width);
    expect(middle(b).y).toBeCloseTo(middle(a).y, 0);
    // The diagram still flows down: x above its container.
    expect(boxOf(scene, 'x').y + boxOf(scene, 'x').height).toBeLessThan(boxOf(scene, 'y').y);
    expect(scene.elements.filter((e) => e.type === 'arrow')).toHaveLength(3);
    expect(checkScene(scene.elements, scene.parents).violations).toEqual([]);
    // Edges from outside to shapes inside such a container end on those shapes.
    const into = await drawGraph(await readD2('x -> y.b: calls\ny: {\n  direction: right\n  a -> b -> c\n}\ny.c -> z'));
    expect(checkScene(into.elements, into.parents).violations).toEqual([]);
  }, SLOW);

  it('leads an edge carried into a folded container round the node in front of its end, not through it (docs: the animated deployment)', async () => {
    const scene = await drawGraph(await readD2(fixture('d2-docs-animated-deployment.d2')));
    // Folded top-down, `github.master.workflows -> aws.builders` reaches aws above ec2, which stands over builders.
    const ec2 = boxOf(scene, 'aws.ec2');
    const builders = boxOf(scene, 'aws.builders');
    expect(ec2.y + ec2.height).toBeLessThan(builders.y);
    expect(checkScene(scene.elements, scene.parents).violations.filter((v) => v.includes('aws.ec2'))).toEqual([]);
    const arrow = scene.elements.find((e) => e.type === 'arrow' && (e as { endBinding?: { elementId: string } }).endBinding?.elementId === scene.elementIds.nodes.get('aws.builders') && (e as { startBinding?: { elementId: string } }).startBinding?.elementId === scene.elementIds.nodes.get('github.master.workflows'));
    expect(arrow).toBeDefined();
  }, SLOW);
});

describe('d2Notation details', () => {
  it('reads sql_table columns as table rows with their keys, crow\'s-foot ends and column-level connections', async () => {
    const graph = await readD2(
      'users: { shape: sql_table; id: int {constraint: primary_key}; email: text {constraint: unique} }\n' +
        'orders: { shape: sql_table; id: int {constraint: primary_key}; user_id: int {constraint: foreign_key} }\n' +
        'orders.user_id <-> users.id: places {source-arrowhead.shape: cf-many; target-arrowhead.shape: cf-one-required}',
    );
    expect(graph.nodes.find((n) => n.id === 'orders')).toMatchObject({ kind: 'entity', rows: ['PK    id  int', 'FK    user_id  int'] });
    expect(graph.edges).toEqual([{ id: 'e1', from: 'orders', to: 'users', label: 'places', startArrowhead: 'circle-crows-foot', endArrowhead: 'double-bar' }]);
  }, SLOW);

  it('keeps the width and height its author set: a state\'s 10 px start dot, a 500 px dough under narrower layers', async () => {
    const graph = await readD2('Start: "" {shape: circle; width: 10}\nDough: {width: 500}\nBox: Box {height: 120}\nStart -> Dough -> Box');
    const scene = await drawGraph(graph);
    const sizeOf = (label: string) => {
      const shape = scene.elements.find((e) => (label === '' ? e.type === 'ellipse' : (e as { text?: string }).text === label))!;
      return [shape.width, shape.height];
    };
    expect(sizeOf('')).toEqual([10, 10]);
    expect(sizeOf('Dough')[0]).toBe(500);
    expect(sizeOf('Box')[1]).toBe(120);
  }, SLOW);

  it('draws an image shape as its icon and label alone, without a box around them (D2 draws the picture only)', async () => {
    const graph = resolveIconHints(await readD2('user: Customer {shape: image; icon: https://icons.terrastruct.com/aws%2FCompute%2FAmazon-EC2.svg}\nuser -> api'));
    expect(graph.nodes.find((n) => n.id === 'user')).toMatchObject({ iconRef: expect.any(String), style: { fillColor: '#00000000', strokeColor: '#00000000' } });
    expect(graph.warnings).toEqual([]);
    const scene = await drawGraph(graph);
    // The label is still written, in a colour that reads.
    expect(scene.elements.filter((e) => (e as { text?: string }).text === 'Customer').map((e) => e.strokeColor)).toEqual(['#1e1e1e']);
    // The picture stands above its label, as D2 draws it, not as a table's small mark over the label's first letters
    // (the Carv ticketing architecture's Firebase functions, every one an image shape).
    const stamped = stampIcons(intakeScene(scene.elements).elements, { autoIcons: false }).elements;
    const icon = (stamped.find((e) => e.id === 'user') as { icon?: { y: number; height: number; width: number } }).icon!;
    const label = stamped.find((e) => (e as { text?: string }).text === 'Customer')!;
    expect(icon.y + icon.height).toBeLessThanOrEqual(Number(label.y));
    expect(icon.width).toBeGreaterThan(30);
  }, SLOW);

  it('draws a text shape as its words alone, without the box or the fill D2 leaves out (viaduck\'s failure modes)', async () => {
    const graph = await readD2('outage: Source down {\n  impact: "CDC read fails" {shape: text}\n  recovery: "Restart" {shape: text; style.fill: "#c8e6c9"}\n}');
    const scene = await drawGraph(graph);
    for (const id of ['outage.impact', 'outage.recovery']) {
      const box = scene.elements.find((e) => e.id === id)!;
      expect([box.fillColor, box.strokeColor]).toEqual(['#00000000', '#00000000']);
    }
    expect(scene.elements.filter((e) => ['CDC read fails', 'Restart'].includes((e as { text?: string }).text ?? '')).map((e) => e.strokeColor)).toEqual(['#1e1e1e', '#1e1e1e']);
  }, SLOW);

  it('draws the emphasis an author wrote (`style.bold`, `style.italic`), not D2\'s bold default on every label', async () => {
    const graph = await readD2('a: Gateway {style.bold: true}\nb: Worker {style.italic: true}\nc: Plain\na -> b -> c');
    const scene = await drawGraph(graph);
    const face = (id: string) => {
      const element = scene.elements.find((e) => e.id === id) as { fontWeight?: string; fontStyle?: string };
      return [element.fontWeight, element.fontStyle];
    };
    expect(['a', 'b', 'c'].map(face)).toEqual([['bold', undefined], [undefined, 'italic'], [undefined, undefined]]);
  }, SLOW);

  it('keeps the fill an author gave a Markdown block behind its text, with no border, as D2 does (a linked list\'s head node)', async () => {
    const graph = await readD2('n1: |md\n  **val: 9**\n\n  next: x\n| {style.fill: "#fef9c3"; style.stroke: "#f59e0b"}\nn2: |md\n  val: 7\n|\nn1 -> n2');
    const scene = await drawGraph(graph);
    const box = (id: string) => scene.elements.find((e) => e.id === id)!;
    expect([box('n1').fillColor, box('n1').strokeColor]).toEqual(['#fef9c3', '#00000000']);
    expect([box('n2').fillColor, box('n2').strokeColor]).toEqual(['#00000000', '#00000000']);
  }, SLOW);

  it('draws D2\'s c4-person (the docs\' C4 models) as a person, not as a plain box', async () => {
    const graph = await readD2('customer: Customer {shape: c4-person}\ncustomer -> bank');
    expect(graph.nodes.find((n) => n.id === 'customer')).toMatchObject({ shape: 'person', kind: 'user' });
    expect(graph.warnings).toEqual([]);
  }, SLOW);

  it('reads back a person our D2 export wrote as D2\'s person', async () => {
    const scene = intakeScene([
      { id: 'customer', type: 'person', x: 0, y: 0, width: 100, height: 100, text: 'Customer' },
      { id: 'api', type: 'rectangle', x: 300, y: 0, width: 160, height: 80, text: 'API' },
      { id: 'uses', type: 'arrow', startBinding: { elementId: 'customer' }, endBinding: { elementId: 'api' } },
    ]).elements;
    const { code, warnings } = toD2(recoverGraph(scene));
    expect(code).toContain('customer: "Customer" {shape: person');
    expect(warnings).toEqual([]);
    expect((await readD2(code)).nodes.find((n) => n.id === 'customer')).toMatchObject({ shape: 'person', label: 'Customer' });
  }, SLOW);

  it('maps shapes, class members and direction; says which shapes are approximated', async () => {
    const graph = await readD2('direction: right\nu: User {shape: person}\nd: {shape: cylinder}\nq: {shape: queue}\nk: {shape: class; +name: string; "-go()": bool}\nu -> d -> q');
    expect(graph.direction).toBe('RIGHT');
    expect(graph.nodes.map((n) => [n.id, n.shape, n.kind])).toEqual([
      ['u', 'person', 'user'],
      ['d', 'cylinder', 'database'],
      // D2 lays a queue on its side.
      ['q', 'horizontal-cylinder', 'queue'],
      ['k', 'rectangle', 'class'],
    ]);
    expect(graph.nodes.find((n) => n.id === 'k')!.rows).toEqual(['+name: string', '-go(): bool']);
    expect(graph.warnings).toEqual([]);
  }, SLOW);

  it('colours shapes as the theme the author chose (D2 docs\' C4 example, theme 303), and by role with none', async () => {
    const code = 'customer: { shape: c4-person }\nsystem: {\n  web: Web Application\n}\nmail: E-mail System\ncustomer -> system.web\nsystem.web -> mail';
    const themed = await readD2(`vars: {\n  d2-config: {\n    theme-id: 303\n  }\n}\n${code}`);
    const style = (graph: Awaited<ReturnType<typeof readD2>>, id: string) => graph.nodes.find((n) => n.id === id)?.style;
    // Inner objects blue with white text, root-level ones grey, the container outlined in C4's blue: D2's C4 colours.
    expect(style(themed, 'system.web')).toMatchObject({ fillColor: '#438dd5', strokeColor: '#3c7fc0', textColor: '#ffffff' });
    expect(style(themed, 'mail')).toMatchObject({ fillColor: '#999999', strokeColor: '#8a8a8a' });
    expect(themed.groups.find((g) => g.id === 'system')?.style).toMatchObject({ strokeColor: '#0f5eaa' });
    expect(themed.edges.every((e) => e.style?.strokeColor === '#707070')).toBe(true);
    const plain = await readD2(code);
    expect(style(plain, 'system.web')?.fillColor).toBeUndefined();
  });

  it('draws a step as D2 does, a chevron notched on the left (it was a block arrow, its label squeezed on the shaft: iidi-tech\'s resolver steps)', async () => {
    // The shape of PHAC's access-control gateway: steps inside a container, pointing at the rules they read.
    const graph = await readD2('gql-api: Rule-applying GraphQL API {\n  record-resolvers: Resolvers apply record rules\\nto record data {\n    shape: step\n  }\n}\nrules: { shape: stored_data }\ngql-api.record-resolvers -> rules: Get rules');
    const step = graph.nodes.find((n) => n.id === 'gql-api.record-resolvers')!;
    expect(step.shape).toBe('step');
    expect(graph.warnings.join('\n')).not.toMatch(/step/);
    const scene = await drawGraph(graph);
    const drawn = scene.elements.find((e) => e.id === scene.elementIds.nodes.get(step.id))!;
    expect(drawn.type).toBe('step');
    // One box, wider than tall, as D2 sizes a step for its two-line label.
    expect(Number(drawn.width)).toBeGreaterThan(Number(drawn.height));
  }, SLOW);

  it('draws a legend (vars.d2-legend) as D2 does: a Legend box listing each shape in its style and each connection in its colour, apart from the diagram', async () => {
    // The shape of an include-graph tool's output: classes for the three kinds of file and link, a legend naming them.
    const code =
      'classes: {\n  forbidden: { style: { stroke: "red" } }\n  unresolved: { style: { stroke: "gray"; fill: "gray" } }\n}\n' +
      'vars: {\n  d2-legend: {\n    a: { label: Specified }\n    c: Unresolved { class: unresolved }\n    hidden: { style.opacity: 0 }\n' +
      '    a -> c: Allowed\n    a -> c: Forbidden { class: forbidden }\n  }\n}\n' +
      'src."main.cpp" -> src."app.hpp"\nsrc."main.cpp" -> src."missing.h": { class: unresolved }\nsrc."missing.h".class: unresolved';
    const graph = await readD2(code);
    const legend = graph.nodes.filter((n) => n.parent === 'd2 legend');
    expect(graph.groups.find((g) => g.id === 'd2 legend')?.label).toBe('Legend');
    expect(legend.map((n) => [n.label, n.shape, n.style?.fillColor, n.style?.textColor])).toEqual([
      ['Specified', 'rectangle', undefined, undefined],
      ['Unresolved', 'rectangle', '#808080', undefined],
      ['———→  Allowed', 'text', '#00000000', undefined],
      ['———→  Forbidden', 'text', '#00000000', '#ff0000'],
    ]);
    expect(graph.warnings.join('\n')).not.toMatch(/legend.*not drawn/);
    const scene = await drawGraph(graph);
    const boxOf = (id: string) => {
      const element = scene.elements.find((e) => e.id === (scene.elementIds.nodes.get(id) ?? scene.elementIds.groups.get(id)))!;
      return { x: Number(element.x), y: Number(element.y), width: Number(element.width), height: Number(element.height) };
    };
    // Listed top to bottom in the order written, and clear of the drawing it explains.
    const boxes = legend.map((n) => boxOf(n.id));
    for (let k = 1; k < boxes.length; k++) expect(boxes[k]!.y).toBeGreaterThanOrEqual(boxes[k - 1]!.y + boxes[k - 1]!.height);
    const frame = boxOf('d2 legend');
    const src = boxOf('src');
    expect(frame.x >= src.x + src.width || frame.y >= src.y + src.height || src.x >= frame.x + frame.width || src.y >= frame.y + frame.height).toBe(true);
    // Set beside the drawing once it is laid out, the key moves nothing in it (laid out with it, it came first in the
    // flow and pulled the connections round it).
    const bare = await drawGraph(await readD2(code.replace(/vars: \{[\s\S]*?\n\}\n/, '')));
    const bareSrc = bare.elements.find((e) => e.id === bare.elementIds.groups.get('src'))!;
    expect([bareSrc.x, bareSrc.y, bareSrc.width, bareSrc.height]).toEqual([src.x, src.y, src.width, src.height]);
  }, SLOW);

  it('draws the root board and says which layers, scenarios and steps are left out', async () => {
    const graph = await readD2('a -> b\nlayers: {\n  detail: { c -> d }\n}\nscenarios: {\n  outage: { a.style.stroke: red }\n  recovery: { b.style.stroke: green }\n}');
    expect(graph.nodes.map((n) => n.id)).toEqual(['a', 'b']);
    expect(graph.warnings).toEqual(['D2 1 layer, 2 scenarios left out: only the root board is drawn']);
  }, SLOW);

  it('draws a story told in steps at its last step, which holds every step before it, as the D2 docs\' John Wick sequence ends', async () => {
    const graph = await readD2(fixture('d2-docs-johnwick-steps.d2'));
    // The root board alone is the four participants without one message: every shot was left out.
    expect(graph.sequence?.steps.filter((step) => step.type === 'message').map((step) => (step as { label?: string }).label)).toEqual([
      'shoots, misses',
      'shoots, hits',
      'shoots, misses',
      'shoots, hits',
      'injures',
      'shoots, hits',
    ]);
    // Each one hit keeps the red the step that hit him gave him.
    expect(graph.nodes.filter((n) => n.style?.fillColor?.toLowerCase() === '#ffcccb').map((n) => n.label)).toEqual(['henchman 1', 'henchman 2', 'big boss']);
    expect(graph.warnings).toEqual(['D2 6 steps drawn as the last, which holds what each step before it adds']);
  }, SLOW);

  it('refuses a syntax error with D2\'s message, line and column', async () => {
    const error = await readD2('a -> b\nc -> {').then(() => undefined, (e: unknown) => e as AppError);
    expect(error).toMatchObject({ code: 'parse_error', details: { line: 2 } });
    expect(error!.message).toMatch(/^line 2, column \d+: D2: /);
  }, SLOW);

  it('is told by its connections and keys, not in other notations or prose', () => {
    expect(detectD2('direction: right\nweb -> api: calls')).toBe(0.8);
    expect(detectD2('a -> b')).toBe(0.55);
    expect(detectD2('digraph { a -> b }')).toBe(0);
    expect(detectD2('graph TD; A-->B')).toBe(0);
    expect(detectD2('Dear team, here is the plan for Monday.')).toBe(0);
  });
});

describe('D2 round trip: D2 → scene → D2 export → D2 draws the same structure', () => {
  it.each([
    ['the containers example', fixture('d2-docs-containers-2.d2')],
    ['tables with crow\'s feet', 'users: { shape: sql_table; id: int {constraint: primary_key} }\norders: { shape: sql_table; id: int {constraint: primary_key}; user_id: int {constraint: foreign_key} }\norders <-> users: places {source-arrowhead.shape: cf-many; target-arrowhead.shape: cf-one-required}'],
  ])('%s', async (_name, code) => {
    const drawn = async (d2: string) => recoverGraph(intakeScene((await drawGraph(resolveIconHints(await readD2(d2)))).elements).elements);
    const first = await drawn(code);
    const exported = toD2(first, { iconBaseUrl: 'https://draw.example.com' });
    const second = await drawn(exported.code);
    expect(structureOf(second)).toEqual(structureOf(first));
    expect(first.edges.length).toBeGreaterThan(0);
  }, SLOW);
});

describe('D2 imports of a file not given (issue 27, fourth review)', () => {
  it('draws a diagram that spreads a theme file it comes without, its styles from that theme left at D2\'s defaults, and says so', async () => {
    // The form of the Codex platform's design diagrams: `...@../../../d2/theme`, then `fill: ${color-browser}` and the like.
    const code = [
      '# Notification System Architecture',
      '...@../../../d2/theme',
      'vars: {',
      '  accent: "#ffcc00"',
      '}',
      'direction: down',
      'browser: {',
      '  label: "Customer Browser"',
      '  page: {',
      '    label: "Content Page"',
      '    style: {',
      '      fill: ${color-browser}',
      '      stroke: ${stroke-browser}',
      '    }',
      '  }',
      '}',
      'worker: ${worker-name} Worker {style.fill: ${accent}}',
      'shared: @shared/db',
      'browser.page -> worker: "POST /api" {style.stroke: ${arrow-https}}',
    ].join('\n');
    const graph = await readD2(code);
    expect(graph.nodes.map((n) => [n.id, n.label])).toEqual([['browser.page', 'Content Page'], ['worker', 'worker-name Worker'], ['shared', 'shared']]);
    expect(graph.nodes.find((n) => n.id === 'worker')?.style?.fillColor).toBe('#ffcc00');
    expect(graph.edges.map((e) => [e.from, e.to, e.label])).toEqual([['browser.page', 'worker', 'POST /api']]);
    expect(graph.warnings.slice(0, 2)).toEqual([
      'D2 imports @../../../d2/theme, @shared/db left out: only the one file was given',
      "variables from the imported file left out, their shapes drawn in D2's defaults: color-browser, stroke-browser, worker-name, arrow-https",
    ]);
  }, SLOW);

  it('keeps D2\'s own error for an undefined variable in a file that imports nothing', async () => {
    await expect(readD2('a: {style.fill: ${nowhere}}')).rejects.toThrow(/nowhere/);
  }, SLOW);
});

describe('D2 container outlines as D2 draws them (issue 27, fourth review)', () => {
  it('draws containers solid and square, and dashed only where the author dashed them', async () => {
    // iidi-tech's target architecture: dashed provincial boundaries round solid federal infrastructure.
    const graph = await readD2('provinces: {\n  style.stroke-dash: 3\n  on: Ontario {\n    api\n  }\n}\nfederal: Federal infrastructure {\n  acg: {style.stroke-dash: 3; gql}\n  hub\n}\nfederal.acg.gql -> provinces.on.api');
    const scene = await drawGraph(graph);
    const outline = (id: string) => {
      const box = scene.elements.find((e) => e.id === scene.elementIds.groups.get(id))!;
      return [box.strokeStyle, box.corner];
    };
    expect(['provinces', 'provinces.on', 'federal', 'federal.acg'].map(outline)).toEqual([
      ['dashed', 'sharp'],
      ['solid', 'sharp'],
      ['solid', 'sharp'],
      ['dashed', 'sharp'],
    ]);
  }, SLOW);
});

describe('D2 Markdown set from the left (issue 27, fourth review)', () => {
  it('draws a Markdown block\'s lines from the left, as D2 renders them, and a plain label centred', async () => {
    // iidi-tech's services each explain themselves in a bulleted `|md` block; centred, the bullets ran ragged.
    const graph = await readD2('svc: Aggregation Service {\n  explanation: |md\n    - Provides an end point to request aggregate data\n    - Validates API token of requestor\n  |\n}\nplain: A plain label\nbox: |md **Bold** words| {style.stroke: "#ff0000"}');
    const scene = await drawGraph(graph);
    const alignOf = (text: string) => scene.elements.find((e) => (e as { text?: string }).text?.startsWith(text))?.textAlign;
    expect([alignOf('• Provides'), alignOf('Bold words'), alignOf('A plain label') ?? 'center']).toEqual(['left', 'left', 'center']);
  }, SLOW);
});

describe('D2 title size (issue 27, fourth review)', () => {
  it('draws a title at the size its author set above our heading\'s, and at our heading\'s otherwise', async () => {
    // iidi-tech's architecture titles: `style: {font-size: 55; italic: true}` on a text shape near the top.
    const big = await readD2('title: POC Target Architecture {\n  shape: text\n  near: top-center\n  style: {\n    font-size: 55\n    italic: true\n  }\n}\na -> b');
    expect([big.title, big.titleSize]).toEqual(['POC Target Architecture', 55]);
    const scene = await drawGraph(big);
    expect(scene.elements.find((e) => (e as { text?: string }).text === 'POC Target Architecture')?.fontSize).toBe(55);
    const plain = await readD2('title: Plain {shape: text; near: top-center}\na -> b');
    expect([plain.title, plain.titleSize]).toEqual(['Plain', undefined]);
  }, SLOW);
});

describe('D2 title placement', () => {
  it('centres a title written `near: top-center` over the diagram, as D2 does (the D2 docs\' "Giving your diagram a title")', async () => {
    const graph = await readD2(fixture('d2-docs-near-constant.d2'));
    const scene = await drawGraph(graph);
    const title = scene.elements.find((e) => (e as { text?: string }).text === 'A winning strategy')!;
    const rest = scene.elements.filter((e) => e !== title && e.x !== undefined && e.width !== undefined);
    const left = Math.min(...rest.map((e) => e.x!));
    const right = Math.max(...rest.map((e) => e.x! + e.width!));
    // It stood at the drawing's left edge, a third of the way off the middle D2 puts it on.
    expect(Math.abs(title.x! + title.width! / 2 - (left + right) / 2)).toBeLessThan(4);
    expect(title.textAlign).toBe('center');
  }, SLOW);
});
