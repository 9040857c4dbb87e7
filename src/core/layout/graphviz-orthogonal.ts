/**
 * Prototype of issue 27's third way, not used by the service: Graphviz places the nodes and containers (same node
 * sizes), and every edge between two nodes is drawn again at right angles by the orthogonal router of smart arrows,
 * off the other shapes, its labels beside the new route; then legs of different edges on one line are moved apart and
 * hub ends merged, as on the ELK path. bench/engines.ts measures it beside ELK and Graphviz.
 */
import type { GraphIR } from '../graph/types.js';
import { boxContains } from '../export/geometry.js';
import { OrthogonalRouter } from '../routing/orthogonal.js';
import { besideRoute } from './detours.js';
import { separateEdgeRuns } from './elk.js';
import { layoutWithGraphviz } from './graphviz.js';
import { mergeHubEnds } from './hubs.js';
import type { Box, LaidOutGraph, LayoutEngine } from './types.js';

export const layoutGraphvizOrthogonal: LayoutEngine = async (graph: GraphIR): Promise<LaidOutGraph> => {
  const placed = await layoutWithGraphviz(graph);
  return separateEdgeRuns(mergeHubEnds(routeAtRightAngles(placed, graph), graph), graph);
};

function routeAtRightAngles(laid: LaidOutGraph, graph: GraphIR): LaidOutGraph {
  const nodeIndex = new Map(laid.nodes.map((node, index) => [node.id, index]));
  const ends = (index: number): [number, number] | undefined => {
    const { from, to } = graph.edges[index]!;
    const [a, b] = [nodeIndex.get(from), nodeIndex.get(to)];
    return a === undefined || b === undefined || a === b ? undefined : [a, b];
  };
  const obstacles = [...laid.nodes.map((node) => ({ ...node, type: node.box.shape })), ...laid.groups.map((group) => ({ ...group, type: 'rectangle' }))];
  const router = new OrthogonalRouter(obstacles, laid.edges.flatMap((edge) => ends(edge.index) ?? []));
  const around = (node: number) => laid.groups.flatMap((group, g) => (boxContains(group, laid.nodes[node]!, 0) ? [laid.nodes.length + g] : []));
  const routes = laid.edges.map((edge) => edge.points);
  const taken: Box[] = [...laid.nodes];
  const edges = laid.edges.map((edge, i) => {
    const pair = ends(edge.index);
    const route = pair && router.route({ from: pair[0], to: pair[1], through: [...new Set([...around(pair[0]), ...around(pair[1])])] });
    if (route === undefined) {
      taken.push(...edge.labels);
      return edge;
    }
    routes[i] = route.points;
    const labels = edge.labels.map((label) => {
      const moved = besideRoute(label, route.points, taken, routes.filter((_, k) => k !== i));
      taken.push(moved);
      return moved;
    });
    return { ...edge, points: route.points, curved: false, labels };
  });
  return { ...laid, edges };
}
