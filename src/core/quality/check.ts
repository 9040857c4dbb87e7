/**
 * The drawing-quality checker: measures a produced scene against the drawing rules. It reads elements only, so it
 * judges any scene (from code, from AI, hand-made) the same way; `parents` says which container holds what.
 */
import { MIN_TEXT_CONTRAST, textContrast } from '../layout/contrast.js';
import { ASPECT_NODES, CROWDED_HEADS, LARGE_NODES, LARGE_WIDTH, MAX_ASPECT, MIXED_TRUNK, README_WIDTH, READABLE_NODES, READABLE_TEXT } from '../layout/drawing-rules.js';
import { boxContains } from '../export/geometry.js';
import { edgeMeaning, type GraphStyle } from '../graph/types.js';
import { outlineOf } from '../scene/binding-geometry.js';
import { isFigure } from '../scene/constants.js';
import { measureText } from '../layout/measure.js';
import { textArea } from '../layout/node-size.js';
import type { Box, Point } from '../layout/types.js';

/** Any scene element, generated or stored: the checker reads its fields loosely. */
type Element = { id: string; type: string } & Record<string, unknown>;

/** What the checker cannot read from the scene itself. */
export interface CheckOptions {
  /** The author fixed the direction (or the whole layout, as DOT does): the aspect-ratio rule does not apply. */
  forcedDirection?: boolean;
}

/** Two edges of different ends may not run together (within 1.5 px) for longer than this: a reader would see one line. */
export const SHARED_RUN = 6;
/** An edge closer than this to a node it does not touch reads as touching it (false adjacency). */
export const NEAR_MISS = 3;
/** A bound end further than this from its shape's outline stops short of it or runs into it. */
export const OFF_OUTLINE = 1.5;

export interface QualityReport {
  /** One sentence per broken rule, naming the elements; empty for a clean drawing. */
  violations: string[];
  nodes: number;
  edges: number;
  /** Pairs of arrow segments that cross each other. */
  crossings: number;
  /** Arrows passing through a free text (a container title, another edge's label), counted per arrow and text. */
  textCrossings: number;
  /** Width and height of everything drawn. */
  width: number;
  height: number;
}

/** Borders may touch and rounding may leave a hair of overlap; anything past this is a real overlap. */
const TOLERANCE = 1;

/** At this many places a few pixels apart on one shape, arrowheads make a wedge (CROWDED_HEADS). */
const CROWDED_MIN = 3;

const NON_SHAPES = new Set(['arrow', 'line', 'text', 'freedraw', 'image']);

interface Binding {
  elementId: string;
  focus: Point;
}

const boxOf = (element: Element): Box => ({ x: Number(element.x), y: Number(element.y), width: Number(element.width), height: Number(element.height) });

/** Overlap depth of two boxes on each axis (negative when apart). */
function overlap(a: Box, b: Box): { x: number; y: number } {
  return {
    x: Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x),
    y: Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y),
  };
}

const overlaps = (a: Box, b: Box) => {
  const depth = overlap(a, b);
  return depth.x > TOLERANCE && depth.y > TOLERANCE;
};

const contains = (outer: Box, inner: Box) => boxContains(outer, inner, TOLERANCE);

/** True when the segment a→b enters the inside of `box` (shrunk by the tolerance, so running along a border is fine). */
export function segmentCrossesBox(a: Point, b: Point, box: Box): boolean {
  const left = box.x + TOLERANCE;
  const right = box.x + box.width - TOLERANCE;
  const top = box.y + TOLERANCE;
  const bottom = box.y + box.height - TOLERANCE;
  if (left >= right || top >= bottom) return false;
  // Liang–Barsky clipping: does any part of the segment lie strictly inside?
  let t0 = 0;
  let t1 = 1;
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  for (const [p, q] of [
    [-dx, a.x - left],
    [dx, right - a.x],
    [-dy, a.y - top],
    [dy, bottom - a.y],
  ] as const) {
    if (p === 0) {
      if (q <= 0) return false;
      continue;
    }
    const t = q / p;
    if (p < 0) t0 = Math.max(t0, t);
    else t1 = Math.min(t1, t);
    if (t0 >= t1) return false;
  }
  return true;
}

/** True when the segment a→b enters the inside of the ellipse inscribed in `box` (shrunk by the tolerance). */
export function segmentCrossesEllipse(a: Point, b: Point, box: Box): boolean {
  const rx = box.width / 2 - TOLERANCE;
  const ry = box.height / 2 - TOLERANCE;
  if (rx <= 0 || ry <= 0) return false;
  const cx = box.x + box.width / 2;
  const cy = box.y + box.height / 2;
  // In the ellipse's unit-circle space: does |p + t·d| < 1 for some t in [0, 1]? The closest point tells.
  const px = (a.x - cx) / rx;
  const py = (a.y - cy) / ry;
  const dx = (b.x - a.x) / rx;
  const dy = (b.y - a.y) / ry;
  const length = dx * dx + dy * dy;
  const t = length === 0 ? 0 : Math.min(1, Math.max(0, -(px * dx + py * dy) / length));
  return (px + t * dx) ** 2 + (py + t * dy) ** 2 < 1;
}

/** Proper crossings between polylines: segment pairs of different lines that cut each other away from their ends. */
export function countCrossings(lines: readonly Point[][]): number {
  const segments: { line: number; a: Point; b: Point; minX: number; maxX: number; minY: number; maxY: number }[] = [];
  lines.forEach((points, line) => {
    for (let i = 1; i < points.length; i++) {
      const a = points[i - 1]!;
      const b = points[i]!;
      segments.push({ line, a, b, minX: Math.min(a.x, b.x), maxX: Math.max(a.x, b.x), minY: Math.min(a.y, b.y), maxY: Math.max(a.y, b.y) });
    }
  });
  segments.sort((s, t) => s.minX - t.minX);
  const cross = (o: Point, p: Point, q: Point) => (p.x - o.x) * (q.y - o.y) - (p.y - o.y) * (q.x - o.x);
  let count = 0;
  for (let i = 0; i < segments.length; i++) {
    const s = segments[i]!;
    for (let j = i + 1; j < segments.length && segments[j]!.minX <= s.maxX; j++) {
      const t = segments[j]!;
      if (t.line === s.line || t.maxY < s.minY || t.minY > s.maxY) continue;
      const d1 = cross(s.a, s.b, t.a);
      const d2 = cross(s.a, s.b, t.b);
      const d3 = cross(t.a, t.b, s.a);
      const d4 = cross(t.a, t.b, s.b);
      if (((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0))) count++;
    }
  }
  return count;
}

/** `transparent`, or a colour with an alpha of zero (#rgba, #rrggbbaa). */
const unseenColour = (colour: unknown): boolean => colour === 'transparent' || /^#(?:[0-9a-f]{3}0|[0-9a-f]{6}00)$/i.test(String(colour));

/** What a shape's label is read against: its fill, but a figure's label (a person's) sits under it, on the paper. */
const groundOf = (shape: Element): string => (isFigure(shape.type) ? 'transparent' : String(shape.fillColor ?? 'transparent'));

/** Checks a scene against the drawing rules. `parents` maps an element id to the container drawn around it. */
export function checkScene(scene: ReadonlyArray<{ id: string; type: string }>, parents: ReadonlyMap<string, string> = new Map(), options: CheckOptions = {}): QualityReport {
  const elements = scene as readonly Element[];
  const violations: string[] = [];
  const byId = new Map(elements.map((element) => [element.id, element]));
  const containers = new Set(parents.values());
  const shapes = elements.filter((element) => !NON_SHAPES.has(element.type));
  // A shape inside a larger one of its own selection group is part of that one's drawing (a DOT record's or table's
  // cells, an end state's dot), not a node of its own.
  const area = (element: Element) => boxOf(element).width * boxOf(element).height;
  const groupsOf = (element: Element) => (element.groupIds as string[] | undefined) ?? [];
  /** Two shapes drawn as one mark (a final state's ring round its dot): grouped, one inside the other. */
  const oneMark = (a: Element, b: Element) =>
    groupsOf(a).some((group) => groupsOf(b).includes(group)) && (contains(boxOf(a), boxOf(b)) || contains(boxOf(b), boxOf(a)));
  const grouped = shapes.filter((element) => groupsOf(element).length > 0);
  const drawnParts = new Set(
    grouped
      .filter((part) => grouped.some((whole) => whole !== part && area(whole) > area(part) && oneMark(whole, part)))
      .map((part) => part.id),
  );
  const nodes = shapes.filter((element) => !containers.has(element.id) && !drawnParts.has(element.id));
  const arrows = elements.filter((element) => element.type === 'arrow');
  const texts = elements.filter((element) => element.type === 'text');
  // A shape with no outline, no fill and no text is not on the page (a blank cell D2 keeps in a grid, a shape laid out
  // but hidden): an arrow past it passes nothing a reader sees.
  const labelled = new Set(texts.filter((text) => String(text.text ?? '').trim() !== '').map((text) => text.containerId as string | undefined));
  const outlined = (node: Element) => node.strokeWidth !== 0 && !unseenColour(node.strokeColor);
  const filled = (node: Element) => node.fillColor !== undefined && !unseenColour(node.fillColor);
  const seen = nodes.filter((node) => outlined(node) || filled(node) || labelled.has(node.id));
  const isAncestor = (ancestor: string, id: string) => {
    for (let up = parents.get(id); up !== undefined; up = parents.get(up)) if (up === ancestor) return true;
    return false;
  };

  // No two shapes overlap, except a container and what it contains.
  for (let i = 0; i < shapes.length; i++) {
    for (let j = i + 1; j < shapes.length; j++) {
      const a = shapes[i]!;
      const b = shapes[j]!;
      if (overlaps(boxOf(a), boxOf(b)) && !isAncestor(a.id, b.id) && !isAncestor(b.id, a.id) && !oneMark(a, b)) {
        violations.push(`shapes "${a.id}" and "${b.id}" overlap`);
      }
    }
  }

  // Containers contain their children.
  for (const [child, parent] of parents) {
    const inner = byId.get(child);
    const outer = byId.get(parent);
    if (inner && outer && !contains(boxOf(outer), boxOf(inner))) violations.push(`container "${parent}" does not contain its child "${child}"`);
  }

  const lines: Point[][] = [];
  /** Ends of each arrow (bound element ids), for the shared-run rule. */
  const endsOf: string[][] = [];
  /** Where arrowheads meet each shape, for the wedge rule below. */
  const heads = new Map<string, Point[]>();
  for (const arrow of arrows) {
    const points = (arrow.points as Point[] | undefined) ?? [];
    lines.push(points);
    const ends: [string, Binding | undefined, Point | undefined, unknown][] = [
      ['start', arrow.startBinding as Binding | undefined, points[0], arrow.startArrowhead],
      ['end', arrow.endBinding as Binding | undefined, points[points.length - 1], arrow.endArrowhead],
    ];
    const bound = new Set<string>();
    for (const [end, binding, point, head] of ends) {
      const target = binding ? byId.get(binding.elementId) : undefined;
      if (!binding || !target || !point) {
        violations.push(`arrow "${arrow.id}": its ${end} is not bound to a shape`);
        continue;
      }
      bound.add(target.id);
      // An edge to a port ends on its cell, one of the node's drawn parts (a record's field inside the record).
      const outlines = [target, ...grouped.filter((part) => drawnParts.has(part.id) && oneMark(target, part))];
      const offBy = Math.min(...outlines.map((outline) => distanceToOutline(point, { ...boxOf(outline), type: outline.type })));
      if (offBy > OFF_OUTLINE) violations.push(`arrow "${arrow.id}": its ${end} is ${offBy.toFixed(1)} px off the outline of "${target.id}"`);
      if (head !== undefined && head !== 'none') {
        if (!heads.has(target.id)) heads.set(target.id, []);
        heads.get(target.id)!.push(point);
      }
      const box = boxOf(target);
      const aimed = { x: box.x + binding.focus.x * box.width, y: box.y + binding.focus.y * box.height };
      if (Math.abs(aimed.x - point.x) > 2 || Math.abs(aimed.y - point.y) > 2) {
        violations.push(`arrow "${arrow.id}": its ${end} point is not where its binding to "${target.id}" says`);
      }
    }
    endsOf.push([...bound]);
    for (const node of seen) {
      if (bound.has(node.id)) continue;
      const box = boxOf(node);
      // An ellipse leaves its box's corners empty: a curve may pass through them.
      const crosses = node.type === 'ellipse' ? segmentCrossesEllipse : segmentCrossesBox;
      // segmentCrossesBox shrinks a box by the tolerance: widen the prefilter by more than that.
      const reach = NEAR_MISS + 2 * TOLERANCE;
      const near = { x: box.x - reach, y: box.y - reach, width: box.width + 2 * reach, height: box.height + 2 * reach };
      let nearest = Infinity;
      for (let i = 1; i < points.length; i++) {
        if (crosses(points[i - 1]!, points[i]!, box)) {
          violations.push(`arrow "${arrow.id}" passes through "${node.id}", which it is not bound to`);
          nearest = Infinity;
          break;
        }
        if (segmentCrossesBox(points[i - 1]!, points[i]!, near)) nearest = Math.min(nearest, segmentToOutline(points[i - 1]!, points[i]!, { ...box, type: node.type }));
      }
      if (nearest < NEAR_MISS) violations.push(`arrow "${arrow.id}" passes ${nearest.toFixed(1)} px from "${node.id}", which it does not touch`);
    }
  }

  // Two edges running together for a stretch read as one line joining their ends: allowed only when they share one,
  // and, beyond a short merge, only when they mean the same (one label, one line style).
  const labelOf = new Map<string, string>();
  for (const text of texts) if (typeof text.labelOf === 'string') labelOf.set(text.labelOf, [labelOf.get(text.labelOf), String(text.text)].filter(Boolean).sort().join(' '));
  // A scene does not say which of an arrow's texts sit at its ends, so its labels are read as one.
  const meaning = (arrow: Element) =>
    edgeMeaning({ id: arrow.id, label: labelOf.get(arrow.id), style: { strokeStyle: arrow.strokeStyle as GraphStyle['strokeStyle'], strokeColor: arrow.strokeColor as string | undefined } });
  for (const { a, b, length } of sharedRuns(lines)) {
    const [first, second] = [arrows[a]!, arrows[b]!];
    const shared = endsOf[a]!.find((end) => endsOf[b]!.includes(end));
    if (shared === undefined) violations.push(`arrows "${first.id}" and "${second.id}" run together for ${length.toFixed(0)} px without sharing an end`);
    else if (length > MIXED_TRUNK && meaning(first) !== meaning(second)) {
      violations.push(`arrows "${first.id}" and "${second.id}" run together into "${shared}" for ${length.toFixed(0)} px though they mean different things (${JSON.stringify(labelOf.get(first.id) ?? '')} / ${JSON.stringify(labelOf.get(second.id) ?? '')})`);
    }
  }

  // Every label fits its box; a free label (not inside a shape) overlaps no shape.
  for (const shape of shapes) {
    if (typeof shape.text !== 'string' || shape.text === '') continue;
    const size = measureText(shape.text, Number(shape.fontSize), String(shape.fontFamily));
    // A stamped icon takes the top of the box and the label goes below it.
    const icon = shape.icon !== undefined || shape.iconRef !== undefined;
    const area = textArea(shape.type, Number(shape.width), Number(shape.height), icon);
    if (size.width > area.width + TOLERANCE || size.height > area.height + TOLERANCE) {
      violations.push(`label of "${shape.id}" (${size.width}×${size.height}) does not fit its ${shape.type} (${shape.width}×${shape.height})`);
    }
    // The label is drawn in the stroke colour, over the fill (or the white canvas through a transparent fill).
    const contrast = textContrast(String(shape.strokeColor ?? '#1e1e1e'), groundOf(shape));
    if (contrast !== undefined && contrast < MIN_TEXT_CONTRAST) {
      violations.push(`label of "${shape.id}" has text/fill contrast ${contrast.toFixed(2)}:1, below ${MIN_TEXT_CONTRAST}:1`);
    }
  }
  for (const text of texts) {
    const box = boxOf(text);
    const size = measureText(String(text.text), Number(text.fontSize), String(text.fontFamily));
    if (size.width > box.width + TOLERANCE || size.height > box.height + TOLERANCE) {
      violations.push(`text "${text.id}" (${size.width}×${size.height}) does not fit its box (${box.width}×${box.height})`);
    }
    const owner = nodes.find((node) => contains(boxOf(node), box));
    for (const node of nodes) {
      if (node !== owner && overlaps(boxOf(node), box)) violations.push(`text "${text.id}" overlaps shape "${node.id}"`);
    }
    // A text drawn on a shape (a table's header and rows, a label kept apart from its border) reads on its fill.
    // Its ground is the innermost filled part of its owner under it (a table cell's BGCOLOR), else the owner's fill.
    const filledPart = owner && grouped.filter((part) => drawnParts.has(part.id) && oneMark(owner, part) && contains(boxOf(part), box) && groundOf(part) !== 'transparent').sort((a, b) => area(a) - area(b))[0];
    const contrast = owner && textContrast(String(text.strokeColor ?? '#1e1e1e'), groundOf(filledPart ?? owner));
    if (contrast !== undefined && contrast < MIN_TEXT_CONTRAST) {
      violations.push(`text "${text.id}" on "${owner!.id}" has text/fill contrast ${contrast.toFixed(2)}:1, below ${MIN_TEXT_CONTRAST}:1`);
    }
  }

  // Arrowheads reaching one shape a few pixels apart pile into a dark wedge: they share one point, or keep apart.
  for (const [target, points] of heads) {
    // Heads at one point draw as one; count the distinct places, each near another but not on it.
    const places = [...new Map(points.map((p) => [`${Math.round(p.x)},${Math.round(p.y)}`, p])).values()];
    const crowded = places.filter((p) => places.some((q) => q !== p && Math.hypot(p.x - q.x, p.y - q.y) < CROWDED_HEADS));
    if (crowded.length >= CROWDED_MIN) violations.push(`arrowheads at ${crowded.length} places a few pixels apart crowd "${target}" (under ${CROWDED_HEADS} px)`);
  }

  // Text that belongs to no node (titles, edge labels) is where a reader looks for words, not lines.
  const freeTexts = texts.filter((text) => !nodes.some((node) => contains(boxOf(node), boxOf(text))));
  for (let i = 0; i < freeTexts.length; i++) {
    for (let j = i + 1; j < freeTexts.length; j++) {
      if (overlaps(boxOf(freeTexts[i]!), boxOf(freeTexts[j]!))) violations.push(`texts "${freeTexts[i]!.id}" and "${freeTexts[j]!.id}" overlap`);
    }
  }

  // Read at a README's width: the drawing is fitted to 880 px (never enlarged) and its smallest text must stay legible.
  const extent = extentOf(elements);
  const sizes = elements.filter((e) => typeof e.text === 'string' && e.text !== '' && Number(e.fontSize) > 0).map((e) => Number(e.fontSize));
  if (nodes.length <= READABLE_NODES && sizes.length > 0 && extent.width > 0) {
    const shown = Math.min(...sizes) * Math.min(1, README_WIDTH / extent.width);
    if (shown < READABLE_TEXT) violations.push(`at ${README_WIDTH} px wide the smallest text is ${shown.toFixed(1)} px (under ${READABLE_TEXT}); the drawing is ${Math.round(extent.width)} px wide`);
  } else if (nodes.length <= LARGE_NODES && sizes.length > 0 && extent.width > 0) {
    // A larger graph is read on a wide page: fitted to 1,600 px, its text still reads.
    const shown = Math.min(...sizes) * Math.min(1, LARGE_WIDTH / extent.width);
    if (shown < READABLE_TEXT) violations.push(`at ${LARGE_WIDTH} px wide the smallest text is ${shown.toFixed(1)} px (under ${READABLE_TEXT}); the drawing of ${nodes.length} nodes is ${Math.round(extent.width)} px wide`);
  }
  if (!options.forcedDirection && nodes.length > ASPECT_NODES && extent.width > 0 && extent.height > 0) {
    const aspect = Math.max(extent.width / extent.height, extent.height / extent.width);
    if (aspect > MAX_ASPECT) violations.push(`the drawing is ${Math.round(extent.width)} × ${Math.round(extent.height)} px, beyond ${MAX_ASPECT}:1`);
  }
  let textCrossings = 0;
  for (const points of lines) {
    for (const text of freeTexts) {
      const box = boxOf(text);
      if (points.slice(1).some((to, i) => segmentCrossesBox(points[i]!, to, box))) textCrossings++;
    }
  }

  return { violations, nodes: nodes.length, edges: arrows.length, crossings: countCrossings(lines), textCrossings, width: extent.width, height: extent.height };
}

/** The box around every element: shapes by their box, lines and arrows by their points. */
export function extentOf(scene: ReadonlyArray<{ id: string; type: string }>): Box {
  let [left, top, right, bottom] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const element of scene as readonly Element[]) {
    const points = element.points as Point[] | undefined;
    const corners = points && points.length > 0 ? points : [{ x: Number(element.x), y: Number(element.y) }, { x: Number(element.x) + Number(element.width ?? 0), y: Number(element.y) + Number(element.height ?? 0) }];
    for (const { x, y } of corners) {
      if (!Number.isFinite(x) || !Number.isFinite(y)) continue;
      [left, top, right, bottom] = [Math.min(left, x), Math.min(top, y), Math.max(right, x), Math.max(bottom, y)];
    }
  }
  return left === Infinity ? { x: 0, y: 0, width: 0, height: 0 } : { x: left, y: top, width: right - left, height: bottom - top };
}

function pointToSegment(p: Point, a: Point, b: Point): number {
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  const length = dx * dx + dy * dy;
  const t = length === 0 ? 0 : Math.max(0, Math.min(1, ((p.x - a.x) * dx + (p.y - a.y) * dy) / length));
  return Math.hypot(p.x - (a.x + t * dx), p.y - (a.y + t * dy));
}

/** Distance from a point to a shape's outline (the same outline the intake binds ends to). */
function distanceToOutline(p: Point, shape: Box & { type: string }): number {
  const outline = outlineOf(shape);
  let best = Infinity;
  for (let i = 0; i < outline.length; i++) best = Math.min(best, pointToSegment(p, outline[i]!, outline[(i + 1) % outline.length]!));
  return best;
}

/** Distance between a segment (that does not cross it) and a shape's outline. */
function segmentToOutline(a: Point, b: Point, shape: Box & { type: string }): number {
  const outline = outlineOf(shape);
  let best = Math.min(distanceToOutline(a, shape), distanceToOutline(b, shape));
  for (const corner of outline) best = Math.min(best, pointToSegment(corner, a, b));
  return best;
}

/**
 * Pairs of polylines with a stretch of one lying along the other (parallel within 2°, within 1.5 px) for longer than
 * SHARED_RUN, with the length of their longest such stretch.
 */
export function sharedRuns(lines: readonly Point[][]): { a: number; b: number; length: number }[] {
  type Segment = { line: number; a: Point; b: Point; minX: number; maxX: number; minY: number; maxY: number };
  const segments: Segment[] = [];
  lines.forEach((points, line) => {
    for (let i = 1; i < points.length; i++) {
      const [a, b] = [points[i - 1]!, points[i]!];
      if (Math.hypot(b.x - a.x, b.y - a.y) < SHARED_RUN) continue;
      segments.push({ line, a, b, minX: Math.min(a.x, b.x) - 1.5, maxX: Math.max(a.x, b.x) + 1.5, minY: Math.min(a.y, b.y) - 1.5, maxY: Math.max(a.y, b.y) + 1.5 });
    }
  });
  segments.sort((s, t) => s.minX - t.minX);
  const longest = new Map<string, { a: number; b: number; length: number }>();
  for (let i = 0; i < segments.length; i++) {
    const s = segments[i]!;
    const length = Math.hypot(s.b.x - s.a.x, s.b.y - s.a.y);
    const [ux, uy] = [(s.b.x - s.a.x) / length, (s.b.y - s.a.y) / length];
    for (let j = i + 1; j < segments.length && segments[j]!.minX <= s.maxX; j++) {
      const t = segments[j]!;
      if (t.line === s.line || t.maxY < s.minY || t.minY > s.maxY) continue;
      const tLength = Math.hypot(t.b.x - t.a.x, t.b.y - t.a.y);
      // Parallel (either way) within about 2°, and t lies on s's line.
      if (Math.abs(ux * (t.b.y - t.a.y) - uy * (t.b.x - t.a.x)) / tLength > 0.035) continue;
      if (Math.abs(ux * (t.a.y - s.a.y) - uy * (t.a.x - s.a.x)) > 1.5) continue;
      // Overlap of their projections on s.
      const p1 = ux * (t.a.x - s.a.x) + uy * (t.a.y - s.a.y);
      const p2 = ux * (t.b.x - s.a.x) + uy * (t.b.y - s.a.y);
      const overlap = Math.min(length, Math.max(p1, p2)) - Math.max(0, Math.min(p1, p2));
      if (overlap <= SHARED_RUN) continue;
      const [a, b] = s.line < t.line ? [s.line, t.line] : [t.line, s.line];
      const key = `${a} ${b}`;
      if ((longest.get(key)?.length ?? 0) < overlap) longest.set(key, { a, b, length: overlap });
    }
  }
  return [...longest.values()];
}
