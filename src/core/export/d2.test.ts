import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { intakeScene } from '../scene/intake.js';
import type { Element, ElementInput } from '../scene/schema.js';
import { d2String, toD2 } from './d2.js';
import { recoverGraph } from './graph-recovery.js';
import { d2Count } from '../../../test/support/real-tools.js';
import { codeToScene } from '../notations/index.js';

const fixtures = join(dirname(fileURLToPath(import.meta.url)), '../../../test/fixtures');
const load = (path: string): Element[] => intakeScene(JSON.parse(readFileSync(join(fixtures, path), 'utf8'))).elements;
const scene = (elements: ElementInput[]) => intakeScene(elements).elements;
const box = (id: string, x: number, y: number, extra: Partial<ElementInput> = {}) =>
  ({ id, type: 'rectangle', x, y, width: 160, height: 80, roughness: 'clean', ...extra }) as ElementInput;
const arrow = (id: string, from: string, to: string, extra: Partial<ElementInput> = {}) =>
  ({ id, type: 'arrow', startBinding: { elementId: from }, endBinding: { elementId: to }, roughness: 'clean', ...extra }) as ElementInput;
const ICONS = { iconBaseUrl: 'https://draw.example.com/' };
const d2Of = (elements: ElementInput[]) => toD2(recoverGraph(scene(elements)));

/** Goldens change only on purpose: `UPDATE_GOLDENS=1 npx vitest run src/core/export` rewrites them. */
function expectGolden(file: string, code: string) {
  const path = join(fixtures, 'export', file);
  if (process.env.UPDATE_GOLDENS === '1' || !existsSync(path)) writeFileSync(path, code);
  expect(code).toBe(readFileSync(path, 'utf8'));
}

describe('toD2 goldens, compiled by D2', () => {
  it.each([
    ['excalidraw/native-every-type.json', 'native-every-type.d2'],
    ['export/er-scene.json', 'er-scene.d2'],
    ['export/class-scene.json', 'class-scene.d2'],
  ])('%s → %s', async (input, golden) => {
    const graph = recoverGraph(load(input));
    const { code } = toD2(graph, ICONS);
    expectGolden(golden, code);
    expect(await d2Count(code)).toMatchObject({ nodes: graph.nodes.length, edges: graph.edges.length, groups: graph.groups.length });
  });
});

describe('toD2', () => {
  it('draws the diagram title as a text shape near the top, D2’s idiom for a title', async () => {
    const graph = recoverGraph(scene([{ id: 'heading', type: 'text', x: 0, y: 0, text: 'Checkout', fontSize: 24 }, box('a', 0, 80), box('b', 300, 80), arrow('ab', 'a', 'b')]));
    const { code, warnings } = toD2(graph);
    expect(code).toContain('heading: "Checkout" {shape: text; near: top-center; style.font-size: 24}');
    expect(warnings).toEqual([]);
    expect(await d2Count(code)).toMatchObject({ nodes: 3, edges: 1 });
  });

  it('maps both arrowheads, end labels and the connection style', () => {
    const { code, warnings } = d2Of([
      box('orders', 0, 0),
      box('lines', 400, 0),
      arrow('has', 'orders', 'lines', { startArrowhead: 'double-bar', endArrowhead: 'circle-crows-foot', strokeStyle: 'dashed', text: 'has', strokeWidth: 3 }),
      arrow('uses', 'lines', 'orders', { startArrowhead: 'diamond-outline', endArrowhead: 'none' }),
      arrow('tee', 'orders', 'lines', { endArrowhead: 'bar' }),
    ]);
    expect(code).toContain('orders <-> lines: "has" {\n  source-arrowhead: {shape: cf-one-required}\n  target-arrowhead: {shape: cf-many}\n  class: s1\n}');
    expect(code).toContain('lines <- orders {\n  source-arrowhead: {shape: diamond; style.filled: false}\n');
    expect(code).toContain('s1: {style: {stroke: "#1e1e1e"; stroke-width: 3; stroke-dash: 5; font-size: 20}}');
    expect(code).toMatch(/^direction: right\n/);
    expect(warnings).toEqual(['"tee": D2 has no bar arrowhead; drawn as cf-one-required']);
  });

  it('links stamped icons to the service’s public icon URLs, and says so when there is no URL', () => {
    const graph = recoverGraph(scene([box('bucket', 0, 0, { iconRef: 'aws/Amazon S3 (Glacier)', text: 'Archive' })]));
    expect(toD2(graph, ICONS).code).toContain('icon: "https://draw.example.com/icons/aws/Amazon%20S3%20(Glacier).svg"');
    expect(toD2(graph).warnings).toEqual(['"bucket": icon left out (no public URL to link it from)']);
  });

  it('writes sketchy scenes in sketch mode and switches to ELK when an edge joins a container to its content', async () => {
    const { code } = d2Of([
      { id: 'vpc', type: 'frame', x: 0, y: 0, width: 600, height: 300, name: 'VPC' },
      box('api', 40, 60, { roughness: 'sketch' }),
      { ...arrow('into', 'vpc', 'api'), roughness: 'sketch' } as ElementInput,
    ]);
    expect(code).toContain('vars: {d2-config: {sketch: true; layout-engine: elk}}');
    expect(code).toContain('vpc -> vpc.api {\n  target-arrowhead: {shape: arrow}\n  class: s2\n}');
    expect(await d2Count(code)).toMatchObject({ nodes: 1, edges: 1, groups: 1 });
  });

  it('drops colour alpha with a warning, since D2 colours are opaque', () => {
    const { code, warnings } = d2Of([box('a', 0, 0, { fillColor: '#a5d8ff80' })]);
    expect(code).toContain('fill: "#a5d8ff"');
    expect(warnings).toEqual(['"a": fill alpha dropped (D2 colours are opaque)']);
  });

  it('quotes labels so quotes, $ substitutions, backslashes and line breaks survive D2', async () => {
    const label = 'cost ${x} "quoted" \\ {a; b} # not a comment\nline 2 → 日本';
    expect(d2String(label)).toBe('"cost \\${x} \\"quoted\\" \\\\ {a; b} # not a comment\\nline 2 → 日本"');
    const { code } = d2Of([box('shape', 0, 0, { text: label })]);
    expect((await d2Count(code)).labels.get('n_shape')).toBe(label);
  });
});

describe('toD2 edge cases the real D2 refuses or silently loses', () => {
  it('writes empty code, math and text as empty code shapes, since D2 refuses empty block strings and blank text', async () => {
    const graph = recoverGraph(
      scene([
        { id: 'snippet', type: 'code', x: 0, y: 0, text: '' },
        { id: 'formula', type: 'math', x: 300, y: 0, text: '' },
        { id: 'spaces', type: 'code', x: 600, y: 0, text: '  \n ' },
        { id: 'caption', type: 'text', x: 0, y: 300, text: '' },
        arrow('to-caption', 'snippet', 'caption'),
      ]),
    );
    const { code } = toD2(graph);
    expect(code).toContain('snippet: "" {shape: code}\nformula: "" {shape: code}\nspaces: "" {shape: code}\ncaption: "" {shape: code}\n');
    expect(await d2Count(code)).toMatchObject({ nodes: 4, edges: 1 });
  });

  it('shows LaTeX that D2’s renderer breaks on as its source, and says so', async () => {
    const { code, warnings } = d2Of([{ id: 'f', type: 'math', x: 0, y: 0, text: 'a`b ${x} 𝧤' }]);
    expect(code).toContain('f: |text\na`b ${x} 𝧤\n|');
    expect(warnings).toEqual(['"f": math shown as its LaTeX source (D2 cannot render it)']);
    expect(await d2Count(code)).toMatchObject({ nodes: 1 });
  });

  it('makes a table or class only of text that reads as one, keeps key constraints, and says it was inferred', async () => {
    const { code, warnings } = d2Of([
      box('api', 0, 0, { text: 'API' }),
      { id: 'api-version', type: 'text', x: 20, y: 50, text: 'Node.js 20' },
      box('users', 400, 0, { text: 'users', height: 120 }),
      { id: 'users-rows', type: 'text', x: 410, y: 50, text: '#id  int PK' },
    ]);
    expect(code).toContain('api: "API\\nNode.js 20" {shape: rectangle; class: s0}');
    expect(code).toContain('users: "users" {\n  shape: sql_table\n  class: s0\n  "#id": "int" {constraint: [primary_key]}\n}');
    expect(warnings).toEqual(['"users": read as a D2 sql_table from the text under its label']);
    expect(await d2Count(code)).toMatchObject({ nodes: 2 });
  });

  it('draws generic person, queue and package icons as D2’s shapes for them, containers too', async () => {
    const { code, warnings } = toD2(
      recoverGraph(
        scene([
          box('customer', 0, 0, { iconRef: 'generic/User', text: 'Customer' }),
          box('jobs', 300, 0, { type: 'ellipse', iconRef: 'generic/Queue' }),
          box('drawn', 600, 0, { type: 'cylinder', iconRef: 'generic/Queue' }),
          { id: 'lib', type: 'rectangle', x: 0, y: 300, width: 600, height: 300, text: 'lib', iconRef: 'generic/Package', roughness: 'clean' } as ElementInput,
          box('core', 100, 400),
        ]),
      ),
      ICONS,
    );
    expect(code).toContain('lib: "lib" {\n  shape: package\n  class: s0\n  core: "" {shape: rectangle; class: s1}\n}');
    expect(code).toContain('customer: "Customer" {shape: person; class: s0}');
    expect(code).toContain('jobs: "" {shape: queue; class: s1}');
    // A drawn cylinder stays one, with its icon.
    expect(code).toContain('drawn: "" {shape: cylinder; icon: "https://draw.example.com/icons/generic/Queue.svg"; class: s1}');
    expect(warnings).toEqual([]);
    expect(await d2Count(code)).toMatchObject({ nodes: 4, groups: 1 });
  });

  it('keeps a container’s outline and icon, and names what it approximates once per kind of loss', async () => {
    const hatched = Array.from({ length: 100 }, (_, i) => box(`h${i}`, (i % 10) * 200, 1000 + Math.floor(i / 10) * 200, { fillColor: '#a5d8ff', fillStyle: 'hachure' }));
    const { code, warnings } = toD2(
      recoverGraph(
        scene([
          { id: 'zone', type: 'ellipse', x: 0, y: 0, width: 800, height: 600, text: 'Zone', iconRef: 'aws/Amazon VPC', roughness: 'clean' } as ElementInput,
          box('in', 300, 250, { corner: 'beveled' }),
          box('out', 1200, 250, { fillColor: '#a5d8ff', fillStyle: 'dots' }),
          arrow('link', 'in', 'out', { shadow: 'soft' }),
          ...hatched,
        ]),
      ),
      ICONS,
    );
    expect(code).toContain('zone: "Zone" {\n  shape: oval\n  icon: "https://draw.example.com/icons/aws/Amazon%20VPC.svg"\n');
    expect(code).toContain('fill-pattern: lines');
    expect(code).toContain('fill-pattern: dots');
    expect(warnings).toEqual([
      '"in": beveled corners drawn sharp (D2 has no bevel)',
      '"h0", "h1", "h2", "h3", "h4" and 95 more: hachure fill drawn as D2\'s lines pattern',
      '"link": shadow left out (D2 draws shadows on shapes only)',
    ]);
    expect(await d2Count(code, { layout: false })).toMatchObject({ nodes: 102, edges: 1, groups: 1 });
  });

  it('carries the recovery’s warnings, as the Mermaid export does', () => {
    const graph = recoverGraph(scene([box('a', 0, 0), { id: 'aside', type: 'text', x: 900, y: 900, text: 'todo' }]));
    expect(toD2(graph).warnings).toEqual(['element "aside" (text): free text "todo" is on no shape or arrow, so it is not exported']);
  });
});

describe('toD2 emphasis', () => {
  it('writes a label drawn bold or italic as D2 style.bold / style.italic, a plain one without', async () => {
    // A DOT service map whose gateway is named in bold and whose queue in italics (HTML-like labels).
    const { elements } = await codeToScene('digraph { node [shape=box]; gw [label=<<b>Gateway</b>>]; q [label=<<i>orders queue</i>>]; w [label="Worker"]; gw -> q -> w }');
    const { code } = toD2(recoverGraph(intakeScene(elements).elements));
    const styleOf = (label: string) => {
      const cls = new RegExp(`: "${label}" \\{[^}]*class: (s\\d+)`).exec(code)![1]!;
      return new RegExp(`  ${cls}: \\{style: \\{([^}]*)\\}\\}`).exec(code)![1]!;
    };
    expect(styleOf('Gateway')).toContain('bold: true');
    expect(styleOf('orders queue')).toContain('italic: true');
    expect(styleOf('Worker')).not.toMatch(/bold|italic/);
  });
});
