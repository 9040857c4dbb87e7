/** Mermaid `pie` → the pie chart (graph/chart.ts), from Mermaid's pie database: slices in the order written, `showData`. */
import type { PieChart } from '../../graph/chart.js';
import type { GraphIR } from '../../graph/types.js';
import { chartGraph, chartLabel, type TitledDb } from './chart.js';

export interface PieDb extends TitledDb {
  getSections(): Map<string, number>;
  getShowData(): boolean;
}

export function pieToGraph(db: PieDb): GraphIR {
  const chart: PieChart = { family: 'pie', showData: db.getShowData(), slices: [...db.getSections()].map(([label, value]) => ({ label: chartLabel(label), value })) };
  return chartGraph(chart, db);
}
