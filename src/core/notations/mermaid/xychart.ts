/** Mermaid `xychart` → the xy chart (graph/chart.ts), from Mermaid's xychart database: categories, the value range, bar and line plots. */
import type { XyChart } from '../../graph/chart.js';
import type { GraphIR } from '../../graph/types.js';
import { chartGraph, chartLabel, type TitledDb } from './chart.js';

type Axis = { type: 'band'; title: string; categories: string[] } | { type: 'linear'; title: string; min: number; max: number };

export interface XyDb extends TitledDb {
  getXYChartData(): { xAxis: Axis; yAxis: Axis; plots: { type: string; data: [string, number][] }[] };
  getChartConfig(): { chartOrientation?: string; showDataLabel?: boolean };
}

/** A linear x axis's positions (`1.5`, `2.0000000001`) shown to four significant digits. */
const tidy = (label: string): string => (/^-?\d+(\.\d+)?(e[+-]?\d+)?$/i.test(label) ? String(Number(Number(label).toPrecision(4))) : label);

export function xyToGraph(db: XyDb): GraphIR {
  const data = db.getXYChartData();
  const plots = data.plots.filter((plot) => plot.type === 'bar' || plot.type === 'line');
  const categories = data.xAxis.type === 'band' ? data.xAxis.categories.map(chartLabel) : (plots[0]?.data ?? []).map(([label]) => tidy(label));
  const values = plots.flatMap((plot) => plot.data.map(([, value]) => value));
  const range = data.yAxis.type === 'linear' ? { min: data.yAxis.min, max: data.yAxis.max } : { min: Math.min(0, ...values), max: Math.max(1, ...values) };
  const chart: XyChart = {
    family: 'xy',
    horizontal: db.getChartConfig().chartOrientation === 'horizontal',
    xTitle: chartLabel(data.xAxis.title),
    categories,
    yTitle: chartLabel(data.yAxis.title),
    yRange: range,
    showValues: db.getChartConfig().showDataLabel === true,
    plots: plots.map((plot) => ({ type: plot.type as 'bar' | 'line', values: categories.map((_, i) => Number(plot.data[i]?.[1] ?? Number.NaN)) })),
  };
  return chartGraph(chart, db);
}
