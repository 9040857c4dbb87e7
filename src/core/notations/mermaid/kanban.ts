/** Mermaid `kanban` → the kanban board (graph/chart.ts), from Mermaid's kanban database: columns with their cards and each card's ticket, assignee and priority. */
import type { KanbanCard, KanbanChart } from '../../graph/chart.js';
import type { GraphIR } from '../../graph/types.js';
import { chartGraph, chartLabel } from './chart.js';

interface KanbanNode {
  id: string;
  label: string;
  isGroup: boolean;
  parentId?: string;
  ticket?: string;
  assigned?: string;
  priority?: string;
}

export interface KanbanDb {
  getData(): { nodes: KanbanNode[] };
}

export function kanbanToGraph(db: KanbanDb): GraphIR {
  const nodes = db.getData().nodes;
  const columns = nodes
    .filter((node) => node.isGroup)
    .map((column) => ({
      label: chartLabel(column.label),
      cards: nodes
        .filter((node) => !node.isGroup && node.parentId === column.id)
        .map((node): KanbanCard => ({
          label: chartLabel(node.label),
          ...(node.ticket !== undefined && { ticket: String(node.ticket) }),
          ...(node.assigned !== undefined && { assigned: String(node.assigned) }),
          ...(node.priority !== undefined && { priority: String(node.priority) }),
        })),
    }));
  const chart: KanbanChart = { family: 'kanban', columns };
  return chartGraph(chart, {});
}
