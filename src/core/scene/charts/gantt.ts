/**
 * A gantt chart as Mermaid draws it: one row per task in the author's order, each section a band across the chart
 * with its name at the left, bars from start to end on a dated axis with grid lines at round dates under the rows.
 * A bar's label sits inside it when it fits, else beside it; milestones are diamonds at their date, `vert` markers
 * lines across every row. Colours follow Mermaid's tags: done grey, active pale, crit red.
 */
import type { GanttChart, GanttTask } from '../../graph/chart.js';
import { CHART_FONT, CHART_LINE, CHART_PALE, chartLine, chartShape, chartText, paletteAt, textSize, type ChartDrawing } from './elements.js';
import { wrapText } from '../../layout/node-size.js';
import { SPACING } from '../../layout/drawing-rules.js';
import { formatTime, timeTicks } from './time-axis.js';
import { valueTicks } from './xy.js';

const LAYOUT = {
  /** The dated part of the chart: wide enough for readable bars, narrow enough for a README column. */
  axisWidth: 640,
  sectionColumnMax: 160,
  rowHeight: 42,
  // Room for a 14 px label inside with the padding every labelled shape keeps (layout/node-size textArea).
  barHeight: 36,
  milestone: 24,
  gap: 10,
  /** About this many dates along the axis. */
  ticks: 8,
} as const;

const FILLS = {
  task: { fill: '#8a90dd', stroke: '#534fbc' },
  active: { fill: '#bfc7ff', stroke: '#534fbc' },
  done: { fill: '#d3d3d3', stroke: '#868e96' },
  crit: { fill: '#ff8888', stroke: '#e03131' },
  critDone: { fill: '#d3d3d3', stroke: '#e03131' },
} as const;

const tagColours = (task: GanttTask) => (task.crit ? (task.done ? FILLS.critDone : FILLS.crit) : task.done ? FILLS.done : task.active ? FILLS.active : FILLS.task);
const colours = (task: GanttTask) => {
  const tagged = tagColours(task);
  return { fill: task.fill ?? tagged.fill, stroke: task.stroke ?? (task.fill === undefined ? tagged.stroke : CHART_LINE) };
};
const DAY = 86_400_000;

export function drawGantt(chart: GanttChart): ChartDrawing {
  const elements: ChartDrawing['elements'] = [];
  const rows = chart.tasks.filter((task) => !task.marker);
  const markers = chart.tasks.filter((task) => task.marker);
  if (chart.tasks.length === 0) return { elements, warnings: ['the gantt chart has no tasks'] };
  const from = Math.min(...chart.tasks.map((task) => task.start));
  const to = Math.max(...chart.tasks.map((task) => task.end), from + 1);
  const sectionNames = [...new Set(rows.map((task) => task.section))];
  // Long section names wrap in their column rather than run under the bars.
  const written = new Map(sectionNames.map((name) => [name, wrapText(name, LAYOUT.sectionColumnMax, CHART_FONT.label).join('\n')]));
  const sectionWidth = Math.max(0, ...[...written.values()].map((name) => textSize(name, CHART_FONT.label).width));
  const left = sectionWidth + LAYOUT.gap * 2;
  const scale = LAYOUT.axisWidth / (to - from);
  const x = (time: number) => left + (time - from) * scale;
  const top = 0;
  const bottom = top + rows.length * LAYOUT.rowHeight;
  const right = left + LAYOUT.axisWidth;

  // Section bands with their names, then the grid and dates, then the bars over them.
  let row = 0;
  sectionNames.forEach((name, s) => {
    const count = rows.filter((task) => task.section === name).length;
    const band = { x: 0, y: top + row * LAYOUT.rowHeight, width: right + LAYOUT.gap, height: count * LAYOUT.rowHeight };
    elements.push(chartShape(`gantt-section-${s}`, 'rectangle', band, { fill: s % 2 === 0 ? paletteAt(CHART_PALE, 0) : '#ffffff', stroke: s % 2 === 0 ? paletteAt(CHART_PALE, 0) : '#ffffff', role: 'generic' }));
    const text = written.get(name)!;
    if (text !== '') {
      const size = textSize(text, CHART_FONT.label);
      elements.push(chartText(`gantt-section-${s}-name`, text, { x: LAYOUT.gap, y: band.y + band.height / 2 - size.height / 2 }, { fontSize: CHART_FONT.label }));
    }
    row += count;
  });
  // Excluded days as grey bands over the sections, under the grid and bars (Mermaid's shading): why a three-day task
  // can span a weekend.
  let run: { from: number; to: number } | undefined;
  const shade = (band: { from: number; to: number }, k: number) =>
    elements.push(chartShape(`gantt-excluded-${k}`, 'rectangle', { x: x(band.from), y: top, width: x(band.to) - x(band.from), height: bottom - top }, { fill: '#e9ecef', stroke: '#e9ecef', role: 'generic' }));
  let shaded = 0;
  for (const day of chart.excludedDays ?? []) {
    if (day + DAY <= from || day >= to) continue;
    const band = { from: Math.max(from, day), to: Math.min(to, day + DAY) };
    if (run !== undefined && Math.abs(run.to - band.from) < 1) run.to = band.to;
    else {
      if (run !== undefined) shade(run, shaded++);
      run = band;
    }
  }
  if (run !== undefined) shade(run, shaded++);

  // Rows follow the sections' order, each section's tasks in the author's order.
  const ordered = sectionNames.flatMap((name) => rows.filter((task) => task.section === name));

  const format = chart.axisFormat ?? '%Y-%m-%d';
  // Without dates (a PlantUML project with no start), the axis counts days from the first, as PlantUML numbers them.
  const ticks = chart.dayNumbers ? valueTicks(from / DAY, to / DAY, LAYOUT.ticks).map((day) => day * DAY) : timeTicks(from, to, LAYOUT.ticks);
  ticks.forEach((tick, i) => {
    const text = chart.dayNumbers ? `day ${Math.round(tick / DAY) + 1}` : formatTime(tick, format);
    elements.push(chartLine(`gantt-grid-${i}`, [{ x: x(tick), y: top - 4 }, { x: x(tick), y: bottom + 4 }], { stroke: '#ced4da' }));
    elements.push(chartText(`gantt-date-${i}`, text, { x: x(tick), y: bottom + 8 }, { fontSize: CHART_FONT.small, align: 'center', color: CHART_LINE }));
  });

  ordered.forEach((task, i) => {
    const middle = top + i * LAYOUT.rowHeight + LAYOUT.rowHeight / 2;
    const id = `gantt-task-${i}`;
    const label = textSize(task.label, CHART_FONT.label);
    const { fill, stroke } = colours(task);
    if (task.milestone) {
      const size = LAYOUT.milestone;
      // Mermaid puts a milestone at the middle of its (usually empty) span.
      const centre = x((task.start + task.end) / 2);
      elements.push(chartShape(id, 'diamond', { x: centre - size / 2, y: middle - size / 2, width: size, height: size }, { fill, stroke, role: 'decision' }));
      elements.push(beside(`${id}-label`, task.label, centre + size / 2 + 6, centre - size / 2 - 6, middle, right));
      return;
    }
    const start = x(task.start);
    const width = Math.max(2, x(task.end) - start);
    const box = { x: start, y: middle - LAYOUT.barHeight / 2, width, height: LAYOUT.barHeight };
    if (label.width + 2 * SPACING.nodePaddingX <= width && label.height + 2 * SPACING.nodePaddingY <= LAYOUT.barHeight + 2) {
      elements.push(chartShape(id, 'rectangle', box, { fill, stroke: undefined, text: task.label, role: 'action', corner: 'rounded' }));
    } else {
      elements.push(chartShape(id, 'rectangle', box, { fill, stroke, role: 'action', corner: 'rounded' }));
      elements.push(beside(`${id}-label`, task.label, start + width + 6, start - 6, middle, right));
    }
    // How much is done (PlantUML `is 40% complete`): a strip along the bar's foot, that share of its length.
    if (task.progress !== undefined && task.progress > 0) {
      elements.push(chartShape(`${id}-done`, 'rectangle', { x: start + 2, y: box.y + box.height - 7, width: Math.max(2, (width - 4) * task.progress), height: 5 }, { fill: stroke, stroke }));
    }
  });

  markers.forEach((task, i) => {
    const at = x(task.start);
    elements.push(chartLine(`gantt-marker-${i}`, [{ x: at, y: top - 8 }, { x: at, y: bottom + 4 }], { stroke: FILLS.crit.stroke, strokeWidth: 2 }));
    elements.push(chartText(`gantt-marker-${i}-label`, task.label, { x: at, y: top - 8 - textSize(task.label, CHART_FONT.small).height }, { fontSize: CHART_FONT.small, align: 'center', color: FILLS.crit.stroke }));
  });
  return { elements, warnings: [] };
}

/** A label outside its bar: after it when it fits before the chart's right edge, else before it, as Mermaid does. */
function beside(id: string, text: string, after: number, before: number, middle: number, right: number) {
  const size = textSize(text, CHART_FONT.label);
  const fitsAfter = after + size.width <= right || before - size.width < 0;
  return chartText(id, text, { x: fitsAfter ? after : before, y: middle - size.height / 2 }, { fontSize: CHART_FONT.label, align: fitsAfter ? 'left' : 'right' });
}
