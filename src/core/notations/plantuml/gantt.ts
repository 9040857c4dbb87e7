/**
 * PlantUML `@startgantt` → the gantt chart (graph/chart.ts), drawn like Mermaid's gantt (scene/charts/gantt.ts).
 *
 * An own reader, because PlantUML has no parser outside its Java program: its gantt language is English sentences
 * about tasks, one a line, each clause joined by `and`: `[Name] as [Alias] lasts 2 weeks and is 40% complete`,
 * `[B] starts at [A]'s end`, `then [C] requires 3 days`, `[Done] happens at [C]'s end` (a milestone), `-- Section --`,
 * `Project starts 2020-07-01`, `saturday are closed`, `2020-07-14 is closed`. Durations count open days; a task with
 * no start starts on the project's first day. A sentence not understood is said in warnings, never dropped silently.
 */
import type { GanttChart, GanttTask } from '../../graph/chart.js';
import type { GraphIR } from '../../graph/types.js';
import { plainText, plantumlColor, type DiagramSource } from './source.js';

const DAY = 86_400_000;
const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];

/** A point in time a sentence names: a date, another task's start or end, or the previous task's end (`then`). */
type Anchor = { date: number } | { task: string; edge: 'start' | 'end'; offset: number };

interface Draft {
  label: string;
  section: string;
  days?: number;
  start?: Anchor;
  end?: Anchor;
  milestone: boolean;
  fill?: string;
  stroke?: string;
  progress?: number;
  line: number;
}

const DATE = /(\d{4})[-/](\d{1,2})[-/](\d{1,2})/;
const parseDate = (text: string): number | undefined => {
  const match = DATE.exec(text);
  return match === null ? undefined : Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
};

export function ganttToGraph(source: DiagramSource): GraphIR {
  const warnings = [...source.warnings];
  const drafts: Draft[] = [];
  const byName = new Map<string, Draft>();
  let projectStart: number | undefined;
  let section = '';
  const closedWeekdays = new Set<number>();
  const closedDates = new Set<number>();
  const find = (name: string) => byName.get(name.toLowerCase());
  const anchorOf = (text: string, lineNo: number, previous: Draft | undefined): Anchor | undefined => {
    const date = parseDate(text);
    if (date !== undefined) return { date };
    const edge = /\[([^\]]+)\]'s\s+(start|end)/i.exec(text);
    if (edge !== null) {
      const after = /(\d+)\s+days?\s+after/i.exec(text);
      const before = /(\d+)\s+days?\s+before/i.exec(text);
      return { task: edge[1]!, edge: edge[2]!.toLowerCase() as 'start' | 'end', offset: after ? Number(after[1]) : before ? -Number(before[1]) : 0 };
    }
    if (previous !== undefined && /^then\b/i.test(text)) return { task: previous.label, edge: 'end', offset: 0 };
    warnings.push(`line ${lineNo}: "${text}" names no date or task PlantUML would place it at: left where it was`);
    return undefined;
  };

  for (const { text, line } of source.lines) {
    const sectionMatch = /^--\s*(.*?)\s*--$/.exec(text);
    if (sectionMatch) {
      section = plainText(sectionMatch[1]!);
      continue;
    }
    const project = /^project\s+starts\s+(?:the\s+|on\s+)?(.+)$/i.exec(text);
    if (project) {
      projectStart = parseDate(project[1]!);
      if (projectStart === undefined) warnings.push(`line ${line}: the project's start "${project[1]}" is not a date written YYYY-MM-DD: days are counted from 0`);
      continue;
    }
    const closed = /^(.+?)\s+(?:are|is)\s+closed$/i.exec(text);
    if (closed) {
      for (const part of closed[1]!.split(/\s+and\s+/i)) {
        const weekday = WEEKDAYS.indexOf(part.trim().toLowerCase().replace(/s$/, ''));
        const range = /^(\S+)\s+to\s+(\S+)$/i.exec(part.trim());
        if (weekday >= 0) closedWeekdays.add(weekday);
        else if (range && parseDate(range[1]!) !== undefined && parseDate(range[2]!) !== undefined) {
          for (let day = parseDate(range[1]!)!; day <= parseDate(range[2]!)!; day += DAY) closedDates.add(day);
        } else if (parseDate(part) !== undefined) closedDates.add(parseDate(part)!);
        else warnings.push(`line ${line}: "${part.trim()}" is no weekday or date: not closed`);
      }
      continue;
    }
    // `[Task] …` or `then [Task] …`: the task's name, its alias, then clauses joined by `and`.
    const task = /^(then\s+)?\[([^\]]+)\](?:\s+as\s+\[([^\]]+)\])?((?:\s+on\s+\{[^}]*\})*)\s*(.*)$/i.exec(text);
    if (task === null) {
      if (!/^(printscale|language|hide|show|today|projectscale|saturday|sunday|ganttscale|legend|caption|footer|header)\b/i.test(text)) warnings.push(`line ${line}: "${text}" is not a gantt sentence read here: left out`);
      continue;
    }
    const [, then, name, alias, resources, rest] = task;
    const previous = drafts.at(-1);
    // `[OK] as [week_02_end]` declares a task of its own even when another is also shown as "OK": with an alias, the
    // alias names the task.
    let draft = alias !== undefined ? find(alias) : find(name!);
    if (draft === undefined) {
      draft = { label: plainText(name!.replace(/\\n/g, '\n')), section, milestone: false, line };
      drafts.push(draft);
      if (!byName.has(name!.toLowerCase())) byName.set(name!.toLowerCase(), draft);
    }
    if (alias !== undefined) byName.set(alias.toLowerCase(), draft);
    // Resources (`on {Alice}`) are written beside the task's name, as PlantUML writes them after its bar.
    const people = [...(resources ?? '').matchAll(/\{([^}]*)\}/g)].map((match) => match[1]!.trim()).filter((person) => person !== '');
    if (people.length > 0) draft.label = `${draft.label} {${people.join(', ')}}`;
    if (then !== undefined && previous !== undefined && previous !== draft) draft.start = { task: previous.label, edge: 'end', offset: 0 };
    for (const clause of rest!.split(/\s+and\s+/i).map((part) => part.trim()).filter((part) => part !== '')) {
      const duration = /^(?:lasts|requires)\s+(\d+)\s*(days?|weeks?)$/i.exec(clause);
      const starts = /^starts\s+(.*)$/i.exec(clause);
      const ends = /^ends\s+(.*)$/i.exec(clause);
      const happens = /^happens\s+(.*)$/i.exec(clause);
      const complete = /^is\s+(\d+)\s*%\s*complete[d]?$/i.exec(clause);
      const colour = /^is\s+colou?red\s+in\s+(\S+?)(?:\/(\S+))?$/i.exec(clause);
      if (duration) draft.days = Number(duration[1]) * (/^w/i.test(duration[2]!) ? 7 : 1);
      else if (starts) draft.start = anchorOf(starts[1]!, line, previous) ?? draft.start;
      else if (ends) draft.end = anchorOf(ends[1]!, line, previous) ?? draft.end;
      else if (happens) {
        draft.milestone = true;
        draft.start = anchorOf(happens[1]!, line, previous) ?? draft.start;
      } else if (complete) draft.progress = Math.min(100, Number(complete[1])) / 100;
      else if (colour) {
        const fill = plantumlColor(colour[1]!);
        const stroke = colour[2] === undefined ? undefined : plantumlColor(colour[2]);
        if (fill !== undefined) draft.fill = fill;
        if (stroke !== undefined) draft.stroke = stroke;
        if (fill === undefined) warnings.push(`line ${line}: colour "${colour[1]}" is not one PlantUML names: the task keeps the default`);
      } else if (/^links\s+to\b/i.test(clause)) {
        // A link: the drawing has no place for it, and the task is what it shows.
      } else if (/^(is\s+deleted|displays\s+on\s+same\s+row\s+as\b|pauses\b|is\s+(colou?red|on)\b)/i.test(clause)) warnings.push(`line ${line}: "${clause}" is not drawn`);
      else warnings.push(`line ${line}: "${clause}" is not a gantt clause read here: left out`);
    }
  }

  // Days are counted from the project's start, or from day 0 without one; closed days take no work.
  const origin = projectStart ?? 0;
  const isClosed = (day: number) => projectStart !== undefined && (closedWeekdays.has(new Date(day).getUTCDay()) || closedDates.has(day));
  const openFrom = (day: number) => {
    let at = day;
    for (let guard = 0; isClosed(at) && guard < 3660; guard++) at += DAY;
    return at;
  };
  /** The (exclusive) end of `days` open days from `start`. */
  const after = (start: number, days: number) => {
    let at = start;
    for (let left = days; left > 0; at += DAY) if (!isClosed(at)) left--;
    return at;
  };
  const placed = new Map<Draft, { start: number; end: number }>();
  const resolve = (anchor: Anchor | undefined): number | undefined => {
    if (anchor === undefined) return undefined;
    if ('date' in anchor) return anchor.date;
    const other = find(anchor.task) ?? drafts.find((draft) => draft.label === anchor.task);
    const at = other === undefined ? undefined : placed.get(other);
    if (at === undefined) return undefined;
    return (anchor.edge === 'start' ? at.start : at.end) + anchor.offset * DAY;
  };
  // Tasks are placed once what they start or end at is placed; a cycle or a missing task leaves them at day 0.
  for (let pass = 0; pass <= drafts.length && placed.size < drafts.length; pass++) {
    for (const draft of drafts) {
      if (placed.has(draft)) continue;
      const start = resolve(draft.start);
      const end = resolve(draft.end);
      const last = pass === drafts.length;
      if ((draft.start !== undefined && start === undefined) || (draft.end !== undefined && end === undefined)) {
        if (!last) continue;
        warnings.push(`line ${draft.line}: "${draft.label}" starts or ends at a task that is never placed: drawn from the project's start`);
      }
      if (draft.milestone) {
        const at = start ?? end ?? origin;
        placed.set(draft, { start: at, end: at });
        continue;
      }
      if (start !== undefined || draft.start === undefined || last) {
        const from = start !== undefined ? openFrom(start) : end !== undefined && draft.days !== undefined ? end - draft.days * DAY : openFrom(origin);
        const to = end !== undefined ? Math.max(from + DAY, end + (draft.end !== undefined && 'date' in draft.end ? DAY : 0)) : after(from, draft.days ?? 1);
        if (draft.days === undefined && end === undefined) warnings.push(`line ${draft.line}: "${draft.label}" has no length (lasts, requires, ends): drawn one day long`);
        placed.set(draft, { start: from, end: to });
      }
    }
  }

  const tasks: GanttTask[] = drafts.map((draft) => {
    const at = placed.get(draft) ?? { start: origin, end: origin + DAY };
    return {
      label: draft.label,
      section: draft.section,
      start: at.start,
      end: at.end,
      milestone: draft.milestone,
      marker: false,
      crit: false,
      active: false,
      done: false,
      ...(draft.fill !== undefined && { fill: draft.fill }),
      ...(draft.stroke !== undefined && { stroke: draft.stroke }),
      ...(draft.progress !== undefined && { progress: draft.progress }),
    };
  });
  const sections = [...new Set(tasks.map((task) => task.section))];
  // Closed days are shaded as PlantUML greys them, within the tasks' span and at most a year and a half of it.
  const first = Math.min(...tasks.map((task) => task.start));
  const last = Math.max(...tasks.map((task) => task.end));
  const closedDays: number[] = [];
  if (tasks.length > 0 && last - first <= 550 * DAY) for (let at = first; at < last; at += DAY) if (isClosed(at)) closedDays.push(at);
  const chart: GanttChart = { family: 'gantt', sections, tasks, ...(projectStart === undefined && { dayNumbers: true }), ...(closedDays.length > 0 && { excludedDays: closedDays }) };
  return { layout: 'chart', direction: 'RIGHT', forcedDirection: true, nodes: [], edges: [], groups: [], warnings, chart, ...(source.title !== undefined && { title: source.title }) };
}
