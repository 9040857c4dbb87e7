/**
 * `layout: "all"` on an existing diagram: everything is laid out anew by the same engine as `layout: "auto"`, and
 * everything that is not geometry stays: ids, containment, styles, roles, icons and the words of titles and labels.
 * Two pure steps around `layout: "auto"`: `unplaceAll` before it, `keepLabels` after it.
 */
import type { Element } from './schema.js';

type Raw = Record<string, unknown> & { id: string; type: string };

const LINEAR = new Set(['arrow', 'line', 'freedraw', 'highlight']);
/** Geometry that layout computes again; `icon` and `labelPlacement` are derived from it by stamping. */
const BOX_GEOMETRY = ['x', 'y', 'width', 'height', 'icon', 'labelPlacement'];
const ROUTE_GEOMETRY = ['points', 'x', 'y', 'width', 'height', 'controlPoint', 'controlPoint2', 'arrowShape'];
/** What a user may have set on a title or label that layout would not give it again. */
const LABEL_STYLE = ['strokeColor', 'opacity'] as const;

/**
 * The scene as layout "auto" takes it, every position gone: a standalone title or label folds back into the text of
 * what it labels (layout draws it again where there is room), a guessed icon becomes the element's iconRef (so the
 * re-laid-out box is sized for it), and arrows bound at both ends lose their route. Free lines and drawings keep theirs.
 */
export function unplaceAll(elements: readonly Element[]): { elements: Raw[]; labels: Map<string, Raw> } {
  const labels = new Map<string, Raw>();
  const byId = new Map(elements.map((element) => [element.id, element]));
  for (const element of elements) {
    const owner = element.type === 'text' && element.labelOf !== undefined ? byId.get(element.labelOf) : undefined;
    if (owner !== undefined && (owner as { text?: string }).text === undefined && !labels.has(owner.id)) labels.set(owner.id, element as unknown as Raw);
  }
  const folded = new Set([...labels.values()].map((label) => label.id));
  const out: Raw[] = [];
  for (const element of elements) {
    if (folded.has(element.id)) continue;
    const raw: Raw = { ...(element as unknown as Raw) };
    const label = labels.get(element.id);
    if (label !== undefined) raw.text = label.text;
    if (!LINEAR.has(element.type)) {
      const icon = raw.icon as { ref?: string; auto?: boolean } | undefined;
      if (icon?.auto && raw.iconRef === undefined) raw.iconRef = icon.ref;
      for (const key of BOX_GEOMETRY) delete raw[key];
    } else if (element.type === 'arrow' && element.startBinding && element.endBinding) {
      for (const key of ROUTE_GEOMETRY) delete raw[key];
      raw.startBinding = { elementId: element.startBinding.elementId };
      raw.endBinding = { elementId: element.endBinding.elementId };
    }
    out.push(raw);
  }
  return { elements: out, labels };
}

/** After layout: each title or label drawn again takes back the id and the colours its predecessor had. */
export function keepLabels(elements: Element[], labels: ReadonlyMap<string, Raw>): Element[] {
  const taken = new Set(elements.map((element) => element.id));
  return elements.map((element) => {
    const old = element.type === 'text' && element.labelOf !== undefined ? labels.get(element.labelOf) : undefined;
    if (old === undefined) return element;
    const kept: Record<string, unknown> = { ...element };
    if (old.id !== element.id && !taken.has(old.id)) {
      taken.delete(element.id);
      taken.add(old.id);
      kept.id = old.id;
    }
    for (const key of LABEL_STYLE) if (old[key] !== undefined) kept[key] = old[key];
    return kept as Element;
  });
}
