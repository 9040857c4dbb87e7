/**
 * Label layers drawn as Graphviz draws them. ELK gives an edge's middle label a layer of its own and keeps the full
 * space between layers on each side of it (SPACING.betweenLayers, 70 px), so one label "80" costs 166 px along the flow
 * where Graphviz, which halves its rank gap round label ranks, takes 104 (issue 27: our canvas larger than Graphviz's).
 * After ELK, each band across the whole drawing that holds middle labels and no node or container border is shortened:
 * a label keeps half the layer gap to a node and room for a hub's bus to a bend, bends keep their spacing, and
 * everything beyond the band moves back by what was taken out. Only coordinates along the flow change, and none changes
 * order, so right angles, crossings and sides stay as ELK drew them.
 */
import type { Direction } from '../graph/types.js';
import { SPACING } from './drawing-rules.js';
import { LABEL_ROOM } from './hubs.js';
import type { Box, LaidOutGraph, Point } from './types.js';

/** What sits along the flow axis: boxes (nodes, borders and titles of containers, labels) and the bends of edges. */
type Item = { start: number; end: number; kind: 'solid' | 'label' | 'bend' };

/** The least distance kept between two neighbours along the flow, by kind. */
function leastGap(a: Item['kind'], b: Item['kind']): number {
  if (a === 'solid' && b === 'solid') return SPACING.betweenLayers;
  if (a === 'bend' && b === 'bend') return SPACING.edgeEdge;
  if (a === 'label' && b === 'label') return SPACING.edgeEdge;
  // A label and a bend: as far as the bus of a hub's edges keeps from labels (hubs.ts), so the bus can still form and
  // no label reads as naming it.
  if (a === 'bend' || b === 'bend') return a === 'solid' || b === 'solid' ? SPACING.edgeNode : LABEL_ROOM;
  // A label and a node: half the gap between layers, as Graphviz leaves round a label rank.
  return SPACING.betweenLayers / 2;
}

/** Shortens the bands of middle labels along the flow of `direction` (see above). */
export function compactLabelLayers(laid: LaidOutGraph, direction: Direction): LaidOutGraph {
  const across = direction === 'DOWN' || direction === 'UP';
  const along = (box: Box): [number, number] => (across ? [box.y, box.y + box.height] : [box.x, box.x + box.width]);
  const centre = laid.edges.flatMap((edge) => edge.labels.filter((label) => label.placement === 'center'));
  if (centre.length === 0) return laid;

  const items: Item[] = [];
  const solid = (box: Box) => items.push({ start: along(box)[0], end: along(box)[1], kind: 'solid' });
  laid.nodes.forEach(solid);
  for (const group of laid.groups) {
    const [start, end] = along(group);
    // A container's borders and padding, and its title: what stays of its length along the flow.
    const pad = SPACING.containerPadding;
    items.push({ start, end: start + pad, kind: 'solid' }, { start: end - pad, end, kind: 'solid' });
    solid(group.title);
  }
  for (const edge of laid.edges) {
    for (const label of edge.labels) items.push({ start: along(label)[0], end: along(label)[1], kind: label.placement === 'center' ? 'label' : 'solid' });
    for (let i = 1; i < edge.points.length; i++) {
      const [a, b] = [edge.points[i - 1]!, edge.points[i]!];
      // A segment across the flow is a bend's line: it keeps its place among the others.
      const [p, q] = across ? [a.y, b.y] : [a.x, b.x];
      if (Math.abs(p - q) < 0.5) items.push({ start: p, end: p, kind: 'bend' });
    }
  }
  items.sort((a, b) => a.start - b.start || a.end - b.end);

  // Free stretches between neighbours, shortened to their least gap when they lie in a band that holds a label and no
  // solid box: [from, to, new length].
  const cuts: [number, number, number][] = [];
  let reach = -Infinity;
  let last: Item | undefined;
  /** The items since the last solid one, and whether a label is among them. */
  let band: [number, number, number][] = [];
  let labelled = false;
  for (const item of items) {
    if (last !== undefined && item.start > reach) band.push([reach, item.start, leastGap(last.kind, item.kind)]);
    if (item.kind === 'solid' && item.start > reach) {
      if (labelled) cuts.push(...band.filter(([from, to, least]) => to - from > least));
      band = [];
      labelled = false;
    }
    labelled ||= item.kind === 'label';
    if (item.end >= reach) {
      reach = item.end;
      last = item;
    }
  }
  if (cuts.length === 0) return laid;

  /** A coordinate along the flow, moved back by every cut before it (inside a cut, by the share already cut). */
  const map = (value: number) => {
    let moved = value;
    for (const [from, to, least] of cuts) {
      if (value >= to) moved -= to - from - least;
      else if (value > from) moved -= ((value - from) / (to - from)) * (to - from - least);
    }
    return moved;
  };
  const box = <T extends Box>(item: T): T => {
    if (across) {
      const y = map(item.y);
      return { ...item, y, height: map(item.y + item.height) - y };
    }
    const x = map(item.x);
    return { ...item, x, width: map(item.x + item.width) - x };
  };
  const point = (p: Point): Point => (across ? { x: p.x, y: map(p.y) } : { x: map(p.x), y: p.y });
  return {
    ...laid,
    nodes: laid.nodes.map(box),
    groups: laid.groups.map((group) => ({ ...box(group), title: box(group.title) })),
    edges: laid.edges.map((edge) => ({ ...edge, points: edge.points.map(point), labels: edge.labels.map(box) })),
    ...(across ? { height: map(laid.height) } : { width: map(laid.width) }),
  };
}
