/**
 * A quadrant chart as Mermaid draws it: a square split in four shaded quadrants, each named at its top, the axes'
 * ends written under the square and up its left side, and every point at its place with its name under it.
 */
import type { QuadrantChart } from '../../graph/chart.js';
import { CHART_FONT, CHART_LINE, chartLine, chartShape, chartText, textSize, wrappedLabel, type ChartDrawing } from './elements.js';

const SIDE = 480;
const RADIUS = 6;
/** quadrant-1 (top right) the deepest, as Mermaid shades them. */
const FILLS = ['#d9ddff', '#e5e8ff', '#eef0ff', '#f6f7ff'] as const;
const POINT = '#4c5bd4';

export function drawQuadrant(chart: QuadrantChart): ChartDrawing {
  const elements: ChartDrawing['elements'] = [];
  const half = SIDE / 2;
  // Top right, top left, bottom left, bottom right.
  const corners = [
    { x: half, y: 0 },
    { x: 0, y: 0 },
    { x: 0, y: half },
    { x: half, y: half },
  ];
  corners.forEach((corner, i) => {
    elements.push(chartShape(`quadrant-${i + 1}`, 'rectangle', { ...corner, width: half, height: half }, { fill: FILLS[i]!, stroke: '#bac1ff', role: 'generic' }));
    const name = chart.quadrants[i]!;
    if (name !== '') {
      const label = wrappedLabel(name, half - 16, CHART_FONT.heading);
      elements.push(chartText(`quadrant-${i + 1}-name`, label.text, { x: corner.x + half / 2, y: corner.y + 8 }, { fontSize: CHART_FONT.heading, align: 'center' }));
    }
  });
  elements.push(chartLine('quadrant-frame', [{ x: 0, y: 0 }, { x: SIDE, y: 0 }, { x: SIDE, y: SIDE }, { x: 0, y: SIDE }, { x: 0, y: 0 }], { stroke: '#9aa3f5', strokeWidth: 2 }));

  // The axes' ends: under the square, each centred on its half; up the left side, turned, bottom then top.
  chart.xAxis.forEach((text, i) => {
    if (text !== '') elements.push(chartText(`quadrant-x-${i}`, text, { x: (i + 0.5) * half, y: SIDE + 8 }, { fontSize: CHART_FONT.label, align: 'center' }));
  });
  chart.yAxis.forEach((text, i) => {
    if (text === '') return;
    const size = textSize(text, CHART_FONT.label);
    const middle = SIDE - (i + 0.5) * half;
    elements.push(chartText(`quadrant-y-${i}`, text, { x: -8 - size.height / 2, y: middle - size.height / 2 }, { fontSize: CHART_FONT.label, align: 'center', angle: -Math.PI / 2 }));
  });

  chart.points.forEach((point, i) => {
    const r = point.radius ?? RADIUS;
    const centre = { x: point.x * SIDE, y: (1 - point.y) * SIDE };
    elements.push(chartShape(`quadrant-point-${i}`, 'ellipse', { x: centre.x - r, y: centre.y - r, width: 2 * r, height: 2 * r }, { fill: point.color ?? POINT, stroke: point.color ?? POINT, role: 'generic' }));
    elements.push(chartText(`quadrant-point-${i}-name`, point.label, { x: centre.x, y: centre.y + r + 3 }, { fontSize: CHART_FONT.small, align: 'center', color: CHART_LINE }));
  });
  return { elements, warnings: [] };
}
