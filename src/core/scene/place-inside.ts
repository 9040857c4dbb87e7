/**
 * Incremental layout: an element added without a position to a container that has one is placed inside it, after
 * its siblings, sized and lettered like them; the container grows to hold it, its containers grow in turn, and what
 * lies to the right of or below a grown container is pushed away by the growth, so nothing comes to overlap. The rest
 * of the drawing keeps its place: a small edit is a small change on the page.
 */
import type { AutoLayoutPlan } from './auto-layout.js';
import { belowTitle, titleContainer, titleOf } from './container-title.js';
import { dependentsOf } from './structure.js';

type Raw = Record<string, unknown> & { id: string; type: string };
type Box = { x: number; y: number; width: number; height: number };

const LINEAR = new Set(['arrow', 'line', 'freedraw', 'highlight']);
/** Padding inside a container and the gap between siblings, as the layered layout leaves them. */
const PADDING = 40;
const GAP = 40;

const boxOf = (element: Raw): Box => ({ x: Number(element.x), y: Number(element.y), width: Number(element.width ?? 0), height: Number(element.height ?? 0) });
const parentOf = (element: Raw) => (element.parentId ?? element.frameId) as string | undefined;

/**
 * Places, in `elements` (raw, after planning), the unplaced members of placed containers. A container shape that
 * gets members this way and still has its text as a label gets a title at its top instead (container-title.ts):
 * they are added to `elements` (so they move with their containers when a growth pushes them) and returned, for a
 * caller that passed a filtered copy of its list.
 */
export function placeInsideContainers(elements: Raw[], plan: AutoLayoutPlan): Raw[] {
  const byId = new Map(elements.map((element) => [element.id, element]));
  /** Container id → the title given to it here. */
  const titles = new Map<string, Raw>();
  // Outer containers first, whatever order they were sent in: a container added into a placed one is placed, then
  // its own new members inside it, and it grows to hold them.
  const depth = (element: Raw) => {
    let n = 0;
    for (let at = parentOf(element); at !== undefined && n <= elements.length; at = parentOf(byId.get(at) ?? ({} as Raw))) n++;
    return n;
  };
  for (const element of [...elements].sort((a, b) => depth(a) - depth(b))) {
    const containerId = parentOf(element);
    const container = containerId === undefined ? undefined : byId.get(containerId);
    if (!plan.unplaced.has(element.id) || LINEAR.has(element.type) || container === undefined || plan.unplaced.has(container.id)) continue;
    const siblings = elements.filter((e) => e !== element && parentOf(e) === container.id && !plan.unplaced.has(e.id) && !LINEAR.has(e.type) && e.labelOf === undefined);
    const model = siblings.find((e) => e.type === element.type) ?? siblings[0] ?? neighbourOf(elements, byId, container, element.type, plan);
    if (model !== undefined && plan.unsized?.has(element.id)) Object.assign(element, { width: model.width, height: model.height });
    if (model !== undefined && plan.unstyledText.has(element.id) && model.fontSize !== undefined) Object.assign(element, { fontSize: model.fontSize, fontFamily: model.fontFamily });
    if (!titles.has(container.id)) {
      const added = titleContainer(elements, container);
      if (added !== undefined) titles.set(container.id, added), elements.push(added), byId.set(added.id, added);
    }
    const title = titles.get(container.id) ?? titleOf(elements, container.id);
    const inner = boxOf(container);
    // The first member goes under the container's title, if the title is inside it.
    const top = title !== undefined && Number(title.y) >= inner.y ? Math.max(inner.y + PADDING, belowTitle(title)) : inner.y + PADDING;
    if (siblings.length === 0) Object.assign(element, { x: inner.x + PADDING, y: top });
    else {
      // After the last sibling of the bottom row, or on a new row when the row would outgrow the container by far.
      const boxes = siblings.map(boxOf);
      const rowTop = Math.max(...boxes.map((b) => b.y));
      const row = boxes.filter((b) => b.y === rowTop);
      const right = Math.max(...row.map((b) => b.x + b.width));
      const width = Number(element.width);
      const fits = right + GAP + width <= inner.x + inner.width - PADDING || row.length < 4;
      if (fits) Object.assign(element, { x: right + GAP, y: rowTop });
      else Object.assign(element, { x: Math.min(...boxes.map((b) => b.x)), y: Math.max(...boxes.map((b) => b.y + b.height)) + GAP });
    }
    plan.unplaced.delete(element.id);
    growToHold(elements, byId, container, boxOf(element));
  }
  // New arrows between placed shapes, sent without points, are routed around the shapes rather than drawn straight.
  for (const arrow of elements) {
    if (arrow.type === 'arrow' && arrow.points === undefined && arrow.arrowShape === undefined && arrow.startBinding && arrow.endBinding) arrow.arrowShape = 'smart';
  }
  return [...titles.values()];
}

/**
 * A shape to letter and size a container's first member like, when the container holds nothing placed yet: the
 * nearest placed plain shape (no members, no title) going out through its containers, of the same type if any, else
 * one anywhere in the drawing.
 */
function neighbourOf(elements: readonly Raw[], byId: ReadonlyMap<string, Raw>, container: Raw, type: string, plan: AutoLayoutPlan): Raw | undefined {
  const holders = new Set(elements.map(parentOf));
  const plain = elements.filter((e) => !plan.unplaced.has(e.id) && !LINEAR.has(e.type) && e.type !== 'text' && e.type !== 'frame' && e.labelOf === undefined && !holders.has(e.id));
  const seen = new Set<string>();
  for (let at = parentOf(container); at !== undefined && !seen.has(at); at = parentOf(byId.get(at) ?? ({} as Raw))) {
    seen.add(at);
    const here = plain.filter((e) => parentOf(e) === at);
    const found = here.find((e) => e.type === type) ?? here[0];
    if (found !== undefined) return found;
  }
  return plain.find((e) => e.type === type) ?? plain[0];
}

/** Grows `container` to hold `box` with padding, pushes what the growth would cover, and grows its own container. */
function growToHold(elements: Raw[], byId: Map<string, Raw>, container: Raw, box: Box): void {
  const before = boxOf(container);
  const right = Math.max(before.x + before.width, box.x + box.width + PADDING);
  const bottom = Math.max(before.y + before.height, box.y + box.height + PADDING);
  const dx = right - (before.x + before.width);
  const dy = bottom - (before.y + before.height);
  if (dx <= 0 && dy <= 0) return;
  Object.assign(container, { width: right - before.x, height: bottom - before.y });
  const inside = new Set([container.id, ...dependentsOf(elements as never, container.id).members]);
  const ancestors = new Set<string>();
  for (let at = parentOf(container); at !== undefined && !ancestors.has(at); at = parentOf(byId.get(at) ?? ({} as Raw))) ancestors.add(at);
  const after = boxOf(container);
  // Whole units are pushed: a pushed container takes its members and titles along.
  const pushed = (element: Raw, axis: 'x' | 'y') => {
    if (inside.has(element.id) || ancestors.has(element.id) || LINEAR.has(element.type)) return false;
    const b = boxOf(element);
    return axis === 'x'
      ? b.x >= before.x + before.width - 1 && b.y < after.y + after.height && b.y + b.height > after.y
      : b.y >= before.y + before.height - 1 && b.x < after.x + after.width && b.x + b.width > after.x;
  };
  for (const [axis, delta] of [['x', dx], ['y', dy]] as const) {
    if (delta <= 0) continue;
    const roots = elements.filter((e) => pushed(e, axis) && !(parentOf(e) !== undefined && pushed(byId.get(parentOf(e)!) ?? ({} as Raw), axis)));
    const moved = new Set<string>();
    for (const root of roots) {
      const { members, labels } = dependentsOf(elements as never, root.id);
      for (const id of [root.id, ...members, ...labels]) {
        const element = byId.get(id);
        if (element === undefined || moved.has(id) || LINEAR.has(element.type)) continue;
        element[axis] = Number(element[axis]) + delta;
        moved.add(id);
      }
    }
    // Arrows with a moved end are routed again; one with both ends moved keeps its shape, shifted.
    for (const arrow of elements) {
      if (arrow.type !== 'arrow' || !Array.isArray(arrow.points)) continue;
      const ends = [arrow.startBinding, arrow.endBinding].map((b) => moved.has((b as { elementId?: string } | undefined)?.elementId ?? ''));
      if (ends[0] && ends[1]) arrow.points = (arrow.points as Array<{ x: number; y: number }>).map((p) => ({ ...p, [axis]: p[axis] + delta }));
      else if ((ends[0] || ends[1]) && arrow.startBinding && arrow.endBinding) {
        for (const key of ['points', 'x', 'y', 'width', 'height']) delete arrow[key];
        arrow.arrowShape = 'smart';
      }
    }
  }
  // The container's own container holds it and whatever the growth pushed along inside it.
  const outer = parentOf(container) === undefined ? undefined : byId.get(parentOf(container)!);
  if (outer === undefined) return;
  const held = elements.filter((e) => parentOf(e) === outer.id && !LINEAR.has(e.type)).map(boxOf);
  const x = Math.min(...held.map((b) => b.x));
  const y = Math.min(...held.map((b) => b.y));
  growToHold(elements, byId, outer, { x, y, width: Math.max(...held.map((b) => b.x + b.width)) - x, height: Math.max(...held.map((b) => b.y + b.height)) - y });
}
