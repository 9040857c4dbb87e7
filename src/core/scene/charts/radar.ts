/**
 * A radar chart as Mermaid draws it: axes out from the centre clockwise from twelve o'clock, each named past its end,
 * rings (circles or polygons) at the scale's ticks, every curve a filled closed line through its values, and a legend.
 */
import type { RadarChart } from '../../graph/chart.js';
import { CHART_FONT, CHART_LINE, CHART_PALETTE, chartLine, chartShape, chartText, paletteAt, textSize, type ChartDrawing, type Point } from './elements.js';

const RADIUS = 220;

export function drawRadar(chart: RadarChart): ChartDrawing {
  const elements: ChartDrawing['elements'] = [];
  const n = chart.axes.length;
  if (n < 3) return { elements, warnings: [`a radar needs three axes or more; this one has ${n}`] };
  const centre = { x: RADIUS, y: RADIUS };
  const angle = (k: number) => (2 * Math.PI * k) / n;
  const at = (k: number, r: number): Point => ({ x: centre.x + r * Math.sin(angle(k)), y: centre.y - r * Math.cos(angle(k)) });
  const span = chart.max - chart.min || 1;
  const reach = (value: number) => (Math.min(chart.max, Math.max(chart.min, value)) - chart.min) / span * RADIUS;

  for (let t = 1; t <= chart.ticks; t++) {
    const r = (RADIUS * t) / chart.ticks;
    if (chart.graticule === 'circle') elements.push(chartShape(`radar-ring-${t}`, 'ellipse', { x: centre.x - r, y: centre.y - r, width: 2 * r, height: 2 * r }, { fill: 'transparent', stroke: '#dee2e6' }));
    else elements.push(chartLine(`radar-ring-${t}`, [...chart.axes.map((_, k) => at(k, r)), at(0, r)], { stroke: '#dee2e6' }));
  }
  chart.axes.forEach((axis, k) => {
    elements.push(chartLine(`radar-axis-${k}`, [centre, at(k, RADIUS)], { stroke: CHART_LINE }));
    const size = textSize(axis, CHART_FONT.label);
    const end = at(k, RADIUS + 10);
    const sin = Math.sin(angle(k));
    const cos = Math.cos(angle(k));
    // Past the axis's end: left of it on the left half, right on the right, above at the top, below at the bottom.
    const y = cos > 0.2 ? end.y - size.height : cos < -0.2 ? end.y : end.y - size.height / 2;
    elements.push(chartText(`radar-axis-${k}-name`, axis, { x: end.x, y }, { align: Math.abs(sin) < 0.2 ? 'center' : sin > 0 ? 'left' : 'right' }));
  });
  chart.curves.forEach((curve, c) => {
    const colour = paletteAt(CHART_PALETTE, c);
    const points = chart.axes.map((_, k) => at(k, reach(Number.isFinite(curve.values[k]) ? curve.values[k]! : chart.min)));
    elements.push({ ...chartLine(`radar-curve-${c}`, [...points, points[0]!], { stroke: colour, fill: colour, strokeWidth: 2 }), opacity: 45 });
  });
  if (chart.showLegend) {
    chart.curves.forEach((curve, c) => {
      const y = c * 26;
      const left = 2 * RADIUS + 90;
      elements.push(chartShape(`radar-key-${c}`, 'rectangle', { x: left, y, width: 18, height: 18 }, { fill: paletteAt(CHART_PALETTE, c), stroke: paletteAt(CHART_PALETTE, c) }));
      elements.push(chartText(`radar-key-${c}-label`, curve.label, { x: left + 26, y }));
    });
  }
  const short = chart.curves.filter((curve) => curve.values.length !== n);
  return { elements, warnings: short.map((curve) => `curve "${curve.label}" has ${curve.values.length} values for ${n} axes: the missing ones drawn at the minimum`) };
}
