import { describe, expect, it } from 'vitest';
import type { GraphIR } from '../graph/types.js';
import { mergeHubEnds } from './hubs.js';
import { sizeNode } from './node-size.js';
import type { LaidOutGraph } from './types.js';

describe('merging hub ends', () => {
  it('leaves apart the ends that carry a cardinality, known from the graph while the routes have no labels yet', () => {
    // Three tables' foreign keys into one, as Graphviz's placement with our routes has them before its labels are set:
    // every route reaches the table at its left side's middle.
    const graph: GraphIR = {
      layout: 'layered',
      direction: 'RIGHT',
      nodes: ['a0', 'a1', 'a2', 'hub'].map((id) => ({ id, label: id, kind: 'entity' as const, rows: ['PK id int'] })),
      edges: [0, 1, 2].map((i) => ({ id: `k${i}`, from: `a${i}`, to: 'hub', label: `key_${i}`, startLabel: '0..*', endLabel: '1', endArrowhead: 'double-bar' as const })),
      groups: [],
      warnings: [],
    };
    const box = (id: string, x: number, y: number) => ({ id, x, y, width: 150, height: 60, box: sizeNode(graph.nodes.find((node) => node.id === id)!) });
    const laid: LaidOutGraph = {
      nodes: [box('a0', 0, 0), box('a1', 0, 150), box('a2', 0, 300), box('hub', 400, 150)],
      groups: [],
      edges: [0, 1, 2].map((i) => ({ index: i, points: [{ x: 150, y: 150 * i + 30 }, { x: 275, y: 150 * i + 30 }, { x: 275, y: 180 }, { x: 400, y: 180 }], labels: [] })),
      warnings: [],
      width: 550,
      height: 360,
    };
    expect(mergeHubEnds(laid, graph).edges.map((edge) => edge.points)).toEqual(laid.edges.map((edge) => edge.points));
  });
});
