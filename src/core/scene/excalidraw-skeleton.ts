/**
 * Excalidraw's element skeleton: the short form its own `convertToExcalidrawElements` takes, and the one models write
 * most: `{type: "rectangle", label: {text}}`, arrows with `start`/`end` naming a shape by id or describing a new one,
 * text written straight onto a container. Expanded here into the full form the converter reads (bound text elements
 * and bindings), the way Excalidraw expands it, so no label or connection is lost. Written by hand because
 * Excalidraw's converter needs a browser (it measures text with a canvas).
 */
type Raw = Record<string, unknown>;

const isRecord = (v: unknown): v is Raw => typeof v === 'object' && v !== null && !Array.isArray(v);
/** A type that is not a string is '' (String() throws on a hostile `{"toString": 1}`). */
const typeOf = (e: Raw): string => (typeof e.type === 'string' ? e.type : '');
const CONTAINER_TYPES = new Set(['rectangle', 'ellipse', 'diamond']);
const LINEAR_TYPES = new Set(['arrow', 'line']);
/** Excalidraw's sizes for what a skeleton leaves out. */
const DEFAULT_SHAPE = { width: 100, height: 100 };
const DEFAULT_ARROW_LENGTH = 100;

/** Whether an element is in skeleton form (what the detector counts as Excalidraw evidence). */
export function skeletonMarkers(e: Raw): string[] {
  const markers: string[] = [];
  if (isRecord(e.label) && typeof e.label.text === 'string') markers.push('label {text}');
  if (LINEAR_TYPES.has(typeOf(e)) && (isRecord(e.start) || isRecord(e.end))) markers.push('start/end');
  return markers;
}

export function expandSkeletons(elements: readonly unknown[]): unknown[] {
  if (!elements.some((e) => isRecord(e) && (skeletonMarkers(e).length > 0 || (CONTAINER_TYPES.has(typeOf(e)) && typeof e.text === 'string')))) return [...elements];
  const out: unknown[] = [];
  const taken = new Set(elements.filter(isRecord).map((e) => e.id).filter((id): id is string => typeof id === 'string'));
  let counter = 0;
  const freshId = (base: string) => {
    let id = base;
    while (taken.has(id)) id = `${base}-${++counter}`;
    taken.add(id);
    return id;
  };
  const labelFor = (ownerId: string, label: Raw, owner: Raw): Raw => ({
    type: 'text',
    id: freshId(`${ownerId}-label`),
    containerId: ownerId,
    text: label.text,
    x: owner.x ?? 0,
    y: owner.y ?? 0,
    ...(typeof label.fontSize === 'number' ? { fontSize: label.fontSize } : {}),
    ...(typeof label.strokeColor === 'string' ? { strokeColor: label.strokeColor } : {}),
    ...(typeof label.textAlign === 'string' ? { textAlign: label.textAlign } : { textAlign: 'center' }),
    ...(typeof label.verticalAlign === 'string' ? { verticalAlign: label.verticalAlign } : { verticalAlign: 'middle' }),
  });

  for (const item of elements) {
    if (!isRecord(item)) {
      out.push(item);
      continue;
    }
    const type = typeOf(item);
    const { label, start, end, text, ...rest } = item;
    const id = typeof item.id === 'string' ? item.id : freshId(type || 'element');
    const element: Raw = { ...rest, id };
    const labelText = isRecord(label) && typeof label.text === 'string' ? label : CONTAINER_TYPES.has(type) && typeof text === 'string' ? { text } : undefined;
    if (text !== undefined && labelText?.text !== text) element.text = text;
    out.push(element);
    if (labelText && (CONTAINER_TYPES.has(type) || LINEAR_TYPES.has(type))) {
      const bound = labelFor(id, labelText, element);
      out.push(bound);
      element.boundElements = [...(Array.isArray(element.boundElements) ? element.boundElements : []), { type: 'text', id: bound.id }];
    }
    if (!LINEAR_TYPES.has(type)) continue;
    const x = typeof element.x === 'number' ? element.x : 0;
    const y = typeof element.y === 'number' ? element.y : 0;
    if (!Array.isArray(element.points)) {
      const width = typeof element.width === 'number' ? element.width : DEFAULT_ARROW_LENGTH;
      const height = typeof element.height === 'number' ? element.height : 0;
      element.points = [
        [0, 0],
        [width, height],
      ];
    }
    const points = element.points as [number, number][];
    const tip = points[points.length - 1] ?? [DEFAULT_ARROW_LENGTH, 0];
    for (const [end_, spec] of [
      ['startBinding', start],
      ['endBinding', end],
    ] as const) {
      if (!isRecord(spec)) continue;
      let target = typeof spec.id === 'string' ? spec.id : undefined;
      if (target === undefined && typeof spec.type === 'string') {
        // A shape described inline: made where Excalidraw puts it, before the start or past the end of the arrow.
        const width = typeof spec.width === 'number' ? spec.width : DEFAULT_SHAPE.width;
        const height = typeof spec.height === 'number' ? spec.height : DEFAULT_SHAPE.height;
        const at = end_ === 'startBinding' ? { x: x - width, y: y - height / 2 } : { x: x + tip[0], y: y + tip[1] - height / 2 };
        const { text: shapeText, label: shapeLabel, ...shapeRest } = spec;
        const shape: Raw = { ...at, width, height, ...shapeRest, id: freshId(`${id}-${end_ === 'startBinding' ? 'start' : 'end'}`) };
        out.push(shape);
        const words = isRecord(shapeLabel) && typeof shapeLabel.text === 'string' ? shapeLabel : typeof shapeText === 'string' ? { text: shapeText } : undefined;
        if (words && CONTAINER_TYPES.has(spec.type)) out.push(labelFor(shape.id as string, words, shape));
        else if (words && spec.type === 'text') shape.text = words.text;
        target = shape.id as string;
      }
      if (target !== undefined) element[end_] = { elementId: target, focus: 0, gap: 4 };
    }
    // Bound at both ends, the skeleton's points only say "from here to there": our router draws the path.
    if (isRecord(element.startBinding) && isRecord(element.endBinding) && type === 'arrow' && (isRecord(start) || isRecord(end))) {
      element.customData = { ...(isRecord(element.customData) ? element.customData : {}), drawbridge: { arrowShape: 'smart' } };
    }
  }
  return out;
}
