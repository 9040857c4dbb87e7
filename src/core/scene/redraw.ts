/**
 * Redrawing a diagram drawn from code, from new code, without losing what was done to it by hand.
 *
 * What was done by hand is read against `before`, the drawing the previous code gives (drawing is deterministic, so it
 * is drawn again rather than stored): an element whose box differs was moved or resized by hand, a style field that
 * differs was set by hand, an element the previous code does not draw was added by hand. Nothing is kept on the
 * elements for it, so this holds whichever door made the change (the editor, operations, a whole scene).
 *
 * Carried onto `after` (the new code's drawing), for every id both drawings have:
 * - a move, as an offset from where the layout puts the element (new elements inside a moved container move with it),
 *   so a nudge survives a layout that shifted around it; a resize, as the size;
 * - each style field set by hand, unless the new code changes that field too (then the code wins, and it is said).
 * Hand-added elements are kept when what they point at (container, label target, arrow ends) is still drawn.
 * Text comes from the code: a label edited by hand is replaced by the code's, and said.
 */
import { containerOf } from './structure.js';
import type { Element } from './schema.js';

/** Style fields a person changes by hand (the editor's style panel, an operation); compared one by one. */
const STYLE_FIELDS = ['strokeColor', 'fillColor', 'fillStyle', 'strokeWidth', 'strokeStyle', 'roughness', 'bowing', 'corner', 'opacity', 'fontFamily', 'fontSize', 'textAlign', 'iconRef'] as const;
type StyleField = (typeof STYLE_FIELDS)[number];

/** Below half a pixel a difference is rounding (an editor's round trip), not a move. */
const TOLERANCE = 0.5;
const LINKS = ['parentId', 'frameId', 'labelOf'] as const;

type Raw = Record<string, unknown> & { id: string; type: string };

export interface RedrawResult {
  elements: Raw[];
  warnings: string[];
}

const differs = (a: number | undefined, b: number | undefined) => Math.abs((a ?? 0) - (b ?? 0)) > TOLERANCE;
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * `stored`: the document now; `before`: the previous code's drawing (undefined when it cannot be drawn any more, then
 * nothing can be told apart and only the new drawing is stored); `after`: the new code's drawing. All in stored form.
 */
export function carryOver(stored: readonly Element[], before: readonly Element[] | undefined, after: readonly Element[]): RedrawResult {
  const result = after.map((element) => ({ ...element }) as Raw);
  if (before === undefined) {
    return { elements: result, warnings: ['the previous code could not be drawn again to tell your changes apart, so none were carried over: the diagram is the new code\'s drawing'] };
  }
  const drawnBefore = new Map(before.map((element) => [element.id, element]));
  const drawnAfter = new Map(result.map((element) => [element.id, element]));
  const kept: string[] = [];
  const dropped: string[] = [];
  const offsets = new Map<string, { dx: number; dy: number }>();

  for (const element of stored) {
    const was = drawnBefore.get(element.id);
    if (was === undefined) continue;
    const next = drawnAfter.get(element.id);
    const moved = element.type !== 'arrow' && (differs(element.x, was.x) || differs(element.y, was.y));
    const resized = !isLinear(element) && element.type !== 'text' && (differs(element.width, was.width) || differs(element.height, was.height));
    const styled = STYLE_FIELDS.filter((field) => !same(field in element ? element[field as keyof Element] : undefined, field in was ? was[field as keyof Element] : undefined));
    const changes = [...(moved ? ['moved'] : []), ...(resized ? ['resized'] : []), ...styled];
    if (next === undefined) {
      if (changes.length > 0) dropped.push(`${element.id} (${changes.join(', ')}; no longer in the code)`);
      continue;
    }
    if (moved) offsets.set(element.id, { dx: element.x - was.x, dy: element.y - was.y });
    if (resized) Object.assign(next, { width: element.width, height: element.height });
    const carried: string[] = [...(moved ? ['moved'] : []), ...(resized ? ['resized'] : [])];
    const overruled: string[] = [];
    for (const field of styled) {
      if (!same(next[field], (was as Record<StyleField, unknown>)[field])) {
        overruled.push(field);
        continue;
      }
      const value = (element as Record<StyleField, unknown>)[field];
      if (value === undefined) delete next[field];
      else next[field] = value;
      // The stamped icon box is derived from iconRef: stamping draws it again for the kept one.
      if (field === 'iconRef') delete next.icon;
      carried.push(field);
    }
    if (carried.length > 0) kept.push(`${element.id} (${carried.join(', ')})`);
    if (overruled.length > 0) dropped.push(`${element.id} (${overruled.join(', ')}; the new code sets ${overruled.length > 1 ? 'them' : 'it'})`);
    if ('text' in element && element.text !== was.text && element.text !== next.text) dropped.push(`${element.id} (text edited by hand; the code's text is drawn)`);
  }

  // A move is an offset from the layout; an element the code draws for the first time inside a moved container (or
  // labelling a moved element) moves with it. Arrows follow their bound ends, which the intake recomputes.
  for (const element of result) {
    if (element.type === 'arrow') continue;
    const offset = offsets.get(element.id) ?? (drawnBefore.has(element.id) ? undefined : inherited(element, drawnAfter, offsets));
    if (offset === undefined) continue;
    element.x = (element.x as number) + offset.dx;
    element.y = (element.y as number) + offset.dy;
    if (Array.isArray(element.points)) element.points = (element.points as { x: number; y: number }[]).map((p) => ({ x: p.x + offset.dx, y: p.y + offset.dy }));
  }

  const removed = before.filter((element) => drawnAfter.has(element.id) && !stored.some((s) => s.id === element.id)).map((e) => e.id);
  const added = handAdded(stored, drawnBefore, drawnAfter);
  result.push(...added.kept);

  const warnings: string[] = [];
  const list = (ids: string[]) => ids.join(', ');
  if (kept.length > 0) warnings.push(`redraw kept your changes to: ${list(kept)}`);
  if (added.kept.length > 0) warnings.push(`redraw kept the elements you added: ${list(added.kept.map((e) => e.id))}`);
  if (dropped.length > 0) warnings.push(`redraw dropped your changes to: ${list(dropped)}`);
  if (added.dropped.length > 0) warnings.push(`redraw dropped elements you added: ${list(added.dropped)}`);
  if (removed.length > 0) warnings.push(`redraw drew again elements you had removed, since the code still has them: ${list(removed)}`);
  return { elements: result, warnings };
}

const isLinear = (element: { type: string }) => ['arrow', 'line', 'freedraw', 'highlight'].includes(element.type);

/** The move of the nearest moved container (or labelled element) above `element`. */
function inherited(element: Raw, byId: Map<string, Raw>, offsets: Map<string, { dx: number; dy: number }>): { dx: number; dy: number } | undefined {
  const seen = new Set<string>();
  for (let at: Raw | undefined = element; at !== undefined && !seen.has(at.id); ) {
    seen.add(at.id);
    const up: string | undefined = containerOf(at as { id: string; type: string; parentId?: string; frameId?: string }) ?? (at.labelOf as string | undefined);
    if (up === undefined) return undefined;
    const offset = offsets.get(up);
    if (offset !== undefined) return offset;
    at = byId.get(up);
  }
  return undefined;
}

/** Elements the previous code did not draw, kept while every element they point at is still in the scene. */
function handAdded(stored: readonly Element[], before: Map<string, Element>, after: Map<string, Raw>): { kept: Raw[]; dropped: string[] } {
  let candidates = stored.filter((element) => !before.has(element.id)).map((element) => ({ ...element }) as Raw);
  const dropped: string[] = [];
  for (const element of candidates.filter((e) => after.has(e.id))) dropped.push(`${element.id} (the new code draws an element with this id)`);
  candidates = candidates.filter((e) => !after.has(e.id));
  // Until nothing changes: dropping an arrow drops the label that labelled it.
  for (let changed = true; changed; ) {
    changed = false;
    const present = new Set([...after.keys(), ...candidates.map((e) => e.id)]);
    for (const element of candidates) {
      const missing = targetsOf(element).find(([, target]) => !present.has(target));
      if (missing === undefined) continue;
      dropped.push(`${element.id} (its ${missing[0]} "${missing[1]}" is no longer drawn)`);
      candidates = candidates.filter((e) => e !== element);
      changed = true;
      break;
    }
  }
  return { kept: candidates, dropped };
}

function targetsOf(element: Raw): [string, string][] {
  const targets: [string, string][] = [];
  for (const field of LINKS) if (typeof element[field] === 'string') targets.push([field, element[field] as string]);
  for (const end of ['startBinding', 'endBinding'] as const) {
    const target = (element[end] as { elementId?: unknown } | undefined)?.elementId;
    if (typeof target === 'string') targets.push([end, target]);
  }
  return targets;
}
