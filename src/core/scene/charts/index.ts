/**
 * Draws a chart GraphIR (`layout: 'chart'`) in its family's fixed layout, the diagram's title above it. Elements are
 * in the input form, like `graphToScene`'s; no graph layout runs.
 */
import { chartGroup } from '../../graph/chart.js';
import type { GraphIR } from '../../graph/types.js';
import { DIAGRAM_TITLE_ID, withDiagramTitle } from '../from-graph.js';
import type { ChartDrawing } from './elements.js';
import { drawGantt } from './gantt.js';
import { drawGitGraph } from './git-graph.js';
import { drawJourney } from './journey.js';
import { drawKanban } from './kanban.js';
import { drawPacket } from './packet.js';
import { drawPie } from './pie.js';
import { drawQuadrant } from './quadrant.js';
import { drawRadar } from './radar.js';
import { drawSankey } from './sankey.js';
import { drawTimeline } from './timeline.js';
import { drawTreemap } from './treemap.js';
import { drawXy } from './xy.js';

export function drawChart(graph: GraphIR): ChartDrawing {
  const chart = graph.chart;
  if (chart === undefined) return { elements: [], warnings: ['the chart has no data to draw'] };
  const drawn = drawFamily(chart);
  const group = chartGroup(chart.family);
  const elements = drawn.elements.map((element) => ({ ...element, groupIds: [...(element.groupIds ?? []), group] }));
  return { elements: graph.title === undefined ? elements : withDiagramTitle(elements, graph.title, DIAGRAM_TITLE_ID), warnings: drawn.warnings };
}

function drawFamily(chart: NonNullable<GraphIR['chart']>): ChartDrawing {
  switch (chart.family) {
    case 'gitGraph':
      return drawGitGraph(chart);
    case 'gantt':
      return drawGantt(chart);
    case 'timeline':
      return drawTimeline(chart);
    case 'pie':
      return drawPie(chart);
    case 'journey':
      return drawJourney(chart);
    case 'quadrant':
      return drawQuadrant(chart);
    case 'xy':
      return drawXy(chart);
    case 'kanban':
      return drawKanban(chart);
    case 'sankey':
      return drawSankey(chart);
    case 'packet':
      return drawPacket(chart);
    case 'treemap':
      return drawTreemap(chart);
    case 'radar':
      return drawRadar(chart);
  }
}
