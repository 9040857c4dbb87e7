/**
 * The Graphviz engine: `dot` (its WASM build) lays out the graph and its JSON output is read back as a LaidOutGraph,
 * edges as the points of Graphviz's splines. DOT input is handed over as the author wrote it (GraphIR.dot), so every
 * layout attribute is honoured; our measured sizes are injected so that boxes fit our fonts, not Graphviz's guesses.
 * Pure: the WASM module is loaded once and does no I/O.
 */
import { Graphviz, type Format } from '@hpcc-js/wasm-graphviz';
import type { Direction, DotSource, GraphEdge, GraphIR } from '../graph/types.js';
import { firstCrossing, isInside, outlineOf } from '../scene/binding-geometry.js';
import { graphvizCaps } from './graphviz-caps.js';
import { CONTAINER_MIN_WIDTH, CROWDED_HEADS, FONT, POINTS_PER_INCH, SPACING } from './drawing-rules.js';
import { backEdges, PACK_ASPECT } from './elk.js';
import { LINE_HEIGHT, measureText } from './measure.js';
import { sizeNode, wrapEdgeLabel, wrapText, type NodeBox } from './node-size.js';
import { placeTitles } from './titles.js';
import type { Box, LaidOutEdge, LaidOutGraph, LaidOutGroup, LaidOutLabel, LaidOutNode, LayoutEngine, Point } from './types.js';
import { dictionary } from '../dictionary.js';


/**
 * Room kept around every node: Graphviz is told each node is this much larger on every side, so its splines keep clear
 * of the outline we draw (a line grazing a node reads as touching it); routes are then carried on to the real outline.
 */
const CLEARANCE = 4;

let loaded: Promise<Graphviz> | undefined;
/** The WASM module, compiled on first use and kept (loading takes ~100 ms; a layout then a few ms). */
const graphviz = (): Promise<Graphviz> => (loaded ??= Graphviz.load());

/** Our outlines → the Graphviz shape with the same outline, so Graphviz clips edges where we draw the border. */
const GRAPHVIZ_SHAPES: Partial<Record<NodeBox['shape'], string>> = dictionary({
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
});

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
  /** Where Graphviz put an `xlabel`: beside the route, clear of nodes and other labels. */
  xlp?: string;
  head_lp?: string;
  tail_lp?: string;
}

export interface GraphvizJson {
  bb: string;
  directed?: boolean;
  _subgraph_cnt?: number;
  objects?: GraphvizObject[];
  edges?: GraphvizEdge[];
}

/** Lays out a layered GraphIR with Graphviz dot; DOT input keeps all of its author's layout attributes. */
export const layoutWithGraphviz: LayoutEngine = async (graph: GraphIR): Promise<LaidOutGraph> => {
  const laid = await placeWithGraphviz(graph);
  // A title at its cluster's middle lay across the edges into it (Mermaid C4's "bigbank-api*** x8" and "Oracle -
  // Primary", split by the API's calls): moved along its band to the nearest gap, as ELK's titles are. DOT's own
  // labels stay where their author's `labeljust` and Graphviz put them.
  return graph.dot === undefined ? placeTitles(laid, graph).laid : laid;
};

/** Graphviz's layout of a graph from another notation than DOT, shaped as a try asks. */
export async function placeWithGraphviz(graph: GraphIR, shape: GraphvizShape = {}): Promise<LaidOutGraph> {
  const boxes = new Map(graph.nodes.map((node) => [node.id, sizeNode(node, graph.direction)]));
  // A lone node, as each table joined to nothing of a large schema is packed (a part of its own): where Graphviz puts
  // it, its clearance round it, without a run (Dolphinscheduler's 70 such tables: 70 Graphviz runs a direction).
  const [lone] = graph.nodes;
  if (graph.dot === undefined && lone !== undefined && graph.nodes.length === 1 && graph.edges.length === 0 && graph.groups.length === 0) {
    const box = boxes.get(lone.id)!;
    return { nodes: [{ id: lone.id, x: CLEARANCE, y: CLEARANCE, width: box.width, height: box.height, box }], groups: [], edges: [], warnings: [], width: box.width + 2 * CLEARANCE, height: box.height + 2 * CLEARANCE };
  }
  const engine = await graphviz();
  const titles = new Map(graph.groups.map((group) => [group.id, wrapText(group.label, CONTAINER_MIN_WIDTH * 2, FONT.containerTitle).join('\n')]));
  const names = namesFor(graph);
  const laidOut = (dot: DotSource) => {
    const source = sizedSource(dot, graph, names, boxes, titles, graphvizCaps(graph));
    // json0 is json without the drawing instructions (a third of the output); @hpcc-js's Format type omits it.
    const json = JSON.parse(engine.layout(source, 'json0' as Format, 'dot')) as GraphvizJson;
    return readGraphviz(json, graph, dot, names, boxes, titles);
  };
  if (graph.dot !== undefined) return laidOut(graph.dot);
  const plain = laidOut(graphToDot(graph, shape));
  // Graphviz's quirk: flowing sideways, a graph with a cluster may have a rank laid bottom to top in the order written
  // (the first of a Mermaid subgraph's six triggers drawn last, under the rest), where nodes reached by edges keep it top
  // to bottom. The graph written in reverse too, the one that keeps more of the author's order is drawn.
  if ((graph.direction !== 'RIGHT' && graph.direction !== 'LEFT') || graph.groups.length === 0) return plain;
  const reversed = laidOut(graphToDot(graph, { ...shape, reversed: true }));
  return outOfOrder(reversed, graph) < outOfOrder(plain, graph) ? reversed : plain;
}

/** Pairs of nodes in one rank of a sideways flow (one column) set in the other order than written, top to bottom. */
function outOfOrder(laid: LaidOutGraph, graph: GraphIR): number {
  const written = new Map(graph.nodes.map((node, i) => [node.id, i]));
  let count = 0;
  for (const [i, a] of laid.nodes.entries()) {
    for (const b of laid.nodes.slice(i + 1)) {
      if (Math.abs(a.x + a.width / 2 - (b.x + b.width / 2)) > 1) continue;
      if (Math.sign(written.get(a.id)! - written.get(b.id)!) !== Math.sign(a.y - b.y)) count++;
    }
  }
  return count;
}

/** How nodes and containers are named in the DOT handed to Graphviz, and how Graphviz names them back. */
interface Names {
  /** A node's name as DOT text. */
  node(id: string): string;
  /** Graphviz's (unescaped) name → node id, and cluster name → group id. */
  nodes: Map<string, string>;
  groups: Map<string, string>;
}

/** Graphviz reads `\"` in a quoted id as `"` and keeps other backslashes; the DOT parser keeps ids as written. */
const graphvizName = (id: string) => id.replace(/\\"/g, '"');

/** DOT keeps its author's names; a generated graph gets plain ones (n0, n1, …; cluster_0, …), whatever its ids hold. */
function namesFor(graph: GraphIR): Names {
  if (graph.dot) {
    return {
      node: (id) => `"${id}"`,
      nodes: new Map(graph.nodes.map((node) => [graphvizName(node.id), node.id])),
      groups: new Map(graph.groups.map((group) => [graphvizName(group.id), group.id])),
    };
  }
  const index = new Map(graph.nodes.map((node, i) => [node.id, i]));
  return {
    node: (id) => `n${index.get(id)}`,
    nodes: new Map(graph.nodes.map((node, i) => [`n${i}`, node.id])),
    groups: new Map(graph.groups.map((group, i) => [`cluster_${i}`, group.id])),
  };
}

// ─── Into Graphviz ───────────────────────────────────────────────────────────────────────────────────────────────


/**
 * The label Graphviz keeps room for: an edge's middle one; for a node's lone self loop with none, its end labels, as
 * Graphviz keeps none for `headlabel`s: a singleton's "-INSTANCE", from IvoryTower to itself, lay over the class set
 * 65 px beside it. Not for several loops on one node: Graphviz nests them, each one's room between it and the next,
 * where the labels, set beside the curves after (graphviz-orthogonal.ts), lay over the outer loop (a quad tree's
 * "-northwest" and "-southwest").
 */
function roomLabel(edge: GraphEdge, graph: GraphIR): string | undefined {
  if (edge.label || edge.from !== edge.to) return edge.label;
  const loops = graph.edges.filter((other) => other.from === edge.from && other.to === edge.from).length;
  return loops === 1 ? [edge.startLabel, edge.endLabel].filter(Boolean).join('\n') || undefined : undefined;
}

/** An HTML-like label Graphviz sizes exactly: an empty table of the given size, in points. */
const sizedLabel = (size: { width: number; height: number }) =>
  `<table fixedsize="true" width="${Math.max(1, Math.ceil(size.width))}" height="${Math.max(1, Math.ceil(size.height))}" border="0" cellborder="0"><tr><td></td></tr></table>`;

/**
 * A node's label for Graphviz: empty, or where its cells name ports, a table of empty cells of the box's size whose
 * port cells lie where ours do, so that Graphviz ends `node:port` edges at the cell (and `node:port:n` at its side).
 * The box is cut along every port cell's edges into a grid; each port cell spans its part of it.
 */
/** How near the box's border (px) a port cell's edge counts as on it. */
const PORT_SNAP = 12;

function portLabel(box: NodeBox): string {
  const ports = box.cells?.cells.filter((cell) => cell.port !== undefined) ?? [];
  if (ports.length === 0) return '""';
  const offset = { x: (box.width - box.cells!.width) / 2, y: (box.height - box.cells!.height) / 2 };
  const [width, height] = [Math.round(box.width), Math.round(box.height)];
  // A cell edge a table's border and padding away from the box's is taken as on it: Graphviz ends an edge to a cell on
  // the box's border at that side of the cell (the UML gallery's `- Subsystem 1` row), not across the rows below it.
  const at = (value: number, total: number) => {
    const rounded = Math.min(total, Math.max(0, Math.round(value)));
    return rounded < PORT_SNAP ? 0 : total - rounded < PORT_SNAP ? total : rounded;
  };
  const spans = ports.map((cell) => ({
    port: cell.port!,
    x: [at(offset.x + cell.x, width), at(offset.x + cell.x + cell.width, width)] as const,
    y: [at(offset.y + cell.y, height), at(offset.y + cell.y + cell.height, height)] as const,
  }));
  const cuts = (total: number, ends: number[]) => [...new Set([0, total, ...ends])].sort((a, b) => a - b);
  const xs = cuts(width, spans.flatMap((span) => span.x));
  const ys = cuts(height, spans.flatMap((span) => span.y));
  const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  const rows = ys.slice(1).map((bottom, r) => {
    const cells = xs.slice(1).map((right, c) => {
      const [left, top] = [xs[c]!, ys[r]!];
      const span = spans.find((one) => one.x[0] <= left && right <= one.x[1] && one.y[0] <= top && bottom <= one.y[1]);
      if (!span) return `<td fixedsize="true" width="${right - left}" height="${bottom - top}"></td>`;
      if (span.x[0] !== left || span.y[0] !== top) return '';
      const [columns, rowCount] = [xs.indexOf(span.x[1]) - c, ys.indexOf(span.y[1]) - r];
      return `<td port="${escape(span.port)}" colspan="${columns}" rowspan="${rowCount}" fixedsize="true" width="${span.x[1] - left}" height="${span.y[1] - top}"></td>`;
    });
    return `<tr>${cells.join('')}</tr>`;
  });
  return `<<table border="0" cellborder="0" cellspacing="0" cellpadding="0">${rows.join('')}</table>>`;
}

const edgeLabelSize = (text: string, fontSize: number) => {
  const size = measureText(text, fontSize, FONT.family);
  return { width: size.width + 2 * SPACING.edgeLabelPadding, height: size.height + 2 * SPACING.edgeLabelPadding };
};


/**
 * The DOT to lay out: every node fixed at our measured size and outline (plus the clearance), and the placeholders for
 * edge labels and container titles swapped for boxes of our measured size, so Graphviz reserves the room our fonts
 * need. Text edits only: parsing and printing the graph again would cost more than Graphviz's layout.
 */
function sizedSource(
  dot: DotSource,
  graph: GraphIR,
  names: Names,
  boxes: ReadonlyMap<string, NodeBox>,
  titles: ReadonlyMap<string, string>,
  caps: Readonly<Record<string, number>>,
): string {
  const edgeById = new Map(graph.edges.map((edge) => [edge.id, edge]));
  const withBoxes = dot.source.replace(/"drawbridge:(edge|cluster):(\d+)"/g, (_, what: string, index: string) => {
    if (what === 'cluster') {
      const title = titles.get(dot.clusters[Number(index)] ?? '') ?? '';
      return title === '' ? '""' : `<${sizedLabel(measureText(title, FONT.containerTitle, FONT.family))}>`;
    }
    const id = dot.edges[Number(index)]?.id;
    const edge = id !== undefined ? edgeById.get(id) : undefined;
    const text = edge && roomLabel(edge, graph);
    if (!text) return '""';
    const fontSize = edge.style?.fontSize ?? FONT.edgeLabel;
    return `<${sizedLabel(edgeLabelSize(wrapEdgeLabel(text, fontSize), fontSize))}>`;
  });
  const sized = graph.nodes.map((node) => {
    const box = boxes.get(node.id)!;
    const width = (box.width + 2 * CLEARANCE) / POINTS_PER_INCH;
    const height = (box.height + 2 * CLEARANCE) / POINTS_PER_INCH;
    return `${names.node(node.id)} [shape=${GRAPHVIZ_SHAPES[box.shape] ?? 'box'} fixedsize=true width=${width} height=${height} label=${portLabel(box)} xlabel="" peripheries=1 margin=0]`;
  });
  // compound: an edge to a container (lhead/ltail) is clipped at the container's border, where we bind it.
  const close = withBoxes.lastIndexOf('}');
  const capped = Object.entries(caps).map(([name, value]) => `${name}=${value}\n`).join('');
  return `${withBoxes.slice(0, close)}\ncompound=true\n${capped}${sized.join('\n')}\n}`;
}

/**
 * How an edge whose author put its target on one side of its source (`toward`) is written for a flow: along the flow
 * as it is, against it reversed (the head ranked first); across it in one rank, reversed when the target goes before
 * the source (left of it in a downward flow, above it in a rightward one).
 */
function towardFlow(toward: Direction, flow: Direction): { reversed: boolean; flat: boolean } {
  const axis = (direction: Direction) => (direction === 'DOWN' || direction === 'UP' ? 'vertical' : 'horizontal');
  if (axis(toward) === axis(flow)) return { reversed: toward !== flow, flat: false };
  return { reversed: toward === 'LEFT' || toward === 'UP', flat: true };
}

/** Graphviz's size, in inches, long enough for any drawing along the flow when only the width is bounded. */
const MAX_INCHES = 1000;

/** How a try departs from Graphviz's own layout (graphviz-orthogonal.ts): rows given, width bounded. */
export interface GraphvizShape {
  /** Each node's rank, 0 first along the flow: each rank's nodes in one row, the rows in order. */
  ranks?: ReadonlyMap<string, number>;
  /** The width (px) Graphviz is asked to squeeze the drawing to (`ratio=compress`). */
  width?: number;
  /** Nodes joined to nothing set in a grid in their container, no wider than this (px) where they can be (looseRows). */
  looseInGrid?: number;
  /** Nodes and containers written last to first (placeWithGraphviz's second try, sideways flows with containers). */
  reversed?: boolean;
  /**
   * Edges drawn straight (`splines=line`): where every edge is routed again (graphviz-orthogonal.ts), Graphviz's
   * splines are not kept, and drawing them was a third of its time on Kubernetes.
   */
  straight?: boolean;
}

/**
 * DOT for a graph from another notation: nodes n0, n1, … in order, containers as clusters, edges in order; with ranks,
 * an invisible edge from each row to the next (which maps back to no edge) keeps the rows in order.
 */
export function graphToDot(graph: GraphIR, shape: GraphvizShape = {}): DotSource {
  const rankdir = { DOWN: 'TB', UP: 'BT', RIGHT: 'LR', LEFT: 'RL' }[graph.direction];
  // A tree of topics (a mind map, a WBS: no containers, every line unlabelled and put on a side of its parent) has no
  // label or arrowhead to make room for between ranks: its lines are short, as Mermaid and PlantUML draw them.
  const tree = graph.groups.length === 0 && graph.edges.every((edge) => edge.toward !== undefined && !edge.label && edge.endArrowhead === 'none' && edge.startArrowhead === 'none');
  const ranksep = tree ? SPACING.betweenLayers / 2 : graph.closeSteps ? SPACING.stepBetweenLayers : SPACING.betweenLayers;
  // A flow of short steps: each step in the rank right after the step before it (stepRanks), its way back ranking nothing.
  const steps = graph.closeSteps && shape.ranks === undefined ? stepRanks(graph) : undefined;
  const lines = [`digraph {`, `rankdir=${rankdir}`, `nodesep=${SPACING.nodeNode / POINTS_PER_INCH}`, `ranksep=${ranksep / POINTS_PER_INCH}`];
  const nodeIndex = new Map(graph.nodes.map((node, i) => [node.id, i]));
  const nodeById = new Map(graph.nodes.map((node) => [node.id, node]));
  const groupIndex = new Map(graph.groups.map((group, i) => [group.id, i]));
  const children = new Map<string | undefined, { groups: string[]; nodes: string[] }>();
  const bucket = (parent: string | undefined) => {
    if (!children.has(parent)) children.set(parent, { groups: [], nodes: [] });
    return children.get(parent)!;
  };
  for (const group of graph.groups) bucket(group.parent !== undefined && groupIndex.has(group.parent) ? group.parent : undefined).groups.push(group.id);
  for (const node of graph.nodes) bucket(node.parent !== undefined && groupIndex.has(node.parent) ? node.parent : undefined).nodes.push(node.id);
  const clusters: string[] = [];
  const bottomUp = shape.reversed === true;
  const inOrder = (ids: string[]) => (bottomUp ? [...ids].reverse() : ids);
  const write = (parent: string | undefined) => {
    if (bottomUp) writeGroups(parent);
    for (const id of inOrder(bucket(parent).nodes)) lines.push(`n${nodeIndex.get(id)}`);
    if (!bottomUp) writeGroups(parent);
  };
  const writeGroups = (parent: string | undefined) => {
    for (const id of inOrder(bucket(parent).groups)) {
      if (clusters.includes(id)) continue; // a cycle of parents is drawn once
      clusters.push(id);
      lines.push(`subgraph cluster_${groupIndex.get(id)} {`, `label="drawbridge:cluster:${clusters.length - 1}"`);
      write(id);
      lines.push('}');
    }
  };
  write(undefined);
  // An edge to a container ends at a node inside it and is clipped at the container's border (lhead/ltail).
  const groupParent = new Map(graph.groups.map((group) => [group.id, group.parent]));
  const inside = (node: { parent?: string }, group: string) => {
    for (let up = node.parent, depth = 0; up !== undefined && depth <= graph.groups.length; up = groupParent.get(up), depth++) if (up === group) return true;
    return false;
  };
  const endOf = (id: string): { node: string; cluster?: string } | undefined => {
    if (nodeIndex.has(id)) return { node: `n${nodeIndex.get(id)}` };
    const member = graph.nodes.find((node) => inside(node, id));
    return member ? { node: `n${nodeIndex.get(member.id)}`, cluster: `cluster_${groupIndex.get(id)}` } : undefined;
  };
  const groupById = new Map(graph.groups.map((group) => [group.id, group]));
  const holds = (outer: string, id: string) => groupIndex.has(outer) && inside(nodeById.get(id) ?? groupById.get(id) ?? {}, outer);
  const edges: DotSource['edges'] = [];
  /** Edges that rank, as written (tail before head), for clustersTurnBack. */
  const ranking: { from: string; to: string }[] = [];
  let sameRank = false;
  // With containers, cycles are broken as the author wrote the graph (backEdges: depth first from the sources, in
  // input order), as Mermaid's layout and our ELK path do. Graphviz breaks them per cluster and between clusters apart,
  // and could set the start of a loop last: a chat UI feeding a query path that answers it, drawn under everything.
  // Without, Graphviz's own walk is the same one.
  const ranked = graph.edges.map((edge) => {
    if (graph.groups.length === 0) return { from: '', to: '' };
    const [from, to] = [endOf(edge.from), endOf(edge.to)];
    const free = from && to && edge.toward === undefined && !steps?.back.has(edge) && !holds(edge.from, edge.to) && !holds(edge.to, edge.from);
    return free ? { from: from.node, to: to.node } : { from: '', to: '' };
  });
  const authorsBack = backEdges([...nodeIndex.values()].map((i) => `n${i}`), ranked);
  for (const [index, edge] of graph.edges.entries()) {
    const [from, to] = [endOf(edge.from), endOf(edge.to)];
    if (!from || !to) continue;
    // An edge between a container and what it holds (Mermaid's `query --> memory` from inside the subgraph memory)
    // has both ends in the cluster, so lhead does not clip it: it ends at the border later (graphviz-orthogonal.ts),
    // and ranks nothing, or it would run to the cluster's first node and turn the flow inside it back.
    if (holds(edge.from, edge.to) || holds(edge.to, edge.from)) {
      lines.push(`${from.node} -> ${to.node} [constraint=false${edge.label ? ` label="drawbridge:edge:${edges.length}"` : ''}]`);
      edges.push({ tail: from.node, head: to.node, id: edge.id });
      continue;
    }
    const across = edge.toward === undefined || from.node === to.node ? { reversed: false, flat: false } : towardFlow(edge.toward, graph.direction);
    const { flat } = across;
    // Graphviz's quirk: in a rank across a left-right flow, with newrank (which every flat edge turns on), a flat edge
    // with an end in a cluster is laid head above tail, the other way from one outside clusters; written the other
    // way round, it comes out as the author put it.
    const clustered = (id: string, end: { cluster?: string }) => end.cluster !== undefined || groupIndex.has(nodeById.get(id)?.parent ?? '');
    const flipped = flat && (graph.direction === 'RIGHT' || graph.direction === 'LEFT') && (clustered(edge.from, from) || clustered(edge.to, to));
    const reversed = across.reversed !== flipped !== authorsBack.has(index);
    const [tail, head] = reversed ? [to, from] : [from, to];
    const attributes = [
      tail.cluster && `ltail=${tail.cluster}`,
      head.cluster && `lhead=${head.cluster}`,
      steps?.back.has(edge) && 'constraint=false',
      roomLabel(edge, graph) && `label="drawbridge:edge:${edges.length}"`,
    ].filter(Boolean);
    lines.push(`${tail.node} -> ${head.node} [${attributes.join(' ')}]`);
    if (!flat && !steps?.back.has(edge)) ranking.push({ from: tail.node, to: head.node });
    // A flat edge in one rank: Graphviz keeps its tail before its head along the rank.
    if (flat) lines.push(`{rank=same; ${tail.node}; ${head.node}}`);
    sameRank ||= flat;
    edges.push({ tail: tail.node, head: head.node, id: edge.id, ...(reversed && { reversed: true as const }) });
    // An edge or a layout hint along the flow to a container (PlantUML `AIGW --> Models`, C4 `Lay_D(person, boundary)`)
    // puts its other end before or after the whole container, as PlantUML does, not only before the one node the edge
    // ends at: it is tied to the first (or last) nodes of the container's own flow, those no edge inside it leads into
    // (or out of). Else, under newrank, the container's other nodes stay in the first rank and it spans the drawing
    // (GitLab's AI architecture: its Models package ran from the top row to below the gateway).
    if (!flat) {
      const ends = (end: { node: string; cluster?: string }, id: string, first: boolean) => {
        if (end.cluster === undefined) return [end.node];
        const members = graph.nodes.filter((node) => inside(node, id)).map((node) => node.id);
        const within = graph.edges.filter((e) => members.includes(e.from) && members.includes(e.to) && e.from !== e.to);
        const open = members.filter((m) => !within.some((e) => (first ? e.to : e.from) === m));
        return (open.length > 0 ? open : members).map((m) => `n${nodeIndex.get(m)}`);
      };
      const [tails, heads] = [ends(tail, tail === from ? edge.from : edge.to, false), ends(head, head === to ? edge.to : edge.from, true)];
      for (const t of tails) {
        for (const h of heads) {
          if (t === tail.node && h === head.node) continue;
          lines.push(`${t} -> ${h}`);
          edges.push({ tail: t, head: h });
          ranking.push({ from: t, to: h });
        }
      }
    }
  }
  if (shape.looseInGrid !== undefined) {
    // Nodes joined to nothing, in each container (and at the top level), in rows (looseRows): Graphviz ranks them all
    // side by side, one row (a column, flowing sideways) of twenty workloads where ELK sets them in a grid. Each stands
    // on the one a row before it in its column, by an invisible edge that maps back to no edge (flowing sideways, each
    // row is a chain of them instead).
    const joined = new Set(graph.edges.filter((edge) => edge.from !== edge.to).flatMap((edge) => [edge.from, edge.to]));
    const down = graph.direction === 'DOWN' || graph.direction === 'UP';
    const invisible = (from: string, to: string) => lines.push(`n${nodeIndex.get(from)} -> n${nodeIndex.get(to)} [style=invis]`);
    for (const [parent, { nodes }] of children) {
      const loose = nodes.filter((id) => !joined.has(id)).map((id) => ({ id, ...sizeNode(nodeById.get(id)!, graph.direction) }));
      // Flowing sideways, a container joined as a whole (langfuse's web and worker, its box using four sub-charts) keeps
      // Graphviz's column of its parts where it fits: in a row they lay along the flow, the box as wide as both.
      const column = loose.reduce((sum, node) => sum + node.height, 0) + SPACING.nodeNode * (loose.length - 1);
      if (!down && parent !== undefined && joined.has(parent) && column <= shape.looseInGrid) continue;
      const rows = looseRows(loose, shape.looseInGrid, down ? [SPACING.nodeNode, ranksep] : [ranksep, SPACING.nodeNode]);
      if (down) rows.forEach((row, r) => r > 0 && row.forEach((node, column) => invisible(rows[r - 1]![column]!.id, node.id)));
      else {
        for (const row of rows) row.slice(1).forEach((node, column) => invisible(row[column]!.id, node.id));
        // Rows are chains apart, and Graphviz stacks apart chains the last written on top: the heads in one rank, each
        // before the next, keep the first row on top (Loki's row of four came under its row of three). Only at the top
        // level: in a cluster Graphviz orders them its own way still (Sentry's consumers), and the rank costs newrank.
        if (rows.length > 1 && parent === undefined) {
          lines.push(`{rank=same; ${rows.map((row) => `n${nodeIndex.get(row[0]!.id)}`).join('; ')}}`);
          rows.slice(1).forEach((row, r) => invisible(rows[r]![0]!.id, row[0]!.id));
          sameRank = true;
        }
      }
    }
  }
  const { ranks } = shape;
  if (ranks !== undefined) {
    const rows: string[][] = [];
    for (const [id, rank] of ranks) if (nodeIndex.has(id)) (rows[rank] ??= []).push(`n${nodeIndex.get(id)}`);
    const filled = rows.filter((row) => row !== undefined);
    filled.forEach((row, i) => {
      lines.push(`{rank=same; ${row.join('; ')}}`);
      if (i > 0) lines.push(`${filled[i - 1]![0]} -> ${row[0]} [style=invis]`);
    });
  }
  if (steps !== undefined) {
    const rows: string[][] = [];
    for (const [id, rank] of steps.ranks) (rows[rank] ??= []).push(`n${nodeIndex.get(id)}`);
    for (const row of rows) if (row.length > 1) lines.push(`{rank=same; ${row.join('; ')}}`);
  }
  if (shape.straight) lines.push('splines=line');
  // Ranks across clusters need the newer ranking.
  const chainOf = (dotNode: string) => {
    const chain: string[] = [];
    for (let up = graph.nodes[Number(dotNode.slice(1))]?.parent; up !== undefined && groupIndex.has(up) && chain.length <= graph.groups.length; up = groupParent.get(up)) chain.unshift(up);
    return chain;
  };
  // Not where the author put targets on sides (PlantUML's `-r->`): drawn as PlantUML's own Graphviz run draws it.
  const hinted = graph.edges.some((edge) => edge.toward !== undefined);
  if (sameRank || ranks !== undefined || steps !== undefined || (!hinted && clustersTurnBack(ranking, chainOf))) lines.push('newrank=true');
  // Graphviz spreads short rows apart to straighten long edges; squeezed back towards the width asked, where it can.
  if (shape.width !== undefined) lines.push('ratio=compress', `size="${shape.width / POINTS_PER_INCH},${MAX_INCHES}"`);
  lines.push('}');
  return { source: lines.join('\n'), edges, clusters };
}

/**
 * Whether Graphviz's older ranking would turn edges against the flow that no cycle turns: it ranks each cluster on its
 * own, then the clusters as units, and two containers with edges both ways (a module's agents using utilities that
 * test and observe them) are a cycle of units, broken by turning one way's edges back: three of eight edges of a
 * Mermaid flowchart ran upwards, where Mermaid's own layout runs all down. `newrank` ranks every node at once, as
 * Mermaid's dagre and our ELK path do; it is asked only here, as it moves other drawings (and broke more rules on
 * PlantUML's packages, engine.ts). `ranking` holds DOT's node names, tail first; `chainOf` a node's containers,
 * outermost first.
 */
function clustersTurnBack(ranking: readonly { from: string; to: string }[], chainOf: (node: string) => string[]): boolean {
  const units = ranking.flatMap(({ from, to }) => {
    const [a, b] = [[...chainOf(from), from], [...chainOf(to), to]];
    let level = 0;
    while (level < a.length && level < b.length && a[level] === b[level]) level++;
    // Between the two units at the level where the ends' containers part (none where one end holds the other).
    return level < a.length && level < b.length ? [{ from: a[level]!, to: b[level]! }] : [];
  });
  const vertices = [...new Set(units.flatMap((unit) => [unit.from, unit.to]))];
  return backEdges(vertices, units).size > 0;
}

/**
 * Each step's rank in a flow of short steps (GraphIR.closeSteps), as ELK's layering from the sources draws it and
 * PlantUML an activity: the rank after its latest step before, the way back of a loop (backEdges) left out. Graphviz's
 * own ranking set a branch's steps anywhere between its decision and where it ends, as its edges' lengths allow: the
 * Cluster API deployment's rolling update ran its steps down beside the whole height of its sibling branch (4,602 px
 * tall, beyond 3:1).
 */
function stepRanks(graph: GraphIR): { ranks: Map<string, number>; back: Set<GraphEdge> } {
  const ids = graph.nodes.map((node) => node.id);
  // A note beside a step (PlantUML `note right`) is in the step's rank, written as a flat edge: ranked here, it was a
  // source of the flow, in the first rank with the start, and the flat edges drew every step in that one rank.
  const beside = (edge: GraphEdge) => edge.toward !== undefined && towardFlow(edge.toward, graph.direction).flat;
  const joined = graph.edges.filter((edge) => edge.from !== edge.to && !beside(edge));
  const backIndices = backEdges(ids, joined);
  const forward = joined.filter((_, index) => !backIndices.has(index));
  const into = new Map(ids.map((id): [string, string[]] => [id, []]));
  for (const edge of forward) into.get(edge.to)?.push(edge.from);
  const ranks = new Map<string, number>();
  const rank = (root: string) => {
    // Iterative, deepest first: a flow of hundreds of steps is a chain as deep.
    const stack = [root];
    while (stack.length > 0) {
      const id = stack[stack.length - 1]!;
      if (ranks.has(id)) {
        stack.pop();
        continue;
      }
      const open = (into.get(id) ?? []).filter((from) => into.has(from) && !ranks.has(from));
      if (open.length > 0) {
        stack.push(...open);
        continue;
      }
      ranks.set(id, Math.max(-1, ...(into.get(id) ?? []).filter((from) => into.has(from)).map((from) => ranks.get(from)!)) + 1);
      stack.pop();
    }
  };
  for (const id of ids) rank(id);
  const alone = (id: string) => !joined.some((edge) => edge.from === id || edge.to === id);
  for (const edge of graph.edges.filter(beside)) {
    if (alone(edge.from) && ranks.has(edge.to)) ranks.set(edge.from, ranks.get(edge.to)!);
    else if (alone(edge.to) && ranks.has(edge.from)) ranks.set(edge.to, ranks.get(edge.from)!);
  }
  // The edges themselves, not their ids: a parser's ids need not be unique.
  return { ranks, back: new Set(joined.filter((_, index) => backIndices.has(index))) };
}

/**
 * Loose nodes in order, in rows as a reader expects them: one row where it is no wider than `width`, else rows of
 * even length (none more than one shorter than the first) whose block, within `width` where any is, is nearest a
 * landscape page (PACK_ASPECT). Square grids left temporal's three workloads two and one (434 × 434 px) where one
 * row fits, and Loki's seven a block of 1.2:1 past Graphviz's canvas. `gaps`: between nodes in a row, between rows.
 */
export function looseRows<T extends { width: number; height: number }>(loose: readonly T[], width: number, [across, between]: readonly [number, number]): T[][] {
  const split = (count: number): T[][] => {
    const rows: T[][] = [];
    for (let r = 0, at = 0; r < count; r++) {
      const length = Math.ceil((loose.length - at) / (count - r));
      rows.push(loose.slice(at, (at += length)));
    }
    return rows;
  };
  // As many rows as the columns need, no more: five in four rows were two, one, one and one, a column with one
  // node beside it (a Mermaid client's five parts), where three rows are two, two and one.
  const counts = [...new Set(loose.map((_, i) => Math.ceil(loose.length / (i + 1))))].reverse();
  const tries = counts.map((count) => {
    const rows = split(count);
    const wide = Math.max(...rows.map((row) => row.reduce((sum, node) => sum + node.width, 0) + across * (row.length - 1)));
    const high = rows.reduce((sum, row) => sum + Math.max(...row.map((node) => node.height)), 0) + between * (rows.length - 1);
    return { rows, wide, offPage: Math.abs(Math.log(wide / high / PACK_ASPECT)) };
  });
  const fitting = tries.filter((one) => one.wide <= width);
  // None fits: a column, the narrowest.
  if (fitting.length === 0) return tries.at(-1)?.rows ?? [];
  if (fitting[0]!.rows.length === 1) return fitting[0]!.rows;
  return fitting.reduce((best, one) => (one.offPage < best.offPage ? one : best)).rows;
}

// ─── Out of Graphviz ─────────────────────────────────────────────────────────────────────────────────────────────

const numbers = (text: string) => text.split(',').map(Number);


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
export function edgeRoute(pos: string, toScene: (x: number, y: number) => Point): Point[] {
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

export function readGraphviz(json: GraphvizJson, graph: GraphIR, dot: DotSource, names: Names, boxes: ReadonlyMap<string, NodeBox>, titles: ReadonlyMap<string, string>): LaidOutGraph {
  const [left = 0, bottom = 0, right = 0, top = 0] = numbers(json.bb);
  const toScene = (x: number, y: number): Point => ({ x: x - left, y: top - y });
  const nodeByName = names.nodes;
  const groupByName = names.groups;
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

  // Graphviz creates edges in the order they are written: the k-th edge between two nodes is the k-th written between
  // them (either way round when undirected; a strict graph keeps the first of each pair).
  const indexById = new Map(graph.edges.map((edge, index) => [edge.id, index]));
  const nameByGvid = new Map((json.objects ?? []).map((object) => [object._gvid, object.name]));
  const key = (tail: string, head: string) => (json.directed === false && head < tail ? `${head}\u0000${tail}` : `${tail}\u0000${head}`);
  const written = new Map<string, (string | undefined)[]>();
  const reversedIds = new Set(dot.edges.filter((edge) => edge.reversed).map((edge) => edge.id));
  for (const edge of dot.edges) {
    const k = key(graphvizName(edge.tail), graphvizName(edge.head));
    if (!written.has(k)) written.set(k, []);
    written.get(k)!.push(edge.id);
  }
  const byId = new Map(nodes.map((node) => [node.id, node]));
  const placed = new Set<number>();
  const edges: LaidOutEdge[] = [];
  for (const gvEdge of [...(json.edges ?? [])].sort((a, b) => a._gvid - b._gvid)) {
    const id = written.get(key(nameByGvid.get(gvEdge.tail) ?? '', nameByGvid.get(gvEdge.head) ?? ''))?.shift();
    const index = id !== undefined ? indexById.get(id) : undefined;
    if (index === undefined || placed.has(index) || gvEdge.pos === undefined) continue;
    const points = edgeRoute(gvEdge.pos, toScene);
    if (points.length < 2) continue;
    if (reversedIds.has(id)) points.reverse();
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
      const wrapped = wrapEdgeLabel(text, fontSize ?? FONT.edgeLabel);
      const size = measureText(wrapped, fontSize ?? FONT.edgeLabel, FONT.family);
      const centre = at !== undefined ? toScene(numbers(at)[0] ?? 0, numbers(at)[1] ?? 0) : near;
      labels.push({ text: wrapped, placement, x: centre.x - size.width / 2, y: centre.y - size.height / 2, ...size, ...(fontSize !== undefined && { fontSize }) });
    };
    place(edge.label, gvEdge.lp ?? gvEdge.xlp, 'center', points[Math.floor(points.length / 2)]!);
    // A self loop's end labels stand where Graphviz kept their room (roomLabel), one over the other.
    const loopRoom = !edge.label && edge.from === edge.to && roomLabel(edge, graph) !== undefined && gvEdge.lp !== undefined ? toScene(numbers(gvEdge.lp)[0] ?? 0, numbers(gvEdge.lp)[1] ?? 0) : undefined;
    const lineHeight = FONT.edgeLabel * LINE_HEIGHT;
    const both = edge.startLabel && edge.endLabel ? lineHeight / 2 : 0;
    place(edge.startLabel, gvEdge.tail_lp, 'start', loopRoom ? { x: loopRoom.x, y: loopRoom.y - both } : points[0]!);
    place(edge.endLabel, gvEdge.head_lp, 'end', loopRoom ? { x: loopRoom.x, y: loopRoom.y + both } : points[points.length - 1]!);
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
  // An end already inside the outline we bind to (Graphviz clips a star or a hexagon at its own points, inside their
  // box) stays where Graphviz drew it: carried on to the box, it hooked back across the shape's corner.
  if (isInside(outline, end)) return end;
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
