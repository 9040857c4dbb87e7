/**
 * A sankey chart as Mermaid (d3-sankey, justified) draws it: nodes in columns by how far they are from a source, the
 * sinks in the last column, each node as tall as the larger of what flows in and out, and every flow a band as wide
 * as its value from its source's right side to its target's left, in its source's colour. Names stand beside their
 * nodes, inward from the outer columns, with the node's total unless `showValues` is off.
 */
import type { SankeyChart } from '../../graph/chart.js';
import { CHART_FONT, CHART_PALETTE, chartLine, chartShape, chartText, paletteAt, textSize, type ChartDrawing, type Point } from './elements.js';

const LAYOUT = { width: 760, minHeight: 400, nodeWidth: 12, padding: 8, samples: 16 } as const;

/** A band's edge as a cubic curve from `a` to `b`, leaving and arriving level, as d3's sankeyLinkHorizontal. */
function curve(a: Point, b: Point): Point[] {
  const mid = (a.x + b.x) / 2;
  return Array.from({ length: LAYOUT.samples + 1 }, (_, k) => {
    const t = k / LAYOUT.samples;
    const u = 1 - t;
    return { x: u * u * u * a.x + 3 * u * u * t * mid + 3 * u * t * t * mid + t * t * t * b.x, y: (u * u * u + 3 * u * u * t) * a.y + (3 * u * t * t + t * t * t) * b.y };
  });
}

const formatValue = (value: number) => String(Number(value.toPrecision(6)));

export function drawSankey(chart: SankeyChart): ChartDrawing {
  const elements: ChartDrawing['elements'] = [];
  const warnings: string[] = [];
  const links = chart.links.filter((link) => Number.isFinite(link.value) && link.value > 0);
  if (links.length < chart.links.length) warnings.push(`${chart.links.length - links.length} flows with no positive value are not drawn`);
  const outgoing = new Map(chart.nodes.map((node) => [node, links.filter((link) => link.from === node)]));
  const incoming = new Map(chart.nodes.map((node) => [node, links.filter((link) => link.to === node)]));
  // Columns: the longest way from a source (cycles cut off at the node count); sinks justified to the last column.
  const depth = new Map(chart.nodes.map((node) => [node, 0]));
  for (let pass = 0; pass < chart.nodes.length; pass++) {
    let moved = false;
    for (const link of links) {
      if (depth.get(link.to)! < depth.get(link.from)! + 1 && depth.get(link.from)! + 1 < chart.nodes.length) {
        depth.set(link.to, depth.get(link.from)! + 1);
        moved = true;
      }
    }
    if (!moved) break;
  }
  const last = Math.max(0, ...depth.values());
  for (const node of chart.nodes) if (outgoing.get(node)!.length === 0) depth.set(node, last);
  const columns = Array.from({ length: last + 1 }, (_, c) => chart.nodes.filter((node) => depth.get(node) === c));
  const value = (node: string) => Math.max(incoming.get(node)!.reduce((sum, l) => sum + l.value, 0), outgoing.get(node)!.reduce((sum, l) => sum + l.value, 0));
  const scale = Math.min(...columns.filter((column) => column.length > 0).map((column) => (LAYOUT.minHeight - (column.length - 1) * LAYOUT.padding) / column.reduce((sum, node) => sum + value(node), 0)));
  // Each node keeps room for its name beside it: a small flow's node gets a slot as tall as its name, and the chart
  // grows to hold the fullest column, rather than names running into one another.
  const nameOf = (node: string) => (chart.showValues ? `${node}\n${formatValue(value(node))}` : node);
  const slot = (node: string) => Math.max(value(node) * scale, textSize(nameOf(node), CHART_FONT.small).height);
  const height = Math.max(LAYOUT.minHeight, ...columns.map((column) => column.reduce((sum, node) => sum + slot(node), 0) + (column.length - 1) * LAYOUT.padding));
  const box = new Map<string, { x: number; y: number; height: number }>();
  columns.forEach((column, c) => {
    const x = last === 0 ? 0 : (c * (LAYOUT.width - LAYOUT.nodeWidth)) / last;
    const used = column.reduce((sum, node) => sum + slot(node), 0) + (column.length - 1) * LAYOUT.padding;
    let y = (height - used) / 2;
    for (const node of column) {
      const own = Math.max(1, value(node) * scale);
      box.set(node, { x, y: y + (slot(node) - own) / 2, height: own });
      y += slot(node) + LAYOUT.padding;
    }
  });
  const colour = (node: string) => paletteAt(CHART_PALETTE, chart.nodes.indexOf(node));

  // Bands first, under the nodes: each end stacked in the order of the other ends' heights, as d3-sankey sorts them.
  const outAt = new Map(chart.nodes.map((node) => [node, box.get(node)!.y]));
  const inAt = new Map(chart.nodes.map((node) => [node, box.get(node)!.y]));
  const ordered = [...links].sort((a, b) => box.get(a.to)!.y - box.get(b.to)!.y || box.get(a.from)!.y - box.get(b.from)!.y);
  const bands = new Map<(typeof links)[number], { top0: number; top1: number }>();
  for (const link of ordered) {
    bands.set(link, { top0: outAt.get(link.from)!, top1: 0 });
    outAt.set(link.from, outAt.get(link.from)! + link.value * scale);
  }
  for (const link of [...links].sort((a, b) => box.get(a.from)!.y - box.get(b.from)!.y)) {
    bands.get(link)!.top1 = inAt.get(link.to)!;
    inAt.set(link.to, inAt.get(link.to)! + link.value * scale);
  }
  links.forEach((link, i) => {
    const from = box.get(link.from)!;
    const to = box.get(link.to)!;
    const { top0, top1 } = bands.get(link)!;
    const w = link.value * scale;
    const x0 = from.x + LAYOUT.nodeWidth;
    const x1 = to.x;
    const upper = curve({ x: x0, y: top0 }, { x: x1, y: top1 });
    const lower = curve({ x: x1, y: top1 + w }, { x: x0, y: top0 + w });
    const outline = [...upper, ...lower, upper[0]!];
    elements.push({ ...chartLine(`sankey-flow-${i}`, outline, { stroke: colour(link.from), fill: colour(link.from), strokeWidth: 1 }), opacity: 40 });
  });

  chart.nodes.forEach((node, n) => {
    const at = box.get(node)!;
    elements.push(chartShape(`sankey-node-${n}`, 'rectangle', { x: at.x, y: at.y, width: LAYOUT.nodeWidth, height: at.height }, { fill: colour(node), stroke: colour(node), role: 'generic' }));
    const text = nameOf(node);
    const size = textSize(text, CHART_FONT.small);
    // Names stand right of their nodes, but in the last column, where they stand left: d3 turns them at the middle,
    // which runs a middle column's names into the next one's.
    const inward = depth.get(node)! < last;
    elements.push(chartText(`sankey-node-${n}-name`, text, { x: inward ? at.x + LAYOUT.nodeWidth + 6 : at.x - 6, y: at.y + at.height / 2 - size.height / 2 }, { fontSize: CHART_FONT.small, align: inward ? 'left' : 'right' }));
  });
  return { elements, warnings };
}
