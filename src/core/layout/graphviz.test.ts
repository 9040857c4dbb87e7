import { readdirSync, readFileSync } from 'node:fs';
import { Graphviz } from '@hpcc-js/wasm-graphviz';
import { describe, expect, it } from 'vitest';
import { dotNotation } from '../notations/dot/index.js';
import { codeToScene } from '../notations/index.js';
import { heavyGraph } from '../../../test/support/heavy-graph.js';
import { graphvizCaps } from './graphviz-caps.js';
import type { GraphIR } from '../graph/types.js';
import { graphToDot, layoutWithGraphviz, looseRows, placeWithGraphviz, splinePoints } from './graphviz.js';
import type { LaidOutGraph, Point } from './types.js';

const fixture = (name: string) => readFileSync(new URL(`../../../test/fixtures/dot/${name}`, import.meta.url), 'utf8');
const laidOut = (code: string) => layoutWithGraphviz(dotNotation.toGraph(code));
const centre = (laid: LaidOutGraph, id: string) => {
  const node = laid.nodes.find((n) => n.id === id)!;
  return { x: node.x + node.width / 2, y: node.y + node.height / 2 };
};

/** Ranks (rows of equal centre y, top to bottom; columns when `sideways`) and the order of the nodes in each. */
function ranks(centres: ReadonlyMap<string, { x: number; y: number }>, sideways: boolean): string[][] {
  const rows = new Map<number, { id: string; x: number }[]>();
  for (const [id, point] of centres) {
    const { x, y } = sideways ? { x: point.y, y: point.x } : point;
    const key = Math.round(y);
    if (!rows.has(key)) rows.set(key, []);
    rows.get(key)!.push({ id, x });
  }
  return [...rows.entries()].sort((a, b) => a[0] - b[0]).map(([, row]) => row.sort((a, b) => a.x - b.x).map((n) => n.id));
}

describe('Graphviz layout of DOT', () => {
  it('keeps rank=same rows the author asked for', async () => {
    const laid = await laidOut('digraph { a -> b; b -> c; c -> d; a -> e; { rank=same; b; e } { rank=same; a; d } }');
    expect(centre(laid, 'b').y).toBeCloseTo(centre(laid, 'e').y, 1);
    expect(centre(laid, 'a').y).toBeCloseTo(centre(laid, 'd').y, 1);
  });

  it('lets invisible nodes and edges shape the layout without drawing them', async () => {
    const graph = dotNotation.toGraph('digraph { rankdir=LR; a -> spacer [style=invis]; spacer -> b [style=invis]; spacer [style=invis]; a -> c }');
    const laid = await layoutWithGraphviz(graph);
    expect(laid.nodes.map((n) => n.id).sort()).toEqual(['a', 'b', 'c']);
    expect(laid.edges).toHaveLength(1);
    // b sits two ranks right of a, with the invisible spacer's rank between them.
    expect(centre(laid, 'b').x - centre(laid, 'a').x).toBeGreaterThan(2 * (centre(laid, 'c').x - centre(laid, 'a').x) - 1);
  });

  it('does not rank by an edge with constraint=false, and reads rankdir', async () => {
    const down = await laidOut('digraph { a -> b; b -> c; c -> a [constraint=false] }');
    expect(centre(down, 'a').y).toBeLessThan(centre(down, 'b').y);
    expect(centre(down, 'b').y).toBeLessThan(centre(down, 'c').y);
    const up = await laidOut('digraph { rankdir=BT; a -> b }');
    expect(centre(up, 'a').y).toBeGreaterThan(centre(up, 'b').y);
  });

  it('keeps ordering=out: out-edges in the order written', async () => {
    const body = 'n2 -> n6; n1 -> n6; n1 -> n2; n1 -> n2';
    const ordered = await laidOut(`digraph { ordering=out; ${body} }`);
    expect(centre(ordered, 'n6').x).toBeLessThan(centre(ordered, 'n2').x);
    const free = await laidOut(`digraph { ${body} }`);
    expect(centre(free, 'n6').x).toBeGreaterThan(centre(free, 'n2').x);
  });

  it('draws edges as curves through the spline, ending on the outline, and labels where Graphviz made room', async () => {
    const { elements } = await codeToScene('digraph { a -> b [label="reads"]; a -> c; b -> c }');
    const arrows = elements.filter((e) => e.type === 'arrow');
    expect(arrows.some((arrow) => 'arrowShape' in arrow && arrow.arrowShape === 'multipoint-curved')).toBe(true);
    const label = elements.find((e) => e.type === 'text' && 'text' in e && e.text === 'reads')!;
    const a = elements.find((e) => e.id === 'a')!;
    const b = elements.find((e) => e.id === 'b')!;
    // Between its edge's ends, overlapping neither node.
    expect(label.y!).toBeGreaterThan(a.y! + a.height! - 1);
    expect(label.y! + label.height!).toBeLessThan(b.y! + 1);
  });

  it('sizes nodes with our fonts, so a long label fits however Graphviz would have measured it', async () => {
    const graph = dotNotation.toGraph('digraph { n [label="a rather long label, wider than Graphviz would guess" shape=box] }');
    const laid = await layoutWithGraphviz(graph);
    expect(laid.nodes[0]!.width).toBe(laid.nodes[0]!.box.width);
    expect(laid.width).toBeGreaterThanOrEqual(laid.nodes[0]!.width);
  });

  it('samples a spline densely enough that a long flat curve is followed', () => {
    const points = splinePoints([
      { x: 0, y: 0 },
      { x: 1000, y: 0 },
      { x: 2000, y: 300 },
      { x: 3000, y: 300 },
    ]);
    expect(points.length).toBeGreaterThan(50);
    expect(points.at(-1)).toEqual({ x: 3000, y: 300 });
  });

  it('lays out other notations’ graphs with containers as clusters', async () => {
    const graph = {
      layout: 'layered' as const,
      direction: 'RIGHT' as const,
      nodes: [
        { id: 'web "x"', label: 'web', kind: 'service' as const, parent: 'net' },
        { id: 'db', label: 'db', kind: 'database' as const },
      ],
      edges: [{ id: 'e1', from: 'web "x"', to: 'db' }],
      groups: [{ id: 'net', label: 'backend network' }],
      warnings: [],
    };
    expect(graphToDot(graph).source).toContain('subgraph cluster_0 {');
    const laid = await layoutWithGraphviz(graph);
    const net = laid.groups[0]!;
    const web = laid.nodes.find((n) => n.id === 'web "x"')!;
    expect(web.x).toBeGreaterThanOrEqual(net.x);
    expect(web.x + web.width).toBeLessThanOrEqual(net.x + net.width);
    expect(centre(laid, 'db').x).toBeGreaterThan(centre(laid, 'web "x"').x);
    expect(laid.edges).toHaveLength(1);
  });
});

describe('Graphviz placement for routes drawn again', () => {
  it('draws edges straight when asked, where its own curves bend round a node in the way', async () => {
    // web → db passes the rank of api, and Graphviz's spline bends round it.
    const graph: GraphIR = {
      layout: 'layered',
      direction: 'DOWN',
      nodes: ['web', 'api', 'db'].map((id) => ({ id, label: id, kind: 'service' as const })),
      edges: [
        { id: 'e1', from: 'web', to: 'api' },
        { id: 'e2', from: 'api', to: 'db' },
        { id: 'e3', from: 'web', to: 'db' },
      ],
      groups: [],
      warnings: [],
    };
    // How far a route strays from the straight line between its ends.
    const stray = (points: readonly Point[]) => {
      const [a, b] = [points[0]!, points[points.length - 1]!];
      const length = Math.hypot(b.x - a.x, b.y - a.y);
      return Math.max(...points.map((p) => Math.abs((b.x - a.x) * (a.y - p.y) - (a.x - p.x) * (b.y - a.y)) / length));
    };
    const curved = await placeWithGraphviz(graph);
    const straight = await placeWithGraphviz(graph, { straight: true });
    const past = (laid: LaidOutGraph) => laid.edges.find((edge) => edge.index === 2)!.points;
    expect(stray(past(curved))).toBeGreaterThan(3);
    expect(stray(past(straight))).toBeLessThan(0.5);
    expect(straight.edges).toHaveLength(3);
  });
});

describe('loose nodes in rows', () => {
  const boxes = (count: number, width = 150) => Array.from({ length: count }, () => ({ width, height: 100 }));
  const lengths = (rows: unknown[][]) => rows.map((row) => row.length);

  it('keeps them in one row where it fits the width', () => {
    expect(lengths(looseRows(boxes(3), 880, [40, 80]))).toEqual([3]);
  });

  it('sets them in even rows, the longer first, of the block nearest a landscape page when one row is too wide', () => {
    // Seven of 150 × 100: three, two and two (530 × 460, nearer 1.6:1 than four and three's 720 × 280), not three, three and one.
    expect(lengths(looseRows(boxes(7), 880, [40, 80]))).toEqual([3, 2, 2]);
    expect(lengths(looseRows(boxes(12, 100), 600, [40, 80]))).toEqual([4, 4, 4]);
  });

  it('sets them in no more rows than their columns need, not a column with one beside it (a Mermaid client’s five parts)', () => {
    // Five of 300 × 40 (a sideways container's parts, measured across): in four rows they were two, one, one and one.
    const rows = looseRows(Array.from({ length: 5 }, () => ({ width: 300, height: 40 })), 880, [40, 80]);
    expect(lengths(rows)).toEqual([2, 2, 1]);
  });

  it('sets them in one column where no row fits', () => {
    expect(lengths(looseRows(boxes(2, 600), 500, [40, 80]))).toEqual([1, 1]);
  });
});

describe('Graphviz iteration caps on large graphs', () => {
  it('keeps Graphviz’s defaults for every corpus file, caps a graph whose layout would run for minutes, and never overrides the author', () => {
    for (const file of readdirSync(new URL('../../../test/fixtures/dot/', import.meta.url)).filter((name) => name.endsWith('.gv'))) {
      expect(graphvizCaps(dotNotation.toGraph(fixture(file))), file).toEqual({});
    }
    // 300 nodes, but cycles everywhere and edges spanning hundreds of ranks: over 300 s with Graphviz's defaults.
    expect(graphvizCaps(dotNotation.toGraph(heavyGraph(300)))).toEqual({ nslimit: 1, mclimit: 0.2 });
    expect(graphvizCaps(dotNotation.toGraph(heavyGraph(300).replace('digraph {', 'digraph { nslimit=3;')))).toEqual({ mclimit: 0.2 });
    // As many nodes and edges in a layered pattern place few dummies and keep the defaults.
    const layered = `digraph { ${Array.from({ length: 300 }, (_, i) => `n${i} -> n${i + 1 + (i % 3)}; n${i} -> n${i + 2 + (i % 5)};`).join(' ')} }`;
    expect(graphvizCaps(dotNotation.toGraph(layered))).toEqual({});
  });
});

describe('DOT corpus laid out as Graphviz lays it out', () => {
  const graphviz = Graphviz.load();

  // datastruct's edges leave from record fields (node:port); we draw a record as a header and rows and attach edges to
  // the whole node, so Graphviz orders its ranks without the ports: same ranks, order free.
  it.each([
    ['gallery-cluster.gv', true],
    ['gallery-datastruct.gv', false],
    ['gallery-uml-class.gv', true],
    ['graphviz-plugins.gv', true],
    ['linux-kernel-map.gv', true],
    ['gprof2dot-cprofile.gv', true],
  ])('%s: same ranks (and the same order in each rank: %s)', async (file, ordered) => {
    const code = fixture(file);
    const theirs = JSON.parse((await graphviz).layout(code, 'json', 'dot')) as { objects: { name: string; pos?: string; bb?: string }[] };
    const graph = dotNotation.toGraph(code);
    const drawn = new Set(graph.nodes.map((n) => n.id));
    const theirCentres = new Map(
      theirs.objects
        .filter((o) => o.pos !== undefined && o.bb === undefined && drawn.has(o.name))
        .map((o) => {
          const [x = 0, y = 0] = o.pos!.split(',').map(Number);
          return [o.name, { x, y: -y }] as const;
        }),
    );
    const laid = await layoutWithGraphviz(graph);
    const ourCentres = new Map(laid.nodes.map((n) => [n.id, centre(laid, n.id)]));
    const sideways = graph.direction === 'RIGHT' || graph.direction === 'LEFT';
    const compared = (centres: typeof ourCentres) => ranks(centres, sideways).map((rank) => (ordered ? rank : rank.sort()));
    expect(compared(ourCentres)).toEqual(compared(theirCentres));
  });
});
