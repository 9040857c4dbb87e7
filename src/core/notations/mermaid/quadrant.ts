/**
 * Mermaid `quadrantChart` → the quadrant chart (graph/chart.ts), from Mermaid's quadrant database. It hands out its
 * drawing (points in pixels over the four quadrant boxes), not the values written: each point's value is read back
 * from its place in the quadrants' square, which is exact, as Mermaid places points linearly in it.
 */
import type { QuadrantChart } from '../../graph/chart.js';
import type { GraphIR } from '../../graph/types.js';
import { chartGraph, chartLabel, type TitledDb } from './chart.js';

interface Placed {
  x: number;
  y: number;
}
interface QuadrantText {
  text: string;
  x: number;
  y: number;
  rotation: number;
}

export interface QuadrantDb extends TitledDb {
  getQuadrantData(): {
    points: (Placed & { radius: number; fill: string; text: QuadrantText })[];
    quadrants: (Placed & { width: number; height: number; text: QuadrantText })[];
    axisLabels: QuadrantText[];
  };
}

const HEX = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;
/** Mermaid's default point radius; another is the author's `radius:`. */
const DEFAULT_RADIUS = 5;

export function quadrantToGraph(db: QuadrantDb): GraphIR {
  const data = db.getQuadrantData();
  const left = Math.min(...data.quadrants.map((q) => q.x));
  const top = Math.min(...data.quadrants.map((q) => q.y));
  const width = Math.max(...data.quadrants.map((q) => q.x + q.width)) - left;
  const height = Math.max(...data.quadrants.map((q) => q.y + q.height)) - top;
  // Axis labels come as the x axis's left and right, then the y axis's bottom and top, each pair only when written.
  const horizontal = data.axisLabels.filter((label) => label.rotation === 0).sort((a, b) => a.x - b.x);
  const vertical = data.axisLabels.filter((label) => label.rotation !== 0).sort((a, b) => b.y - a.y);
  const text = (label: QuadrantText | undefined) => chartLabel(label?.text ?? '');
  const quadrant = (i: number) => text(data.quadrants[i]?.text);
  const round = (value: number) => Math.round(value * 1000) / 1000;
  const chart: QuadrantChart = {
    family: 'quadrant',
    xAxis: [text(horizontal[0]), text(horizontal[1])],
    yAxis: [text(vertical[0]), text(vertical[1])],
    quadrants: [quadrant(0), quadrant(1), quadrant(2), quadrant(3)],
    points: data.points
      .map((point) => ({
        label: chartLabel(point.text.text),
        x: round((point.x - left) / width),
        y: round(1 - (point.y - top) / height),
        ...(HEX.test(point.fill) && { color: point.fill }),
        ...(point.radius !== DEFAULT_RADIUS && { radius: point.radius }),
      }))
      // Mermaid lists points last written first.
      .reverse(),
  };
  return chartGraph(chart, db);
}
