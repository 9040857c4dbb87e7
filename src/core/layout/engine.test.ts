import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { GraphIR, Notation } from '../graph/types.js';
import { CONVERTERS } from '../notations/index.js';
import { layoutGraph } from './elk.js';
import { layoutWithGraphviz } from './graphviz.js';
import { layoutGraphvizOrthogonal } from './graphviz-orthogonal.js';
import { sizeNode } from './node-size.js';

/** Freezes a value and everything it holds, so that writing to any of it throws (modules run in strict mode). */
function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

const FILES: [Notation, string][] = [
  ['compose', 'opentelemetry-demo.compose.yaml'],
  ['kubernetes', 'aks-store-all-in-one.yaml'],
  ['helm', 'argo-workflows.values.yaml'],
  ['terraform', 'aks-store-demo.main.tf'],
  ['sql', 'mysql-sakila-schema.sql'],
  ['plantuml', 'blazemeter-rte-class.puml'],
  ['mermaid', 'kyma-nats-reconcile-flowchart.mmd'],
];

const read = async (notation: Notation, file: string): Promise<GraphIR> =>
  CONVERTERS.find((c) => c.id === notation)!.toGraph(readFileSync(new URL(`../../../test/fixtures/${notation}/${file}`, import.meta.url), 'utf8'));

// sizeNode keeps each node's box for the node's lifetime (node-size.ts): that is only right while no layout writes to a
// node. Every engine lays out a graph whose nodes are frozen; a write would throw, and a size read before and after
// the layouts must agree.
describe('layout never changes the nodes it lays out', () => {
  it.each(FILES)('%s %s', async (notation, file) => {
    const graph = await read(notation, file);
    const before = graph.nodes.map((node) => sizeNode(node));
    const nodes = JSON.stringify(graph.nodes);
    deepFreeze(graph.nodes);
    for (const engine of [layoutGraph, layoutWithGraphviz, layoutGraphvizOrthogonal]) await engine(graph);
    expect(JSON.stringify(graph.nodes)).toBe(nodes);
    const fresh = await read(notation, file);
    expect(fresh.nodes.map((node) => sizeNode(node))).toEqual(before);
  });
});
