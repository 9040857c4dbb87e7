/**
 * GraphIR + layout → native scene elements: the diagram title above everything, containers with standalone titles,
 * node shapes coloured by role, right-angle arrows bound at both ends, and edge labels where layout put them (clear of
 * every shape).
 */
import type { GraphEdge, GraphIR, GraphNode, GraphStyle } from '../graph/types.js';
import { HEADER_ICON } from '../icons/limits.js';
import { isHidden, readableStroke } from '../layout/contrast.js';
import { CONTAINER_FILLS, CONTAINER_MIN_WIDTH, CONTAINER_STROKE, FONT, ROLE_COLORS, SPACING } from '../layout/drawing-rules.js';
import { measureText } from '../layout/measure.js';
import { iconBand, rowFont, wrapText } from '../layout/node-size.js';
import type { Box, LaidOutEdge, LaidOutGraph, Point } from '../layout/types.js';
import type { PlacedCells } from '../layout/cells.js';
import { firstCrossing, focusFromEnd, focusPoint, outlineOf } from './binding-geometry.js';
import { figureBox, iconBody, isFigure, personFigure, type ShapeType } from './constants.js';
import type { ElementInput } from './schema.js';

/** Generated elements are in the input form: the service's intake completes them (seeds, defaults) when storing. */
export type GeneratedElement = ElementInput & { id: string };
type Element = GeneratedElement;

export interface GraphScene {
  elements: Element[];
  /** Graph id → element id, for later stages (icon stamping) that start from the graph. */
  elementIds: { nodes: Map<string, string>; groups: Map<string, string> };
  /** Element id of a node or container → element id of the container drawn around it. */
  parents: Map<string, string>;
}

const EDGE_STROKE = '#495057';
const TEXT_COLOR = '#1e1e1e';
/** Kinds drawn with rounded corners (running things); data and model boxes stay sharp. */
const ROUNDED_KINDS = new Set<GraphNode['kind']>(['service', 'workload', 'component', 'action', 'state', 'gateway', 'queue', 'cache']);
/** Element id of the diagram's title text. */
export const DIAGRAM_TITLE_ID = 'diagram-title';

/** Element ids are the graph ids made safe (letters, digits, `_.-`) and unique; long or odd DOT ids stay readable. */
function idMaker(): (wanted: string) => string {
  const used = new Set<string>();
  return (wanted) => {
    const base = wanted.replace(/[^A-Za-z0-9_.-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 60) || 'el';
    let id = base;
    for (let n = 2; used.has(id); n++) id = `${base}-${n}`;
    used.add(id);
    return id;
  };
}

const shapeBase = (box: Box) => ({ x: round(box.x), y: round(box.y), width: round(box.width), height: round(box.height) });
const round = (value: number) => Math.round(value * 100) / 100;

/** A label's emphasis as the scene's text fields. */
const emphasisOf = (style: GraphStyle | undefined) => ({ ...(style?.fontWeight && { fontWeight: style.fontWeight }), ...(style?.fontStyle && { fontStyle: style.fontStyle }) });

function textElement(id: string, text: string, box: Box, fontSize: number, groupIds?: string[], color = TEXT_COLOR, textAlign: 'left' | 'center' | 'right' = 'left'): Element {
  return {
    id,
    type: 'text',
    ...shapeBase(box),
    text,
    fontSize,
    fontFamily: FONT.family,
    strokeColor: color,
    fillColor: 'transparent',
    strokeStyle: 'solid',
    corner: 'sharp',
    textAlign,
    ...(groupIds && { groupIds }),
  };
}

/**
 * A record's fields or a table's cells over their node's shape, grouped with it: tables' frames, cells with their
 * borders and fills, a record's rules, and each cell's text where its author set it, kept readable on its fill.
 */
function cellElements(placed: PlacedCells, laid: Box, shape: Element, fontSize: number, textColor: string | undefined, makeId: (wanted: string) => string): Element[] {
  const groupIds = shape.groupIds!;
  const origin = { x: laid.x + (laid.width - placed.width) / 2, y: laid.y + (laid.height - placed.height) / 2 };
  const moved = (box: Box): Box => ({ x: origin.x + box.x, y: origin.y + box.y, width: box.width, height: box.height });
  // Cells keep their lines where the node has no outline (an HTML table in a plaintext node draws its own borders).
  const stroke = shape.strokeColor === undefined || isHidden(shape.strokeColor) ? TEXT_COLOR : shape.strokeColor;
  const rectangle = (suffix: string, box: Box, border: number, fill: string | undefined, color = stroke): Element => ({
    id: makeId(`${shape.id}-${suffix}`),
    type: 'rectangle',
    ...shapeBase(moved(box)),
    strokeColor: border > 0 ? color : '#00000000',
    fillColor: fill ?? 'transparent',
    strokeStyle: 'solid',
    strokeWidth: Math.min(8, Math.max(1, border)),
    corner: 'sharp',
    groupIds,
  });
  const elements: Element[] = [];
  // Text reads against the nearest fill under it: its cell's, else the innermost table's around it, else the shape's.
  const fillUnder = (cell: Box): string => {
    const around = placed.frames.filter((frame) => frame.fillColor !== undefined && frame.x <= cell.x && frame.y <= cell.y && frame.x + frame.width >= cell.x + cell.width && frame.y + frame.height >= cell.y + cell.height);
    return around.at(-1)?.fillColor ?? (shape.fillColor === 'transparent' || shape.fillColor === undefined ? '#ffffff' : shape.fillColor);
  };
  placed.frames.forEach((frame, k) => {
    // A table as large as its node is drawn as the node's own outline and fill: one shape, not one over another.
    const whole = k === 0 && laid.width - frame.width < 1 && laid.height - frame.height < 1;
    if (whole && frame.border > 0) Object.assign(shape, { strokeColor: frame.strokeColor ?? stroke, strokeWidth: Math.min(8, frame.border) });
    if (whole && frame.fillColor !== undefined) shape.fillColor = frame.fillColor;
    else if (!whole && (frame.border > 0 || frame.fillColor !== undefined)) elements.push(rectangle(`table-${k + 1}`, frame, frame.border, frame.fillColor, frame.strokeColor));
  });
  placed.cells.forEach((cell, k) => {
    if (cell.border > 0 || cell.fillColor !== undefined) elements.push(rectangle(`cell-${k + 1}`, cell, cell.border, cell.fillColor));
    if (cell.text.trim() === '') return;
    const box = moved(cell);
    const size = measureText(cell.text, fontSize, FONT.family);
    const x = cell.textAlign === 'left' ? box.x + cell.inset : cell.textAlign === 'right' ? box.x + box.width - cell.inset - size.width : box.x + (box.width - size.width) / 2;
    const at = { x, y: box.y + (box.height - size.height) / 2, ...size };
    const ink = readableStroke(cell.textColor ?? textColor ?? TEXT_COLOR, cell.fillColor ?? fillUnder(cell));
    elements.push(textElement(makeId(`${shape.id}-field-${k + 1}`), cell.text, at, fontSize, groupIds, ink, cell.textAlign));
  });
  placed.rules.forEach(([from, to], k) => {
    const [a, b] = [moved({ ...from, width: 0, height: 0 }), moved({ ...to, width: 0, height: 0 })];
    elements.push({
      id: makeId(`${shape.id}-rule-${k + 1}`),
      type: 'line',
      ...shapeBase({ x: Math.min(a.x, b.x), y: Math.min(a.y, b.y), width: Math.abs(b.x - a.x), height: Math.abs(b.y - a.y) }),
      points: [
        { x: round(a.x), y: round(a.y) },
        { x: round(b.x), y: round(b.y) },
      ],
      strokeColor: stroke,
      fillColor: 'transparent',
      strokeStyle: 'solid',
      corner: 'sharp',
      groupIds,
    });
  });
  return elements;
}

/** How far the dot of an end mark sits inside its ring, in px. */
const END_RING = 7;

/**
 * An end mark as UML draws it (a final state, PlantUML's `stop`): a ring with a filled dot inside, so it reads apart
 * from the start, a dot alone. The ring keeps the shape's id (arrows bind to it); the two move as one.
 */
function bullsEye(ring: Element, dotId: string): Element[] {
  const groupIds = [`${ring.id}-mark`];
  const dot: Element = {
    ...ring,
    id: dotId,
    x: round(ring.x! + END_RING),
    y: round(ring.y! + END_RING),
    width: round(ring.width! - 2 * END_RING),
    height: round(ring.height! - 2 * END_RING),
    groupIds,
  };
  delete dot.role;
  Object.assign(ring, { fillColor: '#ffffff', groupIds });
  return [dot];
}

/**
 * A flow final as UML draws it (PlantUML's `end`): a ring with a cross inside, the two diagonals of the square inscribed
 * in it, so it reads apart from the activity's final (a dot in a ring). The ring keeps the shape's id; the two move as one.
 */
function crossedRing(ring: Element, crossId: string): Element[] {
  const groupIds = [`${ring.id}-mark`];
  const radius = ring.width! / 2;
  const [cx, cy] = [ring.x! + radius, ring.y! + ring.height! / 2];
  const reach = radius / Math.SQRT2;
  const diagonal = (suffix: string, sign: 1 | -1): Element => ({
    id: `${crossId}-${suffix}`,
    type: 'line',
    x: round(cx - reach),
    y: round(cy - reach),
    width: round(2 * reach),
    height: round(2 * reach),
    points: [
      { x: round(cx - reach), y: round(cy - sign * reach) },
      { x: round(cx + reach), y: round(cy + sign * reach) },
    ],
    strokeColor: ring.strokeColor,
    fillColor: 'transparent',
    strokeStyle: 'solid',
    corner: 'sharp',
    groupIds,
  });
  Object.assign(ring, { fillColor: '#ffffff', groupIds });
  return [diagonal('a', 1), diagonal('b', -1)];
}

/**
 * Where an arrow end binds: layout ends routes on the node's box, so for round and pointed outlines the last
 * segment is carried on into the shape until it meets the outline (the point the intake recomputes bound ends to).
 */
function bindEnd(end: Point, from: Point, type: string, box: Box): { point: Point; focus: Point } {
  const shape = { ...box, type };
  // A last segment that meets the outline before its end (Graphviz clips at its own outline, which differs a little
  // from ours for octagons and the like, and now and then leaves a node through its far side) ends where it meets it.
  const entry = type === 'rectangle' ? undefined : firstCrossing(from, end, outlineOf(shape));
  const focus = entry ? { x: (entry.x - box.x) / box.width, y: (entry.y - box.y) / box.height } : focusFromEnd(shape, end, from);
  // Fine enough that the end stays within a tenth of a pixel on the tallest table.
  const rounded = { x: Math.round(focus.x * 1e4) / 1e4, y: Math.round(focus.y * 1e4) / 1e4 };
  return { point: type === 'rectangle' ? end : focusPoint(shape, rounded), focus: rounded };
}

/** Builds the scene of a laid-out layered graph. */
export function graphToScene(graph: GraphIR, layout: LaidOutGraph): GraphScene {
  const makeId = idMaker();
  const elementIds = { nodes: new Map<string, string>(), groups: new Map<string, string>() };
  const parents = new Map<string, string>();
  const elements: Element[] = [];
  // Ids are handed out in graph order (groups, then nodes), so they do not depend on layout order.
  for (const group of graph.groups) elementIds.groups.set(group.id, makeId(group.id));
  for (const node of graph.nodes) elementIds.nodes.set(node.id, makeId(node.id));
  const groupElement = (id: string) => elementIds.groups.get(id)!;
  const nodeElement = (id: string) => elementIds.nodes.get(id)!;
  /** An edge end names a node, or else a group (as in layout). */
  const endElement = (end: string) => elementIds.nodes.get(end) ?? groupElement(end);
  const boxes = new Map<string, Box & { type: string }>();

  const groupById = new Map(graph.groups.map((group) => [group.id, group]));
  const nodeById = new Map(graph.nodes.map((node) => [node.id, node]));

  // Outer containers first, so inner ones and nodes paint above them.
  for (const laid of [...layout.groups].sort((a, b) => a.depth - b.depth)) {
    const group = groupById.get(laid.id)!;
    const id = groupElement(group.id);
    boxes.set(id, { ...laid, type: 'rectangle' });
    if (group.parent !== undefined && groupById.has(group.parent)) parents.set(id, groupElement(group.parent));
    elements.push({
      id,
      type: 'rectangle',
      ...(parents.has(id) && { parentId: parents.get(id) }),
      ...shapeBase(laid),
      strokeColor: group.style?.strokeColor ?? CONTAINER_STROKE,
      fillColor: group.style?.fillColor ?? CONTAINER_FILLS[Math.min(laid.depth, CONTAINER_FILLS.length - 1)]!,
      strokeStyle: group.style?.strokeStyle ?? 'dashed',
      corner: group.style?.corner ?? 'rounded',
    });
    // The title sits inside the container, on its fill: the author's font colour where it reads there.
    const titleColor = group.style?.textColor === undefined ? TEXT_COLOR : readableStroke(group.style.textColor, group.style.fillColor ?? '#ffffff');
    if (laid.title.text !== '') elements.push({ ...textElement(makeId(`${id}-title`), laid.title.text, laid.title, FONT.containerTitle, undefined, titleColor), labelOf: id });
  }

  for (const laid of layout.nodes) {
    const node = nodeById.get(laid.id)!;
    const id = nodeElement(node.id);
    boxes.set(id, { ...laid, type: laid.box.shape });
    if (node.parent !== undefined && groupById.has(node.parent)) parents.set(id, groupElement(node.parent));
    const role = ROLE_COLORS[node.kind];
    const { box } = laid;
    const shape: Element & { type: ShapeType } = {
      id,
      type: box.shape,
      ...shapeBase(laid),
      strokeColor: node.style?.strokeColor ?? role.strokeColor,
      fillColor: node.style?.fillColor ?? role.fillColor,
      strokeStyle: node.style?.strokeStyle ?? 'solid',
      ...(node.style?.strokeWidth !== undefined && { strokeWidth: node.style.strokeWidth }),
      corner: node.style?.corner ?? (ROUNDED_KINDS.has(node.kind) && box.shape === 'rectangle' ? 'rounded' : 'sharp'),
      ...(node.kind !== 'generic' && { role: node.kind }),
      ...(parents.has(id) && { parentId: parents.get(id) }),
    };
    if (node.iconRef !== undefined && box.icon) shape.iconRef = node.iconRef;
    if (box.cells) {
      shape.groupIds = [`${id}-box`];
      elements.push(shape, ...cellElements(box.cells, laid, shape, box.fontSize, node.style?.textColor, makeId));
      continue;
    }
    if (box.headerHeight === 0) {
      if (box.label === '') {
        elements.push(shape);
        if (node.kind === 'end' && box.shape === 'ellipse') {
          const marks = node.flowFinal ? crossedRing(shape, makeId(`${id}-cross`)) : bullsEye(shape, makeId(`${id}-dot`));
          // The mark is drawn inside its state's container as the ring is (a final state in a composite state).
          for (const mark of marks) if (mark.parentId !== undefined) parents.set(mark.id, mark.parentId);
          elements.push(...marks);
        }
        continue;
      }
      // The label is drawn in the stroke colour: keep it readable on the fill. A border colour the notation set
      // (DOT color, or none for plain text) that cannot carry the text keeps its colour, and the label becomes a text of
      // its own over the shape (the notation's font colour when readable), grouped with it.
      const border = shape.strokeColor!;
      // Text its author hid (D2 opacity 0) stays hidden; any other is made to read.
      const hidden = node.style?.textColor !== undefined && isHidden(node.style.textColor);
      // A figure's label (a person's, an interface's) sits under it, on the paper, whatever the figure is filled with.
      const figure = isFigure(box.shape) ? box.shape : undefined;
      const text = hidden ? node.style!.textColor! : readableStroke(node.style?.textColor ?? border, figure ? '#ffffff' : shape.fillColor!);
      if (text === border || node.style?.strokeColor === undefined) {
        Object.assign(shape, { text: box.label, fontSize: box.fontSize, fontFamily: FONT.family, strokeColor: text, ...emphasisOf(node.style) });
        // A note is prose, written as its author broke the lines: left-aligned, as PlantUML and Mermaid draw it.
        if (node.kind === 'note' || node.style?.textAlign === 'left') shape.textAlign = 'left';
        elements.push(shape);
        continue;
      }
      const groupIds = [`${id}-box`];
      shape.groupIds = groupIds;
      const size = measureText(box.label, box.fontSize, FONT.family, node.style?.fontWeight);
      // A box with room for an icon keeps its top for the icon: the label is centred in what lies below it.
      const body = iconBody({ type: box.shape, y: laid.y, width: laid.width, height: laid.height });
      const band = shape.iconRef !== undefined ? { top: body.y + iconBand(body.height), bottom: body.y + body.height } : { top: laid.y, bottom: laid.y + laid.height };
      const top = figure ? figureBox(figure, laid).labelTop : band.top + (band.bottom - band.top - size.height) / 2;
      const at = { x: laid.x + (laid.width - size.width) / 2, y: top, ...size };
      elements.push(shape, { ...textElement(makeId(`${id}-label`), box.label, at, box.fontSize, groupIds, text, node.style?.textAlign ?? 'center'), ...emphasisOf(node.style) });
      continue;
    }
    // A table or record: header text, a rule under it, then the rows left-aligned; grouped so they move as one.
    const groupIds = [`${id}-box`];
    shape.groupIds = groupIds;
    elements.push(shape);
    // The notation's font colour, else the usual ink, kept readable on the fill (psg's black Mrecord state: white).
    const ink = readableStroke(node.style?.textColor ?? TEXT_COLOR, shape.fillColor!);
    const header = measureText(box.label, box.fontSize, FONT.family, node.style?.fontWeight);
    const rowSize = rowFont(box.fontSize);
    const stereotype = box.stereotype === undefined ? undefined : measureText(box.stereotype, rowSize, FONT.family);
    const headerTop = laid.y + (box.headerHeight - header.height - (stereotype?.height ?? 0)) / 2;
    if (stereotype) {
      const at = { x: laid.x + (laid.width - stereotype.width) / 2, y: headerTop, ...stereotype };
      elements.push(textElement(makeId(`${id}-stereotype`), box.stereotype!, at, rowSize, groupIds, ink));
    }
    // A table's icon goes left of its title (stamping puts it there, icons/stamp.ts): the two are centred as one.
    const iconSpace = shape.iconRef !== undefined ? HEADER_ICON.size + HEADER_ICON.gap : 0;
    const headerAt = { x: laid.x + (laid.width - header.width - iconSpace) / 2 + iconSpace, y: headerTop + (stereotype?.height ?? 0), ...header };
    elements.push({ ...textElement(makeId(`${id}-header`), box.label, headerAt, box.fontSize, groupIds, ink), ...emphasisOf(node.style) });
    const rule = (suffix: string, y: number): Element => {
      const ruleY = round(y);
      return {
        id: makeId(`${id}-${suffix}`),
        type: 'line',
        x: round(laid.x),
        y: ruleY,
        width: round(laid.width),
        height: 0,
        points: [
          { x: round(laid.x), y: ruleY },
          { x: round(laid.x + laid.width), y: ruleY },
        ],
        strokeColor: shape.strokeColor,
        fillColor: 'transparent',
        strokeStyle: 'solid',
        corner: 'sharp',
        groupIds,
      };
    };
    elements.push(rule('rule', laid.y + box.headerHeight));
    // Each compartment (a class's attributes, then its operations) is a text of its own under its own rule; a class
    // with no member keeps its empty compartment, as Mermaid draws it.
    const opens = [0, ...(box.compartments ?? [])];
    let top = laid.y + box.headerHeight;
    // A table's columns, each a text of its own starting at one x, a line a row (table-columns.ts).
    if (box.columns !== undefined) {
      const texts = box.columns.offsets.map((offset, column) => {
        const text = box.columns!.cells.map((row) => row[column]!).join('\n');
        return textElement(makeId(column === 0 ? `${id}-rows` : `${id}-rows-column-${column + 1}`), text, { x: laid.x + SPACING.nodePaddingX + offset, y: top + SPACING.rowGap, ...measureText(text, rowSize, FONT.family) }, rowSize, groupIds, ink);
      });
      elements.push(...texts);
      continue;
    }
    opens.forEach((start, k) => {
      if (k > 0) elements.push(rule(`rule-${k + 1}`, top));
      const rowsText = box.rows.slice(start, opens[k + 1]).join('\n');
      const rows = measureText(rowsText, rowSize, FONT.family);
      if (rowsText !== '') elements.push(textElement(makeId(k === 0 ? `${id}-rows` : `${id}-rows-${k + 1}`), rowsText, { x: laid.x + SPACING.nodePaddingX, y: top + SPACING.rowGap, ...rows }, rowSize, groupIds, ink));
      top += rows.height + 2 * SPACING.rowGap;
    });
  }

  const labels: Element[] = [];
  for (const laid of layout.edges) {
    const edge = graph.edges[laid.index]!;
    if (edge.hidden) continue;
    const id = makeId(edge.id);
    const fromId = endElement(edge.from);
    const toId = endElement(edge.to);
    elements.push(arrowElement(id, edge, laid, { ...boxes.get(fromId)!, id: fromId }, { ...boxes.get(toId)!, id: toId }));
    for (const label of laid.labels) {
      labels.push({ ...textElement(makeId(`${id}-${label.placement === 'center' ? 'label' : label.placement}`), label.text, label, label.fontSize ?? FONT.edgeLabel, undefined, edge.style?.textColor), labelOf: id });
    }
  }
  // Labels last: they sit on top of any arrow passing under them.
  elements.push(...labels);
  const withLegend = graph.legend ? withDiagramLegend(elements, graph.legend, makeId(DIAGRAM_LEGEND_ID)) : elements;
  return { elements: graph.title ? withDiagramTitle(withLegend, graph.title, makeId(DIAGRAM_TITLE_ID), graph.titleSize, graph.titleAlign) : withLegend, elementIds, parents };
}

/** Element id of the diagram's legend box. */
export const DIAGRAM_LEGEND_ID = 'diagram-legend';
const LEGEND_FILL = '#eeeeee';

/**
 * Puts `legend` in a grey box of its own under the drawing, centred, as PlantUML sets a legend: placed after the
 * layout, it moves nothing the layout placed and costs the layout nothing (as a loose node it doubled the onion
 * architecture's layout time). Its text wraps no wider than the drawing.
 */
export function withDiagramLegend(elements: readonly Element[], legend: string, id: string): Element[] {
  const { left, right, bottom } = drawingExtent(elements);
  const text = wrapText(legend, Math.max(right - left - 2 * SPACING.nodePaddingX, CONTAINER_MIN_WIDTH * 2), FONT.row).join('\n');
  const size = measureText(text, FONT.row, FONT.family);
  const width = size.width + 2 * SPACING.nodePaddingX;
  const height = size.height + 2 * SPACING.nodePaddingY;
  const box = { x: (left + right) / 2 - width / 2, y: bottom + SPACING.diagramTitleGap, width, height };
  return [
    ...elements,
    { id, type: 'rectangle', ...shapeBase(box), strokeColor: TEXT_COLOR, fillColor: LEGEND_FILL, strokeStyle: 'solid', corner: 'sharp', text, fontSize: FONT.row, fontFamily: FONT.family, textAlign: 'left' } as Element,
  ];
}

/**
 * Puts `title` as a standalone text above the drawing, at its left unless the author placed it (`align`), and moves
 * every other element down by the title's height and a gap, so it overlaps nothing. Points of arrows and lines are
 * absolute and move too; bindings are relative to their shapes and stay. The title wraps like container titles, but
 * never narrower than the drawing.
 */
export function withDiagramTitle(elements: readonly Element[], title: string, id: string, fontSize: number = FONT.diagramTitle, align: 'left' | 'center' | 'right' = 'left'): Element[] {
  const { left, top, right } = drawingExtent(elements);
  const text = wrapText(title, Math.max(right - left, CONTAINER_MIN_WIDTH * 2), fontSize).join('\n');
  const size = measureText(text, fontSize, FONT.family);
  const shift = size.height + SPACING.diagramTitleGap;
  const moved = elements.map((element) => {
    const points = pointsOf(element);
    return {
      ...element,
      ...(element.y !== undefined && { y: round(element.y + shift) }),
      ...(points && { points: points.map((point) => ({ x: point.x, y: round(point.y + shift) })) }),
    } as Element;
  });
  // Last, so that a reader going through the elements in order (export's graph recovery) meets every container's own
  // title before this text, which sits just above the top-left container.
  const spare = Math.max(0, right - left - size.width);
  const x = left + (align === 'center' ? spare / 2 : align === 'right' ? spare : 0);
  return [...moved, textElement(id, text, { x: round(x), y: top, ...size }, fontSize, undefined, TEXT_COLOR, align)];
}

/** The sides of the box every element lies in (all 0 for none). */
export function drawingExtent(elements: readonly Element[]): { left: number; top: number; right: number; bottom: number } {
  const bounds = elements.length > 0 ? elements.map(extentOf) : [{ x: 0, y: 0, width: 0, height: 0 }];
  return {
    left: Math.min(...bounds.map((b) => b.x)),
    top: Math.min(...bounds.map((b) => b.y)),
    right: Math.max(...bounds.map((b) => b.x + b.width)),
    bottom: Math.max(...bounds.map((b) => b.y + b.height)),
  };
}

/** The box an element covers: lines and arrows by their points (the sequence layout leaves their box out). */
function extentOf(element: Element): Box {
  const points = pointsOf(element);
  if (points && points.length > 0) {
    const xs = points.map((point) => point.x);
    const ys = points.map((point) => point.y);
    return { x: Math.min(...xs), y: Math.min(...ys), width: Math.max(...xs) - Math.min(...xs), height: Math.max(...ys) - Math.min(...ys) };
  }
  return { x: element.x ?? 0, y: element.y ?? 0, width: element.width ?? 0, height: element.height ?? 0 };
}

const pointsOf = (element: Element): readonly Point[] | undefined => ('points' in element ? element.points : undefined);

type Bound = Box & { id: string; type: string };

/**
 * A leg coming down beside a person's figure (its box as wide as the name under it) turns into the figure at its arms,
 * as a line into a PlantUML actor meets the figure, rather than ending on the name's shoulder in the air beside it
 * (a C4 person reached by "email", "SMS" and "push" from three providers above).
 */
function intoFigure(route: readonly Point[], box: Bound): readonly Point[] {
  const [before, end] = [route.at(-2)!, route.at(-1)!];
  if (box.type !== 'person' || before.x !== end.x || before.y >= end.y) return route;
  const figure = figureBox('person', box);
  const arms = personFigure(box).arms[0].y;
  if ((end.x >= figure.x && end.x <= figure.x + figure.width) || before.y >= arms) return route;
  return [...route.slice(0, -1), { x: end.x, y: arms }, { x: end.x < figure.x ? figure.x : figure.x + figure.width, y: arms }];
}

function arrowElement(id: string, edge: GraphEdge, laid: LaidOutEdge, from: Bound, to: Bound): Element {
  const route = laid.curved ? laid.points : [...intoFigure([...intoFigure(laid.points, to)].reverse(), from)].reverse();
  const start = bindEnd(route[0]!, route[1]!, from.type, from);
  const end = bindEnd(route[route.length - 1]!, route[route.length - 2]!, to.type, to);
  const points = [start.point, ...route.slice(1, -1), end.point].map((point) => ({ x: round(point.x), y: round(point.y) }));
  const xs = points.map((point) => point.x);
  const ys = points.map((point) => point.y);
  const minX = Math.min(...xs);
  const minY = Math.min(...ys);
  return {
    id,
    type: 'arrow',
    x: minX,
    y: minY,
    width: round(Math.max(...xs) - minX),
    height: round(Math.max(...ys) - minY),
    strokeColor: edge.style?.strokeColor ?? EDGE_STROKE,
    fillColor: 'transparent',
    strokeStyle: edge.style?.strokeStyle ?? 'solid',
    ...(edge.style?.strokeWidth !== undefined && { strokeWidth: edge.style.strokeWidth }),
    corner: 'sharp',
    // The schema's elbow has exactly one bend; an unbent route is straight and longer right-angle routes are multipoint.
    // A spline's points are drawn as the curve through them.
    arrowShape: points.length === 2 ? 'straight' : laid.curved ? 'multipoint-curved' : points.length === 3 ? 'elbow' : 'multipoint',
    points,
    startArrowhead: edge.startArrowhead ?? 'none',
    endArrowhead: edge.endArrowhead ?? 'arrow',
    startBinding: { elementId: from.id, focus: start.focus },
    endBinding: { elementId: to.id, focus: end.focus },
  };
}
