// @vitest-environment jsdom
/**
 * The zero-failure sweep: every export is read by the real tool (D2's official WASM build, Mermaid's own parser)
 * and the node, edge and group counts the tool reports equal the recovered graph's. Inputs: the real `.excalidraw`
 * files, the every-type gallery scene, every diagram the from-code corpus produces, and random scenes with hostile
 * labels. Prints the figures per input.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { REFERS_TO } from '../graph/fold-references.js';
import type { GraphIR } from '../graph/types.js';
import { CONVERTERS, codeToScene } from '../notations/index.js';
import { ARROWHEADS, CORNERS, FILL_STYLES, SHADOWS, SHAPE_TYPES } from '../scene/constants.js';
import { intakeScene } from '../scene/intake.js';
import type { Element, ElementInput } from '../scene/schema.js';
import { D2_KEYWORDS, toD2 } from './d2.js';
import { recoverGraph, type RecoveredGraph } from './graph-recovery.js';
import { printedIds } from './identifiers.js';
import { MERMAID_KEYWORDS, MERMAID_LIMITS, toMermaid } from './mermaid.js';
import { d2Count, mermaidCount } from '../../../test/support/real-tools.js';

// Paths, not URLs: under jsdom `URL` is jsdom's, which node:fs does not take.
const fixtures = join(dirname(fileURLToPath(import.meta.url)), '../../../test/fixtures');
const rows: string[] = [];
const ICONS = 'https://draw.example.com';

/** Exports both ways, has the real tools read both, and checks the counts they report. */
async function sweep(name: string, elements: readonly Element[], expected?: { nodes: number; edges: number; groups: number }, layout = true) {
  const started = performance.now();
  const graph = recoverGraph(elements);
  if (expected) expect({ nodes: graph.nodes.length, edges: graph.edges.length, groups: graph.groups.length }).toEqual(expected);
  const mermaid = toMermaid(graph);
  const d2 = toD2(graph, { iconBaseUrl: ICONS });
  const large = graph.edges.length > MERMAID_LIMITS.maxEdges || mermaid.code.length > MERMAID_LIMITS.maxTextSize;
  if (large) expect(mermaid.warnings.join('\n')).toMatch(/unless the site raises its maxEdges and maxTextSize/);
  const limits = large ? { maxEdges: graph.edges.length, maxTextSize: mermaid.code.length } : undefined;
  const m = await mermaidCount(mermaid.code, limits).catch((error: Error) => {
    throw new Error(`${name}: Mermaid rejected the export: ${error.message}\n${mermaid.code}`);
  });
  const d = await d2Count(d2.code, { layout }).catch((error: Error) => {
    throw new Error(`${name}: ${error.message}\n${d2.code}`);
  });
  const groupsInMermaid = mermaid.diagram === 'flowchart' ? graph.groups.length : 0;
  expect({ type: m.type, nodes: m.nodes, edges: m.edges, groups: m.groups }).toEqual({
    type: mermaid.diagram,
    nodes: graph.nodes.length,
    edges: graph.edges.length,
    groups: groupsInMermaid,
  });
  if (mermaid.diagram === 'erDiagram' && graph.groups.length > 0) expect(mermaid.warnings.join('\n')).toMatch(/erDiagram has no grouping/);
  // D2 draws the diagram's title as one more (text) shape.
  const d2Nodes = graph.nodes.length + (graph.title === undefined ? 0 : 1);
  expect({ nodes: d.nodes, edges: d.edges, groups: d.groups }).toEqual({ nodes: d2Nodes, edges: graph.edges.length, groups: graph.groups.length });
  if (graph.title !== undefined) expect(mermaid.code.startsWith(`---\ntitle: `)).toBe(true);
  expectAccounted(elements, graph, { mermaid: mermaid.warnings, d2: d2.warnings });
  rows.push(
    `${name.padEnd(62)} nodes ${String(graph.nodes.length).padStart(4)}  edges ${String(graph.edges.length).padStart(5)}  groups ${String(graph.groups.length).padStart(3)}  ${mermaid.diagram.padEnd(12)} ${(performance.now() - started).toFixed(0).padStart(6)} ms`,
  );
  return { graph, mermaid, d2, m, d };
}

describe('real .excalidraw files and the gallery scene', () => {
  const folder = join(fixtures, 'excalidraw');
  const files = readdirSync(folder).filter((file) => file !== 'NOTICE.md');
  it.each(files)('%s exports to code both real tools accept', async (file) => {
    const { elements } = intakeScene(JSON.parse(readFileSync(join(folder, file), 'utf8')));
    const { graph } = await sweep(`excalidraw/${file}`, elements);
    expect(graph.nodes.length).toBeGreaterThan(0);
  }, 60_000);
});

/**
 * Nothing the scene holds is dropped without a word: every element is a node, group or edge, part of one (a label,
 * title, table row or rule), or named in each export's warnings.
 */
function expectAccounted(elements: readonly Element[], graph: RecoveredGraph, warnings: Record<'mermaid' | 'd2', string[]>) {
  const drawn = new Set([...graph.nodes, ...graph.groups, ...graph.edges].map((item) => item.id));
  for (const e of elements) {
    if (drawn.has(e.id) || e.id === graph.titleElement) continue;
    const owner = graph.parts.get(e.id);
    if (owner !== undefined) {
      expect(drawn.has(owner), `${JSON.stringify(e.id)} is part of ${JSON.stringify(owner)}, which is not exported`).toBe(true);
      continue;
    }
    for (const [format, said] of Object.entries(warnings)) {
      expect(said.some((w) => w.includes(`"${e.id}"`)), `${e.type} ${JSON.stringify(e.id)} is neither exported nor named in the ${format} warnings`).toBe(true);
    }
  }
}

describe.each(CONVERTERS.map((converter) => [converter.id] as const))('%s corpus', (notation) => {
  const folder = join(fixtures, notation);
  const files = readdirSync(folder).filter((file) => file !== 'NOTICE.md');
  it.each(files)('%s: diagram from code → both exports, counts equal the source graph', async (file) => {
    const scene = await codeToScene(readFileSync(join(folder, file), 'utf8'), { notation });
    const { elements } = intakeScene(scene.elements);
    // A sequence diagram is drawn with lifelines and activation bars: its drawing, not its graph, is exported.
    const layered = scene.graph.layout === 'layered';
    const { graph } = await sweep(`${notation}/${file}`, elements, layered ? expectedFrom(scene.graph, elements, scene.elementIds.groups) : undefined);
    // A large schema is drawn folded (graph/fold.ts): what its rows fold is said on export (folded-rows.ts).
    const unfolded = (line: string) => line.includes('of their columns counted') || line.includes('drawn as marks on their columns');
    if (layered) expect(graph.warnings.filter((line) => !unfolded(line))).toEqual([]);
  }, 120_000);
});

/**
 * What the drawing of a GraphIR holds: every node and legend, every drawn edge, and the groups that contain something (an
 * empty container is drawn as a plain box, and both D2 and the recovery read it as one; Graphviz draws none).
 */
function expectedFrom(source: GraphIR, elements: readonly Element[], groupElements: ReadonlyMap<string, string>) {
  const groupIds = new Set(source.groups.map((g) => g.id));
  const parentOf = new Map(source.groups.map((g) => [g.id, g.parent]));
  const filled = new Set<string>();
  for (const node of source.nodes) {
    for (let parent = node.parent; parent !== undefined && groupIds.has(parent); parent = parentOf.get(parent)) filled.add(parent);
  }
  const drawn = new Set(elements.map((e) => e.id));
  const empty = source.groups.filter((g) => !filled.has(g.id) && drawn.has(groupElements.get(g.id) ?? '')).length;
  // A hub's foreign keys drawn as marks on their columns are read back as edges (folded-rows.ts); a Terraform route row is no key.
  const marks = source.nodes.flatMap((node) => node.rows ?? []).filter((row) => /^(PK )?FK\b/.test(row) && row.includes(` ${REFERS_TO} `)).length;
  // The author's legend is a box of text under the drawing, exported as the shape it is.
  const legend = source.legend === undefined ? 0 : 1;
  return { nodes: source.nodes.length + empty + legend, edges: elements.filter((e) => e.type === 'arrow').length + marks, groups: filled.size };
}

/** Labels that break naive writers: every language's syntax, keywords, entities, line breaks and Unicode. */
const HOSTILE = [
  ...['"', "'", '[', ']', '(', ')', '{', '}', '{{', '}}', '#', ';', '|', '`', '```', '\n', '\r\n', '\t', ':', ',', '\\', '$', '${x}'],
  ...['-->', '---', '-.->', '==>', '<-->', '->', '<->', '--', '%%', '%%{init: {}}%%', 'end', 'subgraph', 'style', 'classDef', 'class'],
  ...['linkStyle', 'click', 'graph TD', '@{', '<br>', '<script>alert(1)</script>', '&amp;', '&', '<', '>', '#quot;', '#35;', '~T~'],
  ...['shape', 'label', 'direction', 'null', '_', 'vars', '*', '...', 'o', 'x', 'é', 'ß', '日本語', '🙂', '👩‍👩‍👧', 'עברית', ' ', '  '],
];
const hostile = fc.array(fc.oneof(fc.constantFrom(...HOSTILE), fc.string({ unit: 'grapheme', maxLength: 4 })), { maxLength: 5 }).map((parts) => parts.join(''));
const row = fc.oneof(hostile, fc.tuple(hostile, hostile).map(([name, type]) => `${name}: ${type}`), hostile.map((name) => `PK ${name}`), hostile.map((name) => `+${name}(): int`));
const ids = fc.oneof(fc.constantFrom('a', 'A', 'end', 'End', 'shape', '1', 'x y', '-->', 'o', 'db.primary', 'g'), fc.string({ minLength: 1, maxLength: 12 }));
const stroke = fc.constantFrom('#1e1e1e', '#e03131', '#2f9e44aa', '#fff');
const fill = fc.constantFrom('#a5d8ff', '#ffec9980', '#fff', 'transparent');

const CELL = { width: 300, height: 220, shape: { width: 160, height: 100 } };

/**
 * A random scene: shapes, code and math blocks (some empty) on a grid, some in a frame, some with text inside (a table
 * or more label), one maybe with an icon, arrows bound between them with any heads.
 */
const scenes = fc
  .record({
    shapeIds: fc.uniqueArray(ids, { minLength: 1, maxLength: 8, comparator: (a, b) => a === b }),
    // Half rectangles, so that all-rectangle scenes (the ER and class diagram candidates) come up too.
    types: fc.array(
      fc.oneof(
        { arbitrary: fc.constant('rectangle' as const), weight: 4 },
        { arbitrary: fc.constantFrom(...SHAPE_TYPES), weight: 3 },
        { arbitrary: fc.constantFrom('code' as const, 'math' as const), weight: 2 },
      ),
      { minLength: 8, maxLength: 8 },
    ),
    labels: fc.array(hostile, { minLength: 8, maxLength: 8 }),
    // The schema allows an empty code or math block; D2 refuses an empty block string.
    blank: fc.array(fc.boolean(), { minLength: 8, maxLength: 8 }),
    // Text under a rectangle's label: a table's rows when ruled off or written as columns or members, else more label.
    rows: fc.array(fc.option(fc.record({ rows: fc.array(row, { minLength: 1, maxLength: 3 }), ruled: fc.boolean() }), { freq: 4 }), { minLength: 8, maxLength: 8 }),
    strokes: fc.array(fc.record({ strokeColor: stroke, fillColor: fill, strokeStyle: fc.constantFrom('solid', 'dashed', 'dotted'), strokeWidth: fc.integer({ min: 1, max: 8 }), corner: fc.constantFrom(...CORNERS), opacity: fc.integer({ min: 10, max: 100 }), roughness: fc.constantFrom('clean', 'sketch'), shadow: fc.constantFrom(...SHADOWS), fillStyle: fc.constantFrom(...FILL_STYLES) }), { minLength: 8, maxLength: 8 }),
    framed: fc.integer({ min: 0, max: 3 }),
    frameName: hostile,
    arrows: fc.array(
      fc.record({ from: fc.nat(), to: fc.nat(), label: fc.option(hostile), start: fc.constantFrom(...ARROWHEADS), end: fc.constantFrom(...ARROWHEADS), strokeStyle: fc.constantFrom('solid', 'dashed', 'dotted'), strokeWidth: fc.integer({ min: 1, max: 8 }), toFrame: fc.boolean() }),
      { maxLength: 8 },
    ),
    // Generic User, Queue and Package icons make D2's person, queue and package shapes.
    icon: fc.option(fc.constantFrom('aws/Amazon S3', 'generic/User', 'generic/Queue', 'generic/Package')),
  })
  .map((s) => {
    const elements: ElementInput[] = [];
    const n = s.shapeIds.length;
    const shapeIds = s.shapeIds.map((id) => `s:${id}`);
    shapeIds.forEach((id, i) => {
      const x = (i % 4) * CELL.width;
      const y = Math.floor(i / 4) * CELL.height;
      const block = s.types[i] === 'code' || s.types[i] === 'math';
      const text = block && s.blank[i] ? '' : s.labels[i]!;
      elements.push({ id, type: s.types[i]!, x, y, ...CELL.shape, text, ...s.strokes[i]!, ...(s.icon !== null && i === 0 && !block && { iconRef: s.icon }) } as ElementInput);
      const inner = s.types[i] === 'rectangle' ? s.rows[i] : null;
      if (inner) elements.push({ id: `rows:${id}`, type: 'text', x: x + 10, y: y + 40, width: 140, height: 40, text: inner.rows.join('\n') });
      // The rule under a table's header, as diagram-from-code draws it.
      if (inner?.ruled) elements.push({ id: `rule:${id}`, type: 'line', points: [{ x, y: y + 35 }, { x: x + CELL.shape.width, y: y + 35 }] } as ElementInput);
    });
    const framed = Math.min(s.framed, n);
    const frameId = 'frame:zone';
    if (framed > 0) elements.unshift({ id: frameId, type: 'frame', x: -20, y: -20, width: (framed - 1) * CELL.width + CELL.shape.width + 40, height: CELL.shape.height + 40, name: s.frameName });
    s.arrows.forEach((a, i) => {
      const to = a.toFrame && framed > 0 ? frameId : shapeIds[a.to % n]!;
      elements.push({
        id: `arrow:${i}`,
        type: 'arrow',
        startBinding: { elementId: shapeIds[a.from % n]! },
        endBinding: { elementId: to },
        startArrowhead: a.start,
        endArrowhead: a.end,
        strokeStyle: a.strokeStyle,
        strokeWidth: a.strokeWidth,
        ...(a.label !== null && { text: a.label }),
      } as ElementInput);
    });
    return { elements, expected: { nodes: n, edges: s.arrows.length, groups: framed > 0 ? 1 : 0 } };
  });

/** What a label becomes after the writers' cleaning: control characters go, tabs are spaces, line ends are \n. */
const cleaned = (text: string) => text.replace(/\r\n?/g, '\n').replace(/\t/g, ' ').replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '');

describe('random scenes with hostile labels', () => {
  it('export to Mermaid and D2 that the real tools read back with the same counts and labels', async () => {
    const blocks = new Set<string>();
    await fc.assert(
      fc.asyncProperty(scenes, async ({ elements, expected }) => {
        const { elements: stored } = intakeScene(elements);
        // Compile without layout: the layouts are exercised by the corpus; here the syntax is under test.
        const { graph, mermaid, m, d } = await sweep('random scene', stored, expected, false);
        expectLabels(graph, mermaid.diagram, m.labels, d.labels);
        for (const n of graph.nodes) if (n.shape === 'code' || n.shape === 'math') blocks.add(`${n.label === '' ? 'empty ' : ''}${n.shape}`);
      }),
      { numRuns: 40, seed: 20_240_601 },
    );
    // The runs covered code and math blocks, empty ones included.
    expect([...blocks].sort()).toEqual(['code', 'empty code', 'empty math', 'math']);
  }, 120_000);
});

/** Every node's text survives both round trips exactly (flowcharts also carry the rows under the label). */
function expectLabels(graph: RecoveredGraph, diagram: string, mermaidLabels: Map<string, string>, d2Labels: Map<string, string>) {
  const mermaidIds = toMermaidIds(graph);
  for (const node of graph.nodes) {
    const text = diagram === 'flowchart' ? [node.label, ...(node.rows ?? [])].join('\n') : node.label;
    // Mermaid trims the ends of a label (so an empty one, written as one space, reads back empty).
    expect(mermaidLabels.get(mermaidIds.get(node.id)!)?.trim(), `Mermaid label of ${JSON.stringify(node.id)}`).toBe(cleaned(text).trim());
  }
  for (const node of graph.nodes) {
    // D2's layout-free read (the sweep's) reports no text for a code or math block; its counts are checked.
    if (node.rows?.length || node.shape === 'code' || node.shape === 'math') continue;
    expect(d2Labels.has(toD2Id(graph, node.id)), `D2 shape of ${JSON.stringify(node.id)}`).toBe(true);
    expect(d2Labels.get(toD2Id(graph, node.id)), `D2 label of ${JSON.stringify(node.id)}`).toBe(cleaned(node.label).replace(/\t/g, ' '));
  }
}

// The printed ids are the writers' choice; the tests derive them the same way.
const toMermaidIds = (graph: RecoveredGraph) => printedIds([...graph.groups.map((g) => g.id), ...graph.nodes.map((n) => n.id)], MERMAID_KEYWORDS);
const toD2Id = (graph: RecoveredGraph, id: string) =>
  printedIds([...graph.groups.map((g) => g.id), ...graph.nodes.map((n) => n.id)], D2_KEYWORDS).get(id)!.toLowerCase();

afterAll(() => {
  console.log(`export sweep (real D2 and Mermaid):\n${rows.filter((r) => !r.startsWith('random')).join('\n')}\nrandom scenes: ${rows.filter((r) => r.startsWith('random')).length}`);
});
