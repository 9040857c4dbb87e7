/**
 * The Graphviz engine: `dot` (its WASM build) lays out the graph and its JSON output is read back as a LaidOutGraph,
 * edges as the points of Graphviz's splines. DOT input is handed over as the author wrote it (GraphIR.dot), so every
 * layout attribute is honoured; our measured sizes are injected so that boxes fit our fonts, not Graphviz's guesses.
 * Pure: the WASM module is loaded once and does no I/O.
 */
import { Graphviz, type Format } from '@hpcc-js/wasm-graphviz';
import { createElement, parse, stringify, type AttributeASTNode, type ClusterStatementASTNode, type GraphASTNode } from '@ts-graphviz/ast';
import type { GraphIR } from '../graph/types.js';
import { firstCrossing, outlineOf } from '../scene/binding-geometry.js';
import { CONTAINER_MIN_WIDTH, CROWDED_HEADS, FONT, SPACING } from './drawing-rules.js';
import { measureText } from './measure.js';
import { sizeNode, wrapText, type NodeBox } from './node-size.js';
import type { Box, LaidOutEdge, LaidOutGraph, LaidOutGroup, LaidOutLabel, LaidOutNode, LayoutEngine, Point } from './types.js';

/** Graphviz works in points (1/72 in) and we in pixels: one point is drawn as one pixel. Sizes are given in inches. */
const POINTS_PER_INCH = 72;

/**
 * Room kept around every node: Graphviz is told each node is this much larger on every side, so its splines keep clear
 * of the outline we draw (a line grazing a node reads as touching it); routes are then carried on to the real outline.
 */
const CLEARANCE = 4;

/** Edge labels wrap past this width, as in the ELK engine. */
const EDGE_LABEL_MAX_WIDTH = 220;

let loaded: Promise<Graphviz> | undefined;
/** The WASM module, compiled on first use and kept (loading takes ~100 ms; a layout then a few ms). */
const graphviz = (): Promise<Graphviz> => (loaded ??= Graphviz.load());

/** Our outlines → the Graphviz shape with the same outline, so Graphviz clips edges where we draw the border. */
const GRAPHVIZ_SHAPES: Partial<Record<NodeBox['shape'], string>> = {
  ellipse: 'ellipse',
  diamond: 'diamond',
  triangle: 'triangle',
  parallelogram: 'parallelogram',
  trapezoid: 'trapezium',
  hexagon: 'hexagon',
  heptagon: 'septagon',
  octagon: 'octagon',
  star: 'star',
  cylinder: 'cylinder',
};

interface GraphvizObject {
  _gvid: number;
  name: string;
  bb?: string;
  pos?: string;
  lp?: string;
}

interface GraphvizEdge {
  _gvid: number;
  tail: number;
  head: number;
  id?: string;
  pos?: string;
  lp?: string;
  head_lp?: string;
  tail_lp?: string;
}

export interface GraphvizJson {
  bb: string;
  _subgraph_cnt?: number;
  objects?: GraphvizObject[];
  edges?: GraphvizEdge[];
}

/** Lays out a layered GraphIR with Graphviz dot; DOT input keeps all of its author's layout attributes. */
export const layoutWithGraphviz: LayoutEngine = async (graph: GraphIR): Promise<LaidOutGraph> => {
  const engine = await graphviz();
  const boxes = new Map(graph.nodes.map((node) => [node.id, sizeNode(node)]));
  const titles = new Map(graph.groups.map((group) => [group.id, wrapText(group.label, CONTAINER_MIN_WIDTH * 2, FONT.containerTitle).join('\n')]));
  const source = sizedSource(graph.dot?.source ?? graphToDot(graph), graph, boxes, titles);
  // json0 is json without the drawing instructions (a third of the output); @hpcc-js's Format type omits it.
  const json = JSON.parse(engine.layout(source, 'json0' as Format, 'dot')) as GraphvizJson;
  return readGraphviz(json, graph, boxes, titles);
};

// ─── Into Graphviz ───────────────────────────────────────────────────────────────────────────────────────────────

const literal = (value: string, quoted: boolean | 'html' = true) => createElement('Literal', { value, quoted }, []);
const attribute = (key: string, value: string, quoted: boolean | 'html' = true): AttributeASTNode => ({ type: 'Attribute', key: literal(key, false), value: literal(value, quoted), children: [] }) as unknown as AttributeASTNode;

/** An HTML-like label Graphviz sizes exactly: an empty table of the given size, in points. */
const sizedLabel = (size: { width: number; height: number }) =>
  `<table fixedsize="true" width="${Math.max(1, Math.ceil(size.width))}" height="${Math.max(1, Math.ceil(size.height))}" border="0" cellborder="0"><tr><td></td></tr></table>`;

const edgeLabelText = (text: string, fontSize: number) => wrapText(text, EDGE_LABEL_MAX_WIDTH, fontSize).join('\n');
const edgeLabelSize = (text: string, fontSize: number) => {
  const size = measureText(text, fontSize, FONT.family);
  return { width: size.width + 2 * SPACING.edgeLabelPadding, height: size.height + 2 * SPACING.edgeLabelPadding };
};

/**
 * The DOT to lay out: every node fixed at our measured size and outline, containers' and edges' labels replaced by
 * boxes of our measured size (so Graphviz reserves the room our fonts need), titles at the top left as we draw them.
 */
function sizedSource(source: string, graph: GraphIR, boxes: ReadonlyMap<string, NodeBox>, titles: ReadonlyMap<string, string>): string {
  const root = parse(source, { startRule: 'Graph' }) as GraphASTNode;
  const labels = new Map(graph.edges.filter((edge) => edge.label).map((edge) => [edge.id, edge]));
  const resize = (statements: ClusterStatementASTNode[]): ClusterStatementASTNode[] =>
    statements.map((statement) => {
      if (statement.type === 'Subgraph') {
        const title = statement.id !== undefined ? titles.get(statement.id.value) : undefined;
        const children = resize(statement.children);
        if (title === undefined) return { ...statement, children };
        const own = children.filter((child) => child.type !== 'Attribute' || !['label', 'labeljust', 'labelloc'].includes(child.key.value));
        const label = title === '' ? [] : [attribute('label', sizedLabel(measureText(title, FONT.containerTitle, FONT.family)), 'html'), attribute('labeljust', 'l'), attribute('labelloc', 't')];
        return { ...statement, children: [...own, ...label] };
      }
      if (statement.type !== 'Edge') return statement;
      const id = statement.children.find((child): child is AttributeASTNode => child.type === 'Attribute' && child.key.value === 'id')?.value.value;
      const edge = id !== undefined ? labels.get(id) : undefined;
      if (edge === undefined) return statement;
      const fontSize = edge.style?.fontSize ?? FONT.edgeLabel;
      const kept = statement.children.filter((child) => child.type !== 'Attribute' || (child.key.value !== 'label' && child.key.value !== 'xlabel'));
      return { ...statement, children: [...kept, attribute('label', sizedLabel(edgeLabelSize(edgeLabelText(edge.label!, fontSize), fontSize)), 'html')] };
    });
  const sized: ClusterStatementASTNode[] = graph.nodes.map((node) => {
    const box = boxes.get(node.id)!;
    return createElement('Node', { id: literal(node.id) }, [
      attribute('shape', GRAPHVIZ_SHAPES[box.shape] ?? 'box'),
      attribute('fixedsize', 'true'),
      attribute('width', String((box.width + 2 * CLEARANCE) / POINTS_PER_INCH)),
      attribute('height', String((box.height + 2 * CLEARANCE) / POINTS_PER_INCH)),
      attribute('label', ''),
      attribute('xlabel', ''),
      attribute('peripheries', '1'),
      attribute('margin', '0'),
    ]) as ClusterStatementASTNode;
  });
  // compound: an edge to a container (lhead/ltail) is clipped at the container's border, where we bind it.
  const children = [...resize(root.children), attribute('compound', 'true'), ...sized];
  return stringify({ ...root, children });
}

/** DOT for a graph from another notation: the same ids, containers as clusters, edges one per statement with their id. */
export function graphToDot(graph: GraphIR): string {
  const quote = (text: string) => `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
  const rankdir = { DOWN: 'TB', UP: 'BT', RIGHT: 'LR', LEFT: 'RL' }[graph.direction];
  const lines = [`digraph {`, `rankdir=${rankdir}`, `nodesep=${SPACING.nodeNode / POINTS_PER_INCH}`, `ranksep=${SPACING.betweenLayers / POINTS_PER_INCH}`];
  const children = new Map<string | undefined, { groups: string[]; nodes: string[] }>();
  const bucket = (parent: string | undefined) => {
    if (!children.has(parent)) children.set(parent, { groups: [], nodes: [] });
    return children.get(parent)!;
  };
  const groupIds = new Set(graph.groups.map((group) => group.id));
  for (const group of graph.groups) bucket(group.parent !== undefined && groupIds.has(group.parent) ? group.parent : undefined).groups.push(group.id);
  for (const node of graph.nodes) bucket(node.parent !== undefined && groupIds.has(node.parent) ? node.parent : undefined).nodes.push(node.id);
  const seen = new Set<string>();
  const write = (parent: string | undefined) => {
    for (const id of bucket(parent).nodes) lines.push(quote(id));
    for (const id of bucket(parent).groups) {
      if (seen.has(id)) continue; // a cycle of parents is drawn once
      seen.add(id);
      lines.push(`subgraph ${quote(`cluster ${id}`)} {`);
      write(id);
      lines.push('}');
    }
  };
  write(undefined);
  // An edge to a container ends at a node inside it and is clipped at the container's border (lhead/ltail).
  const nodeIds = new Set(graph.nodes.map((node) => node.id));
  const groupParent = new Map(graph.groups.map((group) => [group.id, group.parent]));
  const inside = (node: { parent?: string }, group: string) => {
    for (let up = node.parent, depth = 0; up !== undefined && depth <= graph.groups.length; up = groupParent.get(up), depth++) if (up === group) return true;
    return false;
  };
  const endOf = (id: string): { node: string; cluster?: string } | undefined => {
    if (nodeIds.has(id)) return { node: id };
    const member = graph.nodes.find((node) => inside(node, id));
    return member ? { node: member.id, cluster: `cluster ${id}` } : undefined;
  };
  for (const edge of graph.edges) {
    const [from, to] = [endOf(edge.from), endOf(edge.to)];
    if (!from || !to) continue;
    const clip = [from.cluster && `ltail=${quote(from.cluster)}`, to.cluster && `lhead=${quote(to.cluster)}`].filter(Boolean);
    lines.push(`${quote(from.node)} -> ${quote(to.node)} [${[`id=${quote(edge.id)}`, ...clip].join(' ')}]`);
  }
  lines.push('}');
  return lines.join('\n');
}

// ─── Out of Graphviz ─────────────────────────────────────────────────────────────────────────────────────────────

const numbers = (text: string) => text.split(',').map(Number);

/** Graphviz reads `\"` in a quoted id as `"` and keeps other backslashes; the parser keeps ids as written. */
const graphvizName = (id: string) => id.replace(/\\"/g, '"');

/** A curve through sampled points strays from the spline by under a pixel when samples are at most this far apart. */
const SAMPLE_SPACING = 40;

/** Points on a cubic Bézier chain (1 + 3n control points), close enough that the curve drawn through them keeps to Graphviz's. */
export function splinePoints(controls: readonly Point[]): Point[] {
  const points = controls.length > 0 ? [controls[0]!] : [];
  for (let i = 0; i + 3 < controls.length; i += 3) {
    const [p0, p1, p2, p3] = [controls[i]!, controls[i + 1]!, controls[i + 2]!, controls[i + 3]!];
    const at = (t: number) => {
      const u = 1 - t;
      return {
        x: u * u * u * p0.x + 3 * u * u * t * p1.x + 3 * u * t * t * p2.x + t * t * t * p3.x,
        y: u * u * u * p0.y + 3 * u * u * t * p1.y + 3 * u * t * t * p2.y + t * t * t * p3.y,
      };
    };
    // The control polygon is never shorter than the curve.
    const hull = Math.hypot(p1.x - p0.x, p1.y - p0.y) + Math.hypot(p2.x - p1.x, p2.y - p1.y) + Math.hypot(p3.x - p2.x, p3.y - p2.y);
    const pieces = Math.max(2, Math.ceil(hull / SAMPLE_SPACING));
    for (let k = 1; k < pieces; k++) points.push(at(k / pieces));
    points.push(p3);
  }
  return points;
}

/** An edge's `pos`: optional `s,x,y` (tail tip) and `e,x,y` (head tip), then the spline's control points. */
function edgeRoute(pos: string, toScene: (x: number, y: number) => Point): Point[] {
  let start: Point | undefined;
  let end: Point | undefined;
  const controls: Point[] = [];
  for (const token of pos.trim().split(/\s+/)) {
    const parts = token.split(',');
    if (parts[0] === 's') start = toScene(Number(parts[1]), Number(parts[2]));
    else if (parts[0] === 'e') end = toScene(Number(parts[1]), Number(parts[2]));
    else controls.push(toScene(Number(parts[0]), Number(parts[1])));
  }
  const points = splinePoints(controls);
  // Graphviz stops the spline where the arrowhead begins; our arrowhead is drawn at the route's end, on the outline.
  if (start) points.unshift(start);
  if (end) points.push(end);
  return points.filter((point, i) => i === 0 || Math.hypot(point.x - points[i - 1]!.x, point.y - points[i - 1]!.y) > 0.01);
}

export function readGraphviz(json: GraphvizJson, graph: GraphIR, boxes: ReadonlyMap<string, NodeBox>, titles: ReadonlyMap<string, string>): LaidOutGraph {
  const [left = 0, bottom = 0, right = 0, top = 0] = numbers(json.bb);
  const toScene = (x: number, y: number): Point => ({ x: x - left, y: top - y });
  const nodeByName = new Map(graph.nodes.map((node) => [graphvizName(node.id), node.id]));
  const groupByName = new Map(graph.groups.map((group) => [graph.dot ? graphvizName(group.id) : `cluster ${group.id}`, group.id]));
  const groupParent = new Map(graph.groups.map((group) => [group.id, group.parent]));
  const depthOf = (id: string) => {
    let depth = 0;
    for (let up = groupParent.get(id); up !== undefined && depth < graph.groups.length; up = groupParent.get(up)) depth++;
    return depth;
  };

  const nodes: LaidOutNode[] = [];
  const groups: LaidOutGroup[] = [];
  for (const object of json.objects ?? []) {
    const groupId = groupByName.get(object.name);
    if (object.bb !== undefined && groupId !== undefined) {
      const [x0 = 0, y0 = 0, x1 = 0, y1 = 0] = numbers(object.bb);
      const corner = toScene(x0, y1);
      const box: Box = { ...corner, width: x1 - x0, height: y1 - y0 };
      const text = titles.get(groupId) ?? '';
      const size = measureText(text, FONT.containerTitle, FONT.family);
      const [lx = 0, ly = 0] = object.lp !== undefined ? numbers(object.lp) : [x0 + 8 + size.width / 2, y1 - 8 - size.height / 2];
      const centre = toScene(lx, ly);
      groups.push({ id: groupId, ...box, depth: depthOf(groupId), title: { text, x: centre.x - size.width / 2, y: centre.y - size.height / 2, ...size } });
      continue;
    }
    const nodeId = nodeByName.get(object.name);
    if (nodeId === undefined || object.pos === undefined || object.bb !== undefined) continue;
    const box = boxes.get(nodeId)!;
    const [cx = 0, cy = 0] = numbers(object.pos);
    const centre = toScene(cx, cy);
    nodes.push({ id: nodeId, x: centre.x - box.width / 2, y: centre.y - box.height / 2, width: box.width, height: box.height, box });
  }

  const indexById = new Map(graph.edges.map((edge, index) => [edge.id, index]));
  const byId = new Map(nodes.map((node) => [node.id, node]));
  const placed = new Set<number>();
  const edges: LaidOutEdge[] = [];
  for (const gvEdge of json.edges ?? []) {
    const index = gvEdge.id !== undefined ? indexById.get(gvEdge.id) : undefined;
    if (index === undefined || placed.has(index) || gvEdge.pos === undefined) continue;
    const points = edgeRoute(gvEdge.pos, toScene);
    if (points.length < 2) continue;
    placed.add(index);
    const edge = graph.edges[index]!;
    // Carried on across the clearance to the real outline.
    const from = byId.get(edge.from);
    const to = byId.get(edge.to);
    if (from) points[0] = ontoOutline(points[0]!, points[1]!, from);
    if (to) points[points.length - 1] = ontoOutline(points[points.length - 1]!, points[points.length - 2]!, to);
    const labels: LaidOutLabel[] = [];
    const fontSize = edge.style?.fontSize;
    const place = (text: string | undefined, at: string | undefined, placement: LaidOutLabel['placement'], near: Point) => {
      if (!text) return;
      const wrapped = edgeLabelText(text, fontSize ?? FONT.edgeLabel);
      const size = measureText(wrapped, fontSize ?? FONT.edgeLabel, FONT.family);
      const centre = at !== undefined ? toScene(numbers(at)[0] ?? 0, numbers(at)[1] ?? 0) : near;
      labels.push({ text: wrapped, placement, x: centre.x - size.width / 2, y: centre.y - size.height / 2, ...size, ...(fontSize !== undefined && { fontSize }) });
    };
    place(edge.label, gvEdge.lp, 'center', points[Math.floor(points.length / 2)]!);
    place(edge.startLabel, gvEdge.tail_lp, 'start', points[0]!);
    place(edge.endLabel, gvEdge.head_lp, 'end', points[points.length - 1]!);
    edges.push({ index, points, labels, curved: true });
  }
  shareCrowdedHeads(edges, graph);
  const laidGroups = new Set(groups.map((group) => group.id));
  const warnings = [
    ...graph.groups.filter((group) => !laidGroups.has(group.id)).map((group) => `cluster "${group.id}" holds no node; it is not drawn (nor does Graphviz draw it)`),
    ...graph.edges.flatMap((edge, index) => (placed.has(index) ? [] : [`edge "${edge.id}": Graphviz placed no route for it; the edge is not drawn`])),
  ];
  return { nodes, groups, edges, warnings, width: right - left, height: top - bottom };
}

/**
 * Where the ray from `from` through `end` (an end just outside the shape) meets the shape's outline; when it passes
 * beside a corner, the outline's nearest point.
 */
function ontoOutline(end: Point, from: Point, node: LaidOutNode): Point {
  const outline = outlineOf({ ...node, type: node.box.shape });
  const length = Math.hypot(end.x - from.x, end.y - from.y);
  const reach = length === 0 ? end : { x: end.x + ((end.x - from.x) / length) * 3 * CLEARANCE, y: end.y + ((end.y - from.y) / length) * 3 * CLEARANCE };
  const hit = firstCrossing(end, reach, outline);
  if (hit) return hit;
  let nearest = end;
  let best = Infinity;
  outline.forEach((a, i) => {
    const b = outline[(i + 1) % outline.length]!;
    const [dx, dy] = [b.x - a.x, b.y - a.y];
    const t = Math.max(0, Math.min(1, ((end.x - a.x) * dx + (end.y - a.y) * dy) / (dx * dx + dy * dy || 1)));
    const point = { x: a.x + t * dx, y: a.y + t * dy };
    const distance = Math.hypot(point.x - end.x, point.y - end.y);
    if (distance < best) [best, nearest] = [distance, point];
  });
  return nearest;
}

/**
 * Graphviz ends edges converging on a node a few points apart, and their arrowheads pile into a wedge. Tips on one
 * node closer than CROWDED_HEADS move to one shared tip (the one nearest their middle), so the heads draw as one.
 */
function shareCrowdedHeads(edges: LaidOutEdge[], graph: GraphIR): void {
  const tips = new Map<string, Point[]>();
  for (const laid of edges) {
    const edge = graph.edges[laid.index]!;
    const ends: [string, Point, string | undefined][] = [
      [edge.from, laid.points[0]!, edge.startArrowhead],
      [edge.to, laid.points[laid.points.length - 1]!, edge.endArrowhead ?? 'arrow'],
    ];
    for (const [target, tip, head] of ends) {
      if (head === undefined || head === 'none') continue;
      if (!tips.has(target)) tips.set(target, []);
      tips.get(target)!.push(tip);
    }
  }
  for (const points of tips.values()) {
    const pending = new Set(points);
    for (const seed of points) {
      if (!pending.has(seed)) continue;
      // Grow the cluster of tips each within reach of another.
      const cluster = [seed];
      pending.delete(seed);
      for (let i = 0; i < cluster.length; i++) {
        for (const other of pending) {
          if (Math.hypot(other.x - cluster[i]!.x, other.y - cluster[i]!.y) < CROWDED_HEADS) {
            cluster.push(other);
            pending.delete(other);
          }
        }
      }
      if (cluster.length < 2) continue;
      const mid = { x: cluster.reduce((sum, p) => sum + p.x, 0) / cluster.length, y: cluster.reduce((sum, p) => sum + p.y, 0) / cluster.length };
      const shared = cluster.reduce((best, p) => (Math.hypot(p.x - mid.x, p.y - mid.y) < Math.hypot(best.x - mid.x, best.y - mid.y) ? p : best));
      const { x, y } = shared;
      for (const tip of cluster) Object.assign(tip, { x, y });
    }
  }
}
