/**
 * A timeline as Mermaid draws it: periods side by side in boxes over a time arrow, each period's events stacked under
 * it on a dashed drop line, sections as boxes over their periods sharing their colour (without sections, each period
 * has a colour of its own). Past PER_BAND periods the timeline goes on in another band under the first, so that a
 * long history stays readable in a README column instead of shrinking to a strip.
 */
import type { TimelineChart, TimelinePeriod } from '../../graph/chart.js';
import { CHART_FONT, CHART_LINE, CHART_PALE, CHART_PALETTE, chartArrow, chartLine, chartShape, paletteAt, wrappedLabel, type ChartDrawing } from './elements.js';

const LAYOUT = {
  column: 160,
  gap: 16,
  /** Periods in one band: six columns keep 14 px text at 11 px or more when fitted to 880 px. */
  perBand: 6,
  minBox: 40,
  /** Between the period row and the events, where the time arrow runs. */
  axisGap: 36,
  eventGap: 10,
  bandGap: 40,
} as const;

interface Sized {
  text: string;
  height: number;
}

const sized = (text: string, fontSize: number = CHART_FONT.label, width: number = LAYOUT.column): Sized => wrappedLabel(text, width, fontSize, LAYOUT.minBox);

export function drawTimeline(chart: TimelineChart): ChartDrawing {
  const elements: ChartDrawing['elements'] = [];
  if (chart.periods.length === 0) return { elements, warnings: ['the timeline has no periods'] };
  const sectioned = chart.sections.length > 0;
  const colourOf = (period: TimelinePeriod, index: number) => (sectioned ? Math.max(0, chart.sections.indexOf(period.section ?? '')) : index);
  const bands: { period: TimelinePeriod; index: number }[][] = [];
  // Bands share the items evenly (eight periods are two bands of four, not six and two).
  const perBand = Math.ceil(chart.periods.length / Math.ceil(chart.periods.length / LAYOUT.perBand));
  chart.periods.forEach((period, index) => {
    if (index % perBand === 0) bands.push([]);
    bands[bands.length - 1]!.push({ period, index });
  });

  let top = 0;
  bands.forEach((band, b) => {
    const columnX = (k: number) => k * (LAYOUT.column + LAYOUT.gap);
    const width = columnX(band.length) - LAYOUT.gap;
    // Section boxes over each run of this band's periods in one section.
    let sectionBottom = top;
    if (sectioned) {
      const runs: { section: string; from: number; to: number }[] = [];
      band.forEach(({ period }, k) => {
        const last = runs[runs.length - 1];
        if (last !== undefined && last.section === (period.section ?? '')) last.to = k;
        else runs.push({ section: period.section ?? '', from: k, to: k });
      });
      const heads = runs.map((run) => ({ run, label: sized(run.section, CHART_FONT.heading, columnX(run.to + 1) - LAYOUT.gap - columnX(run.from)) }));
      const height = Math.max(...heads.map((head) => head.label.height));
      heads.forEach(({ run, label }, r) => {
        if (run.section === '') return;
        const colour = Math.max(0, chart.sections.indexOf(run.section));
        const box = { x: columnX(run.from), y: top, width: columnX(run.to + 1) - LAYOUT.gap - columnX(run.from), height };
        elements.push(chartShape(`timeline-section-${b}-${r}`, 'rectangle', box, { fill: paletteAt(CHART_PALETTE, colour), text: label.text, fontSize: CHART_FONT.heading, corner: 'rounded', role: 'generic' }));
      });
      sectionBottom = top + height + LAYOUT.eventGap;
    }
    const periods = band.map(({ period }) => sized(period.label));
    const periodHeight = Math.max(...periods.map((p) => p.height));
    const axisY = sectionBottom + periodHeight + LAYOUT.axisGap / 2;
    const events = band.map(({ period }) => period.events.map((event) => sized(event)));
    const eventsTop = sectionBottom + periodHeight + LAYOUT.axisGap;
    const eventsHeight = Math.max(0, ...events.map((list) => list.reduce((sum, e) => sum + e.height + LAYOUT.eventGap, 0)));
    const bottom = eventsTop + eventsHeight + LAYOUT.eventGap;

    // Drop lines and the arrow first, under the boxes.
    band.forEach((_, k) => {
      const centre = columnX(k) + LAYOUT.column / 2;
      elements.push(chartArrow(`timeline-drop-${b}-${k}`, [{ x: centre, y: sectionBottom + periodHeight }, { x: centre, y: bottom }], { strokeStyle: 'dashed', strokeWidth: 1 }));
    });
    elements.push(chartArrow(`timeline-axis-${b}`, [{ x: -LAYOUT.gap, y: axisY }, { x: width + LAYOUT.gap * 2, y: axisY }], { stroke: CHART_LINE, strokeWidth: 3 }));

    band.forEach(({ period, index }, k) => {
      const colour = colourOf(period, index);
      const box = { x: columnX(k), y: sectionBottom, width: LAYOUT.column, height: periodHeight };
      elements.push(chartShape(`timeline-period-${index}`, 'rectangle', box, { fill: sectioned ? paletteAt(CHART_PALE, colour) : paletteAt(CHART_PALETTE, colour), text: periods[k]!.text, corner: 'rounded', role: 'generic' }));
      let y = eventsTop;
      events[k]!.forEach((event, e) => {
        const eventBox = { x: columnX(k), y, width: LAYOUT.column, height: event.height };
        elements.push(chartShape(`timeline-event-${index}-${e}`, 'rectangle', eventBox, { fill: paletteAt(CHART_PALE, colour), text: event.text, corner: 'rounded', role: 'note' }));
        y += event.height + LAYOUT.eventGap;
      });
    });
    if (b < bands.length - 1) elements.push(chartLine(`timeline-break-${b}`, [{ x: 0, y: bottom + LAYOUT.bandGap / 2 }, { x: width, y: bottom + LAYOUT.bandGap / 2 }], { stroke: '#dee2e6', strokeStyle: 'dotted' }));
    top = bottom + LAYOUT.bandGap;
  });
  return { elements, warnings: [] };
}
