/**
 * An xy chart as Mermaid draws it: a value axis with round ticks and its title, the categories along the other axis,
 * bars (several bar plots side by side in each category) and lines through the categories' middles, one colour per
 * plot. `xychart horizontal` turns it: categories down the left, values across.
 */
import type { XyChart } from '../../graph/chart.js';
import { CHART_FONT, CHART_LINE, CHART_PALETTE, chartLine, chartShape, chartText, paletteAt, textSize, type ChartDrawing, type Point } from './elements.js';

const PLOT = { length: 640, depth: 340, ticks: 6 } as const;

/** Round tick values from min to max, about `count` of them (1, 2 or 5 times a power of ten apart). */
export function valueTicks(min: number, max: number, count: number): number[] {
  if (!(max > min)) return [min];
  const rough = (max - min) / count;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 5, 10].map((k) => k * power).find((candidate) => candidate >= rough) ?? 10 * power;
  const ticks: number[] = [];
  for (let t = Math.ceil(min / step) * step; t <= max + step * 1e-9; t += step) ticks.push(Number(t.toPrecision(12)));
  return ticks;
}

const formatValue = (value: number): string => (Math.abs(value) >= 10_000 ? value.toLocaleString('en-US') : String(value));

export function drawXy(chart: XyChart): ChartDrawing {
  const elements: ChartDrawing['elements'] = [];
  const { min, max } = chart.yRange;
  const n = Math.max(1, chart.categories.length);
  // The plot keeps its landscape shape either way: categories along the long side when upright, down the short one
  // when horizontal.
  const categoryLength = chart.horizontal ? PLOT.depth : PLOT.length;
  const valueLength = chart.horizontal ? PLOT.length : PLOT.depth;
  const band = categoryLength / n;
  // Plot coordinates: `along` the category axis from its start, `up` the value axis from its base.
  const place = (along: number, up: number): Point => (chart.horizontal ? { x: up, y: along } : { x: along, y: PLOT.depth - up });
  const height = (value: number) => ((Math.min(max, Math.max(min, value)) - min) / (max - min || 1)) * valueLength;

  // Value ticks and grid lines, under the plots.
  const ticks = valueTicks(min, max, PLOT.ticks);
  let tickWidth = 0;
  ticks.forEach((tick, i) => {
    const at = height(tick);
    const text = formatValue(tick);
    const size = textSize(text, CHART_FONT.small);
    tickWidth = Math.max(tickWidth, size.width);
    elements.push(chartLine(`xy-grid-${i}`, [place(0, at), place(categoryLength, at)], { stroke: '#e9ecef' }));
    const mark = place(0, at);
    elements.push(
      chart.horizontal
        ? chartText(`xy-tick-${i}`, text, { x: mark.x, y: categoryLength + 8 }, { fontSize: CHART_FONT.small, align: 'center', color: CHART_LINE })
        : chartText(`xy-tick-${i}`, text, { x: mark.x - 8, y: mark.y - size.height / 2 }, { fontSize: CHART_FONT.small, align: 'right', color: CHART_LINE }),
    );
  });

  const bars = chart.plots.filter((plot) => plot.type === 'bar');
  const barWidth = (band * 0.7) / Math.max(1, bars.length);
  chart.plots.forEach((plot, p) => {
    const colour = paletteAt(CHART_PALETTE, p);
    if (plot.type === 'bar') {
      const slot = bars.indexOf(plot);
      plot.values.forEach((value, i) => {
        if (!Number.isFinite(value)) return;
        const start = i * band + band * 0.15 + slot * barWidth;
        const a = place(start, 0);
        const b = place(start + barWidth, height(value));
        const box = { x: Math.min(a.x, b.x), y: Math.min(a.y, b.y), width: Math.abs(b.x - a.x), height: Math.abs(b.y - a.y) };
        elements.push(chartShape(`xy-bar-${p}-${i}`, 'rectangle', box, { fill: colour, stroke: colour, role: 'generic' }));
        if (chart.showValues) {
          // The value just past the bar's end, as Mermaid writes it with showDataLabel.
          const text = formatValue(value);
          const size = textSize(text, CHART_FONT.small);
          const tip = place(start + barWidth / 2, height(value));
          elements.push(
            chart.horizontal
              ? chartText(`xy-value-${p}-${i}`, text, { x: tip.x + 4, y: tip.y - size.height / 2 }, { fontSize: CHART_FONT.small })
              : chartText(`xy-value-${p}-${i}`, text, { x: tip.x, y: tip.y - size.height - 2 }, { fontSize: CHART_FONT.small, align: 'center' }),
          );
        }
      });
    } else {
      const points = plot.values.flatMap((value, i) => (Number.isFinite(value) ? [place((i + 0.5) * band, height(value))] : []));
      if (points.length >= 2) elements.push(chartLine(`xy-line-${p}`, points, { stroke: colour, strokeWidth: 3 }));
    }
  });

  // Axes over the plots; categories along theirs, turned when they are wider than their band.
  // The value axis runs along its tick labels: at the left when upright, under the plot when horizontal.
  const valueAxisAt = chart.horizontal ? categoryLength : 0;
  elements.push(chartLine('xy-axis-values', [place(valueAxisAt, 0), place(valueAxisAt, valueLength)], { stroke: CHART_LINE, strokeWidth: 2 }));
  elements.push(chartLine('xy-axis-categories', [place(0, 0), place(categoryLength, 0)], { stroke: CHART_LINE, strokeWidth: 2 }));
  const widest = Math.max(0, ...chart.categories.map((category) => textSize(category, CHART_FONT.small).width));
  const turn = !chart.horizontal && widest > band - 4;
  let categoryDepth = 0;
  chart.categories.forEach((category, i) => {
    const at = place((i + 0.5) * band, 0);
    const size = textSize(category, CHART_FONT.small);
    if (chart.horizontal) {
      elements.push(chartText(`xy-category-${i}`, category, { x: at.x - 8, y: at.y - size.height / 2 }, { fontSize: CHART_FONT.small, align: 'right' }));
      categoryDepth = Math.max(categoryDepth, size.width + 8);
    } else if (turn) {
      const reach = size.width * Math.SQRT1_2;
      elements.push(chartText(`xy-category-${i}`, category, { x: at.x - reach / 2, y: at.y + 6 + reach / 2 - size.height / 2 }, { fontSize: CHART_FONT.small, align: 'center', angle: -Math.PI / 4 }));
      categoryDepth = Math.max(categoryDepth, reach + size.height + 6);
    } else {
      elements.push(chartText(`xy-category-${i}`, category, { x: at.x, y: at.y + 6 }, { fontSize: CHART_FONT.small, align: 'center' }));
      categoryDepth = Math.max(categoryDepth, size.height + 6);
    }
  });

  // Axis titles: the categories' under (or left of) their labels, the values' beside (or under) the ticks.
  const categoryTitle = chart.xTitle;
  const valueTitle = chart.yTitle;
  if (categoryTitle !== '') {
    const size = textSize(categoryTitle, CHART_FONT.label);
    elements.push(
      chart.horizontal
        ? chartText('xy-title-categories', categoryTitle, { x: -categoryDepth - 8 - size.height / 2, y: categoryLength / 2 - size.height / 2 }, { align: 'center', angle: -Math.PI / 2 })
        : chartText('xy-title-categories', categoryTitle, { x: PLOT.length / 2, y: PLOT.depth + categoryDepth + 8 }, { align: 'center' }),
    );
  }
  if (valueTitle !== '') {
    const size = textSize(valueTitle, CHART_FONT.label);
    elements.push(
      chart.horizontal
        ? chartText('xy-title-values', valueTitle, { x: valueLength / 2, y: categoryLength + 30 }, { align: 'center' })
        : chartText('xy-title-values', valueTitle, { x: -tickWidth - 16 - size.height / 2, y: PLOT.depth / 2 - size.height / 2 }, { align: 'center', angle: -Math.PI / 2 }),
    );
  }
  return { elements, warnings: [] };
}
