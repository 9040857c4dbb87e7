/**
 * Diagrams from code, end to end (parse → layout → scene) against Graphviz `dot` (WASM) on the same graph in the same
 * run; goal ≤ 2× Graphviz's time. Also a 200-resource Kubernetes input, and crossings against Graphviz on the DOT corpus.
 * Run alone with `node --import tsx bench/from-code.ts`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { Graphviz } from '@hpcc-js/wasm-graphviz';
import { edgeRoute, type GraphvizJson } from '../src/core/layout/graphviz.js';
import type { Point } from '../src/core/layout/types.js';
import { codeToScene, drawGraph } from '../src/core/notations/index.js';
import { dotNotation } from '../src/core/notations/dot/index.js';
import { checkScene, countCrossings } from '../src/core/quality/check.js';
import { intakeScene } from '../src/core/scene/intake.js';

/** A fixed pseudo-random sequence (mulberry32), so every run benches the same graph. */
export function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A layered-looking random digraph: 300 labelled nodes, 450 edges pointing forward, a tenth of them labelled. */
export function generatedDot(nodes = 300, edges = 450): string {
  const next = random(42);
  const lines = ['digraph bench {', '  node [shape=box];'];
  for (let i = 0; i < nodes; i++) lines.push(`  n${i} [label="service ${i}"];`);
  const seen = new Set<string>();
  while (seen.size < edges) {
    const from = Math.floor(next() * (nodes - 1));
    const to = from + 1 + Math.floor(next() * Math.min(30, nodes - from - 1));
    const key = `${from}-${to}`;
    if (seen.has(key)) continue;
    seen.add(key);
    lines.push(`  n${from} -> n${to}${seen.size % 10 === 0 ? ' [label="calls"]' : ''};`);
  }
  lines.push('}');
  return lines.join('\n');
}

/** 50 apps × Deployment, Service, ConfigMap, Secret = 200 resources in one multi-document stream. */
export function generatedKubernetes(apps = 50): string {
  const docs: string[] = [];
  for (let i = 0; i < apps; i++) {
    const name = `app-${i}`;
    docs.push(`apiVersion: apps/v1
kind: Deployment
metadata: { name: ${name}, namespace: ns-${i % 5} }
spec:
  selector: { matchLabels: { app: ${name} } }
  template:
    metadata: { labels: { app: ${name} } }
    spec:
      containers:
        - name: main
          image: registry.example/${name}:1
          envFrom: [{ configMapRef: { name: ${name}-config } }, { secretRef: { name: ${name}-secret } }]`);
    docs.push(`apiVersion: v1
kind: Service
metadata: { name: ${name}, namespace: ns-${i % 5} }
spec: { selector: { app: ${name} }, ports: [{ port: 80 }] }`);
    docs.push(`apiVersion: v1
kind: ConfigMap
metadata: { name: ${name}-config, namespace: ns-${i % 5} }
data: { LEVEL: info }`);
    docs.push(`apiVersion: v1
kind: Secret
metadata: { name: ${name}-secret, namespace: ns-${i % 5} }
stringData: { TOKEN: x }`);
  }
  return docs.join('\n---\n');
}

/** A hand-placed scene: shapes on a loose grid, each a few pixels off, joined by `smart` arrows the intake routes. */
export function generatedSmartScene(shapes = 200, arrows = 300): unknown[] {
  const next = random(7);
  const elements: unknown[] = [];
  for (let i = 0; i < shapes; i++) {
    const [x, y] = [(i % 20) * 180 + Math.floor(next() * 30), Math.floor(i / 20) * 140 + Math.floor(next() * 30)];
    elements.push({ id: `s${i}`, type: 'rectangle', x, y, width: 80 + Math.floor(next() * 40), height: 50 });
  }
  for (let i = 0; i < arrows; i++) {
    const [from, to] = [Math.floor(next() * shapes), Math.floor(next() * shapes)];
    elements.push({ id: `r${i}`, type: 'arrow', arrowShape: 'smart', startBinding: { elementId: `s${from}` }, endBinding: { elementId: `s${to}` } });
  }
  return elements;
}

/**
 * Runs before timing starts. The service is a long-running process: ELK is Java compiled to JavaScript (GWT), whose
 * hot paths V8 only optimises over the first few layouts (the first takes ~5× the tenth), while Graphviz is WASM,
 * compiled up front. Both get the same warm-up; the first (cold) run is reported on its own.
 */
const WARM_UP_RUNS = 5;

async function timeMs(work: () => Promise<unknown> | unknown): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

async function medianMs(runs: number, work: () => Promise<unknown> | unknown): Promise<number> {
  for (let i = 0; i < WARM_UP_RUNS; i++) await work();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) times.push(await timeMs(work));
  return times.sort((a, b) => a - b)[Math.floor(runs / 2)]!;
}

/**
 * Graphviz's edges as drawn, read by our Graphviz engine's own reader, so they are sampled and counted as ours are:
 * the spline carried on to the arrow tips (on the node outlines), as our routes are. Counting the spline alone leaves
 * out the stretch under each arrowhead, where edges converging on a node cross: on the bench graph that was 553
 * crossings against 614 with the tips, and ours (614 drawn the same way) read as 1.11× Graphviz's.
 */
export const graphvizEdgeLines = (json: GraphvizJson): Point[][] =>
  (json.edges ?? []).flatMap((edge) => (edge.pos === undefined ? [] : [edgeRoute(edge.pos, (x, y) => ({ x, y }))]));

export interface FromCodeBench {
  /** Medians after the warm-up; `oursCold` is the very first run in the process. */
  dot: { ours: number; graphviz: number; ratio: number; oursCold: number; crossings: { ours: number; graphviz: number } };
  /** Scene intake of 200 shapes and 300 smart arrows, routing included; goal: well under a second. */
  smartRouting: { ms: number; shapes: number; arrows: number };
  kubernetes: { ms: number; nodes: number; edges: number };
  crossings: Array<{ file: string; ours: number; graphviz: number; oursMs: number; graphvizMs: number }>;
}

export async function benchFromCode(runs = 5): Promise<FromCodeBench> {
  const graphviz = await Graphviz.load();
  const dot = generatedDot();
  const oursCold = await timeMs(() => codeToScene(dot, { notation: 'dot' }));
  const ours = await medianMs(runs, () => codeToScene(dot, { notation: 'dot' }));
  // json0, as our engine asks for: json without the drawing instructions.
  const theirs = await medianMs(runs, () => graphviz.layout(dot, 'json0' as 'json', 'dot'));
  const benchScene = await drawGraph(dotNotation.toGraph(dot));
  const dotCrossings = {
    ours: checkScene(benchScene.elements, benchScene.parents).crossings,
    graphviz: countCrossings(graphvizEdgeLines(JSON.parse(graphviz.layout(dot, 'json0' as 'json', 'dot')) as GraphvizJson)),
  };

  const smartScene = generatedSmartScene();
  const smartMs = await medianMs(runs, () => intakeScene(smartScene));

  const kubernetes = generatedKubernetes();
  const k8sMs = await medianMs(runs, () => codeToScene(kubernetes, { notation: 'kubernetes' }));
  const k8s = await codeToScene(kubernetes, { notation: 'kubernetes' });

  const corpus = new URL('../test/fixtures/dot/', import.meta.url);
  const crossings: FromCodeBench['crossings'] = [];
  for (const file of readdirSync(corpus).filter((name) => name.endsWith('.gv'))) {
    const code = readFileSync(new URL(file, corpus), 'utf8');
    let started = performance.now();
    const graph = dotNotation.toGraph(code);
    const scene = await drawGraph(graph);
    const oursMs = performance.now() - started;
    started = performance.now();
    // Graphviz lays the same file out from scratch: pre-computed positions (pos, bb) are dropped by `dot`.
    const json = JSON.parse(graphviz.layout(code, 'json0' as 'json', 'dot')) as GraphvizJson;
    const graphvizMs = performance.now() - started;
    crossings.push({ file, ours: checkScene(scene.elements, scene.parents).crossings, graphviz: countCrossings(graphvizEdgeLines(json)), oursMs, graphvizMs });
  }
  return {
    dot: { ours, graphviz: theirs, ratio: ours / theirs, oursCold, crossings: dotCrossings },
    smartRouting: { ms: smartMs, shapes: 200, arrows: 300 },
    kubernetes: { ms: k8sMs, nodes: k8s.graph.nodes.length, edges: k8s.graph.edges.length },
    crossings,
  };
}

export function printFromCode(result: FromCodeBench): void {
  const ms = (value: number) => `${value.toFixed(0)} ms`;
  console.log('Diagram from code: generated DOT, 300 nodes / 450 edges, parse → Graphviz layout at our sizes → scene vs Graphviz dot (WASM) layout alone');
  console.log(`  drawbridge: ${ms(result.dot.ours)}   graphviz: ${ms(result.dot.graphviz)}   ratio ${result.dot.ratio.toFixed(2)} (goal ≤ 2) ${result.dot.ratio <= 2 ? 'OK' : 'ABOVE GOAL'}`);
  console.log(`  first run in a fresh process (WASM compiled on first use): ${ms(result.dot.oursCold)}`);
  console.log(`  crossings on that graph: drawbridge ${result.dot.crossings.ours}, graphviz ${result.dot.crossings.graphviz}`);
  console.log(`Smart arrows: intake of ${result.smartRouting.shapes} shapes + ${result.smartRouting.arrows} smart arrows, routed: ${ms(result.smartRouting.ms)} (goal well under 1000 ms)`);
  console.log(`Kubernetes, 200 resources: ${ms(result.kubernetes.ms)} (${result.kubernetes.nodes} nodes, ${result.kubernetes.edges} edges)`);
  console.log('Edge crossings on the DOT corpus, ours (Graphviz at our node sizes) vs Graphviz dot alone:');
  for (const row of result.crossings) {
    console.log(`  ${row.file.padEnd(28)} ours ${String(row.ours).padStart(6)} (${ms(row.oursMs)})   graphviz ${String(row.graphviz).padStart(6)} (${ms(row.graphvizMs)})`);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  printFromCode(await benchFromCode());
}

