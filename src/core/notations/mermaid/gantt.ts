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
  getExcludes(): string[];
  getIncludes(): string[];
}

const DAY = 86_400_000;
const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
/** Days shaded at most: past a year and a half of days the chart's scale is months and a day's band is a hairline. */
const SHADED_DAYS_MAX = 550;

/**
 * The days `excludes` takes out between `from` and `to` (weekend days, named weekdays, dates), less `includes`, as
 * Mermaid's isInvalidDate decides them (its weekend is Saturday and Sunday unless `weekend friday` is written).
 */
function excludedDays(excludes: string[], includes: string[], from: number, to: number, fridayWeekend: boolean): number[] {
  if (excludes.length === 0 || to - from > SHADED_DAYS_MAX * DAY) return [];
  const weekend = fridayWeekend ? [5, 6] : [6, 0];
  const days: number[] = [];
  for (let day = Math.floor(from / DAY) * DAY; day < to; day += DAY) {
    const date = new Date(day).toISOString().slice(0, 10);
    if (includes.includes(date)) continue;
    const weekday = new Date(day).getUTCDay();
    if ((excludes.includes('weekends') && weekend.includes(weekday)) || excludes.includes(WEEKDAYS[weekday]!) || excludes.includes(date)) days.push(day);
  }
  return days;
}

/**
 * Mermaid reads dates in the local time of the machine it runs on; the chart keeps the wall-clock time as written
 * (as if it were UTC), so the axis says the author's dates whatever the server's time zone.
 */
const wallClock = (date: Date): number => date.getTime() - date.getTimezoneOffset() * 60_000;

/** A task line whose name holds a `:` (`CRITICAL FREEZE: NO EDITS :crit, f1, …`): Mermaid's task data starts at the first. */
const COLON_IN_TASK_NAME = /^\s*(?!(?:title|dateFormat|axisFormat|tickInterval|excludes|includes|todayMarker|weekday|weekend|section|accTitle|accDescr|click)\b)([^:%\n]+:[^:,\n]*):/;

/**
 * Mermaid works a gantt's dates out only when its tasks are asked for, and stops there with a bare TypeError on a
 * task it cannot place: said as the parse error it is, at the line most likely to blame.
 */
function compiledTasks(db: GanttDb, code: string): GanttDbTask[] {
  try {
    return db.getTasks();
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    const lines = code.split('\n');
    const at = lines.findIndex((line) => COLON_IN_TASK_NAME.test(line));
    if (at < 0) throw new AppError('parse_error', `Mermaid could not work out the tasks' dates (${reason})`);
    const name = COLON_IN_TASK_NAME.exec(lines[at]!)![1]!.trim();
    const message = `line ${at + 1}: Mermaid could not work out the tasks' dates (${reason}): the task "${name}" has a ':' in its name, where Mermaid starts a task's dates`;
    throw new AppError('parse_error', message, { line: at + 1, column: 1 });
  }
}

export function ganttToGraph(db: GanttDb, code = ''): GraphIR {
  const warnings: string[] = [];
  const tasks = compiledTasks(db, code).flatMap((task) => {
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
  const from = Math.min(...tasks.map((task) => task.start));
  const to = Math.max(...tasks.map((task) => task.end));
  // Mermaid keeps `weekend friday` to itself; the header line says it.
  const excluded = tasks.length === 0 ? [] : excludedDays(db.getExcludes().map((word) => word.toLowerCase()), db.getIncludes(), from, to, /^\s*weekend\s+friday\b/im.test(code));
  const chart: GanttChart = { family: 'gantt', sections: db.getSections().map(chartLabel), tasks, ...(axisFormat !== '' && { axisFormat }), ...(excluded.length > 0 && { excludedDays: excluded }) };
  return chartGraph(chart, db, warnings);
}
