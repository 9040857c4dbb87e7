/**
 * Prototype of issue 27's third way, not used by the service: Graphviz places the nodes and containers (same node
 * sizes), and every edge between two nodes is drawn again at right angles by the orthogonal router of smart arrows,
 * off the other shapes; hub ends are merged and legs of different edges on one line moved apart, as on the ELK path,
 * then labels go beside the routes; a drawing that misses a README column is tried turned and packed, as ELK's is.
 * bench/engines.ts measures it beside ELK and Graphviz (README: 2.9× Graphviz's time, ELK's rule breaks on Helm and
 * Kubernetes only).
 */
import type { Direction, GraphIR } from '../graph/types.js';
import { boxContains } from '../export/geometry.js';
import { OrthogonalRouter } from '../routing/orthogonal.js';
import { cappedRanks } from './capped-ranks.js';
import { besideRoute } from './detours.js';
import { READABLE_NODES } from './drawing-rules.js';
import { layoutPacked, READABLE_WIDTH, readmeCost, separateEdgeRuns, vertical } from './elk.js';
import { placeWithGraphviz, type GraphvizShape } from './graphviz.js';
import { mergeHubEnds } from './hubs.js';
import { spreadRankGaps } from './rank-gaps.js';
import type { Box, LaidOutGraph, LaidOutLabel, LayoutEngine } from './types.js';

/** Rows capped at these shares of a README column: Graphviz spreads rows to straighten long edges, beyond the cap. */
const ROW_CAPS = [1, 0.75];

export const layoutGraphvizOrthogonal: LayoutEngine = async (graph: GraphIR): Promise<LaidOutGraph> => {
  const nodes = graph.nodes.length;
  const first = await drawnAtRightAngles(graph);
  if (readmeCost(first, nodes) === 0) return first;
  // ELK's README-fit tries, each a Graphviz layout of a few ms: turned (when the direction is free), then components
  // packed in rows either way; the first that fits, else the one that misses least. Then, where width counts and rows
  // lie across it, rows capped at a README column, as ELK's narrower layerings: kept only when one fits, as there (a
  // capped try that still misses crossed microservices-demo's edges five times as often).
  const turned: Direction = vertical(graph.direction) ? 'RIGHT' : 'DOWN';
  const directions = graph.forcedDirection ? [graph.direction] : [graph.direction, turned];
  const drawnTo = (part: GraphIR, direction: Direction) => drawnAtRightAngles({ ...part, direction });
  const tries = [
    ...(graph.forcedDirection ? [] : [() => drawnTo(graph, turned)]),
    ...directions.map((direction) => () => layoutPacked(graph, direction, nodes <= READABLE_NODES ? READABLE_WIDTH : Infinity, drawnTo)),
  ];
  let best = first;
  for (const attempt of tries) {
    const laid = await attempt();
    if (laid !== undefined && readmeCost(laid, nodes) < readmeCost(best, nodes)) best = laid;
    if (readmeCost(best, nodes) === 0) return best;
  }
  for (const direction of nodes <= READABLE_NODES ? directions.filter(vertical) : []) {
    for (const cap of ROW_CAPS) {
      const laid = await drawnAtRightAngles({ ...graph, direction }, { ranks: cappedRanks(graph, direction, cap * READABLE_WIDTH), width: READABLE_WIDTH });
      if (readmeCost(laid, nodes) === 0) return laid;
    }
  }
  return best;
};

async function drawnAtRightAngles(graph: GraphIR, shape?: GraphvizShape): Promise<LaidOutGraph> {
  const placed = await placeWithGraphviz(graph, shape);
  const { routed, labels } = routeAtRightAngles(placed, graph);
  // Labels go on last, beside the routes as they end up: placed first, they hemmed in the legs that separating runs
  // moves apart (two foreign keys of one table, labelled at its side, stayed on one line).
  return labelRoutes(separateEdgeRuns(spreadRankGaps(mergeHubEnds(routed, graph), graph, graph.direction), graph), labels);
}

/** Every edge between two nodes routed anew, without its labels (kept by edge index). */
function routeAtRightAngles(laid: LaidOutGraph, graph: GraphIR): { routed: LaidOutGraph; labels: Map<number, LaidOutLabel[]> } {
  const nodeIndex = new Map(laid.nodes.map((node, index) => [node.id, index]));
  const ends = (index: number): [number, number] | undefined => {
    const { from, to } = graph.edges[index]!;
    const [a, b] = [nodeIndex.get(from), nodeIndex.get(to)];
    return a === undefined || b === undefined || a === b ? undefined : [a, b];
  };
  const obstacles = [...laid.nodes.map((node) => ({ ...node, type: node.box.shape })), ...laid.groups.map((group) => ({ ...group, type: 'rectangle' }))];
  const router = new OrthogonalRouter(obstacles, laid.edges.flatMap((edge) => ends(edge.index) ?? []));
  const around = (node: number) => laid.groups.flatMap((group, g) => (boxContains(group, laid.nodes[node]!, 0) ? [laid.nodes.length + g] : []));
  const labels = new Map<number, LaidOutLabel[]>();
  const edges = laid.edges.map((edge) => {
    const pair = ends(edge.index);
    const route = pair && router.route({ from: pair[0], to: pair[1], through: [...new Set([...around(pair[0]), ...around(pair[1])])] });
    // A self loop, or an edge to a container: Graphviz's curve and labels stay.
    if (route === undefined) return edge;
    labels.set(edge.index, edge.labels);
    return { ...edge, points: route.points, curved: false, labels: [] };
  });
  return { routed: { ...laid, edges }, labels };
}

/** Each routed edge's labels beside its route, clear of the nodes, the labels placed before and the other routes. */
function labelRoutes(laid: LaidOutGraph, labels: ReadonlyMap<number, LaidOutLabel[]>): LaidOutGraph {
  const taken: Box[] = [...laid.nodes, ...laid.groups.map((group) => group.title), ...laid.edges.flatMap((edge) => edge.labels)];
  const routes = laid.edges.map((edge) => edge.points);
  const edges = laid.edges.map((edge, i) => {
    const moved = (labels.get(edge.index) ?? []).map((label) => {
      const placed = besideRoute(label, edge.points, taken, routes.filter((_, k) => k !== i));
      taken.push(placed);
      return placed;
    });
    return moved.length === 0 ? edge : { ...edge, labels: moved };
  });
  return { ...laid, edges };
}
