/**
 * A treemap as Mermaid draws it (d3's squarified treemap): each item a rectangle with an area in proportion to its
 * value, a section's items inside its box under its name band, leaves named with their values, in each top section's
 * colour. Rectangles are cut as squarify does: rows laid along the shorter side while their worst aspect improves.
 */
import type { TreemapChart, TreemapItem } from '../../graph/chart.js';
import { CHART_FONT, CHART_PALE, CHART_PALETTE, chartShape, paletteAt, textSize, type Box, type ChartDrawing } from './elements.js';

// A section's name band is tall enough for its 14 px name with the padding every labelled shape keeps.
const LAYOUT = { width: 800, height: 500, header: 38, padding: 4 } as const;

const valueOf = (item: TreemapItem) => Math.max(0, item.value ?? 0);

/** Squarified placement of `items` (value > 0) in `area`. */
function squarify(items: TreemapItem[], area: Box): Map<TreemapItem, Box> {
  const placed = new Map<TreemapItem, Box>();
  const total = items.reduce((sum, item) => sum + valueOf(item), 0);
  if (total <= 0 || area.width <= 0 || area.height <= 0) return placed;
  const scale = (area.width * area.height) / total;
  let rest = { ...area };
  let queue = [...items].filter((item) => valueOf(item) > 0).sort((a, b) => valueOf(b) - valueOf(a));
  const worst = (row: TreemapItem[], side: number) => {
    const sum = row.reduce((s, item) => s + valueOf(item) * scale, 0);
    return Math.max(...row.map((item) => Math.max((side * side * valueOf(item) * scale) / (sum * sum), (sum * sum) / (side * side * valueOf(item) * scale))));
  };
  while (queue.length > 0) {
    const side = Math.min(rest.width, rest.height);
    const row = [queue[0]!];
    let k = 1;
    while (k < queue.length && worst([...row, queue[k]!], side) <= worst(row, side)) row.push(queue[k++]!);
    queue = queue.slice(k);
    const sum = row.reduce((s, item) => s + valueOf(item) * scale, 0);
    const thickness = sum / side;
    let along = 0;
    for (const item of row) {
      const length = (valueOf(item) * scale) / thickness;
      placed.set(item, rest.width >= rest.height ? { x: rest.x, y: rest.y + along, width: thickness, height: length } : { x: rest.x + along, y: rest.y, width: length, height: thickness });
      along += length;
    }
    rest = rest.width >= rest.height ? { x: rest.x + thickness, y: rest.y, width: rest.width - thickness, height: rest.height } : { x: rest.x, y: rest.y + thickness, width: rest.width, height: rest.height - thickness };
  }
  return placed;
}

const formatValue = (value: number) => (Math.abs(value) >= 10_000 ? value.toLocaleString('en-US') : String(Number(value.toPrecision(6))));

export function drawTreemap(chart: TreemapChart): ChartDrawing {
  const elements: ChartDrawing['elements'] = [];
  const warnings: string[] = [];
  let counter = 0;
  const draw = (items: TreemapItem[], area: Box, colour: number | undefined, depth: number) => {
    const placed = squarify(items, area);
    items.forEach((item, i) => {
      const box = placed.get(item);
      if (box === undefined) return;
      const hue = colour ?? i;
      const id = `treemap-item-${counter++}`;
      if (item.children.length > 0) {
        elements.push(chartShape(`${id}`, 'rectangle', box, { fill: paletteAt(CHART_PALE, hue), stroke: paletteAt(CHART_PALETTE, hue), role: 'generic' }));
        const name = textSize(item.label, CHART_FONT.label);
        if (name.width + 8 <= box.width && box.height > LAYOUT.header) {
          elements.push({ ...chartShape(`${id}-name`, 'rectangle', { x: box.x, y: box.y, width: box.width, height: LAYOUT.header }, { fill: paletteAt(CHART_PALETTE, hue), text: item.label, fontSize: CHART_FONT.label }), labelOf: id } as ChartDrawing['elements'][number]);
        }
        const inner = { x: box.x + LAYOUT.padding, y: box.y + LAYOUT.header + LAYOUT.padding, width: box.width - 2 * LAYOUT.padding, height: box.height - LAYOUT.header - 2 * LAYOUT.padding };
        // One section over everything (a "Products" root) passes no colour down: its sections get one each.
        draw(item.children, inner, items.length === 1 && depth === 0 ? undefined : hue, depth + 1);
        return;
      }
      const text = `${item.label}\n${formatValue(valueOf(item))}`;
      const size = textSize(text, CHART_FONT.small);
      const fits = size.width + 2 * 16 - 2 <= box.width && size.height + 2 * 10 - 2 <= box.height;
      if (!fits) warnings.push(`"${item.label}" (${formatValue(valueOf(item))}) is too small a share to carry its name: drawn without it`);
      // A leaf's border carries its text's colour (the schema draws a shape's label in its stroke): dark on the pale fill.
      elements.push(chartShape(id, 'rectangle', box, { fill: paletteAt(CHART_PALE, hue), ...(fits && { text, fontSize: CHART_FONT.small }), role: 'generic' }));
    });
  };
  draw(chart.items, { x: 0, y: 0, width: LAYOUT.width, height: LAYOUT.height }, undefined, 0);
  return { elements, warnings };
}
