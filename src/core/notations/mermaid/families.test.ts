/** Mermaid's mind maps, C4 and architecture diagrams, read by Mermaid's own parsers and drawn by ours (issue 27). */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { AppError } from '../../errors.js';
import { recoverGraph } from '../../export/graph-recovery.js';
import { toD2 } from '../../export/d2.js';
import { toMermaid } from '../../export/mermaid.js';
import { SPACING } from '../../layout/drawing-rules.js';
import { intakeScene } from '../../scene/intake.js';
import { codeToScene, detectNotation } from '../index.js';
import { mermaidNotation } from './index.js';

const fixture = (name: string): string => readFileSync(new URL(`../../../../test/fixtures/mermaid/${name}`, import.meta.url), 'utf8');
/** A drawn shape's place: every element the tests look up here is a shape, which has one. */
type Box = { x: number; y: number; width: number; height: number };
const refusal = (promise: Promise<unknown>) => promise.then(() => undefined, (error: unknown) => error as AppError);

describe('Mermaid mindmap', () => {
  it('keeps a topic\'s lines short, as Mermaid does: no room is left between ranks for labels and arrowheads a mind map has none of', async () => {
    // The documentation's mind map was 1,730 px wide beside Mermaid's 775, every line at least 78 px long.
    const scene = await codeToScene(fixture('mermaid-docs-mindmap.mmd'), { notation: 'mermaid' });
    const box = (id: string) => scene.elements.find((element) => element.id === scene.elementIds.nodes.get(id)) as Box;
    const gaps = scene.graph.edges.map((edge) => {
      const [parent, child] = [box(edge.from), box(edge.to)];
      return Math.max(child.x - (parent.x + parent.width), parent.x - (child.x + child.width));
    });
    expect(Math.min(...gaps)).toBeLessThan(SPACING.betweenLayers * 0.75);
  });

  it('reads the documentation\'s mind map as a tree: the circled root in the middle, a colour per branch, icons as keywords', async () => {
    const code = fixture('mermaid-docs-mindmap.mmd');
    expect(detectNotation(code)).toBe('mermaid');
    const graph = await mermaidNotation.toGraph(code);
    const byLabel = new Map(graph.nodes.map((node) => [node.label, node]));
    expect(graph.nodes).toHaveLength(15);
    expect(graph.edges).toHaveLength(14);
    expect(byLabel.get('mindmap')).toMatchObject({ shape: 'ellipse', style: { fontSize: 20 } });
    expect(byLabel.get('On effectiveness\nand features')).toBeDefined();
    expect(byLabel.get('Long history')).toMatchObject({ iconHint: 'book' });
    // Every topic of a branch shares the branch's colour; branches differ.
    const fill = (label: string) => byLabel.get(label)!.style?.fillColor;
    expect(fill('Popularisation')).toBe(fill('Origins'));
    expect(fill('Argument mapping')).toBe(fill('Research'));
    expect(new Set([fill('Origins'), fill('Research'), fill('Tools')]).size).toBe(3);
    // Branches on both sides of the root, balanced by their leaves, so the root sits between them.
    const root = byLabel.get('mindmap')!.id;
    expect(graph.edges.filter((edge) => edge.from === root).map((edge) => edge.toward)).toEqual(['RIGHT', 'LEFT', 'RIGHT']);
    expect(graph.edges.every((edge) => edge.endArrowhead === 'none' && edge.startArrowhead === 'none')).toBe(true);
  });

  it('gives each bracket form its outline', async () => {
    const graph = await mermaidNotation.toGraph(['mindmap', '  root{{Hex}}', '    [Square]', '    (Rounded)', '    ))Bang((', '    )Cloud(', '    ((Circle))'].join('\n'));
    expect(graph.nodes.map((node) => [node.label, node.shape])).toEqual([
      ['Hex', 'hexagon'],
      ['Square', 'rectangle'],
      ['Rounded', 'rectangle'],
      ['Bang', 'star'],
      ['Cloud', 'cloud'],
      ['Circle', 'ellipse'],
    ]);
    expect(graph.warnings).toEqual(['the bang outline is drawn as our nearest shape (star)']);
  });

  it('meets a star or hexagon root where Graphviz clipped the line, not hooked back out to the corner of its box', async () => {
    // A bang root (drawn as our star) with five branches: lines leaving between its points ran to the box's edge and
    // turned back in, a hook at the root of each.
    const code = ['mindmap', '  root))Problem Types((', '    Counting', '      Paths', '    Optimisation', '      Cost', '    Decision', '      Reachability', '    Strings', '      Edit distance', '    Intervals', '      Matrix chain'].join('\n');
    for (const root of [code, code.replace('))Problem Types((', '{{Problem Types}}')]) {
      const scene = await codeToScene(root, { notation: 'mermaid' });
      const rootId = scene.elementIds.nodes.get(scene.graph.nodes[0]!.id)!;
      const shape = scene.elements.find((element) => element.id === rootId) as Box;
      const centre = { x: shape.x + shape.width / 2, y: shape.y + shape.height / 2 };
      const away = (p: { x: number; y: number }) => Math.hypot(p.x - centre.x, p.y - centre.y);
      const lines = scene.elements.filter((element) => element.type === 'arrow' && element.startBinding?.elementId === rootId);
      expect(lines).toHaveLength(5);
      // Each line leaves the root outward from its first point on.
      for (const line of lines) {
        const [first, second] = ('points' in line && line.points) || [];
        expect(away(second!)).toBeGreaterThan(away(first!));
      }
    }
  });

  it('refuses a mind map with two roots with Mermaid\'s message', async () => {
    const error = await refusal(mermaidNotation.toGraph('mindmap\nroot\nsecond root'));
    expect(error).toMatchObject({ code: 'parse_error' });
  });
});

describe('Mermaid C4', () => {
  it('reads the documentation\'s System Context diagram as our C4: persons, systems, databases, queues, nested boundaries, relations', async () => {
    const graph = await mermaidNotation.toGraph(fixture('mermaid-docs-c4-context.mmd'));
    expect(graph.title).toBe('System Context diagram for Internet Banking System');
    const node = (id: string) => graph.nodes.find((n) => n.id === id)!;
    expect(node('customerA')).toMatchObject({ kind: 'actor', shape: 'person', label: 'Banking Customer A', parent: 'b0', rows: ['[Person]', 'A customer of the bank, with personal bank accounts.'] });
    // UpdateElementStyle's colours.
    expect(node('customerA').style).toMatchObject({ fillColor: '#808080', strokeColor: '#ff0000', textColor: '#ff0000' });
    expect(node('customerC')).toMatchObject({ kind: 'actor', style: { strokeStyle: 'dashed' } });
    expect(node('SystemE')).toMatchObject({ kind: 'external', shape: 'cylinder', parent: 'b1', style: { strokeStyle: 'dashed' } });
    expect(node('SystemF')).toMatchObject({ kind: 'queue', shape: 'horizontal-cylinder', parent: 'b3' });
    expect(graph.groups.map((g) => [g.id, g.label, g.parent])).toEqual([
      ['b0', 'BankBoundary0', undefined],
      ['b1', 'BankBoundary', 'b0'],
      ['b2', 'BankBoundary2', 'b1'],
      ['b3', 'BankBoundary3', 'b1'],
    ]);
    expect(graph.edges.map((e) => [e.from, e.to, e.label, e.startArrowhead])).toEqual([
      ['customerA', 'SystemAA', 'Uses', 'arrow'],
      ['SystemAA', 'SystemE', 'Uses', 'arrow'],
      ['SystemAA', 'SystemC', 'Sends e-mails\n[SMTP]', 'none'],
      ['SystemC', 'customerA', 'Sends e-mails to', 'none'],
    ]);
    expect(graph.edges[3]!.style).toEqual({ strokeColor: '#ff0000', textColor: '#ff0000' });
  });

  it('reads deployment nodes as containers named with what they run on, and Rel_U as a side', async () => {
    const graph = await mermaidNotation.toGraph(
      ['C4Deployment', 'Deployment_Node(mob, "Customer\'s mobile device", "Apple IOS or Android"){', '  Container(mobile, "Mobile App", "Xamarin", "Banking app")', '}', 'ContainerDb(db, "Database", "Oracle 12c")', 'Rel_U(db, mobile, "Reads")'].join('\n'),
    );
    expect(graph.groups).toEqual([{ id: 'mob', label: "Customer's mobile device\n[Apple IOS or Android]", kind: 'node' }]);
    expect(graph.nodes.find((n) => n.id === 'mobile')).toMatchObject({ parent: 'mob', rows: ['[Container: Xamarin]', 'Banking app'], iconHint: 'xamarin' });
    expect(graph.edges[0]).toMatchObject({ from: 'db', to: 'mobile', toward: 'UP' });
  });

  it('refuses a malformed macro with Mermaid\'s line', async () => {
    const error = await refusal(mermaidNotation.toGraph('C4Context\nPerson(a, "A")\nRel(a'));
    expect(error).toMatchObject({ code: 'parse_error', details: { line: 3 } });
  });
});

describe('Mermaid architecture-beta', () => {
  it('reads the documentation\'s example: services with our icons in their group, sides as where the other end goes', async () => {
    const graph = await mermaidNotation.toGraph(fixture('mermaid-docs-architecture.mmd'));
    expect(graph.groups).toEqual([{ id: 'api', label: 'API', kind: 'group' }]);
    expect(graph.nodes.map((n) => [n.id, n.label, n.iconRef, n.parent])).toEqual([
      ['db', 'Database', 'databases/Database', 'api'],
      ['disk1', 'Storage', 'generic/Storage', 'api'],
      ['disk2', 'Storage', 'generic/Storage', 'api'],
      ['server', 'Server', 'generic/Server', 'api'],
    ]);
    // `db:L -- R:server`: server left of db; `disk1:T -- B:server`: server above disk1.
    expect(graph.edges.map((e) => [e.from, e.to, e.toward])).toEqual([
      ['db', 'server', 'LEFT'],
      ['disk1', 'server', 'UP'],
      ['disk2', 'db', 'UP'],
    ]);
  });

  it('reads nested groups, junctions, arrows and other icon packs', async () => {
    const graph = await mermaidNotation.toGraph(
      ['architecture-beta', 'group cloud(logos:aws)[AWS]', 'group vpc(cloud)[VPC] in cloud', 'service s3(logos:aws-s3)[Bucket] in vpc', 'service web(internet)[Web]', 'junction j in vpc', 'web:R --> L:j', 'j:B <-- T:s3'].join('\n'),
    );
    expect(graph.groups.find((g) => g.id === 'vpc')).toMatchObject({ parent: 'cloud' });
    expect(graph.nodes.find((n) => n.id === 's3')).toMatchObject({ iconHint: 'aws s3', parent: 'vpc' });
    expect(graph.nodes.find((n) => n.id === 'j')).toMatchObject({ label: '', parent: 'vpc', size: { width: 10, height: 10 } });
    expect(graph.edges.map((e) => [e.from, e.to, e.startArrowhead, e.endArrowhead, e.toward])).toEqual([
      ['web', 'j', 'none', 'arrow', 'RIGHT'],
      ['j', 's3', 'arrow', 'none', 'DOWN'],
    ]);
  });

  it('lays a network whose lines mostly run sideways out left to right: the junctions a straight bus, the servers in a column beside it', async () => {
    // An office network drawn as a workshop lab is: laid downwards, the bus's top and bottom junctions stood off its line, slanted.
    const scene = await codeToScene(fixture('office-network-bus-architecture.mmd'), { notation: 'mermaid' });
    expect(scene.graph.direction).toBe('RIGHT');
    const centre = (id: string) => {
      const box = scene.elements.find((element) => element.id === scene.elementIds.nodes.get(id)) as Box;
      return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
    };
    const [top, middle, bottom] = ['bustop', 'busmiddle', 'busbottom'].map(centre);
    // `busmiddle:T -- B:bustop`: the top junction straight above the centre one, the bottom one below.
    expect([top!.x, bottom!.x]).toEqual([expect.closeTo(middle!.x, 0), expect.closeTo(middle!.x, 0)]);
    expect(top!.y).toBeLessThan(middle!.y);
    expect(bottom!.y).toBeGreaterThan(middle!.y);
    // The servers right of the bus, in the order of their junctions; the router left of it.
    const servers = ['jump', 'wiki', 'backup'].map(centre);
    for (const server of servers) expect(server.x).toBeGreaterThan(middle!.x);
    expect(servers.map((server) => server.y)).toEqual([...servers.map((server) => server.y)].sort((a, b) => a - b));
    expect(centre('switch').x).toBeLessThan(middle!.x);
  });

  it('stacks services on one side of another beside it, rather than one beyond the other with a line arcing over', async () => {
    // An AI gateway's README: two clients left of the proxy and three servers right of it, two stores below.
    const code = [
      'architecture-beta',
      'service cursor(server)[Cursor]', 'service claude(server)[Claude Desktop]', 'service proxy(server)[Proxy]',
      'service local(server)[Local]', 'service github(server)[GitHub]', 'service rbac(database)[RBAC]',
      'cursor:R --> L:proxy', 'claude:R --> L:proxy', 'proxy:R --> L:local', 'proxy:R --> L:github', 'proxy:B --> T:rbac',
    ].join('\n');
    const scene = await codeToScene(code, { notation: 'mermaid' });
    const box = (id: string) => scene.elements.find((element) => element.id === scene.elementIds.nodes.get(id)) as Box;
    const [cursor, claude, proxy, local, github, rbac] = ['cursor', 'claude', 'proxy', 'local', 'github', 'rbac'].map(box);
    const middle = (b: Box) => b.x + b.width / 2;
    expect(middle(cursor!)).toBeCloseTo(middle(claude!), 0);
    expect(middle(local!)).toBeCloseTo(middle(github!), 0);
    expect(cursor!.x + cursor!.width).toBeLessThan(proxy!.x);
    expect(local!.x).toBeGreaterThan(proxy!.x + proxy!.width);
    expect(rbac!.y).toBeGreaterThan(proxy!.y + proxy!.height);
  });

  it('refuses an edge without sides with Mermaid\'s message', async () => {
    const error = await refusal(mermaidNotation.toGraph('architecture-beta\nservice a(server)[A]\nservice b(server)[B]\na -- b'));
    expect(error).toMatchObject({ code: 'parse_error' });
    expect(error!.message).toMatch(/Mermaid/);
  });
});

describe('Mermaid requirementDiagram', () => {
  it('reads the documentation\'s first example: boxes with their fields as rows, the relation labelled and dashed', async () => {
    const graph = await mermaidNotation.toGraph(
      ['requirementDiagram', '', 'requirement test_req {', 'id: 1', 'text: the test text.', 'risk: high', 'verifymethod: test', '}', '', 'element test_entity {', 'type: simulation', '}', '', 'test_entity - satisfies -> test_req'].join('\n'),
    );
    expect(graph.nodes).toEqual([
      { id: 'test_req', label: 'test_req', kind: 'class', rows: ['«Requirement»', 'ID: 1', 'Text: the test text.', 'Risk: High', 'Verification: Test'] },
      { id: 'test_entity', label: 'test_entity', kind: 'class', rows: ['«Element»', 'Type: simulation'] },
    ]);
    expect(graph.edges).toEqual([{ id: 'e1', from: 'test_entity', to: 'test_req', label: '«satisfies»', startArrowhead: 'none', endArrowhead: 'arrow', style: { strokeStyle: 'dashed' } }]);
  });

  it('draws `contains` with its circle at the container', async () => {
    const graph = await mermaidNotation.toGraph('requirementDiagram\nrequirement a {\nid: 1\n}\nrequirement b {\nid: 2\n}\na - contains -> b');
    expect(graph.edges[0]).toMatchObject({ from: 'a', to: 'b', startArrowhead: 'circle', endArrowhead: 'none' });
  });

  it('refuses an unknown relation with Mermaid\'s line', async () => {
    const error = await refusal(mermaidNotation.toGraph('requirementDiagram\nrequirement a {\nid: 1\n}\na - owns -> a'));
    expect(error).toMatchObject({ code: 'parse_error' });
  });
});

describe('Mermaid block-beta', () => {
  it('places blocks in the author\'s columns, a space as an empty cell, a composite block as a container with its own grid', async () => {
    const graph = await mermaidNotation.toGraph(['block-beta', 'columns 3', 'a space b', 'c d["Dee"] e', 'block:grp:2', '  columns 1', '  f(("F"))', '  g', 'end', 'h<["go"]>(down)', 'a --> f'].join('\n'));
    expect(graph.grid?.cells).toEqual({ a: { row: 0, column: 0 }, b: { row: 0, column: 2 }, c: { row: 1, column: 0 }, d: { row: 1, column: 1 }, e: { row: 1, column: 2 }, grp: { row: 2, column: 0, columnSpan: 2 }, h: { row: 2, column: 2 } });
    expect(graph.groups).toEqual([{ id: 'grp', label: '', grid: { cells: { f: { row: 0, column: 0 }, g: { row: 1, column: 0 } }, rowGap: 24, columnGap: 24, fill: true } }]);
    expect(graph.nodes.find((n) => n.id === 'f')).toMatchObject({ shape: 'ellipse', parent: 'grp', label: 'F' });
    expect(graph.nodes.find((n) => n.id === 'h')).toMatchObject({ shape: 'arrow-down', label: 'go' });
    expect(graph.edges).toEqual([{ id: 'e1', from: 'a', to: 'f', startArrowhead: 'none', endArrowhead: 'arrow' }]);
  });

  it('draws a chain of links between composite blocks link by link, where Mermaid\'s block parser left one link from nowhere (and crashed us)', async () => {
    // The layers of a database's architecture overview in a public project's plan (block-beta, composite rows, one chain).
    const code = [
      'block-beta',
      '  columns 1',
      '  block:client["Client Layer"]',
      '    columns 3',
      '    tcp["TCP/WebSocket"] rest["REST API"] embed["Embedded API"]',
      '  end',
      '  block:query["Query Engine"]',
      '    columns 2',
      '    lexer["Lexer/Parser"] planner["Planner"]',
      '  end',
      '  txn["Transaction Manager (MVCC)"]',
      '',
      '  client --> query --> txn',
    ].join('\n');
    const graph = await mermaidNotation.toGraph(code);
    expect(graph.edges.map((edge) => [edge.from, edge.to, edge.endArrowhead])).toEqual([
      ['client', 'query', 'arrow'],
      ['query', 'txn', 'arrow'],
    ]);
    expect(graph.nodes.map((node) => node.id)).toEqual(['tcp', 'rest', 'embed', 'lexer', 'planner', 'txn']);
    expect(graph.warnings).toEqual(["2 links written as chains (a --> b --> c) drawn one by one; Mermaid's block parser draws none of them"]);
    const { elements } = await codeToScene(code, { notation: 'mermaid' });
    expect(elements.filter((element) => element.type === 'arrow')).toHaveLength(2);
  });

  it('draws a block several columns wide (`a:3`) across its columns, as Mermaid\'s documentation example of dynamic column widths', async () => {
    // packages/mermaid/src/docs/syntax/block.md at df032c942c32f805a7f4cd1cf30a565e610bc4f1 (MIT), "Dynamic Column Widths".
    const code = ['block', '  columns 3', '  a:3', '  block:group1:2', '    columns 2', '    h i j k', '  end', '  g', '  block:group2:3', '    l m n o p q r', '  end'].join('\n');
    const graph = await mermaidNotation.toGraph(code);
    expect(graph.grid?.cells).toEqual({ a: { row: 0, column: 0, columnSpan: 3 }, group1: { row: 1, column: 0, columnSpan: 2 }, g: { row: 1, column: 2 }, group2: { row: 2, column: 0, columnSpan: 3 } });
    const scene = await codeToScene(code, { notation: 'mermaid' });
    const box = (id: string) => scene.elements.find((e) => e.id === (scene.elementIds.nodes.get(id) ?? scene.elementIds.groups.get(id))) as Box;
    // `a` and group2 run from group1's left to g's right; group1 ends before g.
    for (const id of ['a', 'group2']) {
      expect(box(id).x).toBeCloseTo(box('group1').x, 0);
      expect(box(id).x + box(id).width).toBeCloseTo(box('g').x + box('g').width, 0);
    }
    expect(box('group1').x + box('group1').width).toBeLessThan(box('g').x);
  });

  it('spreads a composite block\'s children across the width its row gives it, as Mermaid does (Semantic Kernel\'s OTel layers)', async () => {
    // `block:Kernel` (no columns) holds Function, Planner and Agent under the full-width "Semantic Kernel" block: they
    // sat at the left of the stretched container, the rest of it empty.
    const { elements } = await codeToScene(fixture('semantic-kernel-otel-layers-block.mmd'), { notation: 'mermaid' });
    const box = (text: string) => elements.find((e) => e.text === text)!;
    const kernel = box('Semantic Kernel');
    const [fn, planner, agent] = [box('Function'), box('Planner'), box('Agent')];
    expect(fn.x! - kernel.x!).toBeLessThan(40);
    expect(kernel.x! + kernel.width! - (agent.x! + agent.width!)).toBeLessThan(40);
    // Three equal cells, as Mermaid draws them.
    expect(new Set([fn, planner, agent].map((b) => Math.round(b.width!))).size).toBe(1);
  });

  it('draws the documentation example\'s two links into D apart, each straight down over the empty `space` cell, as Mermaid does', async () => {
    // `ID --> D` (from the composite block) and `C --> D` (from a block inside it) took one route round the grid's
    // right side, one line over the other.
    const scene = await codeToScene(fixture('mermaid-docs-block.mmd'), { notation: 'mermaid' });
    const arrows = scene.elements.filter((element) => element.type === 'arrow') as { x: number; points: { x: number; y: number }[] }[];
    expect(arrows).toHaveLength(2);
    for (const arrow of arrows) expect(new Set(arrow.points.map((point) => Math.round(point.x))).size).toBe(1);
    expect(Math.abs(arrows[0]!.x - arrows[1]!.x)).toBeGreaterThan(50);
  });

  it('refuses an unclosed composite block with Mermaid\'s message', async () => {
    const error = await refusal(mermaidNotation.toGraph('block-beta\nblock:x\n a'));
    expect(error).toMatchObject({ code: 'parse_error' });
  });
});

describe('Mermaid families drawn and exported', () => {
  it.each(['mermaid/mermaid-docs-mindmap.mmd', 'mermaid/mermaid-docs-c4-context.mmd', 'mermaid/mermaid-docs-architecture.mmd', 'mermaid/mermaid-docs-requirement.mmd', 'mermaid/mermaid-docs-block.mmd', 'plantuml/irs-quality-tree-mindmap.puml'])('%s draws, and its scene exports to Mermaid and D2', async (file) => {
    const scene = await codeToScene(readFileSync(new URL(`../../../../test/fixtures/${file}`, import.meta.url), 'utf8'));
    const graph = recoverGraph(intakeScene(scene.elements).elements);
    expect(graph.nodes.length).toBeGreaterThan(3);
    expect(toMermaid(graph).code).toMatch(/^flowchart|^graph|^---/);
    expect(toD2(graph).code.length).toBeGreaterThan(0);
  }, 60_000);
});
