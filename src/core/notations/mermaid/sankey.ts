/** Mermaid `sankey` → the sankey chart (graph/chart.ts), from Mermaid's sankey database: the flows between nodes in the order written. */
import type { SankeyChart } from '../../graph/chart.js';
import type { GraphIR } from '../../graph/types.js';
import { chartGraph, chartLabel, type TitledDb } from './chart.js';

export interface SankeyDb extends TitledDb {
  getNodes(): { ID: string }[];
  getLinks(): { source: { ID: string }; target: { ID: string }; value: number }[];
  getConfig(): { showValues?: boolean };
}

export function sankeyToGraph(db: SankeyDb): GraphIR {
  const chart: SankeyChart = {
    family: 'sankey',
    nodes: db.getNodes().map((node) => chartLabel(node.ID)),
    links: db.getLinks().map((link) => ({ from: chartLabel(link.source.ID), to: chartLabel(link.target.ID), value: Number(link.value) })),
    showValues: db.getConfig().showValues !== false,
  };
  return chartGraph(chart, db);
}
