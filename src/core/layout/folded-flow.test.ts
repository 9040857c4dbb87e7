import { describe, expect, it } from 'vitest';
import type { GraphEdge, GraphGroup, GraphIR, GraphNode } from '../graph/types.js';
import { layoutEngineFor } from './engine.js';

/**
 * The shape of the Codex platform's CI/CD pipeline (brucemckayone/codex, design/infrastructure/d2/ci-cd-pipeline.d2):
 * `direction: right`, workflows of six multi-line steps each in a container, the testing workflow's last step starting
 * the preview and production workflows, and a container of loose trigger events feeding the first step.
 */
function pipeline(): GraphIR {
  const workflows = ['testing', 'preview', 'production'];
  const groups: GraphGroup[] = [...workflows, 'trigger'].map((id) => ({ id, label: `${id} workflow` }));
  const nodes: GraphNode[] = workflows.flatMap((workflow) =>
    Array.from({ length: 6 }, (_, k) => ({ id: `${workflow}.${k}`, kind: 'generic' as const, label: `Step ${k}\n- checkout the code\n- run the step`, parent: workflow })),
  );
  nodes.push(...['push', 'pr', 'merge'].map((id) => ({ id: `trigger.${id}`, kind: 'generic' as const, label: id, parent: 'trigger' })));
  const edges: GraphEdge[] = workflows.flatMap((workflow) => Array.from({ length: 5 }, (_, k) => ({ id: `${workflow}${k}`, from: `${workflow}.${k}`, to: `${workflow}.${k + 1}` })));
  edges.push(
    { id: 'p', from: 'testing.5', to: 'preview.0', label: 'Testing passed' },
    { id: 'm', from: 'testing.5', to: 'production.0', label: 'Testing passed' },
    ...['push', 'pr', 'merge'].map((id) => ({ id, from: `trigger.${id}`, to: 'testing.0', label: `On ${id}` })),
  );
  return { layout: 'layered', direction: 'RIGHT', forcedDirection: true, nodes, edges, groups, warnings: [] };
}

describe('a sideways flow of containers', () => {
  it('stacks its workflows down the page, each still a row read left to right, and leads edges into them at right angles', async () => {
    const graph = pipeline();
    const laid = await layoutEngineFor(graph, 'd2')(graph);
    const box = (id: string) => laid.nodes.find((node) => node.id === id)!;
    const group = (id: string) => laid.groups.find((g) => g.id === id)!;
    for (const workflow of ['testing', 'preview', 'production']) {
      for (let k = 0; k < 5; k++) {
        expect(box(`${workflow}.${k + 1}`).x).toBeGreaterThan(box(`${workflow}.${k}`).x);
        expect(box(`${workflow}.${k + 1}`).y).toBeCloseTo(box(`${workflow}.${k}`).y, 0);
      }
    }
    // The workflows one under another, not one after another: the drawing is about two rows wide, not four.
    expect(group('preview').y).toBeGreaterThan(group('testing').y + group('testing').height);
    expect(laid.width).toBeLessThan(3 * group('testing').width);
    // The trigger events, joined by nothing among themselves, flow down with the rest: side by side above the testing workflow.
    expect(box('trigger.pr').y).toBeCloseTo(box('trigger.push').y, 0);
    for (const edge of laid.edges) {
      edge.points.slice(1).forEach((point, k) => {
        const before = edge.points[k]!;
        expect(Math.min(Math.abs(point.x - before.x), Math.abs(point.y - before.y))).toBeLessThan(0.5);
      });
    }
  });
});
