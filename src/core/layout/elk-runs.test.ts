/**
 * What a layout costs in ELK runs: each run is most of an ELK layout's time (issue 27), so the fitting tries skip the
 * runs that cannot win, and a run answers at once instead of after elkjs's timer hops.
 */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { foldForReading } from '../graph/fold.js';
import type { GraphIR } from '../graph/types.js';
import { plantumlNotation } from '../notations/plantuml/index.js';
import { sqlNotation } from '../notations/sql/index.js';
import { layoutGraph } from './elk.js';

const runs = vi.hoisted(() => ({ count: 0 }));
vi.mock('elkjs/lib/elk-worker.min.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('elkjs/lib/elk-worker.min.js')>();
  /** elkjs's in-process worker, counting the layouts it is asked for. */
  function CountingWorker(this: InstanceType<typeof original.Worker>) {
    const worker = new original.Worker();
    const dispatch = worker.dispatcher.saveDispatch;
    worker.dispatcher.saveDispatch = (event) => {
      if (event.data.cmd === 'layout') runs.count++;
      dispatch(event);
    };
    return worker;
  }
  return { ...original, Worker: CountingWorker };
});

const sql = (name: string) => sqlNotation.toGraph(readFileSync(new URL(`../../../test/fixtures/sql/${name}`, import.meta.url), 'utf8'));
const plantuml = (name: string) => plantumlNotation.toGraph(readFileSync(new URL(`../../../test/fixtures/plantuml/${name}`, import.meta.url), 'utf8'));

async function layoutCountingRuns(graph: GraphIR) {
  runs.count = 0;
  const laid = await layoutGraph(graph);
  // Counted at elkjs's worker: a layout that no longer reaches it there would count nothing.
  expect(runs.count).toBeGreaterThan(0);
  return { laid, runs: runs.count };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('ELK runs per layout', () => {
  it('answers without waiting on a timer', async () => {
    // elkjs's own API reaches its worker through setTimeout(0) there and back: 2 ms idle per run on Node.
    vi.useFakeTimers();
    const graph: GraphIR = { layout: 'layered', direction: 'DOWN', nodes: [{ id: 'a', label: 'a', kind: 'service' }, { id: 'b', label: 'b', kind: 'service' }], edges: [{ id: 'e', from: 'a', to: 'b' }], groups: [], warnings: [] };
    const laid = await Promise.race([layoutGraph(graph), new Promise<'waiting'>((resolve) => queueMicrotask(() => queueMicrotask(() => resolve('waiting'))))]);
    expect(laid).not.toBe('waiting');
  });

  it('does not widen a try for its titles when it cannot win even so, nor wrap a flow ELK would not cut', async () => {
    // The C4 deployment fits no README column: 12 ELK runs before (5 of them titles' re-layouts, 2 of a wrap); 7,
    // and 8 since its `Rel_U(web, spa)` sets the SPA above the web application for ELK too, as its author asks.
    // Its legend (SHOW_LEGEND) is a grid, a block laid out apart (blocks.ts) that ELK never sees: left out here.
    const graph = await plantuml('c4-bigbank-deployment.puml');
    const legend = new Set(graph.groups.filter((group) => group.grid).map((group) => group.id));
    const { laid, runs } = await layoutCountingRuns({ ...graph, groups: graph.groups.filter((group) => !legend.has(group.id)), nodes: graph.nodes.filter((node) => !legend.has(node.parent ?? '')) });
    expect(runs).toBeLessThanOrEqual(8);
    expect(laid.nodes).toHaveLength(6);
  });

  it('does not cap the layers of a drawing far larger than any that fits a README column', async () => {
    // Onion architecture, top-down: 1,706 × 3,357 px, 1.5 times the largest drawing that fits (1,120 px wide, 3:1).
    // Capped layers kept at least 0.8 of a drawing's area on the corpus: two runs that could not fit, lost.
    const { laid, runs } = await layoutCountingRuns(await plantuml('jdp-onion-architecture-class.puml'));
    expect(runs).toBeLessThanOrEqual(3);
    expect([Math.round(laid.width), Math.round(laid.height)]).toEqual([1706, 3357]);
  });

  it('does not lay out sideways again when the longest chain of tables alone is too wide to win', async () => {
    // Sakila top-down is 1,495 px wide, its tables as columns. Left to right, its chain payment → rental → staff →
    // store → address → city → country alone is wider, so packing its components that way (two runs) cannot win;
    // neither narrower layering fits either (1,328 × 3,382 px, beyond 2:1), and the plain layout is kept.
    const { laid, runs } = await layoutCountingRuns(await sql('mysql-sakila-schema.sql'));
    expect(runs).toBeLessThanOrEqual(7);
    expect([Math.round(laid.width), Math.round(laid.height)]).toEqual([1495, 2297]);
  });

  it('does not cap the layers of a flow that is narrow enough and too tall, and still wraps it', async () => {
    // 46 steps: top-down 1,700 × 5,662 px, too tall for 3:1. Capping layers makes it narrower and taller still.
    const { laid, runs } = await layoutCountingRuns(await plantuml('capi-machinedeployment-activity.plantuml'));
    expect(runs).toBeLessThanOrEqual(3);
    expect(laid.height / laid.width).toBeLessThanOrEqual(3);
  });

  it("does not cap the layers of a graph above READABLE_NODES, as Graphviz's placement does not cap its rows", async () => {
    // Camunda's 43 tables as drawn (folded): packed on a skyline 2,147 × 2,463 px (its 27 tables joined to nothing a
    // layer's node gap apart; 2,512 px tall at the gap between layers); the two capped layerings of all 43
    // were 4,687 × 4,271 and 4,301 × 3,458, no nearer fitting: 60 runs before, 50 of them one table's.
    const { laid, runs } = await layoutCountingRuns(foldForReading(await sql('camunda-postgres-engine.sql'), 'sql'));
    expect(runs).toBeLessThanOrEqual(58);
    expect([Math.round(laid.width), Math.round(laid.height)]).toEqual([2147, 2463]);
  });
});
