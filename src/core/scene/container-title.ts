/**
 * A container shape's text is drawn as a standalone title at its top, above its members (the guide's one title rule),
 * linked to it by `labelOf` so it moves and goes with it. Layout gives one to every container it lays out
 * (auto-layout.ts); this gives one to a container that an edit adds with a position, or that gets its members placed
 * inside it by incremental layout (place-inside.ts), lettered like the drawing's other titles.
 */
import { boxesOverlap } from '../export/geometry.js';
import { CONTAINER_MIN_WIDTH, FONT, SPACING } from '../layout/drawing-rules.js';
import { measureText } from '../layout/measure.js';
import { wrapText } from '../layout/node-size.js';
import { SHAPE_TYPES } from './constants.js';

type Raw = Record<string, unknown> & { id: string; type: string };
type Box = { x: number; y: number; width: number; height: number };

/** Gap between a title set above its container (its top band is taken) and the container. */
const ABOVE_GAP = 8;

const SHAPES = new Set<string>(SHAPE_TYPES);
const boxOf = (element: Raw): Box => ({ x: Number(element.x), y: Number(element.y), width: Number(element.width ?? 0), height: Number(element.height ?? 0) });
const placed = (element: Raw) => typeof element.x === 'number' && typeof element.y === 'number';

/** The title of `container` in `elements`, if it has one. */
export const titleOf = (elements: readonly Raw[], container: string): Raw | undefined => elements.find((e) => e.type === 'text' && e.labelOf === container);

/** Where the members of a container start below its title: the layout's padding under the title band. */
export const belowTitle = (title: Raw): number => Number(title.y) + Number(title.height) + SPACING.containerTitleGap;

/**
 * Takes the text off a placed shape container that holds members (not a frame, whose name is its title) and returns
 * it as a title text to add to the scene, or undefined when there is nothing to do. The title sits in the container's
 * top-left corner, as layout puts it, unless a member is there already: then just above the container. Its font and
 * colour are those of a title already in the drawing (else the layout's).
 */
export function titleContainer(elements: readonly Raw[], container: Raw): Raw | undefined {
  if (!SHAPES.has(container.type)) return undefined;
  if (typeof container.text !== 'string' || container.text.trim() === '' || !placed(container)) return undefined;
  if (titleOf(elements, container.id) !== undefined) return undefined;
  const members = elements.filter((e) => (e.parentId ?? e.frameId) === container.id);
  if (members.length === 0) return undefined;
  const holders = new Set(elements.map((e) => e.parentId ?? e.frameId));
  const model = elements.find((e) => e.type === 'text' && holders.has(e.labelOf));
  const fontSize = typeof model?.fontSize === 'number' ? model.fontSize : FONT.containerTitle;
  const fontFamily = typeof model?.fontFamily === 'string' ? model.fontFamily : FONT.family;
  const text = wrapText(container.text, CONTAINER_MIN_WIDTH * 2, fontSize).join('\n');
  const size = measureText(text, fontSize, fontFamily === 'code' || fontFamily === 'hand' ? fontFamily : 'normal');
  const outer = boxOf(container);
  const pad = SPACING.containerPadding;
  const inside = { x: outer.x + pad, y: outer.y + pad, width: size.width, height: size.height };
  const taken = members.some((member) => placed(member) && boxesOverlap(boxOf(member), { ...inside, height: inside.height + SPACING.containerTitleGap }));
  const at = taken ? { x: outer.x, y: outer.y - size.height - ABOVE_GAP } : { x: inside.x, y: inside.y };
  const ids = new Set(elements.map((e) => e.id));
  let id = `${container.id}-title`;
  for (let n = 2; ids.has(id); n++) id = `${container.id}-title-${n}`;
  delete container.text;
  return {
    type: 'text',
    id,
    ...at,
    width: size.width,
    height: size.height,
    text,
    fontSize,
    fontFamily,
    textAlign: 'left',
    // Else the schema's default text colour, as layout's titles have.
    ...(typeof model?.strokeColor === 'string' && { strokeColor: model.strokeColor }),
    labelOf: container.id,
  };
}
