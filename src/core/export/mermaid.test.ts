// @vitest-environment jsdom
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { intakeScene } from '../scene/intake.js';
import type { Element, ElementInput } from '../scene/schema.js';
import { recoverGraph } from './graph-recovery.js';
import { toMermaid } from './mermaid.js';
import { mermaidText } from './mermaid-syntax.js';
import { mermaidCount } from '../../../test/support/real-tools.js';
import { codeToScene } from '../notations/index.js';
import { mermaidNotation } from '../notations/mermaid/index.js';

const fixtures = join(dirname(fileURLToPath(import.meta.url)), '../../../test/fixtures');
const load = (path: string): Element[] => intakeScene(JSON.parse(readFileSync(join(fixtures, path), 'utf8'))).elements;
const scene = (elements: ElementInput[]) => intakeScene(elements).elements;
const mermaidOf = (elements: Element[]) => toMermaid(recoverGraph(intakeScene(elements).elements));
const box = (id: string, x: number, y: number, extra: Partial<ElementInput> = {}) =>
  ({ id, type: 'rectangle', x, y, width: 160, height: 80, roughness: 'clean', ...extra }) as ElementInput;
const arrow = (id: string, from: string, to: string, extra: Partial<ElementInput> = {}) =>
  ({ id, type: 'arrow', startBinding: { elementId: from }, endBinding: { elementId: to }, roughness: 'clean', ...extra }) as ElementInput;

/** Goldens change only on purpose: `UPDATE_GOLDENS=1 npx vitest run src/core/export` rewrites them. */
function expectGolden(file: string, code: string) {
  const path = join(fixtures, 'export', file);
  if (process.env.UPDATE_GOLDENS === '1' || !existsSync(path)) writeFileSync(path, code);
  expect(code).toBe(readFileSync(path, 'utf8'));
}

describe('toMermaid goldens, read back by Mermaid', () => {
  it.each([
    ['excalidraw/native-every-type.json', 'native-every-type.mmd', 'flowchart'],
    ['export/er-scene.json', 'er-scene.mmd', 'erDiagram'],
    ['export/class-scene.json', 'class-scene.mmd', 'classDiagram'],
  ])('%s → %s', async (input, golden, diagram) => {
    const out = mermaidOf(load(input));
    expect(out.diagram).toBe(diagram);
    expectGolden(golden, out.code);
    expect((await mermaidCount(out.code)).type).toBe(diagram);
  });
});

describe('toMermaid flowcharts', () => {
  it('writes each edge style with Mermaid link syntax, turning start-only arrows round', () => {
    const { code, warnings } = mermaidOf(
      scene([
        box('a', 0, 0),
        box('b', 400, 0),
        arrow('dashedBoth', 'a', 'b', { strokeStyle: 'dashed', startArrowhead: 'arrow' }),
        arrow('thick', 'a', 'b', { strokeWidth: 4 }),
        arrow('plain', 'a', 'b', { endArrowhead: 'none' }),
        arrow('back', 'a', 'b', { startArrowhead: 'arrow', endArrowhead: 'none', text: 'reply' }),
        arrow('odd', 'a', 'b', { endArrowhead: 'bar' }),
      ]),
    );
    expect(code).toContain('  a <-.-> b\n  a ==> b\n  a --- b\n  b -->|"reply"| a\n  a --x b\n');
    expect(code).toMatch(/^flowchart LR\n/);
    expect(warnings).toEqual(['"odd": Mermaid flowcharts have no bar arrowhead; drawn as cross']);
  });

  it('escapes labels so quotes, brackets, #, ; and Unicode survive Mermaid’s parser', async () => {
    const label = 'say "hi" [x] {y} #1; a|b `c` <b>&</b> %% end 日本 🙂\nsecond line';
    const { code } = mermaidOf(scene([box('end', 0, 0, { text: label }), box('n', 0, 300)]));
    expect(code).toContain('n_end["say #34;hi#34; #91;x#93; #123;y#125; #35;1#59; a#124;b #96;c#96; #60;b#62;#38;#60;/b#62; #37;#37; end 日本 🙂<br>second line"]');
    const read = await mermaidCount(code);
    expect(read.labels.get('n_end')).toBe(label);
  });

  it('carries the text above the whole drawing as the diagram title, in the front matter Mermaid reads', async () => {
    const elements = scene([
      { id: 'heading', type: 'text', x: 0, y: 0, text: 'Checkout: "v2"\nflow', fontSize: 24 },
      box('a', 0, 80),
      box('b', 300, 80),
      arrow('ab', 'a', 'b'),
      { id: 'aside', type: 'text', x: 0, y: 400, text: 'not a title' },
    ]);
    const graph = recoverGraph(elements);
    expect([graph.title, graph.titleElement]).toEqual(['Checkout: "v2"\nflow', 'heading']);
    expect(graph.warnings).toEqual(['element "aside" (text): free text "not a title" is on no shape or arrow, so it is not exported']);
    const { code } = toMermaid(graph);
    expect(code).toMatch(/^---\ntitle: "Checkout: \\"v2\\" flow"\n---\nflowchart LR\n/);
    expect(await mermaidCount(code)).toMatchObject({ nodes: 2, edges: 1 });
  });

  it('keeps colours through classDef, style and linkStyle, and hand-drawn scenes in handDrawn look', () => {
    const { code } = mermaidOf(
      intakeScene([
        box('a', 0, 0, { fillColor: '#a5d8ff', strokeColor: '#1971c2', roughness: 'sketch', opacity: 50 }),
        box('b', 0, 300, { roughness: 'sketch' }),
        arrow('ab', 'a', 'b', { strokeColor: '#e03131' }),
      ]).elements,
    );
    expect(code).toMatch(/^---\nconfig:\n {2}look: handDrawn\n---\nflowchart TB\n/);
    expect(code).toContain('classDef s0 fill:#a5d8ff,stroke:#1971c2,stroke-width:2px,opacity:0.5\n  class a s0');
    expect(code).toContain('linkStyle 0 stroke:#e03131,stroke-width:2px');
  });

  it('tells dashed from dotted edges by their dash array, and draws a queue icon as Mermaid’s horizontal cylinder', async () => {
    const { code, warnings } = mermaidOf(
      scene([
        box('a', 0, 0, { iconRef: 'generic/Queue' }),
        box('b', 400, 0),
        arrow('dashed', 'a', 'b', { strokeStyle: 'dashed' }),
        arrow('dotted', 'a', 'b', { strokeStyle: 'dotted' }),
      ]),
    );
    expect(code).toContain('  a@{ shape: h-cyl, label: " " }\n');
    expect(code).toContain('  a -.-> b\n  a -.-> b\n');
    expect(code).toContain('linkStyle 0 stroke:#1e1e1e,stroke-width:2px,stroke-dasharray:8 4\n  linkStyle 1 stroke:#1e1e1e,stroke-width:2px,stroke-dasharray:2 4\n');
    expect(warnings).toEqual(['"a": icon not carried to Mermaid (the D2 export keeps icons)']);
    expect(await mermaidCount(code)).toMatchObject({ nodes: 2, edges: 2 });
  });

  it('names what Mermaid cannot draw once per kind of loss: shadows, fill patterns, bevels, container outlines', async () => {
    const hatched = Array.from({ length: 100 }, (_, i) => box(`h${i}`, (i % 10) * 200, 1000 + Math.floor(i / 10) * 200, { fillColor: '#a5d8ff', fillStyle: 'cross-hatch' }));
    const { code, warnings } = mermaidOf(
      scene([
        { id: 'zone', type: 'ellipse', x: 0, y: 0, width: 800, height: 600, text: 'Zone', roughness: 'clean' } as ElementInput,
        box('in', 300, 250, { corner: 'beveled', shadow: 'hard' }),
        ...hatched,
      ]),
    );
    expect(warnings).toEqual([
      '"in": beveled corners not carried (Mermaid has no bevel)',
      '"h0", "h1", "h2", "h3", "h4" and 95 more: cross-hatch fill not carried (Mermaid has no fill patterns)',
      '"in": shadow left out (Mermaid has no shadows)',
      '"zone": ellipse container drawn as a rectangle (Mermaid subgraphs are rectangles)',
    ]);
    expect(await mermaidCount(code)).toMatchObject({ nodes: 101, groups: 1 });
  });

  it('escapes every syntax character as a numeric entity and line breaks as <br>', () => {
    expect(mermaidText('a"#;%\\\r\nb\tc\u0007')).toBe('a#34;#35;#59;#37;#92;<br>b c');
  });
});

describe('toMermaid ER and class diagrams', () => {
  it('says which shapes were read as entities and which dotted lines were drawn dashed', () => {
    const graph = recoverGraph(load('export/er-scene.json'));
    graph.edges[0]!.style.strokeStyle = 'dotted';
    const { diagram, warnings } = toMermaid(graph);
    expect(diagram).toBe('erDiagram');
    expect(warnings).toEqual([
      '"customer", "order": read as an ER entity from the text under its label',
      '"places": dotted line drawn dashed (erDiagram lines are solid or dashed)',
    ]);
  });
});

describe('toMermaid emphasis', () => {
  it('writes a label drawn bold or italic in <b> / <i>, which Mermaid draws and reads back so', async () => {
    const { elements } = await codeToScene('digraph { node [shape=box]; gw [label="Gateway", fontname="Helvetica-Bold"]; q [label=<<i>orders queue</i>>]; w [label="Worker"]; gw -> q -> w }');
    const { code } = toMermaid(recoverGraph(intakeScene(elements).elements));
    expect(code).toContain('["<b>Gateway</b>"]');
    expect(code).toContain('["<i>orders queue</i>"]');
    expect(code).toContain('["Worker"]');
    const back = await mermaidNotation.toGraph(code);
    const emphasis = (label: string) => back.nodes.find((n) => n.label === label)?.style;
    expect([emphasis('Gateway')?.fontWeight, emphasis('orders queue')?.fontStyle, emphasis('Worker')?.fontWeight]).toEqual(['bold', 'italic', undefined]);
  });
});
