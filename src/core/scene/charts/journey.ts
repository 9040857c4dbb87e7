/**
 * A user journey as Mermaid draws it: the actors in a legend at the left, each section a box over its tasks, tasks
 * side by side with a dot per actor taking part, a time arrow under them, and under each task a dashed drop line
 * with a face at the height of its score (5 at the top, smiling; 3 straight; 1 at the bottom, frowning). Past
 * PER_BAND tasks the journey goes on in another band under the first, to stay readable in a README column.
 */
import type { JourneyChart, JourneyTask } from '../../graph/chart.js';
import { CHART_FONT, CHART_LINE, CHART_PALE, CHART_PALETTE, chartArrow, chartLine, chartShape, chartText, paletteAt, textSize, wrappedLabel, type ChartDrawing, type Point } from './elements.js';

const LAYOUT = {
  column: 140,
  gap: 16,
  perBand: 6,
  minBox: 40,
  dot: 12,
  /** Height of the score scale under the arrow: five steps. */
  scoreStep: 34,
  face: 30,
  axisGap: 30,
  bandGap: 40,
  legendGap: 30,
} as const;

const FACE = { fill: '#fff5bf', stroke: '#666666' } as const;

export function drawJourney(chart: JourneyChart): ChartDrawing {
  const elements: ChartDrawing['elements'] = [];
  if (chart.tasks.length === 0) return { elements, warnings: ['the journey has no tasks'] };
  const actorColour = new Map(chart.actors.map((actor, i) => [actor, paletteAt(CHART_PALETTE, i)]));

  // The legend: a dot and a name per actor.
  const legendWidth = chart.actors.length === 0 ? 0 : Math.max(...chart.actors.map((actor) => textSize(actor, CHART_FONT.label).width)) + LAYOUT.dot + 8;
  chart.actors.forEach((actor, i) => {
    const y = i * 24;
    elements.push(chartShape(`journey-actor-${i}`, 'ellipse', { x: 0, y: y + 3, width: LAYOUT.dot + 2, height: LAYOUT.dot + 2 }, { fill: actorColour.get(actor)!, stroke: CHART_LINE, role: 'actor' }));
    elements.push(chartText(`journey-actor-${i}-name`, actor, { x: LAYOUT.dot + 8, y }));
  });
  const left = legendWidth === 0 ? 0 : legendWidth + LAYOUT.legendGap;

  const bands: { task: JourneyTask; index: number }[][] = [];
  // Bands share the items evenly (eight periods are two bands of four, not six and two).
  const perBand = Math.ceil(chart.tasks.length / Math.ceil(chart.tasks.length / LAYOUT.perBand));
  chart.tasks.forEach((task, index) => {
    if (index % perBand === 0) bands.push([]);
    bands[bands.length - 1]!.push({ task, index });
  });
  const wrap = (text: string, width: number) => wrappedLabel(text, width, CHART_FONT.label, LAYOUT.minBox);

  let top = 0;
  bands.forEach((band, b) => {
    const columnX = (k: number) => left + k * (LAYOUT.column + LAYOUT.gap);
    const width = columnX(band.length) - LAYOUT.gap - left;
    // Section boxes over each run of this band's tasks in one section, coloured like their tasks.
    const runs: { section: string; from: number; to: number }[] = [];
    band.forEach(({ task }, k) => {
      const last = runs[runs.length - 1];
      if (last !== undefined && last.section === task.section) last.to = k;
      else runs.push({ section: task.section, from: k, to: k });
    });
    const heads = runs.map((run) => ({ run, label: wrap(run.section, columnX(run.to + 1) - LAYOUT.gap - columnX(run.from)) }));
    const headHeight = Math.max(...heads.map((head) => head.label.height));
    const sectionColour = (section: string) => paletteAt(CHART_PALE, Math.max(0, chart.sections.indexOf(section)));
    heads.forEach(({ run, label }, r) => {
      if (run.section === '') return;
      const box = { x: columnX(run.from), y: top, width: columnX(run.to + 1) - LAYOUT.gap - columnX(run.from), height: headHeight };
      elements.push(chartShape(`journey-section-${b}-${r}`, 'rectangle', box, { fill: sectionColour(run.section), stroke: CHART_LINE, text: label.text, corner: 'rounded', role: 'generic' }));
    });
    const tasksTop = top + headHeight + LAYOUT.dot;
    const labels = band.map(({ task }) => wrap(task.label, LAYOUT.column));
    const taskHeight = Math.max(...labels.map((label) => label.height));
    const axisY = tasksTop + taskHeight + LAYOUT.axisGap;
    const scoreY = (score: number) => axisY + LAYOUT.axisGap + (5 - Math.min(5, Math.max(1, score))) * LAYOUT.scoreStep + LAYOUT.face / 2;
    const bottom = scoreY(1) + LAYOUT.face / 2 + 10;

    band.forEach((_, k) => {
      const centre = columnX(k) + LAYOUT.column / 2;
      elements.push(chartLine(`journey-drop-${b}-${k}`, [{ x: centre, y: tasksTop + taskHeight }, { x: centre, y: bottom }], { stroke: '#868e96', strokeStyle: 'dashed' }));
    });
    elements.push(chartArrow(`journey-axis-${b}`, [{ x: left, y: axisY }, { x: left + width + LAYOUT.gap * 2, y: axisY }], { stroke: CHART_LINE, strokeWidth: 3 }));

    band.forEach(({ task, index }, k) => {
      const box = { x: columnX(k), y: tasksTop, width: LAYOUT.column, height: taskHeight };
      elements.push(chartShape(`journey-task-${index}`, 'rectangle', box, { fill: sectionColour(task.section), stroke: CHART_LINE, text: labels[k]!.text, corner: 'rounded', role: 'action' }));
      task.people.forEach((person, p) => {
        const dot = { x: box.x + 6 + p * (LAYOUT.dot - 2), y: box.y - LAYOUT.dot / 2, width: LAYOUT.dot, height: LAYOUT.dot };
        elements.push(chartShape(`journey-task-${index}-actor-${p}`, 'ellipse', dot, { fill: actorColour.get(person) ?? CHART_LINE, stroke: CHART_LINE, role: 'actor' }));
      });
      elements.push(...face(`journey-score-${index}`, { x: box.x + LAYOUT.column / 2, y: scoreY(task.score) }, task.score));
    });
    top = bottom + LAYOUT.bandGap;
  });
  return { elements, warnings: [] };
}

/** A face for a score: a circle with two eyes and a mouth that smiles (4–5), is straight (3) or frowns (1–2). */
function face(id: string, centre: Point, score: number): ChartDrawing['elements'] {
  const r = LAYOUT.face / 2;
  const eye = 4;
  const mouth: Point[] = [];
  const curve = score >= 4 ? 1 : score <= 2 ? -1 : 0;
  for (let k = 0; k <= 8; k++) {
    const t = k / 8;
    const x = centre.x - r * 0.45 + t * r * 0.9;
    // A parabola through the mouth's corners: down in the middle for a smile, up for a frown.
    const y = centre.y + r * 0.35 + curve * r * 0.3 * (1 - (2 * t - 1) ** 2) - (curve < 0 ? r * 0.05 : 0);
    mouth.push({ x, y });
  }
  return [
    chartShape(id, 'ellipse', { x: centre.x - r, y: centre.y - r, width: 2 * r, height: 2 * r }, { fill: FACE.fill, stroke: FACE.stroke, role: 'generic' }),
    chartShape(`${id}-eye-1`, 'ellipse', { x: centre.x - r * 0.4 - eye / 2, y: centre.y - r * 0.3 - eye / 2, width: eye, height: eye }, { fill: FACE.stroke, stroke: FACE.stroke }),
    chartShape(`${id}-eye-2`, 'ellipse', { x: centre.x + r * 0.4 - eye / 2, y: centre.y - r * 0.3 - eye / 2, width: eye, height: eye }, { fill: FACE.stroke, stroke: FACE.stroke }),
    chartLine(`${id}-mouth`, curve === 0 ? [mouth[0]!, mouth[8]!] : mouth, { stroke: FACE.stroke, strokeWidth: 2 }),
  ];
}
