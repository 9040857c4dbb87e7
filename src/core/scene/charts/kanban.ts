/**
 * A kanban board as Mermaid draws it: a column per section, its title at the top, its cards stacked under it, each
 * card's text wrapped, its ticket and assignee under the text, its priority as a coloured strip down its left edge.
 */
import type { KanbanCard, KanbanChart } from '../../graph/chart.js';
import { dictionary } from '../../dictionary.js';
import { CHART_FONT, CHART_LINE, chartShape, chartText, textSize, wrappedLabel, type ChartDrawing } from './elements.js';

const LAYOUT = { column: 176, gap: 12, padding: 10, cardGap: 8, strip: 5, titleHeight: 40 } as const;

/** Mermaid's priority colours. */
const PRIORITY: Record<string, string> = dictionary({ 'very high': '#e03131', high: '#f08c00', low: '#1c7ed6', 'very low': '#74c0fc' });

export function drawKanban(chart: KanbanChart): ChartDrawing {
  const elements: ChartDrawing['elements'] = [];
  const warnings: string[] = [];
  const cardWidth = LAYOUT.column - 2 * LAYOUT.padding;
  const cards = chart.columns.map((column) => column.cards.map((card) => ({ card, label: wrappedLabel(cardText(card), cardWidth) })));
  const depth = Math.max(0, ...cards.map((list) => list.reduce((sum, { label }) => sum + label.height + LAYOUT.cardGap, 0)));
  const height = LAYOUT.titleHeight + depth + LAYOUT.padding;
  chart.columns.forEach((column, c) => {
    const x = c * (LAYOUT.column + LAYOUT.gap);
    const id = `kanban-column-${c}`;
    elements.push(chartShape(id, 'rectangle', { x, y: 0, width: LAYOUT.column, height }, { fill: '#f1f3f5', stroke: '#dee2e6', corner: 'rounded', role: 'generic' }));
    const title = wrappedLabel(column.label, LAYOUT.column, CHART_FONT.heading);
    const size = textSize(title.text, CHART_FONT.heading);
    elements.push({ ...chartText(`${id}-title`, title.text, { x: x + LAYOUT.column / 2, y: Math.max(4, (LAYOUT.titleHeight - size.height) / 2) }, { fontSize: CHART_FONT.heading, align: 'center' }), labelOf: id });
    let y = LAYOUT.titleHeight;
    cards[c]!.forEach(({ card, label }, k) => {
      const box = { x: x + LAYOUT.padding, y, width: cardWidth, height: label.height };
      elements.push(chartShape(`${id}-card-${k}`, 'rectangle', box, { fill: '#ffffff', stroke: CHART_LINE, text: label.text, role: 'note' }));
      if (card.priority !== undefined) {
        const colour = PRIORITY[card.priority.toLowerCase()];
        if (colour === undefined) warnings.push(`card "${card.label}": priority "${card.priority}" is none of Very High, High, Low, Very Low: no strip drawn`);
        else elements.push(chartShape(`${id}-card-${k}-priority`, 'rectangle', { x: box.x, y: box.y, width: LAYOUT.strip, height: box.height }, { fill: colour, stroke: colour }));
      }
      y += label.height + LAYOUT.cardGap;
    });
  });
  return { elements, warnings };
}

/** The card's text, its ticket and assignee on a last line of their own. */
function cardText(card: KanbanCard): string {
  const meta = [card.ticket, card.assigned === undefined ? undefined : `@${card.assigned}`].filter((part) => part !== undefined && part !== '');
  return meta.length === 0 ? card.label : `${card.label}\n${meta.join('  ')}`;
}
