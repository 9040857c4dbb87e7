/**
 * A dated axis as d3's time scale gives Mermaid's gantt: ticks at a round interval (seconds, minutes, hours, days,
 * weeks on Sundays, months, years) chosen so that about `count` fit, written in a d3 time format (`%Y-%m-%d` by default). Times are
 * wall-clock milliseconds read as UTC (notations/mermaid/gantt.ts).
 */

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

type Interval = { unit: 'ms'; step: number } | { unit: 'month'; step: number };

// d3's own ladder: a release pipeline timed in seconds and minutes (dateFormat HH:mm) needs its minute ticks too.
const INTERVALS: readonly Interval[] = [
  ...[1, 5, 15, 30].map((s) => ({ unit: 'ms' as const, step: s * SECOND })),
  ...[1, 5, 15, 30].map((m) => ({ unit: 'ms' as const, step: m * MINUTE })),
  ...[1, 3, 6, 12].map((h) => ({ unit: 'ms' as const, step: h * HOUR })),
  ...[1, 2].map((d) => ({ unit: 'ms' as const, step: d * DAY })),
  { unit: 'ms', step: 7 * DAY },
  ...[1, 3].map((m) => ({ unit: 'month' as const, step: m })),
  ...[12, 24, 60, 120].map((m) => ({ unit: 'month' as const, step: m })),
];

const span = (interval: Interval) => (interval.unit === 'ms' ? interval.step : interval.step * 30 * DAY);

/** Round times from `from` to `to` (both included when they fall on one), at most about `count` of them. */
export function timeTicks(from: number, to: number, count: number): number[] {
  const interval = INTERVALS.find((candidate) => (to - from) / span(candidate) <= count) ?? INTERVALS[INTERVALS.length - 1]!;
  const ticks: number[] = [];
  if (interval.unit === 'ms') {
    // Weeks start on Sunday, as d3's timeWeek does; shorter steps from midnight.
    const origin = interval.step === 7 * DAY ? 3 * DAY : 0;
    for (let t = Math.ceil((from - origin) / interval.step) * interval.step + origin; t <= to && ticks.length < 1000; t += interval.step) ticks.push(t);
    return ticks;
  }
  const start = new Date(from);
  let months = start.getUTCFullYear() * 12 + start.getUTCMonth();
  months = Math.ceil(months / interval.step) * interval.step;
  for (;;) {
    const t = Date.UTC(Math.floor(months / 12), months % 12, 1);
    if (t < from) {
      months += interval.step;
      continue;
    }
    if (t > to || ticks.length >= 1000) return ticks;
    ticks.push(t);
    months += interval.step;
  }
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const pad = (value: number, width = 2, fill = '0') => String(value).padStart(width, fill);

/** A d3 time format's common directives; anything else is written as it stands. */
export function formatTime(time: number, format: string): string {
  const d = new Date(time);
  const dayOfYear = Math.floor((time - Date.UTC(d.getUTCFullYear(), 0, 1)) / DAY) + 1;
  const week = Math.floor((dayOfYear - 1 + new Date(Date.UTC(d.getUTCFullYear(), 0, 1)).getUTCDay()) / 7);
  const directives: Record<string, () => string> = {
    Y: () => String(d.getUTCFullYear()),
    y: () => pad(d.getUTCFullYear() % 100),
    m: () => pad(d.getUTCMonth() + 1),
    d: () => pad(d.getUTCDate()),
    e: () => pad(d.getUTCDate(), 2, ' '),
    b: () => MONTHS[d.getUTCMonth()]!.slice(0, 3),
    B: () => MONTHS[d.getUTCMonth()]!,
    a: () => DAYS[d.getUTCDay()]!.slice(0, 3),
    A: () => DAYS[d.getUTCDay()]!,
    H: () => pad(d.getUTCHours()),
    I: () => pad(((d.getUTCHours() + 11) % 12) + 1),
    p: () => (d.getUTCHours() < 12 ? 'AM' : 'PM'),
    M: () => pad(d.getUTCMinutes()),
    S: () => pad(d.getUTCSeconds()),
    j: () => pad(dayOfYear, 3),
    U: () => pad(week),
    W: () => pad(week),
    q: () => String(Math.floor(d.getUTCMonth() / 3) + 1),
    '%': () => '%',
  };
  return format.replace(/%[-_0]?([a-zA-Z%])/g, (whole, letter: string) => directives[letter]?.() ?? whole);
}
