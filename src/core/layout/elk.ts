/** The ELK layered engine: hierarchical (containers laid out with their contents), orthogonal edge routing. */
import type { ElkExtendedEdge, ElkLabel, ElkNode } from 'elkjs/lib/elk-api.js';
import { Worker as ElkWorker, type ElkAnswer } from 'elkjs/lib/elk-worker.min.js';
import { edgeMeaning, type Direction, type GraphIR } from '../graph/types.js';
import { simplifyPolyline } from '../routing/orthogonal.js';
import { separateRuns } from '../routing/separate-runs.js';
import { compactLabelLayers } from './compact.js';
import { ASPECT_NODES, CONTAINER_MIN_WIDTH, CROWDED_HEADS, FONT, LARGE_NODES, LARGE_WIDTH, MAX_ASPECT, README_WIDTH, READABLE_NODES, READABLE_TEXT, SPACING } from './drawing-rules.js';
import { rerouteDetours } from './detours.js';
import { HUB_TRUNK_MIN_EDGES, mergeHubEnds } from './hubs.js';
import { keepLabelsBesideOwnEdges } from './label-sides.js';
import { measureText } from './measure.js';
import { hasFixedSize, sizeNode, wrapEdgeLabel, type NodeBox } from './node-size.js';
import { connectedComponents, containerFrame, packComponents, soleContainer, wrapInContainer } from './pack.js';
import { containerTitle, placeTitles } from './titles.js';
import type { Box, LaidOutEdge, LaidOutGraph, LaidOutGroup, LaidOutLabel, LaidOutNode, LayoutEngine, Point } from './types.js';

/** Typed option defaults for every ELK run (STYLE: ELK is one implementation with typed option defaults). */
export const ELK_DEFAULTS = {
  'elk.algorithm': 'layered',
  'elk.hierarchyHandling': 'INCLUDE_CHILDREN',
  'elk.edgeRouting': 'ORTHOGONAL',
  // ELK's default (GREEDY) cycle breaking reverses whichever edges it likes, so a loop back to the top of a flowchart
  // can turn the whole chart upside down; depth-first from the sources reverses only the back edges.
  'elk.layered.cycleBreaking.strategy': 'DEPTH_FIRST',
  // Absolute coordinates everywhere, so no walk up the container chain is needed to place shapes and bend points.
  'elk.json.shapeCoords': 'ROOT',
  'elk.json.edgeCoords': 'ROOT',
  'elk.spacing.nodeNode': String(SPACING.nodeNode),
  'elk.layered.spacing.nodeNodeBetweenLayers': String(SPACING.betweenLayers),
  'elk.spacing.edgeNode': String(SPACING.edgeNode),
  'elk.spacing.edgeEdge': String(SPACING.edgeEdge),
  'elk.layered.spacing.edgeNodeBetweenLayers': String(SPACING.edgeNode),
  'elk.layered.spacing.edgeEdgeBetweenLayers': String(SPACING.edgeEdge),
  'elk.spacing.componentComponent': String(SPACING.betweenLayers),
  'elk.spacing.edgeLabel': String(SPACING.edgeLabelPadding),
  // A self-loop stands as far from its node as any edge passing it; ELK's own 7 px drew a hook the size of its
  // arrowhead (EDC's data plane states: FAILED and COMPLETED retrying themselves read as a glitch on their border).
  'elk.spacing.nodeSelfLoop': String(SPACING.edgeNode),
  'elk.edgeLabels.placement': 'CENTER',
  'elk.layered.edgeLabels.sideSelection': 'SMART_DOWN',
} as const satisfies Record<string, string>;

/**
 * Spacing between layers inside a container, which does not take the root's: ELK's own 20 px left a subgraph's chain
 * 15 px apart with its arrows squeezed between; the root's 70 made containers taller than a README column takes.
 */
const CONTAINER_SPACING = {
  'elk.layered.spacing.nodeNodeBetweenLayers': String(SPACING.containerBetweenLayers),
  'elk.layered.spacing.edgeNodeBetweenLayers': String(SPACING.edgeNode),
  'elk.layered.spacing.edgeEdgeBetweenLayers': String(SPACING.edgeEdge),
};

/**
 * ELK's crossing minimisation keeps the input order of nodes and edges where it can: an adapter's logging activity had
 * its `else` branch drawn left of `then`, and its fork's branches swapped, where PlantUML keeps them as written.
 */
const IN_SOURCE_ORDER = { 'elk.layered.considerModelOrder.strategy': 'NODES_AND_EDGES' } as const;

/**
 * A container is at least CONTAINER_MIN_WIDTH wide, and ELK's default puts narrower contents at its left with the rest
 * empty (a Mermaid subgraph of one node, a PlantUML package of one class, a Compose network of one service), where
 * Mermaid, PlantUML and D2 centre them. ELK centres them itself, edges inside and across the border included, given
 * this on the compound node (with INCLUDE_CHILDREN too). A container widened for a title no gap held (TITLED_CONTENT)
 * keeps its contents at the left: the width added is then one band at the right, free of the edges entering it.
 */
const CENTRED_CONTENT = '[H_CENTER, V_CENTER]';
const TITLED_CONTENT = '[H_LEFT, V_CENTER]';

/**
 * Layers of a flow of short steps (GraphIR.closeSteps) an arrow's length apart, each step in the layer right after
 * the step before it, as PlantUML draws an activity: ELK's default layering put a branch's steps just above where the
 * branch ends, so a short `then` hung far below its decision (the Cluster API deployment's "Update status and exit").
 */
const CLOSE_STEPS = { 'elk.layered.spacing.nodeNodeBetweenLayers': String(SPACING.stepBetweenLayers), 'elk.layered.layering.strategy': 'LONGEST_PATH_SOURCE' } as const;

/**
 * A node with several self-loops gets them side by side on the two sides the flow leaves free (ELK's north and south
 * before it turns the drawing to the graph's direction), each label beside its own loop: ELK's default nests them all
 * on one side, and each outer loop then ran through the labels of the loops inside it (an editor engine's Idle state
 * with four self-transitions drew four labels crossed by three loops). On every side, the loops facing the edges in
 * and out put their labels on those edges.
 */
const SELF_LOOPS_APART = { 'elk.layered.edgeRouting.selfLoopDistribution': 'NORTH_SOUTH', 'elk.layered.edgeRouting.selfLoopOrdering': 'SEQUENCED' } as const;

/** Graphs with more nodes + edges than this get the faster ELK settings. */
const LARGE_GRAPH_ITEMS = 200;

/**
 * ELK laid out at once, in this thread. elkjs's own API reaches its in-process worker through two setTimeout(0) hops
 * (there and back), at least 1 ms each on Node: 2 ms idle per ELK run, as long as a 3-node layout takes. Its
 * dispatcher is called directly instead; it lays out synchronously and answers through `onmessage`.
 */
const elkWorker = new ElkWorker();
let elkAnswer: ElkAnswer | undefined;
elkWorker.onmessage = ({ data }) => {
  elkAnswer = data;
};
function elkCommand(command: Record<string, unknown>): unknown {
  elkAnswer = undefined;
  elkWorker.dispatcher.saveDispatch({ data: { id: 0, ...command } });
  const answer = elkAnswer as ElkAnswer | undefined;
  if (answer === undefined) throw new Error('ELK did not answer');
  if (answer.error !== undefined) throw answer.error instanceof Error ? answer.error : new Error(`ELK layout failed: ${String((answer.error as { message?: string }).message ?? answer.error)}`);
  return answer.data;
}
// The algorithms elkjs's API registers by default; only layered is used.
elkCommand({ cmd: 'register', algorithms: ['layered'] });
const elkLayout = (root: ElkNode): ElkNode => elkCommand({ cmd: 'layout', graph: root, layoutOptions: {}, options: {} }) as ElkNode;

/** Nodes and groups share ELK's id space, and GraphIR lets a node and a group have the same id: keep them apart. */
const nodeKey = (id: string) => `n:${id}`;
const groupKey = (id: string) => `g:${id}`;

interface Built {
  root: ElkNode;
  boxes: Map<string, NodeBox>;
  titles: Map<string, string>;
  depth: Map<string, number>;
  /** ELK id of an edge → its index in `graph.edges`. */
  edgeIndex: Map<string, number>;
  /** ELK ids of edges handed to ELK reversed (back edges of a cycle): their points are flipped back. */
  reversed: Set<string>;
  warnings: string[];
}

/** Lays out a layered GraphIR with ELK. Positions are absolute; edges come back as right-angle polylines. */
export const layoutGraph: LayoutEngine = async (graph: GraphIR): Promise<LaidOutGraph> => {
  const nodes = graph.nodes.length;
  const first = await layoutShape(graph, graph.direction);
  if (nodes > FIT_MAX_NODES) return first;
  if (fitsReadme(first, nodes)) return stacksComponents(graph, first) ? await nearerPage(graph, first) : first;
  // Tried in turn until one fits, else the one that misses least: turned (when the direction is free), components
  // packed in rows either way, each container's components stacked along the flow either way; then, top-down, narrower layers or a wrapped flow.
  // Each try is an ELK run (most of the layout's time), so one that cannot fit or beat the best so far is skipped.
  const turned: Direction = vertical(graph.direction) ? 'RIGHT' : 'DOWN';
  const directions = graph.forcedDirection ? [graph.direction] : [graph.direction, turned];
  /** The plain layout each way, once laid out: what the tries that reshape it are judged against. */
  const plain = new Map<Direction, LaidOutGraph>([[graph.direction, first]]);
  let best = first;
  const beatsBest = (laid: LaidOutGraph) => !widensWithoutGain(laid, nodes, readmeCost(best, nodes));
  const pathWidths = new Map<Direction, number>();
  /** Every layout this way is too wide to beat the best so far: its longest path is (a sideways flow, pathWidth). */
  const tooLong = (direction: Direction) => {
    // Past LARGE_NODES width costs nothing: no path is measured.
    if (readableWidth(nodes) === Infinity) return false;
    if (!pathWidths.has(direction)) pathWidths.set(direction, pathWidth(graph, direction));
    return widthCost({ width: pathWidths.get(direction)! }, nodes) >= readmeCost(best, nodes);
  };
  const tries = [
    ...(graph.forcedDirection
      ? []
      : [
          async () => {
            if (tooLong(turned)) return undefined;
            const laid = await layoutShape(graph, turned, {}, beatsBest);
            plain.set(turned, laid);
            return laid;
          },
        ]),
    ...directions.map((direction) => () => (tooLong(direction) ? undefined : layoutPacked(graph, direction, readableWidth(nodes)))),
    ...directions.map((direction) => () => (tooLong(direction) || stackingWidens(direction, plain.get(direction), nodes, best) ? undefined : layoutStacked(graph, direction, beatsBest))),
  ];
  for (const attempt of tries) {
    const laid = await attempt();
    if (laid !== undefined && readmeCost(laid, nodes) < readmeCost(best, nodes) && !spreadsWithoutFitting(laid, best, nodes)) best = laid;
    if (fitsReadme(best, nodes)) return stacksComponents(graph, best) ? await nearerPage(graph, best) : best;
  }
  // Narrower layers make a taller drawing, and its edges meet in fewer, longer channels; a wrapped flow leads edges
  // round its columns: each kept only when it fits.
  const fitsDrawn = (laid: LaidOutGraph) => fitsReadme({ ...laid, ...drawnExtent(laid) }, nodes);
  const mayFit = (laid: LaidOutGraph) => !widensWithoutGain({ ...laid, ...drawnExtent(laid) }, nodes, 0);
  for (const direction of directions.filter(vertical)) {
    const before = plain.get(direction);
    const shapes = [
      // Above READABLE_NODES, as Graphviz's capped rows (graphviz-orthogonal.ts): neither capped layering came near the
      // packed best of Camunda's 43 tables (4,687 × 4,271 and 4,301 × 3,458 px, cost 1.30 and 1.11 against 0.02) or
      // Flowable's 62 (3,073 × 6,096 and 3,413 × 4,845, 0.51 and 0.68 against 0.23), yet each was a whole-graph ELK run.
      ...(nodes > READABLE_NODES || (before !== undefined && narrowingLengthens(before, nodes)) ? [] : NARROW_LAYERINGS),
      ...(before !== undefined && before.width / before.height >= WRAP_ASPECT ? [] : [WRAPPED_FLOW]),
    ];
    for (const options of shapes) {
      const laid = await layoutShape(graph, direction, { options }, mayFit);
      if (fitsDrawn(laid)) return laid;
    }
  }
  return best;
};

/**
 * A layout that fits but is portrait while the graph is several unrelated parts: ELK starts every component in the
 * first layer, so a sideways flow stacks them in one column, each pair of a Helm chart's service and workload under
 * the last (linkerd-viz: six parts in 404 × 1,072 px, more than half the page empty).
 */
function stacksComponents(graph: GraphIR, laid: LaidOutGraph): boolean {
  if (laid.height <= laid.width) return false;
  const inner = soleContainer(graph)?.inner ?? graph;
  return (connectedComponents(inner)?.length ?? 1) >= GRID_COMPONENTS;
}
/** Fewer parts than this side by side are a row or a column whichever way they are packed. */
const GRID_COMPONENTS = 3;

/**
 * Of the plain layout and the parts packed in rows each way, the one that fits a README column and is nearest a
 * landscape page (PACK_ASPECT): linkerd-viz 404 × 1,072 → 942 × 602 px, its pairs set top-down in a grid; Istio's
 * bookinfo keeps its plain layout, its reviews part being three deployments wide.
 */
async function nearerPage(graph: GraphIR, first: LaidOutGraph): Promise<LaidOutGraph> {
  const nodes = graph.nodes.length;
  const turned: Direction = vertical(graph.direction) ? 'RIGHT' : 'DOWN';
  const directions = graph.forcedDirection ? [graph.direction] : [graph.direction, turned];
  const offPage = (laid: LaidOutGraph) => Math.abs(Math.log(laid.width / laid.height / PACK_ASPECT));
  let best = first;
  for (const direction of directions) {
    const packed = await layoutPacked(graph, direction, READABLE_WIDTH);
    if (packed !== undefined && fitsReadme(packed, nodes) && offPage(packed) < offPage(best)) best = packed;
  }
  return best;
}

/**
 * True when a try, laid out with its blocked titles still narrow, cannot cost less than `bound` once its containers
 * are widened for them: widening adds width only, which raises the width term, and the aspect term too unless the
 * drawing is portrait with enough nodes for that rule to count. Such a try is not laid out again (an ELK run saved).
 */
function widensWithoutGain(laid: LaidOutGraph, nodes: number, bound: number): boolean {
  return (nodes <= ASPECT_NODES || laid.width >= laid.height) && readmeCost(laid, nodes) >= bound && readmeCost(laid, nodes) > 0;
}

/**
 * Every try draws the same boxes with the same text, so its area is the paper it needs for them. One that still misses
 * the README column only trades width for height there, and once it spreads the drawing over much more paper than the
 * best so far, what it gains in text size is lost to scrolling and to the author's structure: java-design-patterns'
 * RTE plugin (BlazeMeter) kept its packages side by side in 1,848 × 1,491 px, as PlantUML does, and stacked them in a
 * column of 1,467 × 2,763 px (1.47 × the area), sibling packages one under the other; commander, 1.41 ×.
 */
export function spreadsWithoutFitting(laid: LaidOutGraph, best: LaidOutGraph, nodes: number): boolean {
  return !fitsReadme(laid, nodes) && laid.width * laid.height > MAX_AREA_GROWTH * best.width * best.height;
}
/** The most area a try that still misses the README column may add to the best so far. */
const MAX_AREA_GROWTH = 1.25;

/**
 * Components stacked along a sideways flow sit one after another instead of one above another: the drawing only
 * widens (and, landscape, strays further from 3:1). So when the plain layout that way is landscape and already misses
 * at least as much as the best so far, the stacked one cannot win (2 of the 9 ELK runs of the sakila schemas).
 */
export function stackingWidens(direction: Direction, plain: LaidOutGraph | undefined, nodes: number, best: LaidOutGraph): boolean {
  return !vertical(direction) && plain !== undefined && plain.width >= plain.height && readmeCost(plain, nodes) >= readmeCost(best, nodes);
}

/**
 * Capped layers only make a drawing narrower and taller. A plain top-down layout that is narrow enough already and
 * still does not fit is too tall for 3:1, portrait: narrowing cannot mend that (capi-machinedeployment: two ELK runs).
 * Nor can it mend one whose area is well beyond the largest drawing that fits (README width, 3:1): a narrowed layout
 * keeps most of the plain one's area (NARROWED_AREA), so it stays too wide or grows too tall (onion architecture,
 * hexagonal architecture, microservices-demo: two ELK runs each, a network-simplex placement among them).
 */
export function narrowingLengthens(plain: LaidOutGraph, nodes: number): boolean {
  const largestFitting = readableWidth(nodes) * MAX_ASPECT * readableWidth(nodes);
  const tooLarge = nodes > ASPECT_NODES && plain.width * plain.height * NARROWED_AREA > largestFitting;
  return tooLarge || (widthCost(plain, nodes) === 0 && plain.height >= plain.width);
}
/**
 * The least share of the plain top-down layout's area a narrowed layout of the corpus kept: 0.81 (nextcloud's and
 * postgres sakila's capped layers, 13 and 15 nodes); the others kept 0.85–2.2.
 */
const NARROWED_AREA = 0.8;

/** Graphs up to this size that do not fit a README column are laid out again (turned, packed, stacked, narrowed, wrapped): each try is an ELK run. */
const FIT_MAX_NODES = 150;
/**
 * Layerings that bound how wide a layer grows, tried last and only with the flow running down (there a layer is a row).
 * ELK's MIN_WIDTH layering caps a layer at a multiple of the average node width: 3 fits the mysql and sqlite sakila
 * schemas, whose default layering puts five tables in one row. Pagila needs a looser cap, 4, with network-simplex node
 * placement, which pulls the rows in under each other. With the wrapped flow, at most three more ELK runs: only one of
 * the directions tried runs down.
 */
const NARROW_LAYERINGS: Readonly<Record<string, string>>[] = [
  { 'elk.layered.layering.strategy': 'MIN_WIDTH', 'elk.layered.layering.minWidth.upperBoundOnWidth': '3' },
  {
    'elk.layered.layering.strategy': 'MIN_WIDTH',
    'elk.layered.layering.minWidth.upperBoundOnWidth': '4',
    'elk.layered.nodePlacement.strategy': 'NETWORK_SIMPLEX',
  },
];
/**
 * A long flow cut into columns side by side (ELK wrapping, aimed at width / height 0.5): 46 steps of one activity go
 * from 1,615 × 5,978 px to 2,312 × 3,750. ELK leaves the end of a labelled edge that crosses a cut thousands of px off
 * its node when the label sits in the edge's middle layer; placed in the tail layer, every end lands on its node.
 */
const WRAPPED_FLOW: Readonly<Record<string, string>> = {
  'elk.layered.wrapping.strategy': 'MULTI_EDGE',
  'elk.aspectRatio': '0.5',
  'elk.layered.edgeLabels.centerLabelPlacementStrategy': 'TAIL_LAYER',
};
/**
 * ELK cuts a flow into columns only when that brings it nearer this width / height: a plain top-down layout at least
 * this wide comes back uncut, the same drawing with its labels moved (aks-store, microservices-demo, the C4
 * deployment), so the wrapped try is skipped.
 */
const WRAP_ASPECT = 0.5;
/** The smallest text layout draws: the scale at README width applies to it. */
const SMALLEST_TEXT = Math.min(FONT.row, FONT.edgeLabel, FONT.label);
/** The widest drawing whose smallest text, fitted to README width, stays readable. */
export const READABLE_WIDTH = (README_WIDTH * SMALLEST_TEXT) / READABLE_TEXT;
/** The widest drawing of a large graph (up to LARGE_NODES) whose smallest text, fitted to a wide page, stays readable. */
const LARGE_READABLE_WIDTH = (LARGE_WIDTH * SMALLEST_TEXT) / READABLE_TEXT;

/** How wide a drawing of this many nodes may be, by the checker's text rules: a README column, else a wide page; beyond LARGE_NODES, any width. */
export function readableWidth(nodes: number): number {
  return nodes <= READABLE_NODES ? READABLE_WIDTH : nodes <= LARGE_NODES ? LARGE_READABLE_WIDTH : Infinity;
}

/**
 * Components laid out apart and packed in rows (or on a skyline, when that fits the drawing rules better): a landscape
 * block, no wider than `widthLimit`. Inside the one container that holds everything when the top level is that
 * container alone. Undefined when there is nothing to pack. `looseTogether`: nodes joined to nothing are one part,
 * for a `layOut` that sets them in a grid (connectedComponents).
 */
export async function layoutPacked(
  graph: GraphIR,
  direction: Direction,
  widthLimit: number,
  layOut: (part: GraphIR, direction: Direction) => Promise<LaidOutGraph> = layoutShape,
  { looseTogether = false } = {},
): Promise<LaidOutGraph | undefined> {
  const parts = connectedComponents(graph, { looseTogether });
  if (parts !== undefined) {
    const laid: LaidOutGraph[] = [];
    for (const part of parts) laid.push(await layOut(part, direction));
    const area = laid.reduce((sum, part) => sum + (part.width + SPACING.betweenLayers) * (part.height + SPACING.betweenLayers), 0);
    const rowWidth = Math.min(widthLimit, Math.sqrt(area * PACK_ASPECT));
    const rows = packComponents(graph, parts, laid, rowWidth);
    // Rows are kept unless they miss the drawing rules and a skyline of the same parts misses them less, or as much
    // on less paper (Camunda's 43 tables: as wide either way, their widest component setting the width; 755 px shorter).
    const skyline = packComponents(graph, parts, laid, rowWidth, { skyline: true });
    const [missed, instead] = [readmeCost(rows, graph.nodes.length), readmeCost(skyline, graph.nodes.length)];
    return instead < missed || (missed > 0 && instead === missed && skyline.width * skyline.height < rows.width * rows.height) ? skyline : rows;
  }
  const sole = soleContainer(graph);
  if (sole === undefined) return undefined;
  const inner = await layoutPacked(sole.inner, direction, widthLimit - 2 * containerFrame(sole.group.label).left, layOut, { looseTogether });
  return inner && wrapInContainer(inner, sole.group);
}

export const vertical = (direction: Direction) => direction === 'DOWN' || direction === 'UP';

/**
 * The least width of any layout of a graph without containers flowing sideways: the nodes of a path lie in successive
 * layers, each at least as wide as its node, with the layer spacing between. Packed or stacked, a component keeps its
 * paths, so no try that way is narrower. 0 when the flow runs down, or when nodes sit in containers, whose layers ELK
 * lays out apart.
 */
function pathWidth(graph: GraphIR, direction: Direction): number {
  if (vertical(direction) || graph.groups.length > 0) return 0;
  const widths = new Map(graph.nodes.map((node) => [node.id, sizeNode(node, direction).width]));
  const edges = graph.edges.filter((edge) => edge.from !== edge.to && widths.has(edge.from) && widths.has(edge.to));
  // As ELK is given them: back edges of a cycle reversed, so every path runs along the flow.
  const back = backEdges([...widths.keys()], edges);
  const next = new Map([...widths.keys()].map((id) => [id, [] as string[]]));
  edges.forEach((edge, index) => (back.has(index) ? next.get(edge.to)!.push(edge.from) : next.get(edge.from)!.push(edge.to)));
  /** Width of the widest path from a node on, that node included. */
  const from = new Map<string, number>();
  const widest = (id: string): number => {
    const known = from.get(id);
    if (known !== undefined) return known;
    const onward = Math.max(0, ...next.get(id)!.map((to) => SPACING.betweenLayers + widest(to)));
    from.set(id, widths.get(id)! + onward);
    return from.get(id)!;
  };
  return Math.max(0, ...[...widths.keys()].map(widest));
}

/** Text at README width (a wide page for a large graph) shrunk under READABLE_TEXT, the checker's rules: how far too wide, 0 when not. */
function widthCost(laid: { width: number }, nodes: number): number {
  return Math.max(0, laid.width / readableWidth(nodes) - 1);
}

/** Text at README width shrunk under READABLE_TEXT, and aspect beyond MAX_ASPECT: the checker's rules of issue 13. */
export function readmeCost(laid: LaidOutGraph, nodes: number): number {
  const aspect = Math.max(laid.width / laid.height, laid.height / laid.width);
  // Too long is a rule broken outright (a column to scroll through), not a few per cent of width: it weighs a whole
  // README width more (onion architecture: 1,294 × 4,682 px was kept over 1,753 × 3,186).
  const long = nodes > ASPECT_NODES && aspect > MAX_ASPECT ? aspect / MAX_ASPECT : 0;
  return widthCost(laid, nodes) + long;
}

const fitsReadme = (laid: LaidOutGraph, nodes: number) => readmeCost(laid, nodes) === 0;

/**
 * Width and height of what is drawn, without the margin ELK leaves around it: the checker measures these. A narrowed
 * drawing is tall, and near 3:1 the margin alone can hide a miss (aks-store narrowed and packed: 2.99 with it, 3.03 without).
 */
export function drawnExtent(laid: LaidOutGraph): { width: number; height: number } {
  const boxes = [...laid.nodes, ...laid.groups, ...laid.edges.flatMap((edge) => [...edge.labels, ...edge.points.map((point) => ({ ...point, width: 0, height: 0 }))])];
  const left = Math.min(...boxes.map((box) => box.x));
  const top = Math.min(...boxes.map((box) => box.y));
  return { width: Math.max(...boxes.map((box) => box.x + box.width)) - left, height: Math.max(...boxes.map((box) => box.y + box.height)) - top };
}

/**
 * Each container's components stacked along the flow. Undefined when that arranges nothing the plain layout does not
 * (no container holds two components but for loose items, which both set in a grid): an ELK run saved (2 of the 7
 * runs of a one-component schema).
 */
async function layoutStacked(graph: GraphIR, direction: Direction, worthWidening?: (laid: LaidOutGraph) => boolean): Promise<LaidOutGraph | undefined> {
  const arranged = (stacked: boolean) =>
    buildElkGraph(graph, direction, undefined, { stacked })
      .root.edges!.filter((edge) => edge.id.startsWith(PACK_EDGE))
      .map((edge) => `${edge.sources[0]}>${edge.targets[0]}`)
      .sort()
      .join();
  if (arranged(true) === arranged(false)) return undefined;
  return layoutShape(graph, direction, { stacked: true }, worthWidening);
}

/** How a try departs from the plain layout: components stacked along the flow, or ELK options that narrow it. */
interface Shape {
  stacked?: boolean;
  options?: Readonly<Record<string, string>>;
}

/** One ELK run the graph's own way, none of the tries that reshape it: for a layout that rearranges it after (swimlanes.ts). */
export const layoutOnce: LayoutEngine = (graph) => layoutShape(graph, graph.direction);

/**
 * `worthWidening`: whether a try whose titles found no gap can still be of use once widened for them; when not, it is
 * returned as it is (the caller's test then rejects it) and not laid out again.
 */
async function layoutShape(graph: GraphIR, direction: Direction, shape: Shape = {}, worthWidening: (laid: LaidOutGraph) => boolean = () => true): Promise<LaidOutGraph> {
  const run = async (widths?: ReadonlyMap<string, number>) => {
    const built = buildElkGraph(graph, direction, widths, shape);
    return placeTitles(keepLabelsBesideOwnEdges(separateEdgeRuns(rerouteDetours(mergeHubEnds(withoutSpacers(compactLabelLayers(readResult(elkLayout(built.root), built), direction)), graph), graph), graph)), graph);
  };
  const first = await run();
  if (first.blocked.size === 0 || !worthWidening(first.laid)) return first.laid;
  // A container widened by its title's width keeps its contents at its left (TITLED_CONTENT), so it has that much band
  // free of the edges entering it. Laid out again only when some title found no gap (C4 deployment nodes, nested one in one).
  return (await run(first.blocked)).laid;
}

/**
 * ELK leads edges of different ends through one line of the channel between layers, where a reader sees one line
 * joining the wrong nodes (issue 13), and edges into one node saying different things along one trunk (two back edges
 * of a state machine, differently labelled, up one line): those legs are moved apart, clear of nodes, containers and
 * labels.
 */
export function separateEdgeRuns(laid: LaidOutGraph, graph: GraphIR, endsOnOneLine = false): LaidOutGraph {
  const lines = laid.edges.map((edge) => {
    const drawn = graph.edges[edge.index]!;
    // Its end labels' size from the graph: Graphviz's placement with our routes sets labels after separating.
    const endLabels = [drawn.startLabel, drawn.endLabel].flatMap((text) => (text ? [labelOf(text, 'start')] : []));
    const endLabel = endLabels.length === 0 ? undefined : { width: Math.max(...endLabels.map((label) => label.width!)), height: Math.max(...endLabels.map((label) => label.height!)) };
    // A relation with a cardinality at each end means itself (edgeMeaning): two foreign keys named alike from different
    // tables are two relations, each on its own line (Chinook's track_id from invoice_line and playlist_track).
    return { points: edge.points, ends: [drawn.from, drawn.to], slideEnds: true, meaning: edgeMeaning(drawn), own: edge.labels, ...(endLabel && { endLabel }) };
  });
  // A self loop's curve keeps its ends: the ends slid along that side keep off them, or their heads crowd (Camunda's
  // executions, unfolded: the task's two keys slid in among the three loops' ends on the table's top).
  const loopEnds = laid.edges.flatMap((edge) => {
    const drawn = graph.edges[edge.index]!;
    if (drawn.from !== drawn.to) return [];
    return [edge.points[0], edge.points.at(-1)].flatMap((point) => (point ? [{ x: point.x - CROWDED_HEADS / 2, y: point.y - CROWDED_HEADS / 2, width: CROWDED_HEADS, height: CROWDED_HEADS }] : []));
  });
  // Routes that all reach a side at its middle (`endsOnOneLine`, Graphviz's placement with our routes) have their end
  // legs on one line, ordered by the pass that parts them: the legs across the flow are parted first, so that pass
  // knows where they run. Ends ordered first, sakila's staff and store address_id keys crossed above address.
  const levelFirst = endsOnOneLine && vertical(graph.direction);
  const separated = separateRuns(lines, [...laid.nodes, ...laid.groups, ...laid.edges.flatMap((edge) => edge.labels), ...loopEnds], levelFirst);
  return { ...laid, edges: laid.edges.map((edge, i) => ({ ...edge, points: separated[i]!, labels: edge.labels.map((label) => besideMovedLeg(label, edge.points, separated[i]!)) })) };
}

/** A label set beside a leg (within LABEL_HUG px of it, along it) keeps its place beside it when the leg moves across. */
function besideMovedLeg<T extends Box>(label: T, before: readonly Point[], after: readonly Point[]): T {
  for (let i = 0; i + 1 < before.length; i++) {
    const [a, b, c] = [before[i]!, before[i + 1]!, after[i]!];
    const vertical = a.x === b.x;
    const shift = vertical ? c.x - a.x : c.y - a.y;
    if (shift === 0 || (vertical ? a.y === b.y : false)) continue;
    const [across, lo, hi] = vertical ? [a.x, Math.min(a.y, b.y), Math.max(a.y, b.y)] : [a.y, Math.min(a.x, b.x), Math.max(a.x, b.x)];
    const [near, far, from, to] = vertical ? [label.x, label.x + label.width, label.y, label.y + label.height] : [label.y, label.y + label.height, label.x, label.x + label.width];
    const hugs = Math.min(Math.abs(near - across), Math.abs(far - across)) <= LABEL_HUG && from < hi && to > lo;
    if (hugs) return vertical ? { ...label, x: label.x + shift } : { ...label, y: label.y + shift };
  }
  return label;
}
/** How near a leg ELK sets an edge's labels beside it (SPACING.edgeLabelPadding and the end labels' offset). */
const LABEL_HUG = 6;

/**
 * Back edges of a depth-first walk over the whole graph (containers flattened), from the sources in input order.
 * ELK breaks cycles per container, where edges from outside start at port dummies, so it can reverse a chain inside a
 * container (a0 → a1 → a2 → a3 → a0 drawn from a2 down); reversing these edges up front leaves ELK an acyclic graph.
 */
export function backEdges(vertices: readonly string[], edges: readonly { from: string; to: string }[]): Set<number> {
  const out = new Map<string, number[]>(vertices.map((id) => [id, []]));
  const indegree = new Map<string, number>(vertices.map((id) => [id, 0]));
  edges.forEach((edge, index) => {
    if (edge.from === edge.to || !out.has(edge.from) || !out.has(edge.to)) return;
    out.get(edge.from)!.push(index);
    indegree.set(edge.to, indegree.get(edge.to)! + 1);
  });
  const back = new Set<number>();
  const state = new Map<string, 'open' | 'done'>();
  const walk = (root: string) => {
    if (state.has(root)) return;
    state.set(root, 'open');
    const stack: { id: string; next: number }[] = [{ id: root, next: 0 }];
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!;
      const outgoing = out.get(top.id)!;
      if (top.next === outgoing.length) {
        state.set(top.id, 'done');
        stack.pop();
        continue;
      }
      const index = outgoing[top.next++]!;
      const to = edges[index]!.to;
      const seen = state.get(to);
      if (seen === 'open') back.add(index);
      else if (seen === undefined) {
        state.set(to, 'open');
        stack.push({ id: to, next: 0 });
      }
    }
  };
  for (const id of vertices) if (indegree.get(id) === 0) walk(id);
  for (const id of vertices) walk(id);
  return back;
}

/**
 * An empty middle label on every unlabelled edge of a graph with labelled ones: ELK gives a label a layer of its own,
 * so a labelled edge spans two layers and an unlabelled one one; with this each spans two, as in Graphviz, which
 * doubles its ranks round labels, and the targets of one source stay level (compact.ts closes the empty band).
 */
// ELK inserts no label layer for a label without text.
const SPACER: ElkLabel = { id: 'center', text: ' ', width: 1, height: 1, layoutOptions: { 'elk.edgeLabels.placement': 'CENTER' } };

/** The spacers, once compact.ts has closed their bands. */
function withoutSpacers(laid: LaidOutGraph): LaidOutGraph {
  return { ...laid, edges: laid.edges.map((edge) => ({ ...edge, labels: edge.labels.filter((label) => label.text !== SPACER.text) })) };
}

function labelOf(text: string, placement: LaidOutLabel['placement'], reversed = false): ElkLabel {
  const wrapped = wrapEdgeLabel(text);
  const size = measureText(wrapped, FONT.edgeLabel, FONT.family);
  const pad = SPACING.edgeLabelPadding;
  // A reversed edge's start label sits at ELK's head.
  const elkPlacement = placement === 'center' ? 'CENTER' : (placement === 'start') !== reversed ? 'TAIL' : 'HEAD';
  return {
    id: placement,
    text: wrapped,
    width: size.width + 2 * pad,
    height: size.height + 2 * pad,
    layoutOptions: { 'elk.edgeLabels.placement': elkPlacement },
  };
}

/** `widths`: group id → minimum width, for titles the first layout left no room for. */
function buildElkGraph(graph: GraphIR, direction: Direction, widths: ReadonlyMap<string, number> = new Map(), { stacked = false, options = {} }: Shape = {}): Built {
  const warnings: string[] = [];
  const groupIds = new Set(graph.groups.map((group) => group.id));
  const nodeIds = new Set(graph.nodes.map((node) => node.id));
  const upright = vertical(direction);

  // A parent that names no group, or a cycle of parents, puts the item at the top level (with a warning).
  // Nodes and groups may share ids, so their parents are kept in two maps.
  const groupParent = new Map<string, string>();
  const nodeParent = new Map<string, string>();
  for (const group of graph.groups) {
    if (group.parent === undefined) continue;
    if (groupIds.has(group.parent)) groupParent.set(group.id, group.parent);
    else warnings.push(`group "${group.id}": parent "${group.parent}" is not a group; drawn at the top level`);
  }
  for (const group of graph.groups) {
    const seen = new Set([group.id]);
    for (let up = groupParent.get(group.id); up !== undefined; up = groupParent.get(up)) {
      if (seen.has(up)) {
        warnings.push(`group "${group.id}": its parents form a cycle; drawn at the top level`);
        groupParent.delete(group.id);
        break;
      }
      seen.add(up);
    }
  }
  for (const node of graph.nodes) {
    if (node.parent === undefined) continue;
    if (groupIds.has(node.parent)) nodeParent.set(node.id, node.parent);
    else warnings.push(`node "${node.id}": parent "${node.parent}" is not a group; drawn at the top level`);
  }
  /** Groups around a group, or around a node when `isNode`, innermost first. */
  const ancestors = (id: string, isNode: boolean): string[] => {
    const chain: string[] = [];
    for (let up = isNode ? nodeParent.get(id) : groupParent.get(id); up !== undefined; up = groupParent.get(up)) chain.push(up);
    return chain;
  };

  // Past a few hundred items, fewer crossing-minimisation sweeps save a third of the time and, measured on the bench
  // graph (300 nodes, 450 edges), no crossings.
  const large = graph.nodes.length + graph.edges.length > LARGE_GRAPH_ITEMS;
  const layoutOptions = { ...ELK_DEFAULTS, 'elk.direction': direction, ...(large && { 'elk.layered.thoroughness': '3' }), ...(graph.inSourceOrder && IN_SOURCE_ORDER), ...(graph.closeSteps && CLOSE_STEPS), ...options };
  const root: ElkNode = { id: 'root', layoutOptions, children: [], edges: [] };
  const elkNodes = new Map<string, ElkNode>();
  const boxes = new Map<string, NodeBox>();
  const titles = new Map<string, string>();
  const depth = new Map<string, number>();

  const hasChildren = new Set([...groupParent.values(), ...nodeParent.values()]);
  for (const group of graph.groups) {
    const { text: title, ...titleSize } = containerTitle(group.label);
    const pad = SPACING.containerPadding;
    const minWidth = Math.max(CONTAINER_MIN_WIDTH, titleSize.width + 2 * pad, widths.get(group.id) ?? 0);
    const minHeight = titleSize.height + SPACING.containerTitleGap + 2 * pad;
    titles.set(group.id, title);
    depth.set(group.id, ancestors(group.id, false).length);
    elkNodes.set(groupKey(group.id), {
      id: groupKey(group.id),
      children: [],
      layoutOptions: {
        'elk.padding': `[top=${pad + titleSize.height + SPACING.containerTitleGap},left=${pad},bottom=${pad},right=${pad}]`,
        'elk.nodeSize.constraints': '[MINIMUM_SIZE]',
        'elk.contentAlignment': widths.has(group.id) ? TITLED_CONTENT : CENTRED_CONTENT,
        // ELK quirk: with INCLUDE_CHILDREN in a vertical direction a compound node's minimum size is applied transposed.
        'elk.nodeSize.minimum': upright && hasChildren.has(group.id) ? `(${minHeight}, ${minWidth})` : `(${minWidth}, ${minHeight})`,
        // With INCLUDE_CHILDREN each container is still layered on its own, by its own options: its spacing between
        // layers too. Within a layer ELK's closer spacing is kept: containers stay as narrow as they were.
        ...CONTAINER_SPACING,
        ...options,
      },
    });
  }
  const ends = labelledEnds(graph);
  const selfLoops = new Map<string, number>();
  for (const edge of graph.edges) if (edge.from === edge.to) selfLoops.set(edge.from, (selfLoops.get(edge.from) ?? 0) + 1);
  for (const node of graph.nodes) {
    const box = sizeNode(node, direction);
    boxes.set(node.id, box);
    // A side that the labelled ends of many edges reach is made long enough to hold each end and its label apart.
    // ELK spreads n ends over a side at 1/(n + 1) of its length each (DISTRIBUTED alignment): n + 1 pitches hold them.
    const room = ((ends.get(node.id) ?? -1) + 1) * (upright ? END_PITCH_ACROSS : END_PITCH_ALONG);
    const size = upright ? { width: Math.max(box.width, room), height: box.height } : { width: box.width, height: Math.max(box.height, room) };
    elkNodes.set(nodeKey(node.id), { id: nodeKey(node.id), ...size, ...((selfLoops.get(node.id) ?? 0) > 1 && { layoutOptions: SELF_LOOPS_APART }) });
  }
  const place = (id: string, key: string, parent: string | undefined) => {
    const container = parent === undefined ? root : elkNodes.get(groupKey(parent))!;
    container.children!.push(elkNodes.get(key)!);
  };
  for (const group of graph.groups) place(group.id, groupKey(group.id), groupParent.get(group.id));
  for (const node of graph.nodes) place(node.id, nodeKey(node.id), nodeParent.get(node.id));
  const endKey = (end: string) => (nodeIds.has(end) ? nodeKey(end) : groupKey(end));
  const edgeIndex = new Map<string, number>();
  const reversed = new Set<string>();
  const drawn: { from: string; to: string }[] = [];
  const drawnIndex: number[] = [];
  /** Edges handed to ELK head first, as their author set the target before the source along the flow. */
  const authorsBack = new Set<number>();

  graph.edges.forEach((edge, index) => {
    const missing = [edge.from, edge.to].find((end) => !nodeIds.has(end) && !groupIds.has(end));
    if (missing !== undefined) {
      warnings.push(`edge "${edge.id}": "${missing}" is neither a node nor a group; the edge is not drawn`);
      return;
    }
    // An edge end names a node, or else a group (as in scene building).
    const aroundFrom = ancestors(edge.from, nodeIds.has(edge.from));
    const aroundTo = ancestors(edge.to, nodeIds.has(edge.to));
    if ((!nodeIds.has(edge.to) && aroundFrom.includes(edge.to)) || (!nodeIds.has(edge.from) && aroundTo.includes(edge.from))) {
      warnings.push(`edge "${edge.id}": joins a container to something inside it; the edge is not drawn`);
      return;
    }
    // A target set before its source along the flow (PlantUML's `note right of` in a flow to the right, `-l->` in
    // one to the left) is ranked before it: ELK layers only by edges, so the note sat in the layer before, left of
    // what it annotates. Sides across the flow are Graphviz's (engine.ts).
    if (edge.toward !== undefined && vertical(edge.toward) === upright && edge.toward !== direction) {
      authorsBack.add(drawn.length);
      drawn.push({ from: endKey(edge.to), to: endKey(edge.from) });
    } else drawn.push({ from: endKey(edge.from), to: endKey(edge.to) });
    drawnIndex.push(index);
  });
  const back = backEdges([...elkNodes.keys()], drawn);
  widenForEnds(graph, drawn, drawnIndex, back, elkNodes, upright);
  // Only without containers: compact.ts closes a band only where it crosses the whole drawing, which containers rarely
  // leave free, so there the spacers would lengthen edges (nextcloud's compose file: 1.35 Mpx² to 1.99). Nor in a
  // wrapped flow, which ELK no longer cuts into columns when every edge has a label layer. Nor past a README column's
  // READABLE_NODES: in a dense graph every layer added puts a dummy on each edge across it (sentry's compose file drawn
  // in full: 23.5 Mpx² became 40.7, and 315 ms 553).
  const spaced =
    graph.groups.length === 0 && graph.nodes.length <= READABLE_NODES && options['elk.layered.wrapping.strategy'] === undefined && graph.edges.some((edge) => edge.label);
  drawn.forEach(({ from, to }, i) => {
    const index = drawnIndex[i]!;
    const edge = graph.edges[index]!;
    const flip = back.has(i);
    /** Whether ELK gets the edge head first: a back edge of a cycle, or one the author set against the flow, not both. */
    const turned = flip !== authorsBack.has(i);
    const labels: ElkLabel[] = [];
    if (edge.label) labels.push(labelOf(edge.label, 'center'));
    else if (spaced) labels.push(SPACER);
    if (edge.startLabel) labels.push(labelOf(edge.startLabel, 'start', turned));
    if (edge.endLabel) labels.push(labelOf(edge.endLabel, 'end', turned));
    const elkEdge: ElkExtendedEdge = { id: `e:${index}`, sources: [flip ? to : from], targets: [flip ? from : to], labels };
    edgeIndex.set(elkEdge.id, index);
    if (turned) reversed.add(elkEdge.id);
    root.edges!.push(elkEdge);
  });
  root.edges!.push(...arrangingEdges(root, drawn, upright, stacked));
  return { root, boxes, titles, depth, edgeIndex, reversed, warnings };
}

/**
 * A row of a container's single items, stacked, is no wider than a README column takes inside a container's padding
 * (and the root's margin): the stacked try is there to narrow a drawing (four classes of 440 px in two rows: 1,195 px).
 */
const STACKED_ROW_WIDTH = READABLE_WIDTH - 2 * (SPACING.containerPadding + 12);
/**
 * Fewer single nodes than this in a container, stacked, stay steps of their own: two one after the other are no
 * staircase, and side by side they let the stacked try win the onion architecture with a column 4,234 px tall
 * (1,427 px wide; 1,725 × 3,333 px before).
 */
const STAIRCASE_MIN = 3;
/**
 * Room along a node's side per edge end that carries a label (a cardinality): one above the other when the flow runs
 * sideways (a label's height, the crow's foot and a gap), side by side when it runs down (a label's width). ELK
 * spreads the ends of a side over its length; on a table drawn as its name alone, nine relations of a Mermaid ER
 * hub (a library's USERS) piled their crow's feet and "0..*" labels on one another in 32 px.
 */
const END_PITCH_ALONG = 26;
const END_PITCH_ACROSS = 48;

/**
 * For each node, the most labelled edge ends on one of its sides, as the layering puts them: its edges out on one
 * side, its edges in on the other (a self loop has a side of its own, and is left out).
 */
function labelledEnds(graph: GraphIR): Map<string, number> {
  const out = new Map<string, number>();
  const into = new Map<string, number>();
  for (const edge of graph.edges) {
    if (edge.from === edge.to) continue;
    if (edge.startLabel) out.set(edge.from, (out.get(edge.from) ?? 0) + 1);
    if (edge.endLabel) into.set(edge.to, (into.get(edge.to) ?? 0) + 1);
  }
  const most = new Map<string, number>();
  for (const [id, count] of [...out, ...into]) if (count >= MIN_SPREAD_ENDS) most.set(id, Math.max(most.get(id) ?? 0, count));
  return most;
}
/** A single labelled end fits any node. */
const MIN_SPREAD_ENDS = 2;

/**
 * Room along a side per edge end: an arrowhead's width (headSize at the default stroke, 0.9 of it across), so heads
 * side by side do not overlap. ELK spreads a side's ends at 1/(n + 1) of its length: a state machine's 60 px Idle with
 * five ends on its lower side had them 10 px apart, three arrowheads and a line run into one dark wedge, where
 * Graphviz widens the node.
 */
const END_PITCH = 16;

/**
 * Widens (or, in a sideways flow, heightens) each node so the busiest of its two sides across the flow holds its ends
 * END_PITCH apart. ELK puts an edge's tail on its source's far side and its head on its target's near side, back edges
 * reversed as they are handed to it. HUB_TRUNK_MIN_EDGES or more heads of one kind on one side share one point
 * (mergeHubEnds), so they take one place. A node whose size is fixed keeps it: a 10 px start dot its author sized, an end
 * bull's-eye read back as a circle only while it is one.
 */
function widenForEnds(
  graph: GraphIR,
  drawn: readonly { from: string; to: string }[],
  drawnIndex: readonly number[],
  back: ReadonlySet<number>,
  elkNodes: ReadonlyMap<string, ElkNode>,
  upright: boolean,
): void {
  /** ELK key and side ('out' or 'in' of the flow) → ends there, by the kind of end they are. */
  const sides = new Map<string, Map<string, number>>();
  drawn.forEach(({ from, to }, i) => {
    if (from === to) return;
    const edge = graph.edges[drawnIndex[i]!]!;
    const ends = [
      { key: from, head: edge.startArrowhead ?? 'none', at: 'start' },
      { key: to, head: edge.endArrowhead ?? 'arrow', at: 'end' },
    ];
    const [tail, head] = back.has(i) ? [ends[1]!, ends[0]!] : [ends[0]!, ends[1]!];
    for (const [end, side] of [[tail, 'out'], [head, 'in']] as const) {
      const kinds = sides.get(`${end.key} ${side}`) ?? new Map<string, number>();
      const kind = `${end.at} ${end.head}`;
      kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
      sides.set(`${end.key} ${side}`, kinds);
    }
  });
  const fixed = new Set(graph.nodes.filter(hasFixedSize).map((node) => nodeKey(node.id)));
  for (const [side, kinds] of sides) {
    const key = side.slice(0, side.lastIndexOf(' '));
    const node = elkNodes.get(key);
    if (node === undefined || node.children !== undefined || fixed.has(key)) continue;
    let ends = 0;
    for (const count of kinds.values()) ends += count >= HUB_TRUNK_MIN_EDGES ? 1 : count;
    const room = (ends + 1) * END_PITCH;
    if (upright) node.width = Math.max(node.width ?? 0, room);
    else node.height = Math.max(node.height ?? 0, room);
  }
}

/** Fewer disconnected items than this in one container are left where ELK puts them. */
const PACK_MIN_ITEMS = 4;
/** Width over height the packed items aim for, a landscape page. */
export const PACK_ASPECT = 1.6;
const PACK_EDGE = 'pack:';

/**
 * Invisible edges that arrange the items of each container (the root included); they are dropped from the result.
 * With INCLUDE_CHILDREN, ELK does not separate connected components: every item no edge touches lands in the
 * container's first layer (eleven unrelated Helm services became one column 1,200 px tall), and so does the first
 * node of each component. Plain, a container's loose items (no edge touches them or anything inside them) are set in
 * a grid. `stacked`, its components are stacked one after the other along the flow (a package of unrelated classes
 * was one wide row), but single nodes, which join nothing else in the container, are set in a grid together, one
 * step of the stack: one after the other they made a staircase, a step per node, as each sits beside its
 * neighbour's edges (a Mermaid subgraph of agents each called from outside).
 */
function arrangingEdges(root: ElkNode, drawn: readonly { from: string; to: string }[], vertical: boolean, stacked: boolean): ElkExtendedEdge[] {
  const parentOf = new Map<string, string>();
  const containers: ElkNode[] = [root];
  for (let i = 0; i < containers.length; i++) {
    for (const child of containers[i]!.children ?? []) {
      parentOf.set(child.id, containers[i]!.id);
      if (child.children !== undefined) containers.push(child);
    }
  }
  /** The child of `container` that holds `id`, if `id` is inside it. */
  const childOf = (id: string, container: string): string | undefined => {
    for (let at: string | undefined = id; at !== undefined; at = parentOf.get(at)) if (parentOf.get(at) === container) return at;
    return undefined;
  };
  const connected = new Set<string>();
  for (const end of drawn.flatMap(({ from, to }) => [from, to])) {
    for (let id: string | undefined = end; id !== undefined && id !== root.id && !connected.has(id); id = parentOf.get(id)) connected.add(id);
  }
  const edges: ElkExtendedEdge[] = [];
  const link = (source: string, target: string) => edges.push({ id: `${PACK_EDGE}${edges.length}`, sources: [source], targets: [target] });
  /** Item i chained to item i + k: k items per layer, k chosen for a landscape block. Returns the block's first and last item. */
  const grid = (items: readonly ElkNode[], widthLimit?: number) => {
    const perLayer = gridLayerSize(items, vertical, widthLimit);
    for (let i = 0; i + perLayer < items.length; i++) link(items[i]!.id, items[i + perLayer]!.id);
    return { source: items[0]!.id, sink: items[items.length - 1]!.id };
  };
  for (const container of containers) {
    const children = container.children ?? [];
    if (!stacked) {
      const loose = children.filter((child) => !connected.has(child.id));
      if (loose.length >= PACK_MIN_ITEMS) grid(loose);
      continue;
    }
    if (children.length < 2) continue;
    const inner = drawn.map(({ from, to }) => [childOf(from, container.id), childOf(to, container.id)] as const).filter(([a, b]) => a !== undefined && b !== undefined && a !== b) as [string, string][];
    const component = new Map(children.map((child) => [child.id, child.id]));
    const find = (id: string): string => (component.get(id) === id ? id : find(component.get(id)!));
    for (const [a, b] of inner) component.set(find(a), find(b));
    const members = new Map<string, ElkNode[]>();
    for (const child of children) members.set(find(child.id), [...(members.get(find(child.id)) ?? []), child]);
    // Single nodes; a container alone in its part stays a step of its own, as its contents already take rows.
    const nodes = [...members.values()].filter((part) => part.length === 1 && part[0]!.children === undefined).map(([item]) => item!);
    const singles = nodes.length >= STAIRCASE_MIN ? nodes : [];
    // The steps of the stack in the order of their first item: each component, and the grid of single nodes.
    const steps: { source: string; sink: string }[] = [];
    for (const part of members.values()) {
      if (!singles.includes(part[0]!)) {
        const ids = part.map((item) => item.id);
        steps.push({ source: ids.find((id) => !inner.some(([, b]) => b === id)) ?? ids[0]!, sink: ids.find((id) => !inner.some(([a]) => a === id)) ?? ids[0]! });
      } else if (part[0] === singles[0]) steps.push(grid(singles, STACKED_ROW_WIDTH));
    }
    for (let i = 0; i + 1 < steps.length; i++) link(steps[i]!.sink, steps[i + 1]!.source);
  }
  return edges;
}

/**
 * Items per layer for a landscape block of `items`: layers are columns when the flow runs sideways, rows when it runs
 * down, and then no more than a row `widthLimit` wide holds.
 */
function gridLayerSize(items: readonly ElkNode[], vertical: boolean, widthLimit = Infinity): number {
  const width = items.reduce((sum, item) => sum + (item.width ?? CONTAINER_MIN_WIDTH), 0) / items.length + SPACING.nodeNode;
  const height = items.reduce((sum, item) => sum + (item.height ?? 0), 0) / items.length + SPACING.nodeNode;
  const ratio = vertical ? (PACK_ASPECT * (height + SPACING.betweenLayers - SPACING.nodeNode)) / width : (width + SPACING.betweenLayers - SPACING.nodeNode) / (PACK_ASPECT * height);
  const fitting = vertical ? Math.floor((widthLimit + SPACING.nodeNode) / width) : Infinity;
  return Math.max(1, Math.min(items.length, fitting, Math.ceil(Math.sqrt(items.length * ratio))));
}

function readResult(root: ElkNode, built: Built): LaidOutGraph {
  const nodes: LaidOutNode[] = [];
  const groups: LaidOutGroup[] = [];
  const walk = (elkNode: ElkNode) => {
    for (const child of elkNode.children ?? []) {
      const box = { x: child.x ?? 0, y: child.y ?? 0, width: child.width ?? 0, height: child.height ?? 0 };
      const id = child.id.slice(2);
      if (child.id.startsWith('n:')) {
        nodes.push({ id, ...box, box: built.boxes.get(id)! });
        continue;
      }
      const text = built.titles.get(id) ?? '';
      const size = measureText(text, FONT.containerTitle, FONT.family);
      const pad = SPACING.containerPadding;
      groups.push({ id, ...box, depth: built.depth.get(id) ?? 0, title: { text, x: box.x + pad, y: box.y + pad, ...size } });
      walk(child);
    }
  };
  walk(root);

  const edges: LaidOutEdge[] = (root.edges ?? []).filter((edge) => !edge.id.startsWith(PACK_EDGE)).map((edge) => {
    const section = edge.sections?.[0];
    const points: Point[] = section ? [section.startPoint, ...(section.bendPoints ?? []), section.endPoint].map(({ x, y }) => ({ x, y })) : [];
    if (built.reversed.has(edge.id)) points.reverse();
    const labels: LaidOutLabel[] = (edge.labels ?? []).map((label) => {
      const pad = SPACING.edgeLabelPadding;
      return {
        text: label.text ?? '',
        placement: label.id as LaidOutLabel['placement'],
        x: (label.x ?? 0) + pad,
        y: (label.y ?? 0) + pad,
        width: (label.width ?? 0) - 2 * pad,
        height: (label.height ?? 0) - 2 * pad,
      };
    });
    return { index: built.edgeIndex.get(edge.id)!, points: simplifyPolyline(points), labels };
  });
  return { nodes, groups, edges, warnings: built.warnings, width: root.width ?? 0, height: root.height ?? 0 };
}
