/**
 * A packet diagram as Mermaid draws it: a row per word of `bitsPerRow` bits, each field a box across its bits with
 * its name, and the numbers of its first and last bit over it.
 */
import type { PacketChart } from '../../graph/chart.js';
import { CHART_FONT, CHART_LINE, CHART_PALE, chartShape, chartText, paletteAt, textSize, wrappedLabel, type ChartDrawing } from './elements.js';

const LAYOUT = { row: 48, gap: 18, width: 832 } as const;

export function drawPacket(chart: PacketChart): ChartDrawing {
  const elements: ChartDrawing['elements'] = [];
  const bit = LAYOUT.width / chart.bitsPerRow;
  chart.rows.forEach((row, r) => {
    const top = r * (LAYOUT.row + LAYOUT.gap) + LAYOUT.gap;
    row.forEach((field, f) => {
      const id = `packet-field-${r}-${f}`;
      const x = (field.start % chart.bitsPerRow) * bit;
      const width = (field.end - field.start + 1) * bit;
      const box = { x, y: top, width, height: LAYOUT.row };
      const label = wrappedLabel(field.label, width, CHART_FONT.small);
      const fill = paletteAt(CHART_PALE, r * row.length + f);
      // A field too narrow for its name's padding (a one-bit flag) has the name written across it, unpadded.
      if (label.height <= LAYOUT.row && textSize(label.text, CHART_FONT.small).width + 4 <= width - 30) {
        elements.push(chartShape(id, 'rectangle', box, { fill, stroke: CHART_LINE, text: label.text, fontSize: CHART_FONT.small, role: 'generic' }));
      } else {
        elements.push(chartShape(id, 'rectangle', box, { fill, stroke: CHART_LINE, role: 'generic' }));
        const size = textSize(field.label, CHART_FONT.small);
        elements.push(chartText(`${id}-name`, field.label, { x: x + width / 2, y: top + LAYOUT.row / 2 - size.height / 2 }, { fontSize: CHART_FONT.small, align: 'center', ...(size.width > width && { angle: -Math.PI / 2 }) }));
      }
      const numbers = field.start === field.end ? [String(field.start)] : [String(field.start), String(field.end)];
      elements.push(chartText(`${id}-start`, numbers[0]!, { x: x + 2, y: top - 16 }, { fontSize: CHART_FONT.small, color: CHART_LINE }));
      if (numbers[1] !== undefined) elements.push(chartText(`${id}-end`, numbers[1], { x: x + width - 2, y: top - 16 }, { fontSize: CHART_FONT.small, align: 'right', color: CHART_LINE }));
    });
  });
  return { elements, warnings: [] };
}
