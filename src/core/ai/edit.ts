/**
 * An AI edit as edits by element: the model answers with the whole diagram after the change, and the difference
 * between that answer and the structure it was shown becomes operations (scene/operations.ts) on the stored scene.
 * So what the model did not change is not written at all (it stays byte-identical, arrows included), a new node is
 * added inside its group by incremental layout (the group grows and pushes its neighbours), and a removed node goes
 * with its label and bound arrows, said in a warning, as any remove operation does.
 */
import type { GraphGroup } from '../graph/types.js';
import { recoverGraph, type RecoveredGraph } from '../export/graph-recovery.js';
import { ROLE_COLORS } from '../layout/drawing-rules.js';
import type { GeneratedElement } from '../scene/from-graph.js';
import type { Operation } from '../scene/operations.js';
import type { Element } from '../scene/schema.js';
import { containerOf } from '../scene/structure.js';
import { type DiagramAnswer, recoveredToAnswer } from './answer.js';

export interface DrawnGraph {
  elements: readonly GeneratedElement[];
  elementIds: { nodes: ReadonlyMap<string, string>; groups: ReadonlyMap<string, string> };
}

/** What the model is shown of a stored diagram, and which arrow each shown edge is (`edgeIds[i]` for `shown.edges[i]`). */
export interface ShownDiagram {
  shown: DiagramAnswer;
  edgeIds: string[];
  graph: RecoveredGraph;
}

type Loose = Record<string, unknown> & { id: string; type: string };

/**
 * The diagram as the model sees it: read back from the scene (labels, edges, icons, table rows), with the structure
 * the scene stores winning over what geometry suggests: a shape's `role` is its kind, `parentId`/`frameId` its group.
 */
export function showDiagram(elements: readonly Element[]): ShownDiagram {
  const graph = recoverGraph(elements);
  const byId = new Map(elements.map((e) => [e.id, e]));
  const groupIds = new Set(graph.groups.map((g) => g.id));
  const storedParent = <T extends { id: string; parent?: string }>(item: T): T => {
    const stored = byId.get(item.id);
    const parent = stored && containerOf(stored);
    return parent !== undefined && groupIds.has(parent) ? { ...item, parent } : item;
  };
  const nodes = graph.nodes.map((n) => {
    const role = byId.get(n.id)?.role;
    return storedParent({ ...n, ...(role !== undefined && { kind: role }) });
  });
  const groups: GraphGroup[] = graph.groups.map(storedParent);
  const overlaid = { ...graph, nodes, groups } as RecoveredGraph;
  return { shown: recoveredToAnswer(overlaid), edgeIds: graph.edges.map((e) => e.id), graph: overlaid };
}

/** Problems of an edit's answer that only the stored scene shows, phrased for the model's one retry. */
export function editProblems(answer: DiagramAnswer, elements: readonly Element[], current: ShownDiagram): string[] {
  const known = new Set([...current.shown.nodes.map((n) => n.id), ...current.shown.groups.map((g) => g.id)]);
  const byId = new Map(elements.map((e) => [e.id, e]));
  return [...answer.nodes, ...answer.groups]
    .filter((item) => !known.has(item.id) && byId.has(item.id))
    .map((item) => `id "${item.id}" is already taken by ${article(byId.get(item.id)!.type)} of the diagram that is no node or group: give the new one another id`);
}

export interface EditPlan {
  operations: Operation[];
  /** One line per kind of change, naming the ids the model added, changed and removed. */
  warnings: string[];
}

const same = (a: string | null | undefined, b: string | null | undefined) => (a ?? '').trim().toLowerCase() === (b ?? '').trim().toLowerCase();
/** Fields of a drawn element that its place in the scene decides, not the drawing of the new graph. */
const PLACED = ['x', 'y', 'parentId', 'frameId', 'icon'] as const;

/** The operations that turn the stored scene into the model's answer; the stored scene is only read. */
export function editOperations(elements: readonly Element[], current: ShownDiagram, answer: DiagramAnswer, drawn: DrawnGraph): EditPlan {
  const byId = new Map(elements.map((e) => [e.id, e as unknown as Loose]));
  const drawnById = new Map(drawn.elements.map((e) => [e.id, e as unknown as Loose]));
  const shownNodes = new Map(current.shown.nodes.map((n) => [n.id, n]));
  const shownGroups = new Map(current.shown.groups.map((g) => [g.id, g]));
  const answerIds = new Set([...answer.nodes.map((n) => n.id), ...answer.groups.map((g) => g.id)]);
  const operations: Operation[] = [];
  const added: string[] = [];
  const changed: string[] = [];
  const removed: string[] = [];
  const change = (id: string, what: string) => changed.push(`"${id}" (${what})`);

  // A new group or node: drawn as the whole new graph draws it (type, palette, size for its icon), without a place.
  const template = (drawnId: string | undefined, id: string, parent: string | null): Loose | undefined => {
    const model = drawnId === undefined ? undefined : drawnById.get(drawnId);
    if (model === undefined) return undefined;
    const element: Loose = { ...model, id };
    for (const key of PLACED) delete element[key];
    if (parent !== null) element.parentId = parent;
    return element;
  };
  const addGroups = answer.groups.filter((g) => !shownGroups.has(g.id) && !shownNodes.has(g.id));
  for (const group of addGroups) {
    const element = template(drawn.elementIds.groups.get(group.id), group.id, group.parent);
    if (element === undefined) continue;
    // Its title is drawn from the container's own text when incremental layout places it.
    operations.push({ op: 'add', element: { ...element, text: group.label } });
    added.push(`"${group.id}"`);
  }
  for (const node of answer.nodes) {
    if (shownNodes.has(node.id) || shownGroups.has(node.id)) continue;
    const element = template(drawn.elementIds.nodes.get(node.id), node.id, node.group);
    if (element === undefined) continue;
    if (node.rows?.length) element.text = [node.label, ...node.rows].join('\n');
    operations.push({ op: 'add', element });
    added.push(`"${node.id}"${node.group ? ` in "${node.group}"` : ''}`);
  }

  for (const node of answer.nodes) {
    const was = shownNodes.get(node.id);
    const element = byId.get(node.id);
    if (was === undefined || element === undefined) continue;
    const set: Record<string, unknown> = {};
    if (node.label !== was.label) {
      // A table's name is its first text, drawn apart from the shape.
      const header = element.text === was.label ? undefined : elements.find((e) => e.type === 'text' && e.text === was.label && current.graph.parts.get(e.id) === node.id);
      if (element.text === was.label) set.text = node.label;
      else if (header !== undefined) operations.push({ op: 'update', id: header.id, set: { text: node.label } });
      if (element.text === was.label || header !== undefined) change(node.id, 'label');
      else changed.push(`"${node.id}" (its new label "${node.label}" was not applied: the label is drawn apart from the shape)`);
    }
    if (node.kind !== was.kind) {
      set.role = node.kind;
      // The palette follows the role unless the shape has colours of its own.
      const old = ROLE_COLORS[was.kind];
      if (element.strokeColor === old.strokeColor && element.fillColor === old.fillColor) Object.assign(set, ROLE_COLORS[node.kind]);
      change(node.id, 'kind');
    }
    if (!same(node.icon, was.icon)) {
      const ref = node.icon === null ? null : drawnById.get(drawn.elementIds.nodes.get(node.id) ?? '')?.iconRef;
      if (ref !== undefined) {
        set.iconRef = ref;
        change(node.id, 'icon');
      } else changed.push(`"${node.id}" (no icon was found for "${node.icon}"; it keeps its own)`);
    }
    if (Object.keys(set).length > 0) operations.push({ op: 'update', id: node.id, set });
    if (node.group !== was.group) {
      operations.push({ op: 'move', id: node.id, parentId: node.group });
      change(node.id, node.group ? `moved into "${node.group}"` : 'moved out of its group');
    }
  }
  for (const group of answer.groups) {
    const was = shownGroups.get(group.id);
    if (was === undefined) continue;
    if (group.label !== was.label) {
      operations.push({ op: 'update', id: group.id, set: { text: group.label } });
      change(group.id, 'label');
    }
    if (group.parent !== was.parent) {
      operations.push({ op: 'move', id: group.id, parentId: group.parent });
      change(group.id, group.parent ? `moved into "${group.parent}"` : 'moved out of its group');
    }
  }

  // Edges carry no id in an answer: each is the shown edge with the same ends, taken in order.
  const unmatched = new Map<string, number[]>();
  current.shown.edges.forEach((e, i) => unmatched.set(`${e.from}\u0000${e.to}`, [...(unmatched.get(`${e.from}\u0000${e.to}`) ?? []), i]));
  const newEdges: DiagramAnswer['edges'] = [];
  for (const edge of answer.edges) {
    const index = unmatched.get(`${edge.from}\u0000${edge.to}`)?.shift();
    if (index === undefined) {
      newEdges.push(edge);
      continue;
    }
    const was = current.shown.edges[index]!;
    const id = current.edgeIds[index]!;
    const set: Record<string, unknown> = {};
    if ((edge.label ?? '') !== (was.label ?? '')) {
      const label = elements.find((e) => e.type === 'text' && e.labelOf === id);
      if (edge.label !== null) set.text = edge.label;
      else if (label !== undefined) operations.push({ op: 'remove', id: label.id });
      else set.text = null;
      change(id, 'label');
    }
    if (edge.style !== was.style) set.strokeStyle = edge.style;
    if (edge.startArrowhead !== was.startArrowhead) set.startArrowhead = edge.startArrowhead;
    if (edge.endArrowhead !== was.endArrowhead) set.endArrowhead = edge.endArrowhead;
    if (Object.keys(set).some((key) => key !== 'text')) change(id, 'style');
    if (Object.keys(set).length > 0) operations.push({ op: 'update', id, set });
  }

  // New arrows look like the ones already drawn (stroke, sketchiness), routed around the shapes.
  const model = byId.get(current.edgeIds[0] ?? '');
  const houseStyle = model ? Object.fromEntries(['strokeColor', 'strokeWidth', 'roughness', 'opacity'].filter((k) => model[k] !== undefined).map((k) => [k, model[k]])) : {};
  const taken = new Set([...byId.keys(), ...answerIds]);
  for (const edge of newEdges) {
    const id = freshId(`${edge.from}-${edge.to}`, taken);
    operations.push({
      op: 'add',
      element: {
        id,
        type: 'arrow',
        ...houseStyle,
        arrowShape: 'smart',
        startBinding: { elementId: edge.from },
        endBinding: { elementId: edge.to },
        startArrowhead: edge.startArrowhead,
        endArrowhead: edge.endArrowhead,
        strokeStyle: edge.style,
        ...(edge.label ? { text: edge.label } : {}),
      },
    });
    added.push(`"${id}"`);
  }

  // Removals last: an edge whose end goes is removed with that end (and said so); members of a removed group move up.
  const gone = [...current.shown.nodes, ...current.shown.groups].filter((item) => !answerIds.has(item.id)).map((item) => item.id);
  const goneSet = new Set(gone);
  for (const indexes of unmatched.values()) {
    for (const index of indexes) {
      const { from, to } = current.shown.edges[index]!;
      if (goneSet.has(from) || goneSet.has(to)) continue;
      operations.push({ op: 'remove', id: current.edgeIds[index]! });
      removed.push(`"${current.edgeIds[index]}"`);
    }
  }
  for (const id of gone) {
    operations.push({ op: 'remove', id });
    removed.push(`"${id}"`);
  }

  const warnings = [
    added.length ? `the model added ${added.join(', ')}` : '',
    changed.length ? `the model changed ${changed.join(', ')}` : '',
    removed.length ? `the model removed ${removed.join(', ')}` : '',
  ].filter(Boolean);
  return { operations, warnings };
}

function freshId(base: string, taken: Set<string>): string {
  let id = base;
  for (let n = 2; taken.has(id); n++) id = `${base}-${n}`;
  taken.add(id);
  return id;
}

const article = (noun: string) => `${/^[aeiou]/.test(noun) ? 'an' : 'a'} ${noun}`;
