import { isDeepStrictEqual } from 'node:util';
import { z } from 'zod';
import { AppError, describeValue } from '../errors.js';
import { LIMITS } from '../limits.js';
import { segmentCrossesBox } from '../quality/check.js';
import { ROUTE_MARGIN } from '../routing/orthogonal.js';
import { routeSmartArrows, type RoutableElement } from '../routing/smart-arrows.js';
import { boundEnd, boundsOf, focusFromEnd, focusPoint, type Box, type Focus } from './binding-geometry.js';
import { ELEMENT_TYPES, type ElementType } from './constants.js';
import { applyRoleColors, checkStructure } from './structure.js';
import { ELEMENT_SCHEMAS, type ArrowElement, type Binding, type Element, type Point } from './schema.js';

/** At most this many problems are listed in an error's details; the message names the first. */
const MAX_REPORTED_ERRORS = 100;

export interface ValidatedScene {
  elements: Element[];
  warnings: string[];
  /** Ids of the elements sent exactly as they are stored (see `validateElements`). */
  unchanged: Set<string>;
}

type Parsed = z.output<(typeof ELEMENT_SCHEMAS)[ElementType]>;
type Draft = Parsed & { id: string; index: number };

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const label = (index: number, id: unknown) => `elements[${index}]${typeof id === 'string' ? ` (id "${id}")` : ''}`;
const pathOf = (path: readonly PropertyKey[]) =>
  path.map((key, i) => (typeof key === 'number' ? `[${key}]` : i === 0 ? String(key) : `.${String(key)}`)).join('');

/**
 * Validates native elements and completes them: defaults, ids, seeds, sizes of text, the arrow/line rules and the
 * bound ends. Throws one `validation_failed` AppError listing every problem (details.errors); dropped unknown fields
 * come back as warnings.
 *
 * An element sent exactly as it is stored in `previous` (deep-equal) was checked when it was stored: it skips the
 * per-element checks, the bulk of the cost of a write (an edit of one element of 1,000 stays cheap), and keeps its
 * bytes. Whatever spans elements (ids, containment, bindings, the points limit) is checked on the whole scene still.
 */
export function validateElements(raw: readonly unknown[], previous: readonly Element[] = []): ValidatedScene {
  const errors: string[] = [];
  const warnings: string[] = [];
  const drafts: Array<Parsed & { index: number }> = [];
  const stored = new Map(previous.map((element) => [element.id, element]));
  const unchanged = new Set<string>();

  raw.forEach((sent, index) => {
    if (!isRecord(sent)) return void errors.push(`elements[${index}]: must be an object`);
    const kept = typeof sent.id === 'string' ? stored.get(sent.id) : undefined;
    if (kept !== undefined && !unchanged.has(kept.id) && isDeepStrictEqual(sent, kept)) {
      unchanged.add(kept.id);
      return void drafts.push({ ...kept, index } as Parsed & { index: number });
    }
    const item = applyRoleColors(sent);
    const where = label(index, item.id);
    if (typeof item.type !== 'string' || !(ELEMENT_TYPES as readonly string[]).includes(item.type)) {
      const got = item.type === undefined ? 'is required' : `${describeValue(item.type)} is not a type`;
      return void errors.push(`${where}: type ${got}; expected one of: ${ELEMENT_TYPES.join(', ')}`);
    }
    const schema = ELEMENT_SCHEMAS[item.type as ElementType];
    const result = schema.safeParse(item);
    if (!result.success) {
      for (const issue of result.error.issues) errors.push(`${where}: ${pathOf(issue.path)} ${issue.message}`);
      return;
    }
    for (const path of unknownFields(schema, item)) warnings.push(`${where}: unknown field "${path}" dropped`);
    drafts.push({ ...result.data, index });
  });
  fail(errors);
  const points = drafts.reduce((sum, d) => sum + ('points' in d && Array.isArray(d.points) ? d.points.length : 0), 0);
  if (points > LIMITS.pointsPerDocument) errors.push(`elements: at most ${LIMITS.pointsPerDocument} points per document in all, got ${points}`);
  fail(errors);

  const elements = assignIds(drafts, errors);
  fail(errors);
  const complete = elements.map((draft) => (unchanged.has(draft.id) ? draft : complete1(draft, errors)));
  fail(errors);
  checkStructure(complete, (d) => label(d.index, d.id), warnings);
  applySmartRoutes(complete, previous, warnings);
  bindArrows(complete, previous, unchanged, errors);
  fail(errors);
  // What came back as it was stored is handed back as the stored object, so later steps see it is the same at a glance.
  const asStored = (element: Element) => {
    const kept = unchanged.has(element.id) ? stored.get(element.id) : undefined;
    return kept !== undefined && sameFields(kept, element) ? kept : element;
  };
  return { elements: complete.map(({ index: _index, ...element }) => asStored(element as Element)), warnings, unchanged };
}

/** One level deep: a copy whose fields were all left alone (changed fields are replaced, never edited in place). */
function sameFields(a: object, b: object): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => (a as Record<string, unknown>)[key] === (b as Record<string, unknown>)[key]);
}

/**
 * The paths of the fields in `raw` that the schema does not know, in the order they were sent: zod drops unknown keys
 * at every depth (`colour`, `startBinding.gap`, `iconRef.colour`, `points[].z`), and none may go unreported.
 *
 * The walk follows the schema rather than the parsed output, so transformed fields are followed by what they accept:
 * an iconRef sent as {library, label} is a string once parsed, yet its stray keys are still found. Items of an array
 * share one path (`points[].z`), so a stroke whose thousand points carry a `pressure` gets one warning, not a thousand.
 * Server-computed fields (those with a `.catch`, e.g. the stamped icon box) are replaced whatever was sent, so nothing
 * inside them is reported. Keys are looked up as own properties: `constructor` or `__proto__` are unknown fields too.
 */
function unknownFields(schema: z.ZodType, raw: unknown): string[] {
  const found = new Set<string>();
  const walk = (node: z.ZodType, value: unknown, path: string): void => {
    if (node instanceof z.ZodCatch) return;
    if (
      node instanceof z.ZodOptional ||
      node instanceof z.ZodNullable ||
      node instanceof z.ZodDefault ||
      node instanceof z.ZodPrefault ||
      node instanceof z.ZodReadonly
    ) {
      return walk(node.unwrap() as z.ZodType, value, path);
    }
    if (node instanceof z.ZodPipe) return walk(node.in as z.ZodType, value, path);
    if (node instanceof z.ZodUnion) {
      // The option the value was accepted by (for iconRef: the string or the {library, label} form).
      const option = (node.options as readonly z.ZodType[]).find((o) => o.safeParse(value).success);
      return option && walk(option, value, path);
    }
    if (node instanceof z.ZodArray) {
      if (Array.isArray(value)) for (const item of value) walk(node.element as z.ZodType, item, `${path}[]`);
      return;
    }
    if (node instanceof z.ZodObject && isRecord(value)) {
      const shape = node.shape as Record<string, z.ZodType>;
      for (const [key, inner] of Object.entries(value)) {
        const at = path === '' ? key : `${path}.${key}`;
        if (Object.hasOwn(shape, key)) walk(shape[key]!, inner, at);
        else found.add(at);
      }
    }
  };
  walk(schema, raw, '');
  return [...found];
}

function fail(errors: string[]): void {
  if (errors.length === 0) return;
  const more = errors.length > 1 ? ` (and ${errors.length - 1} more)` : '';
  throw new AppError('validation_failed', `${errors[0]}${more}`, { errors: errors.slice(0, MAX_REPORTED_ERRORS) });
}

/** Ids are kept when given and must be unique; missing ones become "<type>-<n>", stable for the same input. */
function assignIds(drafts: Array<Parsed & { index: number }>, errors: string[]): Draft[] {
  const owner = new Map<string, number>();
  for (const d of drafts) {
    if (d.id === undefined) continue;
    const first = owner.get(d.id);
    if (first === undefined) owner.set(d.id, d.index);
    else errors.push(`${label(d.index, d.id)}: id "${d.id}" is already used by elements[${first}]`);
  }
  const counters = new Map<string, number>();
  return drafts.map((d) => {
    if (d.id !== undefined) return d as Draft;
    let n = counters.get(d.type) ?? 0;
    let id: string;
    do id = `${d.type}-${++n}`;
    while (owner.has(id));
    counters.set(d.type, n);
    owner.set(id, d.index);
    return { ...d, id };
  });
}

/** A stable rough.js seed from the id (FNV-1a), so renders do not change between requests. */
export function seedFromId(id: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) hash = Math.imul(hash ^ id.charCodeAt(i), 0x01000193);
  return (hash >>> 0) % 2 ** 31;
}

/** Approximate text box; fonts are measured by the renderer, this only gives a sensible default size. */
export function estimateTextSize(text: string, fontSize: number, fontFamily: string): { width: number; height: number } {
  const lines = text.split('\n');
  // A loop, not Math.max(...): a text of a few hundred thousand lines would overflow the call stack.
  let longest = 0;
  for (const line of lines) longest = Math.max(longest, [...line].length);
  return { width: Math.ceil(longest * fontSize * (fontFamily === 'code' ? 0.6 : 0.55)), height: Math.ceil(lines.length * fontSize * 1.25) };
}

function complete1(d: Draft, errors: string[]): Draft {
  const where = `${label(d.index, d.id)}:`;
  const out: Record<string, unknown> = { ...d, seed: d.seed ?? seedFromId(d.id) };
  if (out.text !== undefined) {
    out.fontSize ??= 20;
    out.fontFamily ??= 'hand';
    out.textAlign ??= 'center';
  }
  switch (d.type) {
    case 'text':
    case 'math':
    case 'code': {
      const estimate = estimateTextSize(d.text, d.fontSize ?? 20, d.fontFamily ?? 'hand');
      out.width = d.width ?? estimate.width;
      out.height = d.height ?? estimate.height;
      break;
    }
    case 'arrow':
      if (d.points === undefined && (d.startBinding === undefined || d.endBinding === undefined)) {
        errors.push(`${where} points is required (at least 2 {x, y} points) unless both startBinding and endBinding are given`);
        break;
      }
      if (d.points !== undefined) applyArrowRules(d, out, where, errors);
      break;
    case 'line': {
      const shape = d.lineShape ?? (d.points.length === 2 ? 'straight' : 'multipoint');
      if (shape === 'straight' && d.points.length !== 2) {
        errors.push(`${where} points: a straight line has exactly 2 points, got ${d.points.length} (use lineShape "multipoint")`);
      }
      Object.assign(out, { lineShape: shape }, boundsOf(d.points));
      break;
    }
    case 'freedraw':
    case 'highlight':
      Object.assign(out, boundsOf(d.points));
      break;
  }
  return out as Draft;
}

/** 2 points = straight, 3 = elbow (one bend), 4+ = routed polyline; curves join two points through control points. */
function applyArrowRules(d: Extract<Draft, { type: 'arrow' }>, out: Record<string, unknown>, where: string, errors: string[]): void {
  let points = d.points!;
  const n = points.length;
  const shape = d.arrowShape ?? (n === 2 ? 'straight' : n === 3 ? 'elbow' : 'multipoint');
  const twoPoint = shape === 'straight' || shape === 'curved' || shape === 's-curve';
  if (twoPoint && n !== 2) {
    errors.push(`${where} points: a ${shape} arrow has exactly 2 points, got ${n} (3 = elbow, 4+ = multipoint)`);
  } else if (shape === 'elbow' && n > 3) {
    errors.push(`${where} points: an elbow arrow has 2 or 3 points (one bend), got ${n} (use arrowShape "multipoint")`);
  } else if (shape === 'elbow' && n === 2) {
    // A right-angle connection (x1,y1)→(x2,y2) is (x1,y1),(x2,y1),(x2,y2).
    const [a, b] = points as [Point, Point];
    points = [a, { x: b.x, y: a.y }, b];
  }
  Object.assign(out, { arrowShape: shape, points }, boundsOf(points));
}

/**
 * Smart arrows get their path and end focus points from the router (src/core/routing/); binding then treats them
 * like any other arrow, so their ends land on the shapes' outlines. A stored smart arrow sent back with its route,
 * whose end shapes did not move and across which no moved or new shape now lies, keeps that route: an edit elsewhere
 * leaves it byte-identical.
 */
function applySmartRoutes(elements: Draft[], previous: readonly Element[], warnings: string[]): void {
  const kept = keptRoutes(elements, previous);
  const { routes, problems } = routeSmartArrows(elements as unknown as RoutableElement[], kept);
  for (const draft of elements) {
    const problem = problems.get(draft.id);
    if (problem !== undefined) warnings.push(`${label(draft.index, draft.id)}: ${problem}`);
    const route = routes.get(draft.id);
    if (route === undefined || draft.type !== 'arrow') continue;
    const arrow = draft as Draft & ArrowElement;
    arrow.points = route.points;
    arrow.startBinding = { elementId: arrow.startBinding!.elementId, focus: route.startFocus };
    arrow.endBinding = { elementId: arrow.endBinding!.elementId, focus: route.endFocus };
  }
}

/** Ids of the smart arrows that keep their stored route (see applySmartRoutes). */
function keptRoutes(elements: readonly Draft[], previous: readonly Element[]): Set<string> {
  const kept = new Set<string>();
  if (previous.length === 0) return kept;
  const boxOf = (e: Draft | Element | undefined): Box | undefined => (e === undefined ? undefined : (e as unknown as Box));
  const before = new Map(previous.map((e) => [e.id, e]));
  const byId = new Map(elements.map((e) => [e.id, e]));
  const sameBox = (a: Box | undefined, b: Box | undefined) => a !== undefined && b !== undefined && a.x === b.x && a.y === b.y && a.width === b.width && a.height === b.height;
  // Shapes that are new or moved or resized, with where they were: a route near either place may no longer be the best.
  const moved = elements.filter((e) => !LINEAR.has(e.type) && e.type !== 'text' && !sameBox(boxOf(e), boxOf(before.get(e.id))));
  const near = (box: Box) => ({ x: box.x - 2 * ROUTE_MARGIN, y: box.y - 2 * ROUTE_MARGIN, width: box.width + 4 * ROUTE_MARGIN, height: box.height + 4 * ROUTE_MARGIN });
  const holds = (outer: Box, inner: Box) => inner.x >= outer.x && inner.y >= outer.y && inner.x + inner.width <= outer.x + outer.width && inner.y + inner.height <= outer.y + outer.height;
  for (const draft of elements) {
    if (draft.type !== 'arrow' || draft.arrowShape !== 'smart') continue;
    const arrow = draft as Draft & ArrowElement;
    const stored = before.get(arrow.id);
    if (stored?.type !== 'arrow' || JSON.stringify(stored.points) !== JSON.stringify(arrow.points)) continue;
    const ends = [arrow.startBinding?.elementId, arrow.endBinding?.elementId].map((id) => (id === undefined ? undefined : byId.get(id)));
    if (ends[0]?.id !== stored.startBinding?.elementId || ends[1]?.id !== stored.endBinding?.elementId) continue;
    if (!ends.every((end) => end !== undefined && sameBox(boxOf(end), boxOf(before.get(end.id))))) continue;
    const points = arrow.points as Point[];
    const disturbed = moved.some((shape) => {
      // Routes may cross a container around one of their ends.
      if (ends.some((end) => end === shape || holds(boxOf(shape)!, boxOf(end)!))) return false;
      const places = [boxOf(shape)!, boxOf(before.get(shape.id))].filter((b): b is Box => b !== undefined).map(near);
      return places.some((box) => points.slice(1).some((p, i) => segmentCrossesBox(points[i]!, p, box)));
    });
    if (!disturbed) kept.add(arrow.id);
  }
  return kept;
}

const LINEAR = new Set(['arrow', 'line', 'freedraw', 'highlight']);

/**
 * Checks binding targets, fills missing focus points and moves every bound end onto its shape. A stored arrow whose
 * shapes are all stored as they were keeps its ends: recomputing them would give the same points.
 */
function bindArrows(elements: Draft[], previous: readonly Element[], unchanged: ReadonlySet<string>, errors: string[]): void {
  const byId = new Map(elements.map((e) => [e.id, e]));
  const before = new Map(previous.filter((e): e is ArrowElement => e.type === 'arrow').map((e) => [e.id, e]));
  for (const draft of elements) {
    if (draft.type !== 'arrow') continue;
    const arrow = draft as Draft & ArrowElement;
    const targets: Array<Box | undefined> = [];
    for (const end of ['startBinding', 'endBinding'] as const) {
      const b = arrow[end];
      if (b === undefined) {
        targets.push(undefined);
        continue;
      }
      const target = byId.get(b.elementId);
      if (target === undefined) {
        errors.push(`${label(arrow.index, arrow.id)}: ${end}.elementId "${b.elementId}" is not an element of this scene`);
      } else if (LINEAR.has(target.type)) {
        errors.push(`${label(arrow.index, arrow.id)}: ${end}.elementId "${b.elementId}" is ${/^[aeiou]/.test(target.type) ? 'an' : 'a'} ${target.type}; arrows bind to shapes, text, images, frames and embeds`);
      }
      targets.push(target as Box | undefined);
    }
    const [start, end] = targets;
    if ((arrow.startBinding && !start) || (arrow.endBinding && !end)) continue;
    const settled = unchanged.has(arrow.id) && arrow.arrowShape !== 'smart' && [arrow.startBinding, arrow.endBinding].every((b) => b === undefined || unchanged.has(b.elementId));
    if (!settled) routeBoundArrow(arrow, start, end, before.get(arrow.id));
  }
}

function resolveFocus(b: Binding, box: Box, endPoint: Point | undefined, from: Point | undefined, old?: Binding): Focus {
  if (b.focus) return b.focus;
  if (old?.elementId === b.elementId && old.focus) return old.focus;
  if (endPoint && from) return focusFromEnd(box, endPoint, from);
  return { x: 0.5, y: 0.5 };
}

/** A bound end follows its shape: recomputed from the shape's current box on every intake. */
function routeBoundArrow(arrow: Draft & ArrowElement, start: Box | undefined, end: Box | undefined, old?: ArrowElement): void {
  if (!start && !end) return;
  const given = arrow.points as Point[] | undefined;
  const first = given?.[0];
  const last = given?.[given.length - 1];
  const startFocus = start && resolveFocus(arrow.startBinding!, start, first, given?.[1], old?.startBinding);
  const endFocus = end && resolveFocus(arrow.endBinding!, end, last, given?.[given.length - 2], old?.endBinding);
  if (startFocus) arrow.startBinding = { elementId: arrow.startBinding!.elementId, focus: startFocus };
  if (endFocus) arrow.endBinding = { elementId: arrow.endBinding!.elementId, focus: endFocus };

  const aimStart = start ? focusPoint(start, startFocus!) : first!;
  const aimEnd = end ? focusPoint(end, endFocus!) : last!;
  let points: Point[] = given ? given.map((p) => ({ ...p })) : [aimStart, aimEnd];
  if (!given) arrow.arrowShape = 'straight';
  const n = points.length;

  if (arrow.arrowShape === 'elbow' && n === 3) {
    // Keep the bend square: it stays on the side it was on (horizontal first or vertical first).
    points[1] = elbowLeavesHorizontally(startFocus, endFocus, aimStart, aimEnd) ? { x: aimEnd.x, y: aimStart.y } : { x: aimStart.x, y: aimEnd.y };
  }
  // What each end aims from: its neighbouring point, a curve's control point, or the other end of a straight arrow.
  const startFrom = arrow.controlPoint ?? (n === 2 ? aimEnd : points[1]!);
  const endFrom = (arrow.arrowShape === 's-curve' ? arrow.controlPoint2 : arrow.controlPoint) ?? (n === 2 ? aimStart : points[n - 2]!);
  if (start) points[0] = boundEnd(start, startFocus!, startFrom);
  if (end) points[n - 1] = boundEnd(end, endFocus!, endFrom);
  Object.assign(arrow, { points }, boundsOf(points));
}

/**
 * Which way an elbow leaves its start, from the bindings alone (so a stored arrow comes back unchanged): an end on a
 * left/right side runs horizontally, one on the top/bottom vertically; otherwise the larger gap between the ends wins.
 */
function elbowLeavesHorizontally(start: Focus | undefined, end: Focus | undefined, from: Point, to: Point): boolean {
  const side = (f: Focus | undefined) => (f === undefined ? undefined : f.x === 0 || f.x === 1 ? 'side' : f.y === 0 || f.y === 1 ? 'top' : undefined);
  const first = side(start);
  if (first) return first === 'side';
  const last = side(end);
  if (last) return last === 'top';
  return Math.abs(to.x - from.x) >= Math.abs(to.y - from.y);
}
