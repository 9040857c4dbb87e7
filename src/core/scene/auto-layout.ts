/**
 * `layout: "auto"`: a scene sent without coordinates is placed by the from-code layout engine. The client says what
 * there is (shapes with their text, arrows bound at both ends, membership through `parentId`/`frameId` or a frame's
 * `children`); layout says where. Three pure steps around the engine, so the heavy one can run in a worker:
 *
 * 1. `planAutoLayout(raw)` before the intake: notes which elements came without a position and who sits in which
 *    container, and fills placeholders so the intake can validate them.
 * 2. `sceneToGraph(elements, plan)` after the intake: the unplaced shapes as nodes, unplaced containers as groups,
 *    arrows between them as edges.
 * 3. `placeScene(elements, plan, laidOut, drawn)` after `drawGraph`: each element takes its place, size and route from
 *    the drawing and keeps its id, style and text. Containers are painted first, a shape container's text becomes
 *    its standalone title (the guide's one title rule), an arrow's text a label where layout made room for it, and
 *    everything laid out sits beside what kept its position.
 */
import type { GraphEdge, GraphGroup, GraphIR, GraphNode } from '../graph/types.js';
import { SHAPE_TYPES } from './constants.js';
import type { GeneratedElement } from './from-graph.js';
import type { Element } from './schema.js';
import { containerOf } from './structure.js';

export interface AutoLayoutPlan {
  /** Ids of the elements sent without x and y. */
  unplaced: Set<string>;
  /** Of those, the ones sent without a font size or family: they take the layout's, which their box is sized for. */
  unstyledText: Set<string>;
  /** Of those, the ones sent without a width and height (their box is a placeholder). */
  unsized?: Set<string>;
}

/** Types drawn with points (routed by layout when bound, never placed as boxes). */
const LINEAR = new Set(['arrow', 'line', 'freedraw', 'highlight']);
const SHAPES = new Set<string>(SHAPE_TYPES);
/** Gap between what kept its position and the laid-out block, and between stacked free texts. */
const BESIDE_GAP = 80;
const TEXT_GAP = 16;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Step 1, on the raw input (a native or skeleton array, or an object with `elements`): ids for elements without one
 * (membership needs them), placeholder geometry for unplaced ones, a frame's `children` written as their frameId.
 */
export function planAutoLayout(raw: unknown): { raw: unknown; plan: AutoLayoutPlan } {
  const plan: AutoLayoutPlan = { unplaced: new Set(), unstyledText: new Set() };
  /** A frame's `children`: member id → frame id. */
  const frameOf = new Map<string, string>();
  const list = Array.isArray(raw) ? raw : isRecord(raw) && Array.isArray(raw.elements) ? raw.elements : undefined;
  if (list === undefined) return { raw, plan };
  const taken = new Set(list.flatMap((item) => (isRecord(item) && typeof item.id === 'string' ? [item.id] : [])));
  let next = 0;
  const freshId = () => {
    let id: string;
    do id = `auto-${++next}`;
    while (taken.has(id));
    taken.add(id);
    return id;
  };
  const elements = list.map((item, index) => {
    if (!isRecord(item)) return item;
    const element: Record<string, unknown> = { ...item };
    if (typeof element.id !== 'string' || element.id === '') element.id = freshId();
    const id = element.id as string;
    if (Array.isArray(element.children) && element.type === 'frame') {
      for (const child of element.children) if (typeof child === 'string') frameOf.set(child, id);
      delete element.children;
    }
    if (!LINEAR.has(String(element.type)) && (typeof element.x !== 'number' || typeof element.y !== 'number')) {
      plan.unplaced.add(id);
      if (element.fontSize === undefined && element.fontFamily === undefined) plan.unstyledText.add(id);
      // Spread out, so that nothing the intake checks (text fit, overlaps) is judged on a pile of placeholders.
      element.x = (index % 40) * 400;
      element.y = Math.floor(index / 40) * 300;
      if (typeof element.width !== 'number' && typeof element.height !== 'number') (plan.unsized ??= new Set()).add(id);
      if (typeof element.width !== 'number' && element.type !== 'text') element.width = 160;
      if (typeof element.height !== 'number' && element.type !== 'text') element.height = 80;
    }
    return element;
  });
  // A frame's `children` list is kept the way every element says it: as the member's own frameId.
  for (const element of elements) {
    if (!isRecord(element) || typeof element.id !== 'string') continue;
    const frame = frameOf.get(element.id);
    if (frame !== undefined && element.parentId === undefined && element.frameId === undefined) element.frameId = frame;
  }
  return { raw: Array.isArray(raw) ? elements : { ...(raw as object), elements }, plan };
}

export interface SceneGraph {
  graph: GraphIR;
  /** Graph id → element id, and element id → graph id, for nodes, groups and edges. */
  toElement: Map<string, string>;
  toGraph: Map<string, string>;
}

/** Step 2: the graph of what layout places. Graph ids are short and safe (`n1`, `g1`, `e1`), so drawn ids equal them. */
export function sceneToGraph(elements: readonly Element[], plan: AutoLayoutPlan): SceneGraph {
  const byId = new Map(elements.map((element) => [element.id, element]));
  const warnings: string[] = [];
  // Membership as the intake left it: every link names a box of this scene and no chain of containers loops.
  const members = new Map(elements.flatMap((element) => {
    const parent = containerOf(element);
    return parent === undefined ? [] : [[element.id, parent] as const];
  }));
  const containers = new Set([...members.values()].filter((id) => plan.unplaced.has(id) && byId.has(id)));
  const toElement = new Map<string, string>();
  const toGraph = new Map<string, string>();
  const name = (prefix: string, elementId: string) => {
    const id = `${prefix}${toElement.size + 1}`;
    toElement.set(id, elementId);
    toGraph.set(elementId, id);
    return id;
  };
  const groups: GraphGroup[] = [];
  const nodes: GraphNode[] = [];
  for (const element of elements) {
    if (!plan.unplaced.has(element.id) || LINEAR.has(element.type)) continue;
    if (containers.has(element.id)) {
      groups.push({ id: name('g', element.id), label: element.type === 'frame' ? element.name : (element.text ?? '') });
    } else if (element.type !== 'text') {
      const node: GraphNode = { id: name('n', element.id), label: element.text ?? '', kind: element.type === 'cylinder' ? 'database' : 'generic', shape: SHAPES.has(element.type) ? element.type : 'rectangle' };
      if (element.iconRef !== undefined) node.iconRef = element.iconRef;
      nodes.push(node);
    }
  }
  for (const item of [...groups, ...nodes]) {
    const parent = members.get(toElement.get(item.id)!);
    if (parent === undefined) continue;
    const group = toGraph.get(parent);
    if (group !== undefined && group.startsWith('g')) item.parent = group;
    else warnings.push(`"${toElement.get(item.id)}": its container "${parent}" has a position, so it is laid out beside it, not inside`);
  }
  const edges: GraphEdge[] = [];
  for (const element of elements) {
    if (element.type !== 'arrow' && element.type !== 'line') continue;
    const from = element.type === 'arrow' ? element.startBinding && toGraph.get(element.startBinding.elementId) : undefined;
    const to = element.type === 'arrow' ? element.endBinding && toGraph.get(element.endBinding.elementId) : undefined;
    if (from === undefined || to === undefined || element.type !== 'arrow') continue;
    const edge: GraphEdge = { id: name('e', element.id), from, to, startArrowhead: element.startArrowhead, endArrowhead: element.endArrowhead };
    if (element.text !== undefined && element.text !== '') edge.label = element.text;
    edges.push(edge);
  }
  return { graph: { layout: 'layered', direction: 'DOWN', nodes, edges, groups, warnings }, toElement, toGraph };
}

type Box = { x: number; y: number; width: number; height: number };
const boxOf = (element: { x?: number; y?: number; width?: number; height?: number }): Box => ({ x: element.x ?? 0, y: element.y ?? 0, width: element.width ?? 0, height: element.height ?? 0 });
const round = (value: number) => Math.round(value * 100) / 100;

/**
 * Step 3: the scene with every laid-out element in its place. Returns elements in input form (the intake completes and
 * checks them again) and what was approximated.
 */
export function placeScene(elements: readonly Element[], plan: AutoLayoutPlan, laidOut: SceneGraph, drawn: readonly GeneratedElement[]): { elements: Record<string, unknown>[]; warnings: string[] } {
  const drawnById = new Map(drawn.map((element) => [element.id, element]));
  const placed = (id: string) => {
    const graphId = laidOut.toGraph.get(id);
    return graphId === undefined ? undefined : drawnById.get(graphId);
  };
  // What kept its position: the laid-out block goes to its right.
  const fixed = elements.filter((e) => !plan.unplaced.has(e.id) && !LINEAR.has(e.type)).map(boxOf);
  const block = drawn.filter((e) => e.type !== 'arrow' && e.type !== 'line').map(boxOf);
  const blockLeft = Math.min(...block.map((b) => b.x), Infinity);
  const blockTop = Math.min(...block.map((b) => b.y), Infinity);
  const shift =
    fixed.length > 0 && block.length > 0
      ? { x: Math.max(...fixed.map((b) => b.x + b.width)) + BESIDE_GAP - blockLeft, y: Math.min(...fixed.map((b) => b.y)) - blockTop }
      : { x: 0, y: 0 };
  const move = (box: Box) => ({ x: round(box.x + shift.x), y: round(box.y + shift.y), width: box.width, height: box.height });

  const ids = new Set(elements.map((element) => element.id));
  const freshId = (wanted: string) => {
    let id = wanted;
    for (let n = 2; ids.has(id); n++) id = `${wanted}-${n}`;
    ids.add(id);
    return id;
  };
  const labels: Record<string, unknown>[] = [];
  const containers: Record<string, unknown>[] = [];
  const titles: Record<string, unknown>[] = [];
  const rest: Record<string, unknown>[] = [];
  const freeTexts: Record<string, unknown>[] = [];
  for (const element of elements) {
    const own = { ...element } as Record<string, unknown>;
    const laid = placed(element.id);
    const graphId = laidOut.toGraph.get(element.id);
    if (laid !== undefined && graphId?.startsWith('g')) {
      Object.assign(own, move(boxOf(laid)));
      // A shape container's text would sit in its middle, under its members: it becomes the title above them.
      const title = drawnById.get(`${graphId}-title`);
      if (element.type !== 'frame' && typeof own.text === 'string' && own.text !== '' && title !== undefined) {
        titles.push({ ...title, id: freshId(`${element.id}-title`), ...move(boxOf(title)), labelOf: element.id });
        delete own.text;
      }
      containers.push(own);
    } else if (laid !== undefined && graphId?.startsWith('n')) {
      Object.assign(own, move(boxOf(laid)));
      if (plan.unstyledText.has(element.id) && laid.fontSize !== undefined) Object.assign(own, { fontSize: laid.fontSize, fontFamily: laid.fontFamily });
      rest.push(own);
    } else if (laid !== undefined && laid.type === 'arrow' && graphId?.startsWith('e')) {
      const back = (binding: { elementId: string; focus?: { x: number; y: number } } | undefined) =>
        binding === undefined ? undefined : { elementId: laidOut.toElement.get(binding.elementId) ?? binding.elementId, ...(binding.focus && { focus: binding.focus }) };
      const points = (laid as { points?: Array<{ x: number; y: number }> }).points?.map((p) => ({ x: round(p.x + shift.x), y: round(p.y + shift.y) }));
      for (const key of ['x', 'y', 'width', 'height', 'controlPoint', 'controlPoint2']) delete own[key];
      // The label goes where layout made room for it, clear of every shape, as a text beside the arrow (export reads
      // a text on or near an arrow as its label); on the arrow it would sit on the route's middle, wherever that is.
      const label = drawnById.get(`${graphId}-label`);
      if (typeof own.text === 'string' && own.text !== '' && label !== undefined) {
        labels.push({ ...label, id: freshId(`${element.id}-label`), text: own.text, ...move(boxOf(label)), labelOf: element.id });
        for (const key of ['text', 'fontSize', 'fontFamily', 'textAlign']) delete own[key];
      }
      Object.assign(own, { points, arrowShape: (laid as { arrowShape?: string }).arrowShape, startBinding: back((laid as { startBinding?: never }).startBinding), endBinding: back((laid as { endBinding?: never }).endBinding) });
      rest.push(own);
    } else if (plan.unplaced.has(element.id) && element.type === 'text') {
      freeTexts.push(own);
    } else {
      // An arrow between something laid out and something that kept its position: the server's router draws it.
      if (element.type === 'arrow' && element.startBinding && element.endBinding && (placed(element.startBinding.elementId) || placed(element.endBinding.elementId))) {
        for (const key of ['points', 'x', 'y', 'width', 'height', 'controlPoint', 'controlPoint2']) delete own[key];
        own.arrowShape = 'smart';
        own.startBinding = { elementId: element.startBinding.elementId };
        own.endBinding = { elementId: element.endBinding.elementId };
      }
      rest.push(own);
    }
  }
  // Free texts sent without a position (a diagram title, a note) are stacked above the drawing's top-left corner.
  const everything = [...containers, ...titles, ...rest].filter((e) => typeof e.x === 'number' && typeof e.y === 'number' && !LINEAR.has(String(e.type))).map((e) => boxOf(e as Box));
  let top = Math.min(...everything.map((b) => b.y), 0);
  const left = Math.min(...everything.map((b) => b.x), 0);
  for (const text of [...freeTexts].reverse()) {
    const height = typeof text.height === 'number' ? text.height : Math.ceil(((text.fontSize as number | undefined) ?? 20) * 1.25 * String(text.text).split('\n').length);
    top -= height + TEXT_GAP;
    Object.assign(text, { x: left, y: round(top) });
  }
  // Outer containers first, so members paint above them (drawn order is by depth).
  const depth = (e: Record<string, unknown>) => drawn.findIndex((d) => d.id === laidOut.toGraph.get(String(e.id)));
  containers.sort((a, b) => depth(a) - depth(b));
  // Labels last: they sit on top of any arrow passing under them.
  return { elements: [...containers, ...titles, ...freeTexts, ...rest, ...labels], warnings: laidOut.graph.warnings };
}
