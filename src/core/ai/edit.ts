/**
 * An AI edit applied to the drawing as it stands: what the change does not touch keeps its place, size, style and id.
 * Removed nodes, groups and edges go (with their labels and titles); renamed nodes get their new label; new nodes are
 * taken from a layout of the new graph and put beside a neighbour they connect to, clear of everything else; new
 * edges are `smart` arrows bound at both ends, which the intake routes around the shapes.
 */
import type { Box } from '../layout/types.js';
import type { RecoveredGraph } from '../export/graph-recovery.js';
import type { GeneratedElement } from '../scene/from-graph.js';
import type { Element } from '../scene/schema.js';
import type { DiagramAnswer } from './answer.js';

/** Room left between a new node and the one it is placed beside, and around nodes inside a container. */
const GAP = 80;
const PADDING = 32;

type Loose = Record<string, unknown> & { id: string; type: string; x?: number; y?: number; width?: number; height?: number };

export interface DrawnGraph {
  elements: readonly GeneratedElement[];
  elementIds: { nodes: ReadonlyMap<string, string>; groups: ReadonlyMap<string, string> };
}

const boxOf = (e: Loose): Box => ({ x: e.x ?? 0, y: e.y ?? 0, width: e.width ?? 0, height: e.height ?? 0 });
const overlaps = (a: Box, b: Box) => a.x < b.x + b.width + PADDING / 2 && b.x < a.x + a.width + PADDING / 2 && a.y < b.y + b.height + PADDING / 2 && b.y < a.y + a.height + PADDING / 2;
const edgeKey = (from: string, to: string) => `${from}\u0000${to}`;
const HOUSE_STYLE = ['strokeColor', 'strokeWidth', 'roughness', 'fontFamily', 'fontSize', 'opacity'] as const;

export function applyEdit(old: readonly Element[], recovered: RecoveredGraph, answer: DiagramAnswer, drawn: DrawnGraph): { elements: Loose[]; warnings: string[] } {
  const warnings: string[] = [];
  const oldNodes = new Set(recovered.nodes.map((n) => n.id));
  const oldGroups = new Set(recovered.groups.map((g) => g.id));
  const newNodes = new Map(answer.nodes.map((n) => [n.id, n]));
  const newGroups = new Set(answer.groups.map((g) => g.id));
  const newEdges = new Set(answer.edges.map((e) => edgeKey(e.from, e.to)));

  // What goes: removed nodes, groups and edges, and every part drawn for them (labels, titles, table rows).
  const gone = new Set<string>();
  for (const n of recovered.nodes) if (!newNodes.has(n.id)) gone.add(n.id);
  for (const g of recovered.groups) if (!newGroups.has(g.id)) gone.add(g.id);
  for (const e of recovered.edges) if (!newEdges.has(edgeKey(e.from, e.to)) || gone.has(e.from) || gone.has(e.to)) gone.add(e.id);
  for (const [part, owner] of recovered.parts) if (gone.has(owner)) gone.add(part);
  const elements: Loose[] = (old as unknown as Loose[]).filter((e) => !gone.has(e.id)).map((e) => ({ ...e }));
  const byId = new Map(elements.map((e) => [e.id, e]));

  for (const node of recovered.nodes) {
    const next = newNodes.get(node.id);
    const element = byId.get(node.id);
    if (!next || !element || next.label === node.label) continue;
    if (element.text === node.label) element.text = next.label;
    else warnings.push(`node "${node.id}": the new label "${next.label}" was not applied (its label is drawn apart from the shape)`);
  }

  const drawnById = new Map(drawn.elements.map((e) => [e.id, e as unknown as Loose]));
  // Everything a new node must keep clear of: shapes and free text (titles), not arrows or the containers it may sit in.
  const shapes = () => elements.filter((e) => e.type !== 'arrow' && e.type !== 'line' && !oldGroups.has(e.id) && !newGroups.has(e.id));
  // A node drawn with parts (a table's header, rule and rows) moves as one.
  const partsOf = (id: string) => drawn.elements.filter((e) => e.id === id || (e.id.startsWith(`${id}-`) && e.type !== 'arrow')) as unknown as Loose[];

  for (const node of answer.nodes) {
    if (oldNodes.has(node.id)) continue;
    const drawnId = drawn.elementIds.nodes.get(node.id);
    const shape = drawnId ? drawnById.get(drawnId) : undefined;
    if (!drawnId || !shape) continue;
    const neighbour = answer.edges.map((e) => (e.from === node.id ? e.to : e.to === node.id ? e.from : undefined)).find((id) => id !== undefined && oldNodes.has(id) && byId.has(id));
    const size = boxOf(shape);
    let at: Box;
    if (neighbour) {
      const anchor = boxOf(byId.get(neighbour)!);
      at = { ...size, x: anchor.x + anchor.width + GAP, y: anchor.y + (anchor.height - size.height) / 2 };
    } else {
      const all = shapes().map(boxOf);
      const bottom = all.length ? Math.max(...all.map((b) => b.y + b.height)) : 0;
      const left = all.length ? Math.min(...all.map((b) => b.x)) : 0;
      at = { ...size, x: left, y: bottom + GAP };
    }
    while (shapes().some((other) => overlaps(at, boxOf(other)))) at = { ...at, y: at.y + size.height + PADDING };
    const [dx, dy] = [at.x - size.x, at.y - size.y];
    for (const part of partsOf(drawnId)) elements.push({ ...part, x: (part.x ?? 0) + dx, y: (part.y ?? 0) + dy });
    byId.set(node.id, elements.find((e) => e.id === drawnId)!);
    if (node.group && oldGroups.has(node.group)) enclose(byId.get(node.group), at);
  }

  const elementOf = (nodeId: string) => (oldNodes.has(nodeId) ? nodeId : drawn.elementIds.nodes.get(nodeId));
  const oldEdges = new Set(recovered.edges.filter((e) => !gone.has(e.id)).map((e) => edgeKey(e.from, e.to)));
  // New arrows look like the ones already drawn (stroke, sketchiness, label font), not like the schema's defaults.
  const model = byId.get(recovered.edges.find((e) => byId.has(e.id))?.id ?? '');
  const edgeIds = new Set(recovered.edges.map((e) => e.id));
  const label = elements.find((e) => e.type === 'text' && edgeIds.has(recovered.parts.get(e.id) ?? ''));
  const houseStyle = {
    ...(model ? Object.fromEntries(HOUSE_STYLE.filter((key) => model[key] !== undefined).map((key) => [key, model[key]])) : {}),
    ...(label ? { fontFamily: label.fontFamily, fontSize: label.fontSize } : {}),
  };
  answer.edges.forEach((edge, i) => {
    if (oldEdges.has(edgeKey(edge.from, edge.to))) return;
    const [from, to] = [elementOf(edge.from), elementOf(edge.to)];
    if (!from || !to) return;
    elements.push({
      id: uniqueId(`edit-edge-${i + 1}`, byId),
      type: 'arrow',
      ...houseStyle,
      arrowShape: 'smart',
      startBinding: { elementId: from },
      endBinding: { elementId: to },
      startArrowhead: edge.startArrowhead,
      endArrowhead: edge.endArrowhead,
      strokeStyle: edge.style,
      ...(edge.label ? { text: edge.label } : {}),
    });
  });
  for (const group of answer.groups) if (!oldGroups.has(group.id)) warnings.push(`group "${group.label}" is new: its nodes were placed, the container itself is not drawn in an edit`);
  return { elements, warnings };
}

/** Grows a container to hold a box placed in it. */
function enclose(container: Loose | undefined, box: Box): void {
  if (!container) return;
  const c = boxOf(container);
  const right = Math.max(c.x + c.width, box.x + box.width + PADDING);
  const bottom = Math.max(c.y + c.height, box.y + box.height + PADDING);
  Object.assign(container, { x: Math.min(c.x, box.x - PADDING), y: Math.min(c.y, box.y - PADDING) });
  Object.assign(container, { width: right - (container.x as number), height: bottom - (container.y as number) });
}

function uniqueId(base: string, taken: ReadonlyMap<string, unknown>): string {
  let id = base;
  for (let n = 2; taken.has(id); n++) id = `${base}-${n}`;
  return id;
}
