/**
 * Test support (not part of the core: it reads files): the real tools the exports must satisfy, and what they say
 * a diagram holds.
 * - D2: the official WASM build from `@terrastruct/d2`, loaded in-process. Its worker API only offers the full
 *   compile, whose dagre layout takes minutes on the 500-node corpus graph; the same WASM also exports
 *   `getELKGraph`, which parses and compiles (every D2 error) and sizes the shapes, stopping before layout. Small
 *   diagrams also get the full compile, layout included.
 * - Mermaid: `mermaid`'s own parsers and diagram databases under jsdom (the calling test file sets
 *   `@vitest-environment jsdom`).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { MERMAID_LIMITS } from '../../src/core/export/mermaid.js';

export interface Counted {
  nodes: number;
  edges: number;
  groups: number;
  /** Node labels as the tool read them, by the printed id (lower-cased for D2, whose keys ignore case). */
  labels: Map<string, string>;
  /** Edge labels in order. */
  edgeLabels: string[];
}

interface D2Wasm {
  compile(request: string): string;
  getELKGraph(request: string): string;
}

/** Diagrams up to this many nodes and edges also get D2's full compile, layout included. */
export const D2_FULL_COMPILE_LIMIT = 150;

let d2: D2Wasm | undefined;
async function d2Wasm(): Promise<D2Wasm> {
  if (d2) return d2;
  const dir = join(dirname(createRequire(import.meta.url).resolve('@terrastruct/d2')), '..', 'node-esm');
  // The worker's own set-up: Go's wasm_exec glue, then ELK for `layout-engine: elk`.
  for (const file of ['wasm_exec.js', 'elk.js', 'setup.js']) new Function(readFileSync(join(dir, file), 'utf8')).call(globalThis);
  const Go = (globalThis as unknown as { Go: new () => { importObject: WebAssembly.Imports; run(instance: WebAssembly.Instance): void } }).Go;
  const go = new Go();
  const { instance } = await WebAssembly.instantiate(readFileSync(join(dir, 'd2.wasm')), go.importObject);
  void go.run(instance);
  d2 = (globalThis as unknown as { d2: D2Wasm }).d2;
  return d2;
}

interface ElkNode {
  id: string;
  labels?: Array<{ text: string }>;
  children?: ElkNode[];
  edges?: unknown[];
}
interface D2Shape {
  id: string;
  label: string;
}

function unwrap<T>(raw: string): T {
  const response = JSON.parse(raw) as { data?: T; error?: { message: string } };
  if (response.error) throw new Error(`D2 rejected the export: ${response.error.message}`);
  return response.data!;
}

/** Compiles D2 code with the real D2 (laid out too, when small and asked); throws with D2's message when it does not accept it. */
export async function d2Count(code: string, options: { layout: boolean } = { layout: true }): Promise<Counted> {
  const wasm = await d2Wasm();
  const request = JSON.stringify({ fs: { index: code }, options: {} });
  const graph = unwrap<ElkNode>(wasm.getELKGraph(request));
  const labels = new Map<string, string>();
  let nodes = 0;
  let groups = 0;
  const walk = (node: ElkNode) => {
    for (const child of node.children ?? []) {
      if (child.children?.length) groups++;
      else nodes++;
      labels.set(child.id.split('.').pop()!.toLowerCase(), child.labels?.[0]?.text ?? '');
      walk(child);
    }
  };
  walk(graph);
  const counted = { nodes, edges: graph.edges?.length ?? 0, groups, labels, edgeLabels: [] as string[] };
  if (options.layout && nodes + counted.edges <= D2_FULL_COMPILE_LIMIT) {
    const full = unwrap<{ diagram: { shapes: D2Shape[]; connections: Array<{ label: string }> } }>(wasm.compile(request));
    for (const shape of full.diagram.shapes) labels.set(shape.id.split('.').pop()!.toLowerCase(), shape.label);
    counted.edgeLabels = full.diagram.connections.map((c) => c.label);
  }
  return counted;
}

type Mermaid = typeof import('mermaid').default;
let mermaid: Mermaid | undefined;

/** Mermaid's entity placeholders (it encodes `#quot;` and `#35;` before parsing) back to the characters. */
function decodeMermaid(text: string): string {
  const named: Record<string, string> = { quot: '"', amp: '&', lt: '<', gt: '>', apos: "'", nbsp: '\u00a0' };
  // Line breaks first: an escaped `#60;br#62;` is text, not a break.
  return text
    .replace(/<br\s*\/?>/g, '\n')
    .replace(/ﬂ°°(\d+)¶ß/g, (_, code: string) => String.fromCodePoint(Number(code)))
    .replace(/ﬂ°(\w+)¶ß/g, (_, name: string) => named[name] ?? `&${name};`);
}

interface FlowDb {
  getVertices(): Map<string, { id: string; text?: string }>;
  getEdges(): Array<{ text?: string }>;
  getSubGraphs(): Array<{ id: string }>;
}
interface ErDb {
  getEntities(): Map<string, { alias?: string }>;
  getRelationships(): unknown[];
}
interface ClassDb {
  getClasses(): Map<string, { id: string; label?: string }>;
  getRelations(): unknown[];
}

/** Parses Mermaid code with Mermaid's own parser and reads its diagram database. */
export async function mermaidCount(code: string, limits?: { maxEdges: number; maxTextSize: number }): Promise<Counted & { type: string }> {
  mermaid ??= (await import('mermaid')).default;
  // Site-level limits: only a site can raise them, as a site showing a large export would.
  mermaid.initialize({ startOnLoad: false, ...(limits ?? MERMAID_LIMITS) });
  // parse() registers the diagram detectors and throws Mermaid's own message on a syntax error.
  await mermaid.parse(code);
  const diagram = (await mermaid.mermaidAPI.getDiagramFromText(code)) as unknown as { type: string; db: unknown };
  const labels = new Map<string, string>();
  if (diagram.type === 'er') {
    const db = diagram.db as ErDb;
    for (const [id, entity] of db.getEntities()) labels.set(id, decodeMermaid(entity.alias ?? ''));
    return { type: 'erDiagram', nodes: db.getEntities().size, edges: db.getRelationships().length, groups: 0, labels, edgeLabels: [] };
  }
  if (diagram.type === 'classDiagram') {
    const db = diagram.db as ClassDb;
    for (const [id, cls] of db.getClasses()) labels.set(id, decodeMermaid(cls.label ?? ''));
    return { type: 'classDiagram', nodes: db.getClasses().size, edges: db.getRelations().length, groups: 0, labels, edgeLabels: [] };
  }
  const db = diagram.db as FlowDb;
  const subgraphs = new Set(db.getSubGraphs().map((s) => s.id));
  // An edge to a subgraph makes Mermaid record a vertex of the same id; it is the subgraph, not a node.
  const vertices = [...db.getVertices().values()].filter((v) => !subgraphs.has(v.id));
  for (const v of vertices) labels.set(v.id, decodeMermaid(v.text ?? ''));
  return {
    type: 'flowchart',
    nodes: vertices.length,
    edges: db.getEdges().length,
    groups: subgraphs.size,
    labels,
    edgeLabels: db.getEdges().map((e) => decodeMermaid(e.text ?? '')),
  };
}
