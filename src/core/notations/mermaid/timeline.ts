/** Mermaid `timeline` → the timeline chart (graph/chart.ts), from Mermaid's timeline database: periods with their events and sections. */
import type { TimelineChart } from '../../graph/chart.js';
import type { GraphIR } from '../../graph/types.js';
import { chartGraph, chartLabel, type TitledDb } from './chart.js';

export interface TimelineDb {
  getSections(): string[];
  getTasks(): { section: string; task: string; events: string[] }[];
  /** The timeline keeps its title in Mermaid's common database. */
  getCommonDb(): TitledDb;
}

export function timelineToGraph(db: TimelineDb): GraphIR {
  const sections = db.getSections().map(chartLabel);
  const chart: TimelineChart = {
    family: 'timeline',
    sections,
    periods: db.getTasks().map((task) => {
      const section = chartLabel(task.section);
      return { label: chartLabel(task.task), events: task.events.map(chartLabel), ...(sections.includes(section) && { section }) };
    }),
  };
  return chartGraph(chart, db.getCommonDb());
}
