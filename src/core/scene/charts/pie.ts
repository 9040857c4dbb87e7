/**
 * A pie chart as Mermaid draws it: slices clockwise from twelve o'clock in the order written, each a filled closed
 * line (the circle's arc as short chords) with its share in per cent inside, and a legend beside it naming every
 * slice (with its value under `showData`). Like Mermaid, a slice under 1 % is left out of the pie, kept in the legend.
 */
import type { PieChart } from '../../graph/chart.js';
import { CHART_FONT, CHART_PALETTE, chartLine, chartShape, chartText, inkOn, paletteAt, textSize, type ChartDrawing, type Point } from './elements.js';

const LAYOUT = {
  radius: 160,
  /** Chords per full turn: fine enough that the rim reads as a circle. */
  chords: 144,
  /** Where the percentages sit, as a share of the radius (Mermaid's textPosition). */
  textAt: 0.72,
  legendGap: 36,
  swatch: 18,
  legendRow: 26,
} as const;

export function drawPie(chart: PieChart): ChartDrawing {
  const elements: ChartDrawing['elements'] = [];
  const warnings: string[] = [];
  const sum = chart.slices.reduce((total, slice) => total + Math.max(0, slice.value), 0);
  if (sum <= 0) return { elements, warnings: ['the pie chart has no slice with a value above 0'] };
  const r = LAYOUT.radius;
  const centre = { x: r, y: r };
  const pointAt = (angle: number, radius: number = r): Point => ({ x: centre.x + radius * Math.sin(angle), y: centre.y - radius * Math.cos(angle) });
  const colour = (i: number) => paletteAt(CHART_PALETTE, i);
  const drawn = chart.slices.map((slice, i) => ({ ...slice, i })).filter((slice) => (slice.value / sum) * 100 >= 1);

  let angle = 0;
  for (const slice of drawn) {
    const share = slice.value / sum;
    const sweep = share * 2 * Math.PI;
    const steps = Math.max(1, Math.ceil((sweep / (2 * Math.PI)) * LAYOUT.chords));
    const rim = Array.from({ length: steps + 1 }, (_, k) => pointAt(angle + (sweep * k) / steps));
    // A whole circle needs no centre point: its rim closes on itself.
    const outline = share >= 0.9999 ? [...rim.slice(0, -1), rim[0]!] : [centre, ...rim, centre];
    elements.push(chartLine(`pie-slice-${slice.i}`, outline, { stroke: '#ffffff', fill: colour(slice.i), strokeWidth: 2 }));
    const percent = `${(share * 100).toFixed(0)}%`;
    const size = textSize(percent, CHART_FONT.label);
    const at = pointAt(angle + sweep / 2, share >= 0.9999 ? 0 : r * LAYOUT.textAt);
    elements.push(chartText(`pie-share-${slice.i}`, percent, { x: at.x, y: at.y - size.height / 2 }, { align: 'center', color: inkOn(colour(slice.i)) }));
    angle += sweep;
  }
  const dropped = chart.slices.length - drawn.length;
  if (dropped > 0) warnings.push(`${dropped} slice${dropped === 1 ? '' : 's'} under 1 % left out of the pie (as Mermaid does), kept in the legend`);

  const left = 2 * r + LAYOUT.legendGap;
  const top = centre.y - (chart.slices.length * LAYOUT.legendRow) / 2;
  chart.slices.forEach((slice, i) => {
    const y = top + i * LAYOUT.legendRow;
    elements.push(chartShape(`pie-key-${i}`, 'rectangle', { x: left, y, width: LAYOUT.swatch, height: LAYOUT.swatch }, { fill: colour(i), stroke: colour(i), role: 'generic' }));
    const text = chart.showData ? `${slice.label} [${slice.value}]` : slice.label;
    const size = textSize(text, CHART_FONT.label);
    elements.push(chartText(`pie-key-${i}-label`, text, { x: left + LAYOUT.swatch + 8, y: y + LAYOUT.swatch / 2 - size.height / 2 }));
  });
  return { elements, warnings };
}
