/**
 * Insets: a diagram drawn inside one node's box of a layered drawing (a D2 `shape: sequence_diagram` inside a
 * container). The inset is laid out first by its own layout, the node sized to hold it under a container title, the
 * outer graph laid out around that box, and the inset's elements then moved into it, with ids of their own.
 */
import type { GraphIR, GraphNode } from '../graph/types.js';
import { CONTAINER_FILLS, CONTAINER_STROKE, FONT } from '../layout/drawing-rules.js';
import { measureText } from '../layout/measure.js';
import { layoutSequence } from '../layout/sequence.js';
import type { GeneratedElement, GraphScene } from './from-graph.js';

/** Room between the box's edge and what it holds, as a container keeps around its children. */
const INSET_PADDING = 20;
/** Room between the title and the inset under it. */
const TITLE_GAP = 12;

interface LaidInset {
  elements: GeneratedElement[];
  parents: Map<string, string>;
  warnings: string[];
  /** The top-left corner of what the inset's layout drew. */
  left: number;
  top: number;
  title: { text: string; width: number; height: number };
}

/** The graph with each inset's node sized to hold it, and the insets laid out (by node id). */
export function sizeInsets(graph: GraphIR): { graph: GraphIR; insets: Map<string, LaidInset> } {
  const insets = new Map<string, LaidInset>();
  const nodes = graph.nodes.map((node): GraphNode => {
    if (node.inset === undefined) return node;
    const laid = layoutSequence(node.inset);
    const boxes = laid.elements.flatMap((e) => (e.x === undefined || e.y === undefined ? [] : [{ x: e.x, y: e.y }]));
    const title = { text: node.label, ...measureText(node.label, FONT.containerTitle, FONT.family) };
    insets.set(node.id, {
      elements: laid.elements,
      parents: laid.parents,
      warnings: laid.warnings,
      left: Math.min(...boxes.map((b) => b.x)),
      top: Math.min(...boxes.map((b) => b.y)),
      title,
    });
    const width = Math.max(laid.width, title.width) + 2 * INSET_PADDING;
    const height = laid.height + title.height + TITLE_GAP + 2 * INSET_PADDING;
    // Drawn as a container: the title is placed with the inset, so the box itself carries no centred label.
    const style = { fillColor: CONTAINER_FILLS[0], strokeColor: CONTAINER_STROKE, strokeStyle: 'dashed' as const, ...node.style };
    return { ...node, label: '', authorSize: { width, height }, style };
  });
  return { graph: { ...graph, nodes }, insets };
}

/** The scene with each inset drawn inside its node's box, its ids prefixed by the node's element id. */
export function placeInsets(scene: GraphScene, insets: ReadonlyMap<string, LaidInset>): GraphScene & { warnings: string[] } {
  const elements = [...scene.elements];
  const parents = new Map(scene.parents);
  const warnings: string[] = [];
  for (const [nodeId, inset] of insets) {
    const owner = scene.elementIds.nodes.get(nodeId);
    const box = elements.find((e) => e.id === owner);
    if (owner === undefined || box?.x === undefined || box.y === undefined) continue;
    const dx = box.x + INSET_PADDING - inset.left;
    const dy = box.y + INSET_PADDING + inset.title.height + TITLE_GAP - inset.top;
    const local = (id: string) => `${owner}.${id}`;
    elements.push({
      id: local('title'),
      type: 'text',
      x: Math.round(box.x + INSET_PADDING),
      y: Math.round(box.y + INSET_PADDING),
      width: Math.ceil(inset.title.width),
      height: Math.ceil(inset.title.height),
      text: inset.title.text,
      fontSize: FONT.containerTitle,
      fontFamily: FONT.family,
      strokeColor: '#1e1e1e',
      fillColor: 'transparent',
      strokeStyle: 'solid',
      corner: 'sharp',
      textAlign: 'left',
      labelOf: owner,
    });
    for (const element of inset.elements) {
      const moved: GeneratedElement = { ...element, id: local(element.id) };
      if (element.x !== undefined) moved.x = Math.round(element.x + dx);
      if (element.y !== undefined) moved.y = Math.round(element.y + dy);
      if ('points' in element && Array.isArray(element.points)) {
        (moved as { points: { x: number; y: number }[] }).points = element.points.map((p: { x: number; y: number }) => ({ x: Math.round(p.x + dx), y: Math.round(p.y + dy) }));
      }
      for (const key of ['parentId', 'frameId', 'labelOf'] as const) if (typeof element[key] === 'string') moved[key] = local(element[key]);
      for (const key of ['startBinding', 'endBinding'] as const) {
        const binding = (element as Record<string, unknown>)[key] as { elementId: string } | undefined;
        if (binding !== undefined) (moved as Record<string, unknown>)[key] = { ...binding, elementId: local(binding.elementId) };
      }
      if (element.groupIds !== undefined) moved.groupIds = element.groupIds.map(local);
      elements.push(moved);
      // Shapes the inset's layout left at its top level sit in the node's box.
      const parent = inset.parents.get(element.id);
      if (parent !== undefined) parents.set(moved.id, local(parent));
      else if (element.type !== 'arrow' && element.type !== 'line') parents.set(moved.id, owner);
    }
    warnings.push(...inset.warnings);
  }
  return { ...scene, elements, parents, warnings };
}
