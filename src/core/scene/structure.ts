/**
 * The scene's structure as data: containment (`parentId`, `frameId`), standalone texts linked to what they label
 * (`labelOf`: a container's title, an arrow's label) and what a shape is (`role`). Checked on every write, so a stored
 * scene never names a container that is not there, and read by edits (operations) and incremental layout.
 */
import { ROLE_COLORS } from '../layout/drawing-rules.js';
import type { NodeKind } from '../graph/types.js';

type Structured = { id: string; type: string; parentId?: string | undefined; frameId?: string | undefined; labelOf?: string | undefined };

const LINEAR = new Set(['arrow', 'line', 'freedraw', 'highlight']);

/** The container an element sits in, whichever field says it. */
export const containerOf = (element: Structured): string | undefined => element.parentId ?? element.frameId;

/**
 * Drops structure links that cannot hold (a missing target, a line as container, a loop of containers), each said in
 * a warning: a client's slip in one link should not cost the whole write.
 */
export function checkStructure<T extends Structured>(elements: T[], where: (element: T) => string, warnings: string[]): void {
  const byId = new Map(elements.map((element) => [element.id, element]));
  for (const element of elements) {
    for (const field of ['parentId', 'frameId'] as const) {
      const target = element[field];
      if (target === undefined) continue;
      const container = byId.get(target);
      const problem =
        container === undefined
          ? `is not an element of this scene`
          : target === element.id
            ? 'is the element itself'
            : LINEAR.has(container.type)
              ? `is ${container.type === 'arrow' ? 'an arrow' : `a ${container.type}`}, not a container`
              : field === 'frameId' && container.type !== 'frame'
                ? `is a ${container.type}, not a frame (use parentId)`
                : undefined;
      if (problem === undefined) continue;
      warnings.push(`${where(element)}: ${field} "${target}" ${problem}; the link was dropped`);
      delete element[field];
    }
    const labelled = element.labelOf;
    if (labelled !== undefined && (!byId.has(labelled) || labelled === element.id || element.type !== 'text')) {
      warnings.push(`${where(element)}: labelOf "${labelled}" ${element.type !== 'text' ? 'is only for text elements' : 'is not another element of this scene'}; the link was dropped`);
      delete element.labelOf;
    }
  }
  // A loop of containers (a in b, b in a) has no outside: the link that closes it is dropped.
  for (const element of elements) {
    const seen = new Set<string>([element.id]);
    for (let at = containerOf(element); at !== undefined; at = containerOf(byId.get(at)!)) {
      if (!seen.has(at)) {
        seen.add(at);
        continue;
      }
      warnings.push(`${where(element)}: parentId "${containerOf(element)}" leads back to itself; the link was dropped`);
      delete element.parentId;
      delete element.frameId;
      break;
    }
  }
}

/** Ids of everything inside `id`, at any depth, and the texts labelling any of them or `id` itself. */
export function dependentsOf(elements: readonly Structured[], id: string): { members: Set<string>; labels: Set<string> } {
  const children = new Map<string, string[]>();
  for (const element of elements) {
    const parent = containerOf(element);
    if (parent !== undefined) children.set(parent, [...(children.get(parent) ?? []), element.id]);
  }
  const members = new Set<string>();
  const stack = [...(children.get(id) ?? [])];
  while (stack.length > 0) {
    const next = stack.pop()!;
    if (members.has(next) || next === id) continue;
    members.add(next);
    stack.push(...(children.get(next) ?? []));
  }
  const owners = new Set([id, ...members]);
  const labels = new Set(elements.filter((e) => e.labelOf !== undefined && owners.has(e.labelOf) && !members.has(e.id)).map((e) => e.id));
  return { members, labels };
}

/**
 * A shape sent with a `role` (or its alias `kind`) and no colours of its own takes the role's colours, from the one
 * table the from-code and AI drawings use. Works on the raw input, before defaults hide what was sent.
 */
export function applyRoleColors(raw: Record<string, unknown>): Record<string, unknown> {
  const role = (raw.role ?? raw.kind) as string | undefined;
  if (role === undefined) return raw;
  const out: Record<string, unknown> = { ...raw, role };
  delete out.kind;
  const colors = Object.hasOwn(ROLE_COLORS, role) ? ROLE_COLORS[role as NodeKind] : undefined;
  if (colors === undefined || LINEAR.has(String(raw.type)) || raw.type === 'text') return out;
  if (out.strokeColor === undefined && out.fillColor === undefined) Object.assign(out, colors);
  return out;
}

/**
 * Named migration step for scenes stored before structure was kept: a text `<id>-title` or `<id>-label` (how layout
 * named a container's title and an arrow's label) becomes linked to element `<id>` when that element is in the scene.
 */
export function linkLooseLabels<T extends { id: string; type: string; labelOf?: string }>(elements: T[]): T[] {
  const ids = new Set(elements.map((element) => element.id));
  return elements.map((element) => {
    const owner = /^(.+)-(?:title|label)(?:-\d+)?$/.exec(element.id)?.[1];
    return element.type === 'text' && element.labelOf === undefined && owner !== undefined && ids.has(owner) ? { ...element, labelOf: owner } : element;
  });
}
