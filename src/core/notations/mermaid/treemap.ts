/** Mermaid `treemap` → the treemap chart (graph/chart.ts), from Mermaid's treemap database: sections holding items with values. */
import type { TreemapChart, TreemapItem } from '../../graph/chart.js';
import type { GraphIR } from '../../graph/types.js';
import { chartGraph, chartLabel, type TitledDb } from './chart.js';

interface TreemapNode {
  name: string;
  value?: number;
  children?: TreemapNode[];
}

export interface TreemapDb extends TitledDb {
  getRoot(): TreemapNode;
}

function itemOf(node: TreemapNode): TreemapItem {
  const children = (node.children ?? []).map(itemOf);
  const value = node.value !== undefined ? Number(node.value) : children.reduce((sum, child) => sum + (child.value ?? 0), 0);
  return { label: chartLabel(node.name), value, children };
}

export function treemapToGraph(db: TreemapDb): GraphIR {
  const chart: TreemapChart = { family: 'treemap', items: (db.getRoot().children ?? []).map(itemOf) };
  return chartGraph(chart, db);
}
