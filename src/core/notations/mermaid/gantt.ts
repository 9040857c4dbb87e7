/**
 * Mermaid `gantt` → the gantt chart (graph/chart.ts), from Mermaid's gantt database: every task with the start and
 * end Mermaid worked out (`after`, durations, excluded weekends and dates), its section and its tags.
 */
import { AppError } from '../../errors.js';
import type { GanttChart } from '../../graph/chart.js';
import type { GraphIR } from '../../graph/types.js';
import { chartGraph, chartLabel, type TitledDb } from './chart.js';

interface GanttDbTask {
  task: string;
  section: string;
  startTime: Date;
  endTime: Date;
  milestone?: boolean;
  vert?: boolean;
  crit?: boolean;
  active?: boolean;
  done?: boolean;
}

export interface GanttDb extends TitledDb {
  getSections(): string[];
  getTasks(): GanttDbTask[];
  getAxisFormat(): string;
}

/**
 * Mermaid reads dates in the local time of the machine it runs on; the chart keeps the wall-clock time as written
 * (as if it were UTC), so the axis says the author's dates whatever the server's time zone.
 */
const wallClock = (date: Date): number => date.getTime() - date.getTimezoneOffset() * 60_000;

export function ganttToGraph(db: GanttDb): GraphIR {
  const warnings: string[] = [];
  const tasks = db.getTasks().flatMap((task) => {
    const label = chartLabel(task.task);
    const start = wallClock(task.startTime);
    const end = wallClock(task.endTime);
    if (!Number.isFinite(start) || !Number.isFinite(end)) {
      warnings.push(`task "${label}" has no date Mermaid could work out: left out`);
      return [];
    }
    return [{ label, section: chartLabel(task.section), start, end: Math.max(start, end), milestone: task.milestone === true, marker: task.vert === true, crit: task.crit === true, active: task.active === true, done: task.done === true }];
  });
  if (tasks.length === 0 && warnings.length > 0) throw new AppError('parse_error', `Mermaid: ${warnings[0]}`);
  const axisFormat = db.getAxisFormat();
  const chart: GanttChart = { family: 'gantt', sections: db.getSections().map(chartLabel), tasks, ...(axisFormat !== '' && { axisFormat }) };
  return chartGraph(chart, db, warnings);
}
