import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../errors.js';
import { dotNotation } from './index.js';
import { codeToScene } from '../index.js';
import { layoutWithGraphviz } from '../../layout/graphviz.js';
import type { Box } from '../../layout/types.js';
import { htmlToText, unescapeLabel } from './labels.js';
import { recordCells } from './record.js';
import { mapArrowhead, mapColor } from './style.js';

const fixture = (name: string) => readFileSync(new URL(`../../../../test/fixtures/dot/${name}`, import.meta.url), 'utf8');
const toGraph = dotNotation.toGraph;
const node = (graph: ReturnType<typeof toGraph>, id: string) => graph.nodes.find((n) => n.id === id)!;

describe('DOT that Graphviz reads and the parser did not (Graphviz regression inputs)', () => {
  const sample = (name: string) => readFileSync(new URL(`../../../../test/fixtures/conformance/dot/${name}`, import.meta.url), 'utf8');

  it('takes a ";" after a subgraph and an empty statement', () => {
    expect(toGraph('digraph { a -> b; { rank=same; a b }; ;; }').nodes.map((n) => n.id)).toEqual(['a', 'b']);
    expect(toGraph(sample('rtest--graphs--b33.gv')).groups.length).toBeGreaterThan(0);
  });

  it('takes an attribute list on the line after its node, keeping later error positions', () => {
    expect(toGraph(sample('rtest--graphs--b545.gv')).nodes.find((n) => n.id === 'N11')?.rows).toBeDefined();
    expect(() => toGraph('digraph {\n"a"\n[shape=box]\nb -> }')).toThrow(/line 4, column/);
  });

  it('merges several attribute lists of one statement, later ones winning', () => {
    const graph = toGraph('digraph { a -> b [color=red] [label="x", color=blue] }');
    expect(graph.edges[0]).toMatchObject({ label: 'x', style: { strokeColor: '#0000ff' } });
    expect(toGraph(sample('rtest--graphs--decorate.gv')).edges.some((e) => e.label?.includes('sig_Cmd_Init.isAvailable()'))).toBe(true);
  });

  it('takes a line break between "=" and its value (Graphviz\'s tee.gv), keeping later error positions', () => {
    expect(toGraph('digraph {\n  t [shape=none label=\n<<b>tee</b>>]\n}').nodes.map((n) => n.label)).toEqual(['tee']);
    expect(() => toGraph('digraph {\n a [label=\n"x"]\n b -> }')).toThrow(/line 4, column/);
  });

  // The Linux kernel's BPF LRU map diagram (Documentation/bpf/map_lru_hash_update.dot, GPL-2.0) breaks its long
  // labels inside the quotes and labels its Y/N branches with `xlabel`, under splines=ortho.
  const lruExcerpt = [
    'digraph {',
    '  graph [splines=ortho, nodesep=1]',
    '  shrink [shape=rectangle,',
    '    label="Shrink inactive list',
    '      up to remaining',
    '      target_free"]',
    '  check [shape=diamond, label="> 0 entries in\\nlocal free list?"]',
    '  steal [shape=rectangle, label="Steal one node"]',
    '  use [shape=rectangle, label="Use node that was\\nnot recently referenced"]',
    '  shrink -> check',
    '  check -> use [xlabel = "Y"]',
    '  check -> steal [xlabel="N"]',
    '}',
  ].join('\n');

  it('reads a line break inside a quoted string as Graphviz does: a line break, the source indentation dropped', () => {
    expect(toGraph(lruExcerpt).nodes.find((n) => n.id === 'shrink')?.label).toBe('Shrink inactive list\nup to remaining\ntarget_free');
    expect(() => toGraph('digraph {\n a [label="x\n y"]\n b -> }')).toThrow(/line 4, column/);
  });

  it('puts an xlabel beside its edge where Graphviz places it, not on the line (the kernel\'s Y/N branches)', async () => {
    const laidOut = await layoutWithGraphviz(toGraph(lruExcerpt));
    for (const edge of laidOut.edges.filter((e) => e.labels.length > 0)) {
      const label = edge.labels[0]!;
      const crossed = edge.points.slice(1).some((b, i) => {
        const a = edge.points[i]!;
        // An axis-aligned leg through the label's box (ortho routes are made of such legs).
        const [x0, x1, y0, y1] = [Math.min(a.x, b.x), Math.max(a.x, b.x), Math.min(a.y, b.y), Math.max(a.y, b.y)];
        return x1 >= label.x && x0 <= label.x + label.width && y1 >= label.y && y0 <= label.y + label.height;
      });
      expect(crossed, label.text).toBe(false);
    }
  });

  it('draws the first of several graphs in one file and says so', () => {
    const graph = toGraph(sample('rtest--graphs--multi.gv'));
    expect(graph.nodes.map((n) => n.id)).toEqual(['a', 'b']);
    expect(graph.warnings).toContain('the input holds 2 graphs; only the first is drawn');
  });

  it('answers a graph past the parser\'s bound on parts (Graphviz\'s b100.gv, 5,806 edges) as too complex, not a syntax error', () => {
    const edges = Array.from({ length: 20_000 }, (_, i) => `n${i} -> n${i + 1} [color=red];`).join('\n');
    expect(() => toGraph(`digraph {\n${edges}\n}`)).toThrow(expect.objectContaining({ code: 'too_complex' }));
  });

  it('takes a subgraph that sets attributes as an end of an edge (Graphviz\'s ports.gv), its nodes taking the edges', async () => {
    const graph = toGraph('digraph {\n  TOP -> {rank=same a b} -> BOTTOM\n  {rank=same; c [color=red] d} -> e\n  f -> {g -> h}\n}');
    expect(graph.edges.map((e) => `${e.from}>${e.to}`).sort()).toEqual(['TOP>a', 'TOP>b', 'a>BOTTOM', 'b>BOTTOM', 'c>e', 'd>e', 'f>g', 'f>h', 'g>h'].sort());
    expect(graph.nodes.find((n) => n.id === 'c')?.style?.strokeColor).toBe('#ff0000');
    expect(graph.warnings.join()).toMatch(/subgraph at an end of an edge.*line 2, 3, 4/);
    const laidOut = await layoutWithGraphviz(graph);
    const y = (id: string) => laidOut.nodes.find((n) => n.id === id)!.y;
    expect(y('a')).toBe(y('b'));
    // A dangling edge before the last brace is still an error there, not an edge into the repeated subgraph.
    expect(() => toGraph('digraph {\n a -> {rank=same b c}\n x -> }')).toThrow(/line 3, column 7/);
    expect(toGraph('digraph { a -> {b c} }').warnings).toEqual([]);
  });

  it('leaves semicolons, brackets and braces inside strings, HTML labels and comments alone', () => {
    const graph = toGraph('digraph { /* }; */ a [label="x;;} [y]"]; b [label=<<b>};</b>>]; // ;;\n a -> b }');
    expect(graph.nodes.map((n) => n.label)).toEqual(['x;;} [y]', '};']);
  });
});

describe('DOT corpus', () => {
  it('says which shapes are drawn with a nearest outline (the state machine’s accepting states are double circles)', () => {
    const graph = toGraph(fixture('gallery-fsm.gv'));
    expect(graph.warnings).toEqual(['shape "doublecircle" is drawn as its nearest outline, ellipse ("0", "3", "4", "8")']);
    expect(graph.edges.filter((e) => e.from === e.to).map((e) => [e.from, e.label])).toEqual([
      ['5', 'S(a)'],
      ['6', 'S(b)'],
    ]);
  });

  it('reads the gallery clusters: two cluster containers, their nodes inside, cluster style', () => {
    const graph = toGraph(fixture('gallery-cluster.gv'));
    expect(graph.groups.map((g) => [g.id, g.label])).toEqual([
      ['cluster_0', 'process #1'],
      ['cluster_1', 'process #2'],
    ]);
    expect(graph.groups[0]!.style).toMatchObject({ fillColor: '#d3d3d3', strokeColor: '#d3d3d3' });
    expect(graph.groups[1]!.style).toMatchObject({ strokeColor: '#0000ff' });
    expect(node(graph, 'a0')).toMatchObject({ parent: 'cluster_0', style: { fillColor: '#ffffff', strokeColor: '#ffffff' } });
    expect(node(graph, 'start')).toMatchObject({ shape: 'diamond' });
    expect(node(graph, 'start').parent).toBeUndefined();
    expect(graph.nodes).toHaveLength(10);
    expect(graph.edges).toHaveLength(13);
    expect(graph.edges[0]).toMatchObject({ from: 'a0', to: 'a1', endArrowhead: 'triangle', startArrowhead: 'none' });
  });

  it('reads records as a box with its fields, and rankdir=LR as RIGHT', () => {
    const graph = toGraph(fixture('gallery-datastruct.gv'));
    expect(graph.direction).toBe('RIGHT');
    expect(node(graph, 'node1')).toMatchObject({ label: '0xf7fc4380', rows: ['-1'], shape: 'rectangle' });
    expect(node(graph, 'node3')).toMatchObject({ label: '3.43322790286038071e-06', rows: ['44.79998779296875', '0'] });
    // Flowing sideways, a record's fields are stacked; every port edges name is a field's.
    expect(node(graph, 'node0').cells).toEqual({ kind: 'fields', across: false, cells: [{ text: '0x10ba8', port: 'f0' }, { text: '', port: 'f1' }] });
    expect(graph.warnings.filter((warning) => /port/.test(warning))).toEqual([]);
  });

  it('reduces HTML-like labels to a header and rows, and maps UML arrowtails', () => {
    const graph = toGraph(fixture('gallery-uml-class.gv'));
    expect(node(graph, 'Interface1')).toMatchObject({ label: '«interface» I/O', rows: ['+ property', '...', '+ method', '...'] });
    expect(node(graph, 'System_1')).toMatchObject({ label: 'System', rows: expect.arrayContaining(['- Subsystem 1', '+ method']) });
    // plain shape: no outline.
    expect(node(graph, 'System_1').style?.strokeColor).toBe('#00000000');
    expect(node(graph, 'Interface2').label).toBe('Simple\ninterface');
    const inheritance = graph.edges.find((e) => e.from === 'Interface1' && e.to === 'Class1')!;
    expect(inheritance).toMatchObject({ startArrowhead: 'triangle-outline', endArrowhead: 'none', label: 'inheritance' });
    const composition = graph.edges.find((e) => e.from === 'System_1' && e.to === 'Subsystem_1')!;
    expect(composition).toMatchObject({ startArrowhead: 'diamond', label: 'composition' });
    expect(graph.edges.find((e) => e.label === 'dependency')).toMatchObject({ endArrowhead: 'arrow', style: { strokeStyle: 'dashed' } });
  });

  it('spreads the neato ER gallery so no two shapes overlap, and titles it without its leading blank lines', async () => {
    const graph = toGraph(fixture('gallery-neato-er.gv'));
    expect(graph.title).toBe('Entity Relation Diagram\ndrawn by NEATO');
    const { nodes } = await layoutWithGraphviz(graph);
    const overlapping = nodes.flatMap((a, i) =>
      nodes.slice(i + 1).filter((b) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height).map((b) => `${a.id}/${b.id}`),
    );
    expect(overlapping).toEqual([]);
  });

  it('reads the graph label of the UML gallery as the diagram title', () => {
    const graph = toGraph(fixture('gallery-uml-class.gv'));
    expect(graph.title).toBe('UML Class diagram demo');
    expect(graph.warnings).not.toContain('the graph label is not drawn');
  });

  it('reads 11 clusters with anonymous rank=same subgraphs inside', () => {
    const graph = toGraph(fixture('graphviz-plugins.gv'));
    expect(graph.groups.length).toBe(11);
    expect(graph.edges.length).toBe(163);
    expect(node(graph, 'i-(lib)').label).toBe('(lib)');
  });

  it('reads the large undirected co-authorship graph with UTF-8 labels and no arrowheads', () => {
    const graph = toGraph(fixture('gallery-gd-1994-2007.gv'));
    expect(graph.nodes.length).toBeGreaterThan(500);
    expect(graph.edges.length).toBeGreaterThan(1300);
    expect(node(graph, '32').label).toBe('Tóth');
    expect(graph.edges[0]).toMatchObject({ startArrowhead: 'none', endArrowhead: 'none' });
  });
});

describe('DOT edge cases', () => {
  it('nests clusters and moves a node into the deepest cluster it is named in', () => {
    const graph = toGraph('digraph { a; subgraph cluster_outer { label=Outer; subgraph cluster_inner { a; b } c } }');
    expect(graph.groups).toEqual([
      { id: 'cluster_outer', label: 'Outer', kind: 'cluster', style: { strokeStyle: 'solid', corner: 'sharp' } },
      { id: 'cluster_inner', label: '', kind: 'cluster', parent: 'cluster_outer', style: { strokeStyle: 'solid', corner: 'sharp' } },
    ]);
    expect([node(graph, 'a').parent, node(graph, 'b').parent, node(graph, 'c').parent]).toEqual(['cluster_inner', 'cluster_inner', 'cluster_outer']);
  });

  it('applies node and edge defaults from where they are set, scoped to their subgraph', () => {
    const graph = toGraph('digraph { a; node [shape=box]; b; subgraph s { node [shape=cylinder]; c } d; edge [color=red]; a -> b }');
    expect(['a', 'b', 'c', 'd'].map((id) => node(graph, id).shape)).toEqual(['ellipse', 'rectangle', 'cylinder', 'rectangle']);
    expect(graph.edges[0]!.style).toEqual({ strokeColor: '#ff0000' });
  });

  it('expands edge chains and groups: a -> {b c} -> d', () => {
    const graph = toGraph('digraph { a -> {b c} -> d }');
    expect(graph.edges.map((e) => `${e.from}>${e.to}`)).toEqual(['a>b', 'a>c', 'b>d', 'c>d']);
  });

  it('keeps one edge per pair in a strict graph (unordered when undirected)', () => {
    expect(toGraph('strict graph { a -- b; b -- a [label=x] }').edges).toEqual([
      { id: 'e1', from: 'b', to: 'a', startArrowhead: 'none', endArrowhead: 'none', label: 'x' },
    ]);
    expect(toGraph('digraph { a -> b; a -> b }').edges).toHaveLength(2);
  });

  it('maps dir, arrowheads and head/tail labels', () => {
    const graph = toGraph('digraph { a -> b [dir=both arrowhead=odiamond arrowtail=dot headlabel="1..*" taillabel=1]; c -> d [dir=none] }');
    expect(graph.edges[0]).toMatchObject({ startArrowhead: 'circle', endArrowhead: 'diamond-outline', startLabel: '1', endLabel: '1..*' });
    expect(graph.edges[1]).toMatchObject({ startArrowhead: 'none', endArrowhead: 'none' });
  });

  it('maps shapes, styles and colours', () => {
    const graph = toGraph('digraph { a [shape=note style="filled,dashed" fillcolor="#ffeeaa80"]; b [shape=Mrecord label="{x|y}"]; c [shape=egg color="0.0 1.0 1.0"]; d [shape=squiggle] }');
    expect(node(graph, 'a')).toMatchObject({ shape: 'page', style: { fillColor: '#ffeeaa80', strokeStyle: 'dashed' } });
    expect(node(graph, 'b')).toMatchObject({ label: 'x', rows: ['y'], style: { corner: 'rounded' } });
    expect(node(graph, 'c')).toMatchObject({ shape: 'ellipse', style: { strokeColor: '#ff0000' } });
    expect(node(graph, 'd').shape).toBe('rectangle');
    expect(graph.warnings).toContain('node "d": shape "squiggle" is drawn as a rectangle');
  });

  it('drops invisible nodes and edges with a warning', () => {
    const graph = toGraph('digraph { a -> b; h [style=invis]; a -> h; b -> a [style=invis] }');
    expect(graph.nodes.map((n) => n.id)).toEqual(['a', 'b']);
    expect(graph.edges).toHaveLength(1);
    expect(graph.warnings).toEqual(['1 invisible node(s) (style=invis) and their edges are not drawn', '1 invisible edge(s) (style=invis) are not drawn']);
  });

  it('titles the diagram with the root graph label only: escapes and HTML as in other labels, cluster labels stay on their containers', () => {
    const graph = toGraph('digraph G {\n  label="\\G: top\\nline two"\n  subgraph cluster_a { label="inner"; a }\n  subgraph plain { label="not drawn"; b }\n  a -> b\n}');
    expect(graph.title).toBe('G: top\nline two');
    expect(graph.groups).toEqual([{ id: 'cluster_a', label: 'inner', kind: 'cluster', style: { strokeStyle: 'solid', corner: 'sharp' } }]);
    expect(toGraph('graph { graph [label=<<b>Net</b> &amp; hosts>]; a -- b }').title).toBe('Net & hosts');
    expect(toGraph('digraph { subgraph cluster_x { label="only a cluster"; a } }').title).toBeUndefined();
  });

  it('ends an edge on a cluster with lhead', () => {
    const graph = toGraph('digraph { compound=true; a -> b [lhead=cluster_x]; subgraph cluster_x { b } }');
    expect(graph.edges[0]).toMatchObject({ from: 'a', to: 'cluster_x' });
  });

  it('draws an edge clipped at clusters though its written ends are invisible anchors, as Graphviz does', () => {
    // The form of Siteimprove alfa's docs/dependency-graph.dot (MIT): each cluster holds an invisible `exit_` node,
    // and the edges between clusters run from one exit to the next cluster's name node with ltail/lhead. Graphviz
    // draws 157 edges there; the anchors being invisible, we drew 79.
    const graph = toGraph(`digraph { compound = true;
      subgraph "cluster_Logic" { "name_Logic" [shape = "rectangle"]; "exit_Logic" [style = "invis"]; "alfa-predicate" -> "exit_Logic" [style = "invis"] }
      subgraph "cluster_Comparison" { "exit_Comparison" [style = "invis"]; "alfa-equatable" }
      "exit_Comparison" -> "name_Logic" [style = "dotted"; ltail = "cluster_Comparison"; lhead = "cluster_Logic"]
      "alfa-equatable" -> "exit_Logic" [lhead = "cluster_Logic"]
      "alfa-equatable" -> "exit_Logic" [ltail = "cluster_Logic"]
    }`);
    expect(graph.edges.map((e) => `${e.from} -> ${e.to}`)).toEqual(['cluster_Comparison -> cluster_Logic', 'alfa-equatable -> cluster_Logic']);
    expect(graph.edges[0]!.style).toMatchObject({ strokeStyle: 'dotted' });
    expect(graph.nodes.map((n) => n.id)).not.toContain('exit_Logic');
  });

  it('clips at a cluster only as Graphviz does: under compound=true, when the cluster holds that end and not the other', () => {
    const ends = (code: string) => toGraph(code).edges.map((e) => `${e.from} -> ${e.to}`);
    expect(ends('digraph { a -> b [lhead=cluster_x]; subgraph cluster_x { b } }')).toEqual(['a -> b']);
    expect(ends('digraph { compound=true; a -> b [lhead=cluster_x]; subgraph cluster_x { c } }')).toEqual(['a -> b']);
    expect(ends('digraph { compound=true; a -> b [lhead=cluster_x]; subgraph cluster_x { a; b } }')).toEqual(['a -> b']);
    expect(ends('digraph { compound=true; a -> b [lhead=cluster_x]; subgraph cluster_x { subgraph cluster_y { b } } }')).toEqual(['a -> cluster_x']);
  });

  it('reports a syntax error with its line and column', () => {
    const error = (() => {
      try {
        toGraph('digraph {\n  a -> ;\n}');
      } catch (caught) {
        return caught as AppError;
      }
    })();
    expect(error).toBeInstanceOf(AppError);
    expect(error?.code).toBe('parse_error');
    expect(error?.details).toEqual({ line: 2, column: 8 });
    expect(error?.message).toMatch(/^line 2, column 8: Expected/);
  });

  it('detects DOT by its opening, after comments, and nothing else', () => {
    expect(dotNotation.detect('/* c */\n// x\nstrict digraph "my g" {')).toBeGreaterThan(0.9);
    expect(dotNotation.detect('graph{a--b}')).toBeGreaterThan(0.9);
    expect(dotNotation.detect('services:\n  web:\n    image: nginx')).toBe(0);
  });
});

describe('DOT labels and styles', () => {
  it('expands escapes', () => {
    expect(unescapeLabel('\\N on \\G\\lnext\\l', { node: 'n1', graph: 'G' })).toBe('n1 on G\nnext');
  });
  it('reduces HTML to text', () => {
    expect(htmlToText('<b>A</b> &amp; B<br/>C &#x3b1;')).toBe('A & B\nC α');
  });
  it('reads record fields as Graphviz does: nested {} turned the other way, ports, escaped bars and braces, \\l set left', () => {
    expect(recordCells('<f0> a\\|b|{<p> c\\{ |d}|  e  \\ f\\l', true, {})).toEqual({
      kind: 'fields',
      across: true,
      cells: [
        { text: 'a|b', port: 'f0' },
        { text: '', inner: { kind: 'fields', across: false, cells: [{ text: 'c{', port: 'p' }, { text: 'd' }] } },
        { text: 'e  f', textAlign: 'left' },
      ],
    });
  });
  it('maps colours and arrowheads', () => {
    expect([mapColor('lightgrey'), mapColor('grey50'), mapColor('lightblue2'), mapColor('red:blue'), mapColor('nonsense')]).toEqual(['#d3d3d3', '#808080', '#add8e6', '#ff0000', undefined]);
    expect(['normal', 'onormal', 'empty', 'vee', 'odiamond', 'crow', 'tee', 'none', 'lteeoldiamond'].map(mapArrowhead)).toEqual([
      'triangle',
      'triangle-outline',
      'triangle-outline',
      'arrow',
      'diamond-outline',
      'crows-foot',
      'bar',
      'none',
      'bar',
    ]);
  });
});

describe('dotNotation pen widths', () => {
  it('keeps penwidth as stroke width (profilers encode cost in it), doubled to our scale and kept within 1–8', async () => {
    const graph = dotNotation.toGraph('digraph G { hot [penwidth=3]; hot -> cold [penwidth=0.5]; cold -> sink [penwidth=6]; sink -> hot; }');
    expect(graph.nodes.find((n) => n.id === 'hot')!.style).toEqual({ strokeWidth: 6 });
    expect(graph.edges.map((e) => e.style?.strokeWidth)).toEqual([1, 8, undefined]);
    const { elements } = await codeToScene('digraph G { hot [penwidth=3]; hot -> cold [penwidth=0.5]; }');
    expect(elements.find((e) => e.type !== 'arrow' && 'text' in e && e.text === 'hot')).toMatchObject({ strokeWidth: 6 });
    expect(elements.find((e) => e.type === 'arrow')).toMatchObject({ strokeWidth: 1 });
  });
});

describe('DOT text, borders and invisible structure on real files', () => {
  it('reads colours by number in the Brewer colour scheme the author chose (decentraland/architecture)', async () => {
    // Decentraland's architecture graph (architecture.dot, Apache-2.0) fills every node and cluster by index in
    // ColorBrewer's PuBuGn with 9 classes, as Graphviz does: pale pink nodes in blue-grey clusters, not grey ones.
    const graph = await dotNotation.toGraph(
      [
        'digraph G {',
        '    node [shape=box, colorscheme="pubugn9", style="filled,setlinewidth(2)", fillcolor=1]',
        '    subgraph cluster_client {',
        '        colorscheme="pubugn9";',
        '        bgcolor=4;',
        '        label = <Unity Explorer <BR/> <FONT POINT-SIZE="15">Decentralized Client</FONT>>;',
        '        ExplorerClient [label=<Core<FONT POINT-SIZE="10"><BR/><BR/>Core Client Logic</FONT>>;]',
        '    }',
        '    ExplorerClient -> DecentralandGateway',
        '    Gateway2 [fillcolor="/set13/2"]',
        '}',
      ].join('\n'),
    );
    const node = (id: string) => graph.nodes.find((n) => n.id === id)!;
    expect(node('ExplorerClient').style?.fillColor).toBe('#fff7fb');
    expect(node('DecentralandGateway').style?.fillColor).toBe('#fff7fb');
    expect(graph.groups[0]!.style?.fillColor).toBe('#a6bddb');
    // `/scheme/colour` names a colour of another scheme outright: Set1's second of three.
    expect(node('Gateway2').style?.fillColor).toBe('#377eb8');
  });

  const sceneOf = async (name: string) => (await codeToScene(fixture(name))).elements;
  const byId = (elements: Awaited<ReturnType<typeof sceneOf>>, id: string) => elements.find((e) => e.id === id)!;

  it('draws a record field by field and ends an edge at the field its port names (the gallery’s datastruct.gv)', async () => {
    const elements = await sceneOf('gallery-datastruct.gv');
    const node1 = byId(elements, 'node1');
    // Four fields stacked, three rules between them, the box's width; each text in its own field.
    const rules = elements.filter((e) => e.id.startsWith('node1-rule-'));
    expect(rules.map((rule) => [rule.x, rule.width])).toEqual(new Array(3).fill([node1.x, node1.width]));
    expect(byId(elements, 'node1-field-4')).toMatchObject({ text: '-1' });
    expect(byId(elements, 'node1-field-4').y).toBeGreaterThan(rules[2]!.y!);
    // "node0":f1 -> "node2":f0: from the lower of node0's two fields to the top one of node2's four.
    const [node0, node2] = [byId(elements, 'node0') as Box, byId(elements, 'node2') as Box];
    const points = (byId(elements, 'e2') as { points: { x: number; y: number }[] }).points;
    expect(points[0]!.y).toBeGreaterThan(node0.y + node0.height / 2);
    expect(points.at(-1)!.y).toBeLessThan(node2.y + node2.height / 4);
  });

  it('draws an HTML-like table cell by cell with its borders and spans, an edge to a PORT ending at its cell (Graphviz’s rtest html.gv)', async () => {
    const elements = await sceneOf('graphviz-html.gv');
    const cell = (k: number) => byId(elements, `struct3-cell-${k}`) as Box & { strokeColor: string };
    // hello/world (ROWSPAN=3) is as tall as b, d and f together; b and f (COLSPAN=3) as wide as c, d and e.
    expect(cell(1).height).toBeCloseTo(cell(2).height + cell(6).height + cell(8).height, 1);
    expect(cell(2).width).toBeCloseTo(cell(5).width + cell(6).width + cell(7).width, 1);
    expect(byId(elements, 'struct3-field-6')).toMatchObject({ text: 'd' });
    // CELLBORDER=1 in a plaintext node: the node has no outline, its cells do.
    expect(byId(elements, 'struct3')).toMatchObject({ strokeColor: '#00000000' });
    expect(cell(6).strokeColor).toBe('#1e1e1e');
    // struct1:f2 -> struct3:here ends at the cell d, not the middle of the table.
    const end = (byId(elements, 'e2') as { points: { x: number; y: number }[] }).points.at(-1)!;
    expect(end.x).toBeGreaterThan(cell(6).x);
    expect(end.x).toBeLessThan(cell(6).x + cell(6).width);
  });

  it('ends edges to a table’s row ports at the row’s side, as Graphviz does, not across the rows (the UML gallery’s System)', async () => {
    const elements = await sceneOf('gallery-uml-class.gv');
    const system = byId(elements, 'System_1') as Box;
    type Arrow = { type: string; startBinding?: { elementId: string }; points: { x: number; y: number }[] };
    const starts = (elements as unknown as Arrow[]).filter((e) => e.type === 'arrow' && e.startBinding?.elementId === 'System_1').map((e) => e.points[0]!);
    expect(starts).toHaveLength(3);
    for (const start of starts) expect(Math.min(Math.abs(start.x - system.x), Math.abs(start.x - system.x - system.width))).toBeLessThan(6);
  });

  it('sets record text flush left or right where its lines end with \\l or \\r (Graphviz’s rtest records.gv)', async () => {
    const elements = await sceneOf('graphviz-records.gv');
    expect(byId(elements, 'a-field-1')).toMatchObject({ text: 'Graphs can\nbe fun', textAlign: 'left' });
    expect(byId(elements, 'a-field-2')).toMatchObject({ text: 'mid', textAlign: 'center' });
    const [right, node] = [byId(elements, 'a-field-3') as Box, byId(elements, 'a') as Box];
    expect(right).toMatchObject({ text: 'right', textAlign: 'right' });
    expect(node.x + node.width - (right.x + right.width)).toBeLessThan(12);
  });

  it('draws note, box3d, folder and tab in their own outlines, as Graphviz does (rtest shapes.gv: a folded page, a box in depth, folders)', async () => {
    const elements = await sceneOf('graphviz-shapes.gv');
    expect(['3', '4', '5', '7'].map((id) => byId(elements, id).type)).toEqual(['page', 'folder', 'box-3d', 'folder']);
  });

  it('decodes HTML entities in every label as Graphviz does (the gallery’s LR(0) states: &bull; &gt; &#40;)', async () => {
    const graph = await dotNotation.toGraph(fixture('gallery-psg.gv'));
    const state0 = graph.nodes.find((n) => n.id === 'state0')!;
    expect(state0.rows).toContain('(0) s -> •e $');
    expect(graph.nodes.flatMap((n) => [n.label, ...(n.rows ?? [])]).filter((text) => /&\w+;/.test(text))).toEqual([]);
    expect(unescapeLabel('a &rarr; b &Alpha;&alpha; &unknown; &amp;')).toBe('a → b Αα &unknown; &');
  });

  it('keeps the alpha of a colour and a table’s whole first row as its header, as Graphviz draws the gallery’s git.gv', async () => {
    const graph = await dotNotation.toGraph(fixture('gallery-git.gv'));
    const changes = graph.nodes.find((n) => n.id === 'changes')!;
    // color="#88000022": a pale wash of dark red, not dark red.
    expect(changes.style?.fillColor).toBe('#88000022');
    expect(changes.label).toBe('changes\nin the working tree');
    expect(changes.rows).toEqual(['To view:', 'git diff']);
  });

  it('draws an HTML table as a header and rows whatever the shape, readable on a black fill (psg’s state #5)', async () => {
    const elements = await sceneOf('gallery-psg.gv');
    const texts = elements.filter((e) => e.type === 'text' && 'text' in e && /State #5|s -> e/.test(String(e.text)));
    expect(texts.map((e) => ('text' in e ? e.text : ''))).toEqual(['State #5', '(0) s -> e •$']);
    for (const text of texts) expect(text.strokeColor).toBe('#ffffff');
  });

  it('draws plain and plaintext nodes as text without a border (the kernel map’s heading and credit)', async () => {
    const elements = await sceneOf('linux-kernel-map.gv');
    for (const id of ['LKD', 'bottom']) {
      expect(byId(elements, id)).toMatchObject({ strokeColor: '#00000000', fillColor: 'transparent' });
      expect(byId(elements, id)).not.toHaveProperty('text');
      expect(byId(elements, `${id}-label`)).toMatchObject({ type: 'text', strokeColor: '#1e1e1e' });
    }
    expect(byId(elements, 'LKD-label')).toMatchObject({ text: expect.stringContaining('Linux kernel') });
  });

  it('keeps fontsize as text size, in proportion (kernel map heading 40 pt, profiler nodes and edge labels 10 pt)', async () => {
    expect(byId(await sceneOf('linux-kernel-map.gv'), 'LKD-label')).toMatchObject({ fontSize: 46 });
    const profile = await sceneOf('gprof2dot-cprofile.gv');
    expect(byId(profile, '0-label')).toMatchObject({ fontSize: 11 });
    const edgeLabels = profile.filter((e) => e.type === 'text' && 'text' in e && /%\n/.test(e.text ?? ''));
    expect(edgeLabels.length).toBe(24);
    for (const label of edgeLabels) expect(label).toMatchObject({ fontSize: 10 });
  });

  it('draws edge labels in the edge’s fontcolor (profiler: each call’s share in its call’s colour)', async () => {
    const profile = await sceneOf('gprof2dot-cprofile.gv');
    // `0 -> 8 [color="#0ba067", fontcolor="#0ba067", label="34.56%\n50000×"]`
    expect(profile.find((e) => e.type === 'text' && 'text' in e && e.text === '34.56%\n50000×')).toMatchObject({ strokeColor: '#0ba067' });
    const colours = new Set(profile.filter((e) => e.type === 'text' && 'text' in e && /%\n/.test(e.text ?? '')).map((e) => e.strokeColor));
    expect(colours.size).toBeGreaterThan(10);
  });

  it('keeps border colours and the author’s font colour (profiler: red box, white text)', async () => {
    const profile = await sceneOf('gprof2dot-cprofile.gv');
    expect(byId(profile, '0')).toMatchObject({ strokeColor: '#ff0100', fillColor: '#ff0100' });
    expect(byId(profile, '0-label')).toMatchObject({ strokeColor: '#ffffff', groupIds: ['0-box'] });
    const kernel = await sceneOf('linux-kernel-map.gv');
    // A white box with a pink border: the border stays pink.
    expect(byId(kernel, 'system')).toMatchObject({ strokeColor: '#e27dd6', fillColor: '#ffffff' });
  });

  it('writes a label in black when only the outline is coloured, as Graphviz does (ladder99: gray outlines, black words)', async () => {
    const { elements } = await codeToScene('digraph { node [color=gray]; Agent [label="MTConnect Agent"]; Admin [color=gray, fontcolor=blue]; Agent -> Admin }');
    const textOf = (words: string) => elements.find((e) => 'text' in e && e.text === words)!;
    expect(textOf('MTConnect Agent').strokeColor).toBe('#000000');
    expect(textOf('Admin').strokeColor).toBe('#0000ff');
    expect(byId(elements, 'Agent').strokeColor).toBe('#808080');
  });

  it('reads style=setlinewidth(n) as penwidth', () => {
    const graph = toGraph(fixture('linux-kernel-map.gv'));
    expect(node(graph, 'SCI').style?.strokeWidth).toBe(8);
    // setlinewidth(0): the thinnest line we draw.
    expect(node(graph, 'layers').style?.strokeWidth).toBe(1);
  });

  it('does not draw edges to invisible nodes, which still shape the layout', async () => {
    const graph = toGraph(fixture('linux-kernel-map.gv'));
    expect(graph.nodes.some((n) => n.id === 'system_')).toBe(false);
    expect(graph.edges.some((e) => e.from === 'system' && e.to === 'system_')).toBe(false);
    expect(graph.dot?.source).toMatch(/system -> system_/);
    const elements = await sceneOf('linux-kernel-map.gv');
    // The column headers stand in one row above their columns, as the author's invisible edges and rank=same put them.
    const headers = ['HI', 'system', 'multitasking', 'memory', 'storage', 'networking'].map((id) => byId(elements, id));
    const middles = headers.map((h) => h.y! + h.height! / 2);
    expect(Math.max(...middles) - Math.min(...middles)).toBeLessThan(1);
    expect(byId(elements, 'SCI').y!).toBeGreaterThan(byId(elements, 'system').y!);
  });
});

describe('DOT node sizes the author set (issue 27, fourth review)', () => {
  it('draws a node at least as wide as its width (inches) says, as Graphviz does, and never narrower than its label', async () => {
    // NATS's publish/subscribe picture: the server a bus 8 inches wide under and over its six clients.
    const graph = toGraph('digraph { node [shape=box]; nats [label="NATS", width=8]; tiny [label="A long label for a small width", width=0.3, height=2]; pub -> nats; nats -> sub }');
    const { sizeNode } = await import('../../layout/node-size.js');
    expect(sizeNode(node(graph, 'nats')).width).toBe(576);
    const tiny = sizeNode(node(graph, 'tiny'));
    expect(tiny.width).toBeGreaterThan(200);
    expect(tiny.height).toBe(144);
  });
});

describe('DOT emphasis', () => {
  it('draws a label Graphviz sets bold or italic so: a bold fontname, an HTML label wrapped whole in <b> or <i>', async () => {
    const { elements } = await codeToScene(
      'digraph { node [shape=box]; a [label=<<b>Gateway</b>>]; b [label="Worker", fontname="Helvetica-Bold"]; c [label=<<i>queue</i>>]; d [label=<a <b>bold</b> part>]; a -> b -> c -> d }',
    );
    const face = (text: string) => {
      const element = elements.find((e) => (e as { text?: string }).text === text) as { fontWeight?: string; fontStyle?: string };
      return [element.fontWeight, element.fontStyle];
    };
    expect(['Gateway', 'Worker', 'queue', 'a bold part'].map(face)).toEqual([['bold', undefined], ['bold', undefined], [undefined, 'italic'], [undefined, undefined]]);
  });
});
