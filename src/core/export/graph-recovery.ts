/**
 * Scene → graph: reads any stored scene (generated or hand-drawn) back into GraphIR, the shape the Mermaid and D2
 * writers print. Rules (issue "export to Mermaid and D2"):
 * - nodes are shapes, with their label, shape, colours and icon; text lying inside a shape is its label, or, when it
 *   reads as a table (a rule under the header, key markers, typed rows: table-rows.ts), the first text is the label
 *   and the rest its rows; code and math blocks are nodes too, and so is any text, image or embed an arrow points at;
 * - groups are frames and shapes that geometrically contain another shape, titled by their own label, else by the
 *   standalone text at the top inside them or just above them;
 * - edges are arrows and lines, their ends from bindings or, when unbound, from the shape the end touches;
 * - edge labels are the arrow's own text, else text lying on or near it (near its ends: the end labels);
 * - free text wholly above the drawing is its title; other free text, images, drawings and arrows that join nothing
 *   are reported in `warnings`, never silently lost.
 * Excalidraw's `groupIds` are selection groups (a shape and its caption), not containers, so they make no groups.
 */
import type { Arrowhead, Direction, GraphEdge, GraphGroup, GraphIR, GraphNode, GraphStyle, NodeKind } from '../graph/types.js';
import { SHAPE_TYPES, type ShapeType } from '../scene/constants.js';
import type { Binding, Element, Point } from '../scene/schema.js';
import { boxArea, boxCentre, boxContains, boxToPolyline, distanceToBox, distanceToBoxOutline, pointInBox, type Box } from './geometry.js';
import { dictionary } from '../dictionary.js';
import { ROW_INDENT, STEREOTYPE_ROW } from '../layout/node-size.js';
import { unfoldRows } from './folded-rows.js';
import { readsAsRows } from './table-rows.js';
import { rowsFromColumns } from '../layout/table-columns.js';

/** The outline a scene element keeps, which the exports write back. */
type RecoveredStyle = Required<Omit<GraphStyle, 'strokeWidth' | 'fontSize' | 'textColor' | 'textAlign' | 'fontWeight' | 'fontStyle'>>;

export type NodeShape = ShapeType | 'text' | 'code' | 'math' | 'image' | 'embed';

/** What a writer needs beyond GraphStyle to draw an element as it looks in the scene. */
export interface Look {
  strokeWidth: number;
  /** 0..100, as in the scene. */
  opacity: number;
  shadow: boolean;
  fillStyle: Element['fillStyle'];
  fontSize?: number;
  /** The label's emphasis, as the scene draws it. */
  fontWeight?: 'bold';
  fontStyle?: 'italic';
}

export interface RecoveredNode extends GraphNode {
  shape: NodeShape;
  /** The stroke width is in `look`. */
  style: RecoveredStyle;
  look: Look;
  /** Source language of a code block. */
  language?: string;
  box: Box;
}

export interface RecoveredEdge extends GraphEdge {
  startArrowhead: Arrowhead;
  endArrowhead: Arrowhead;
  style: Required<Omit<NonNullable<GraphEdge['style']>, 'strokeWidth' | 'fontSize' | 'textColor'>>;
  look: Look;
}

export interface RecoveredGroup extends GraphGroup {
  /** The container's own outline (`rectangle` for frames), which a writer may not be able to give a container. */
  shape: ShapeType;
  iconRef?: string;
  /** The stroke width is in `look`. */
  style: RecoveredStyle;
  look: Look;
  box: Box;
}

/** GraphIR (node, edge and group ids are the scene's element ids) plus what the writers need to keep the look. */
export interface RecoveredGraph extends GraphIR {
  nodes: RecoveredNode[];
  edges: RecoveredEdge[];
  groups: RecoveredGroup[];
  /** Most of the drawing is hand-drawn (roughness sketch or scribble). */
  sketch: boolean;
  /** Elements drawn as part of a node, edge or group (labels, titles, table rows and rules): element id → owner id. */
  parts: Map<string, string>;
  /** The text element that is the diagram's `title`: free text above everything else. */
  titleElement?: string;
}

/** An unbound arrow end this near a shape's box attaches to it (hand-drawn ends stop short or overshoot a little). */
export const END_ATTACH_DISTANCE = 12;
/** Text this near an arrow, and nearer to it than to any other, labels it. */
export const EDGE_LABEL_DISTANCE = 16;
/** Text on the first or last quarter of an arrow labels that end (a multiplicity or cardinality). */
const END_LABEL_SPAN = 0.25;
/** A text linked to its arrow and this near one of its ends (along the arrow) labels that end. */
const END_LABEL_REACH = 24;

const SHAPES = new Set<string>(SHAPE_TYPES);
type Shape = Extract<Element, { type: ShapeType }>;
type Linear = Extract<Element, { type: 'arrow' | 'line' }>;
const isShape = (e: Element): e is Shape => SHAPES.has(e.type);
const quote = (text: string) => JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text);

/** Elements may carry a stamped icon (`icon.ref`, src/core/icons/stamp.ts) besides the author's `iconRef`. */
function iconOf(e: Element): string | undefined {
  const stamped = (e as { icon?: { ref?: unknown } }).icon?.ref;
  return typeof stamped === 'string' ? stamped : e.iconRef;
}

const styleOf = (e: Element): RecoveredStyle => ({ strokeColor: e.strokeColor, fillColor: e.fillColor, strokeStyle: e.strokeStyle, corner: e.corner });
const lookOf = (e: Element): Look => ({
  strokeWidth: e.strokeWidth,
  opacity: e.opacity,
  shadow: e.shadow !== 'none',
  fillStyle: e.fillStyle,
  ...(e.fontSize !== undefined && { fontSize: e.fontSize }),
  ...(e.fontWeight === 'bold' && { fontWeight: 'bold' }),
  ...(e.fontStyle === 'italic' && { fontStyle: 'italic' }),
});

/** Generic icons that name a shape D2 draws (person, queue, package; src/core/icons/libraries/generic.ts). */
const ICON_SHAPES: Partial<Record<string, 'person' | 'queue' | 'package'>> = dictionary({
  'generic/User': 'person',
  'generic/Users': 'person',
  'generic/Admin': 'person',
  'generic/Queue': 'queue',
  'generic/Package': 'package',
});

/** The shape a node's or container's icon stands for, when it is drawn as a plain box or oval (a drawn cylinder stays one). */
export function iconShapeOf(item: { shape: NodeShape; iconRef?: string }): 'person' | 'queue' | 'package' | undefined {
  return (item.shape === 'rectangle' || item.shape === 'ellipse') && item.iconRef !== undefined ? ICON_SHAPES[item.iconRef] : undefined;
}

const KIND_BY_SHAPE: Partial<Record<NodeShape, NodeKind>> = dictionary({ cylinder: 'database', diamond: 'decision', text: 'note', terminator: 'start' });

export function recoverGraph(elements: readonly Element[]): RecoveredGraph {
  const warnings: string[] = [];
  const note = (e: Element, what: string) => warnings.push(`element "${e.id}" (${e.type}): ${what}`);
  const byId = new Map(elements.map((e) => [e.id, e]));

  // Containers: frames, and shapes holding another shape or content block inside them.
  const boxed = elements.filter((e) => isShape(e) || e.type === 'frame' || e.type === 'code' || e.type === 'math');
  const containers = new Set<Element>(elements.filter((e) => e.type === 'frame'));
  // A shape whose only content is shapes of its own selection group, without text of their own, is one mark drawn
  // in parts (a final state's ring round its dot, a DOT record's or table's cells): one node, not a container. The
  // outermost holder wins (a table nested in a cell is the node's too).
  const marks = new Map<Element, Element>();
  const sameGroup = (a: Element, b: Element) => (a.groupIds ?? []).some((g) => (b.groupIds ?? []).includes(g));
  for (const s of elements.filter(isShape)) {
    const held = boxed.filter((t) => t !== s && boxArea(t) < boxArea(s) && boxContains(s, t));
    if (held.length > 0 && held.every((t) => isShape(t) && sameGroup(s, t) && !t.text)) {
      for (const t of held) if (!marks.has(t)) marks.set(t, marks.get(s) ?? s);
    } else if (held.length > 0) containers.add(s);
  }
  const leaves = elements.filter((e): e is Shape => isShape(e) && !containers.has(e) && !marks.has(e));
  /** The smallest container around `box` (other than `self`). */
  const containerOf = (box: Box, self?: Element): Element | undefined => {
    let best: Element | undefined;
    for (const c of containers) {
      if (c === self || boxArea(c) <= boxArea(box) || !boxContains(c, box)) continue;
      if (best === undefined || boxArea(c) < boxArea(best)) best = c;
    }
    return best;
  };
  const smallest = <T>(items: T[], boxOf: (item: T) => Box): T | undefined => items.sort((a, b) => boxArea(boxOf(a)) - boxArea(boxOf(b)))[0];

  // Text inside a shape belongs to it: its label, and its rows when it is drawn as a table (see readsAsRows).
  const inside = new Map<string, Element[]>();
  const textOwner = new Map<string, string>();
  const texts = elements.filter((e) => e.type === 'text');
  for (const t of texts) {
    const leaf = smallest(leaves.filter((s) => pointInBox(boxCentre(t), s)), (s) => s);
    if (!leaf) continue;
    textOwner.set(t.id, leaf.id);
    inside.set(leaf.id, [...(inside.get(leaf.id) ?? []), t]);
  }
  const parts = new Map(textOwner);
  for (const [part, whole] of marks) parts.set(part.id, whole.id);
  // A line with both ends inside a shape is part of its drawing: a table's rule under its header.
  const ruled = new Set<string>();
  for (const e of elements) {
    if (e.type !== 'line') continue;
    const [first, last] = [e.points[0]!, e.points[e.points.length - 1]!];
    const owner = leaves.find((s) => pointInBox(first, s, 2) && pointInBox(last, s, 2));
    if (owner) parts.set(e.id, owner.id);
    if (owner) ruled.add(owner.id);
  }

  const nodes = new Map<string, RecoveredNode>();
  const addNode = (e: Element, shape: NodeShape, label: string, rows: string[] = []) => {
    const parent = containerOf(e, e);
    const node: RecoveredNode = {
      id: e.id,
      label,
      kind: rows.length > 0 ? 'entity' : (KIND_BY_SHAPE[shape] ?? 'generic'),
      shape,
      style: styleOf(e),
      look: lookOf(e),
      box: { x: e.x, y: e.y, width: e.width, height: e.height },
      ...(rows.length > 0 && { rows }),
      ...(parent && { parent: parent.id }),
      ...(iconOf(e) !== undefined && { iconRef: iconOf(e) }),
      ...(e.type === 'code' && { language: e.language }),
    };
    nodes.set(e.id, node);
  };
  for (const s of leaves) {
    const sorted = (inside.get(s.id) ?? []).sort((a, b) => a.y - b.y || a.x - b.x);
    const held = ruled.has(s.id) ? besideJoined(sorted) : sorted.map((t) => t.text ?? '');
    // A class's «stereotype» drawn over its name is its first row, as the graph keeps it (layout/node-size.ts).
    if (held.length > 1 && STEREOTYPE_ROW.test(held[0]!)) held.splice(0, 2, held[1]!, held[0]!);
    const own = s.text ?? '';
    const [label, ...rest] = own !== '' ? [own, ...held] : held.length > 0 ? held : [''];
    const rows = joinWrapped(rest.flatMap((text) => text.split('\n')).filter((row) => row.trim() !== ''));
    // A label drawn as a text of its own (a generated scene's) gives the shape its size and emphasis.
    const heldLabel = (inside.get(s.id) ?? [])[0];
    const drawn = own === '' && heldLabel?.fontSize !== undefined ? { ...s, fontSize: heldLabel.fontSize, fontWeight: heldLabel.fontWeight, fontStyle: heldLabel.fontStyle } : s;
    if (readsAsRows(rows, ruled.has(s.id))) addNode(drawn, s.type, label!, rows);
    else addNode(drawn, s.type, [label!, ...rest.filter((text) => text.trim() !== '')].join('\n'));
  }
  for (const e of elements) if (e.type === 'code' || e.type === 'math') addNode(e, e.type, e.text);

  const groups = new Map<string, RecoveredGroup>();
  for (const c of containers) {
    const parent = containerOf(c, c);
    groups.set(c.id, {
      id: c.id,
      label: c.type === 'frame' ? c.name : (c.text ?? ''),
      kind: c.type === 'frame' ? 'frame' : c.type,
      shape: isShape(c) ? c.type : 'rectangle',
      ...(iconOf(c) !== undefined && { iconRef: iconOf(c) }),
      style: styleOf(c),
      look: lookOf(c),
      box: { x: c.x, y: c.y, width: c.width, height: c.height },
      ...(parent && { parent: parent.id }),
    });
  }

  // Edges. An end names a node or group; text, images and embeds an edge ends at become nodes.
  const promoted = new Set<string>();
  const targetOf = (id: string): string | undefined => {
    const e = byId.get(id);
    if (e === undefined) return undefined;
    if (nodes.has(id) || groups.has(id)) return id;
    return textOwner.get(id) ?? (e.type === 'text' || e.type === 'image' || e.type === 'embed' ? id : undefined);
  };
  const loose = elements.filter((e) => (e.type === 'text' && !textOwner.has(e.id)) || e.type === 'image' || e.type === 'embed');
  const attachAt = (p: Point, slack: number): string | undefined => {
    const near = (items: Element[], distance: (e: Element) => number) =>
      items
        .map((e) => ({ e, d: distance(e) }))
        .filter(({ d }) => d <= slack)
        .sort((a, b) => a.d - b.d || boxArea(a.e) - boxArea(b.e))[0]?.e;
    const node = near([...nodes.keys()].map((id) => byId.get(id)!), (e) => distanceToBox(p, e));
    if (node) return node.id;
    const group = near([...containers], (e) => distanceToBoxOutline(p, e));
    if (group) return group.id;
    return near(loose, (e) => distanceToBox(p, e))?.id;
  };

  const linear = elements.filter((e): e is Linear => e.type === 'arrow' || e.type === 'line');
  const edges: RecoveredEdge[] = [];
  const edgePoints = new Map<string, Point[]>();
  for (const e of linear) {
    if (parts.has(e.id)) continue; // a table's rule
    const first = e.points[0]!;
    const last = e.points[e.points.length - 1]!;
    const slack = END_ATTACH_DISTANCE + e.strokeWidth;
    const bound = (b: Binding | undefined) => (b === undefined ? undefined : targetOf(b.elementId));
    const boundFrom = e.type === 'arrow' ? bound(e.startBinding) : undefined;
    const boundTo = e.type === 'arrow' ? bound(e.endBinding) : undefined;
    const from = boundFrom ?? attachAt(first, slack);
    const to = boundTo ?? attachAt(last, slack);
    // Both unbound ends at one container or loose text: a stroke drawn along or beside it, not a loop.
    const alongBorder = from !== undefined && from === to && boundFrom === undefined && boundTo === undefined && (e.type === 'line' || !nodes.has(from));
    if (from === undefined || to === undefined || alongBorder) {
      const ends = alongBorder ? 'both ends touch the same element' : from === undefined && to === undefined ? 'neither end touches a shape' : 'one end touches no shape';
      note(e, `${ends}, so it joins nothing and is not exported`);
      continue;
    }
    for (const end of [from, to]) if (!nodes.has(end) && !groups.has(end)) promoted.add(end);
    const head = (value: Arrowhead | undefined) => value ?? 'none';
    edges.push({
      id: e.id,
      from,
      to,
      startArrowhead: e.type === 'arrow' ? head(e.startArrowhead) : 'none',
      endArrowhead: e.type === 'arrow' ? head(e.endArrowhead) : 'none',
      style: { strokeColor: e.strokeColor, strokeStyle: e.strokeStyle },
      look: lookOf(e),
      ...(e.text !== undefined && e.text !== '' && { label: e.text }),
    });
    edgePoints.set(e.id, e.points);
  }

  for (const id of promoted) {
    const e = byId.get(id)!;
    if (e.type === 'text') addNode(e, 'text', e.text);
    else {
      note(e, `an arrow points at it; exported as an empty ${e.type === 'image' ? 'box (the picture is not carried)' : 'box (the page is not carried)'}`);
      addNode(e, e.type as NodeShape, e.type === 'embed' ? e.url : '');
    }
  }

  // The remaining text: a container's title, an edge's label, the diagram's title, or free text.
  let title: Element | undefined;
  const top = Math.min(...elements.filter((e) => e.type !== 'text').map((e) => e.y));
  /** Free text wholly above every drawing (how diagram-from-code and most hand-drawn diagrams title themselves). */
  const isHeading = (t: Element) => t.y + t.height <= top + 1 && texts.every((o) => o === t || o.y >= t.y);
  const untitled = () => [...groups.values()].filter((g) => g.label === '');
  /** No other loose text sits higher inside the box. */
  const isTopmost = (text: Element, box: Box) =>
    !texts.some((o) => o !== text && !textOwner.has(o.id) && pointInBox(boxCentre(o), box) && o.y < text.y);
  const edgeById = new Map(edges.map((edge) => [edge.id, edge]));
  for (const t of texts) {
    if (textOwner.has(t.id) || promoted.has(t.id)) continue;
    const text = t.text;
    // A text linked to its arrow (labelOf, as layout stores them) is that arrow's, however far from it it was drawn:
    // Graphviz may put an edge's label a long way from its spline (the Graphviz gallery's psg.gv).
    const linkedEdge = t.labelOf === undefined ? undefined : edgeById.get(t.labelOf);
    const linkedGroup = t.labelOf === undefined ? undefined : groups.get(t.labelOf);
    if (linkedGroup && linkedGroup.label === '') {
      linkedGroup.label = text;
      parts.set(t.id, linkedGroup.id);
      continue;
    }
    const centre = boxCentre(t);
    const topBand = Math.max(40, 2.5 * (t.fontSize ?? 20));
    const titled = linkedEdge ? undefined : smallest(untitled().filter((g) => pointInBox(centre, g.box) && t.y - g.box.y <= topBand && isTopmost(t, g.box)), (g) => g.box);
    if (titled) {
      titled.label = text;
      parts.set(t.id, titled.id);
      continue;
    }
    const hit = (linkedEdge ? [linkedEdge] : edges)
      .map((edge) => ({ edge, ...boxToPolyline(t, edgePoints.get(edge.id)!) }))
      .filter(({ distance }) => linkedEdge !== undefined || distance <= EDGE_LABEL_DISTANCE)
      .sort((a, b) => a.distance - b.distance)[0];
    if (hit) {
      // A text linked to its arrow names an end only when it sits right at it: layout may keep a middle label a
      // short way from a node (label layers as Graphviz draws them), within the arrow's first quarter.
      const span = linkedEdge ? END_LABEL_REACH / Math.max(1, hit.length) : END_LABEL_SPAN;
      const slot = hit.along < span ? 'startLabel' : hit.along > 1 - span ? 'endLabel' : 'label';
      const edge = hit.edge;
      if (slot !== 'label' && edge[slot] === undefined) edge[slot] = text;
      else edge.label = edge.label === undefined ? text : `${edge.label} ${text}`;
      parts.set(t.id, edge.id);
      continue;
    }
    const above = smallest(
      untitled().filter((g) => {
        const gap = g.box.y - (t.y + t.height);
        return gap >= -4 && gap <= Math.max(24, t.height) && t.x < g.box.x + g.box.width && t.x + t.width > g.box.x;
      }),
      (g) => g.box,
    );
    if (above) {
      above.label = text;
      parts.set(t.id, above.id);
      continue;
    }
    if (title === undefined && isHeading(t)) {
      title = t;
      continue;
    }
    note(t, `free text ${quote(text)} is on no shape or arrow, so it is not exported`);
  }

  for (const e of elements) {
    if (promoted.has(e.id)) continue;
    if (e.type === 'image') note(e, 'pictures are not exported');
    else if (e.type === 'embed') note(e, `embedded page ${quote(e.url)} is not exported`);
    else if (e.type === 'freedraw' || e.type === 'highlight') note(e, 'freehand drawings are not exported');
  }

  // A frame around nothing is a box like any other (D2 would draw an empty container as a plain shape anyway).
  for (const group of [...groups.values()]) {
    if ([...nodes.values(), ...groups.values()].some((item) => item.parent === group.id)) continue;
    groups.delete(group.id);
    const { id, label, shape, iconRef, style, look, box, parent } = group;
    nodes.set(id, { id, label, kind: 'generic', shape, style, look, box, ...(parent !== undefined && { parent }), ...(iconRef !== undefined && { iconRef }) });
  }
  const nodeList = elements.map((e) => nodes.get(e.id)).filter((n): n is RecoveredNode => n !== undefined);
  const groupList = elements.map((e) => groups.get(e.id)).filter((g): g is RecoveredGroup => g !== undefined);
  const boxOf = (id: string): Box | undefined => nodes.get(id)?.box ?? groups.get(id)?.box;
  const drawn = [...nodeList.map((n) => byId.get(n.id)!), ...groupList.map((g) => byId.get(g.id)!)];
  return unfoldRows({
    layout: 'layered',
    direction: directionOf(edges.map((edge) => [boxOf(edge.from)!, boxOf(edge.to)!])),
    nodes: nodeList,
    edges,
    groups: groupList,
    warnings,
    sketch: drawn.filter((e) => e.roughness !== 'clean').length * 2 > drawn.length,
    parts,
    ...(title?.type === 'text' && { title: title.text, titleElement: title.id }),
  });
}

/**
 * The texts held by a ruled shape (a table), top to bottom, those side by side at one height (its columns,
 * from-graph.ts) read as one text of rows again (table-columns.ts). `texts` are sorted by y, then x.
 */
function besideJoined(texts: readonly Element[]): string[] {
  const joined: string[] = [];
  for (let i = 0; i < texts.length; ) {
    let end = i + 1;
    while (end < texts.length && Math.abs(texts[end]!.y - texts[i]!.y) < 1) end++;
    const columns = texts.slice(i, end).map((t) => (t.text ?? '').split('\n'));
    joined.push(columns.length > 1 ? rowsFromColumns(columns).join('\n') : (texts[i]!.text ?? ''));
    i = end;
  }
  return joined;
}

/** A table row too long for its box is drawn on more lines, each after the first indented (node-size.ts): one row again. */
function joinWrapped(rows: string[]): string[] {
  const joined: string[] = [];
  for (const row of rows) {
    const continues = joined.length > 0 && row.startsWith(ROW_INDENT) && row[ROW_INDENT.length] !== ' ';
    if (continues) joined.push(`${joined.pop()!} ${row.trim()}`);
    else joined.push(row);
  }
  return joined;
}

/** The way most edges run, from the centre of their source to that of their target; down when none do. */
function directionOf(pairs: Array<[Box, Box]>): Direction {
  const votes: Record<Direction, number> = { DOWN: 0, RIGHT: 0, UP: 0, LEFT: 0 };
  for (const [a, b] of pairs) {
    const from = boxCentre(a);
    const to = boxCentre(b);
    const dx = to.x - from.x;
    const dy = to.y - from.y;
    if (dx === 0 && dy === 0) continue;
    votes[Math.abs(dx) > Math.abs(dy) ? (dx > 0 ? 'RIGHT' : 'LEFT') : dy > 0 ? 'DOWN' : 'UP']++;
  }
  return (Object.keys(votes) as Direction[]).reduce((best, d) => (votes[d] > votes[best] ? d : best), 'DOWN');
}
