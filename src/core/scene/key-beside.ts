/**
 * A diagram's key (D2's `vars.d2-legend`) laid out on its own and set beside the drawing it explains, as D2 sets it:
 * laid out with the diagram, the key was a group the layout placed among the shapes, first in the flow, pulling the
 * connections round it.
 */
import type { GraphIR } from '../graph/types.js';
import { READABLE_WIDTH } from '../layout/elk.js';
import { drawingExtent, type GraphScene } from './from-graph.js';

/** Group kind of a diagram's key: laid out apart and set beside the drawing. */
export const KEY_GROUP_KIND = 'key';
/** Gap between the drawing and its key, in px. */
const KEY_GAP = 40;

/** The graph without its key, and the key alone (its group and the nodes in it), if it has one. */
export function keyApart(graph: GraphIR): { drawing: GraphIR; key?: GraphIR } {
  const keys = new Set(graph.groups.filter((group) => group.kind === KEY_GROUP_KIND).map((group) => group.id));
  if (keys.size === 0) return { drawing: graph };
  const inKey = (parent: string | undefined) => parent !== undefined && keys.has(parent);
  const drawing: GraphIR = { ...graph, nodes: graph.nodes.filter((node) => !inKey(node.parent)), groups: graph.groups.filter((group) => !keys.has(group.id)) };
  const key: GraphIR = { layout: 'layered', direction: 'DOWN', nodes: graph.nodes.filter((node) => inKey(node.parent)), edges: [], groups: graph.groups.filter((group) => keys.has(group.id)), warnings: [] };
  return { drawing, key };
}

/**
 * The key's elements moved to the right of the drawing, top-aligned; under it, left-aligned, when the drawing is
 * wider than tall, so a landscape drawing does not grow wider still, or when beside it the two would be too wide for
 * a README column that the drawing alone fits (a C4 deployment 840 px wide went to 1,455 px with its key beside it:
 * text 8.5 px at 880). Ids the drawing already uses are renamed.
 */
export function keyBeside(drawing: GraphScene, key: GraphScene): GraphScene {
  const main = drawingExtent(drawing.elements);
  const own = drawingExtent(key.elements);
  const width = main.right - main.left;
  const tooWide = width <= READABLE_WIDTH && width + KEY_GAP + own.right - own.left > READABLE_WIDTH;
  const under = width > main.bottom - main.top || tooWide;
  const dx = under ? main.left - own.left : main.right + KEY_GAP - own.left;
  const dy = under ? main.bottom + KEY_GAP - own.top : main.top - own.top;
  const used = new Set(drawing.elements.map((e) => e.id));
  const renamed = new Map(key.elements.map((e) => [e.id, used.has(e.id) ? `key-${e.id}` : e.id]));
  const rename = (id: string) => renamed.get(id) ?? id;
  const moved = key.elements.map((e) => ({
    ...e,
    id: rename(e.id),
    ...(e.x !== undefined && { x: e.x + dx }),
    ...(e.y !== undefined && { y: e.y + dy }),
    ...('parentId' in e && typeof e.parentId === 'string' && { parentId: rename(e.parentId) }),
    ...('labelOf' in e && typeof e.labelOf === 'string' && { labelOf: rename(e.labelOf) }),
  })) as GraphScene['elements'];
  const ids = (map: Map<string, string>) => new Map([...map].map(([graphId, id]) => [graphId, rename(id)]));
  return {
    elements: [...drawing.elements, ...moved],
    elementIds: { nodes: new Map([...drawing.elementIds.nodes, ...ids(key.elementIds.nodes)]), groups: new Map([...drawing.elementIds.groups, ...ids(key.elementIds.groups)]) },
    parents: new Map([...drawing.parents, ...[...key.parents].map(([child, parent]) => [rename(child), rename(parent)] as const)]),
  };
}
