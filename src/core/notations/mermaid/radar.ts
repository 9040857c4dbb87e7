/** Mermaid `radar-beta` → the radar chart (graph/chart.ts), from Mermaid's radar database: axes, curves and the scale's options. */
import type { RadarChart } from '../../graph/chart.js';
import type { GraphIR } from '../../graph/types.js';
import { chartGraph, chartLabel, type TitledDb } from './chart.js';

export interface RadarDb extends TitledDb {
  getAxes(): { name: string; label?: string }[];
  getCurves(): { name: string; label?: string; entries: number[] }[];
  getOptions(): { showLegend?: boolean; ticks?: number; max?: number | null; min?: number; graticule?: string };
}

export function radarToGraph(db: RadarDb): GraphIR {
  const options = db.getOptions();
  const curves = db.getCurves().map((curve) => ({ label: chartLabel(curve.label ?? curve.name), values: curve.entries.map(Number) }));
  const largest = Math.max(0, ...curves.flatMap((curve) => curve.values.filter(Number.isFinite)));
  const chart: RadarChart = {
    family: 'radar',
    axes: db.getAxes().map((axis) => chartLabel(axis.label ?? axis.name)),
    curves,
    min: options.min ?? 0,
    // Without `max`, Mermaid's scale reaches the largest value.
    max: options.max ?? largest,
    ticks: Math.max(1, options.ticks ?? 5),
    graticule: options.graticule === 'polygon' ? 'polygon' : 'circle',
    showLegend: options.showLegend !== false,
  };
  return chartGraph(chart, db);
}
