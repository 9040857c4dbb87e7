import { describe, expect, it } from 'vitest';
import type { GraphIR } from '../graph/types.js';
import { checkScene } from '../quality/check.js';
import { graphToScene } from '../scene/from-graph.js';
import { SPACING } from './drawing-rules.js';
import { layoutGraph } from './elk.js';
import { layoutWithGraphviz } from './graphviz.js';

const graph = (part: Partial<GraphIR>): GraphIR => ({ layout: 'layered', direction: 'RIGHT', forcedDirection: true, nodes: [], edges: [], groups: [], warnings: [], ...part });
const service = (id: string) => ({ id, label: id, kind: 'service' as const });

describe('label layers', () => {
  it('keep half the layer gap between a label and each node, as Graphviz does, so the drawing is no longer than Graphviz’s', async () => {
    // k8s website: Service → StatefulSet labelled "80" took 166 px between the boxes, Graphviz 104.
    const labelled = graph({ nodes: [service('nginx'), service('web')], edges: [{ id: 'e', from: 'nginx', to: 'web', label: '80' }] });
    const laid = await layoutGraph(labelled);
    const [nginx, web] = laid.nodes;
    const label = laid.edges[0]!.labels[0]!;
    expect(label.x - (nginx!.x + nginx!.width)).toBeGreaterThanOrEqual(SPACING.betweenLayers / 2);
    expect(web!.x - (label.x + label.width)).toBeGreaterThanOrEqual(SPACING.betweenLayers / 2);
    expect(web!.x - (nginx!.x + nginx!.width)).toBeLessThan(SPACING.betweenLayers + label.width + 2 * SPACING.edgeLabelPadding + 1);
    const drawn = checkScene(graphToScene(labelled, laid).elements);
    const graphviz = checkScene(graphToScene(labelled, await layoutWithGraphviz(labelled)).elements);
    expect(drawn.violations).toEqual([]);
    expect(drawn.width).toBeLessThanOrEqual(graphviz.width);
  });

  it('leave a gap without a label as ELK spaced it, and keep bends apart from labels and nodes', async () => {
    const plain = await layoutGraph(graph({ nodes: [service('a'), service('b')], edges: [{ id: 'e', from: 'a', to: 'b' }] }));
    expect(plain.nodes[1]!.x - (plain.nodes[0]!.x + plain.nodes[0]!.width)).toBe(SPACING.betweenLayers);
    // A fan-out: the edges bend in the gap beside their labels.
    const fan = graph({ nodes: ['hub', 'x', 'y', 'z'].map(service), edges: ['x', 'y', 'z'].map((to) => ({ id: to, from: 'hub', to, label: `to ${to}` })) });
    const laid = await layoutGraph(fan);
    expect(checkScene(graphToScene(fan, laid).elements).violations).toEqual([]);
  });

  it('give every edge of a graph with labels a label layer, as Graphviz doubles its ranks, so the targets of one source stay level', async () => {
    // Mermaid's README class diagram: C2, reached by "Where am I?", sat a layer below C3 and Class07.
    const fan = graph({ direction: 'DOWN', nodes: ['hub', 'named', 'plain'].map(service), edges: [{ id: 'a', from: 'hub', to: 'named', label: 'Where am I?' }, { id: 'b', from: 'hub', to: 'plain' }] });
    const laid = await layoutGraph(fan);
    const [named, plain] = [laid.nodes.find((node) => node.id === 'named')!, laid.nodes.find((node) => node.id === 'plain')!];
    expect(named.y).toBe(plain.y);
    // The spacer is not drawn: one label, the author's.
    expect(laid.edges.flatMap((edge) => edge.labels.map((label) => label.text))).toEqual(['Where am I?']);
    expect(checkScene(graphToScene(fan, laid).elements).violations).toEqual([]);
  });
});
