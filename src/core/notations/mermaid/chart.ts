/** A chart read from a Mermaid database as a GraphIR: no nodes or edges, the chart's data, its title. */
import type { Chart } from '../../graph/chart.js';
import type { GraphIR } from '../../graph/types.js';
import { decodeMermaid } from './parser.js';

/** Every chart database Mermaid has keeps the title written as `title …` in the diagram. */
export interface TitledDb {
  getDiagramTitle?(): string | undefined;
}

export function chartGraph(chart: Chart, db: TitledDb, warnings: string[] = []): GraphIR {
  const title = decodeMermaid(db.getDiagramTitle?.() ?? '').trim();
  return { layout: 'chart', direction: 'RIGHT', forcedDirection: true, nodes: [], edges: [], groups: [], warnings, chart, ...(title !== '' && { title }) };
}

/** A label as Mermaid shows it: entities and `<br>` decoded, the spaces before a `:` dropped. */
export const chartLabel = (text: string): string => decodeMermaid(text).trim();
