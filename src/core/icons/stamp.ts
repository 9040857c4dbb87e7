import { AppError } from '../errors.js';
import { measureText } from '../layout/measure.js';
import { textArea } from '../layout/node-size.js';
import { iconBody } from '../scene/constants.js';
import { iconRefOf, resolveIconRef, type IconRefInput } from './catalog.js';
import { guessIcon } from './guess.js';
import {
  HEADER_ICON,
  ICON_NODE_BOUNDS,
  ICON_SIZE,
  ICON_SUGGESTIONS,
  ICON_VENDORS,
  ICONLESS_TYPES,
  isIconVendor,
  type IconVendor,
} from './limits.js';
import { suggestIcons } from './search.js';
import type { IconItem, IconRef } from './types.js';

/**
 * Stamping icons onto diagram elements, on create and update.
 *
 * How a stamped icon is represented (the renderer's contract):
 * - `iconRef: "library/Label"` — the author's explicit choice, rewritten to its canonical string (an object
 *   `{ library, label }` or a differently-cased label is normalised). It always wins over a guess.
 * - `icon: { ref, x, y, width, height, auto? }` — the resolved icon box in absolute scene coordinates, centred
 *   horizontally at the top of the element, square, min(48, 45% of the height, 80% of the width) on a side.
 *   `auto: true` marks a best guess from the label; a guess writes no `iconRef`, so editing the label re-guesses.
 * - `labelPlacement: "below-icon"` — the element's text is laid out in the part of the box below the icon.
 * - A table (a box without text of its own, grouped with the texts drawn on it: its title, then its rows) gets its
 *   icon small, left of its title, at any height: beside icon boxes it reads as the same kind of thing.
 * `icon` and `labelPlacement` are derived: every stamp recomputes them from `iconRef`, text, position and size, so a
 * moved or resized element gets a fresh box and stamping a stamped scene changes nothing. Elements that get no icon
 * lose both fields; all other fields are left as they are (the very same object is returned when nothing changes).
 */

export interface StampedIcon {
  ref: IconRef;
  x: number;
  y: number;
  width: number;
  height: number;
  /** Present (true) when the icon is a guess from the label rather than the element's iconRef. */
  auto?: true;
}

export const LABEL_BELOW_ICON = 'below-icon';

/** The fields stamping reads; the scene schema's elements carry many more, which pass through untouched. */
export interface StampableElement {
  id: string;
  type: string;
  x: number;
  y: number;
  width: number;
  height: number;
  text?: string;
  iconRef?: IconRefInput;
  icon?: StampedIcon;
  labelPlacement?: typeof LABEL_BELOW_ICON;
  groupIds?: readonly string[];
}

type Box = Pick<StampableElement, 'x' | 'y' | 'width' | 'height'>;

export interface StampOptions {
  /** Scene-level vendor hint: that vendor's icon set is preferred for guesses. */
  vendor?: IconVendor;
  /** false: no best-guess icons (explicit iconRefs are still stamped). Default true. */
  autoIcons?: boolean;
  /** With autoIcons false: an icon guessed by an earlier write stays (re-boxed), only no new guess is made. */
  keepGuessedIcons?: boolean;
  /** Ids of elements stamped when they were stored and unchanged since: left exactly as they are. */
  stamped?: ReadonlySet<string>;
}

export interface StampResult<T> {
  elements: T[];
  warnings: string[];
}

const round = (value: number): number => Math.round(value * 100) / 100;

/** Icons only on node-sized boxes: 60–420 × 40–260. */
export function isNodeSized(element: Pick<StampableElement, 'width' | 'height'>): boolean {
  const { width, height } = element;
  return (
    width >= ICON_NODE_BOUNDS.minWidth &&
    width <= ICON_NODE_BOUNDS.maxWidth &&
    height >= ICON_NODE_BOUNDS.minHeight &&
    height <= ICON_NODE_BOUNDS.maxHeight
  );
}

/** The icon box for an element: square, centred at the top of its body (below a cylinder's cap). */
export function iconBox(shape: Pick<StampableElement, 'type' | 'x' | 'y' | 'width' | 'height'>): Omit<StampedIcon, 'ref' | 'auto'> {
  const element = iconBody(shape);
  const size = Math.min(ICON_SIZE.max, element.height * ICON_SIZE.heightShare, element.width * ICON_SIZE.widthShare);
  const gap = Math.min(ICON_SIZE.maxTopGap, Math.max(ICON_SIZE.minTopGap, element.height * ICON_SIZE.topGapShare));
  return {
    x: round(element.x + (element.width - size) / 2),
    y: round(element.y + gap),
    width: round(size),
    height: round(size),
  };
}

/** A table's icon: small, left of its title and centred on it, kept inside the table. */
export function headerIconBox(table: Box, title: Box): Omit<StampedIcon, 'ref' | 'auto'> {
  const size = Math.min(HEADER_ICON.size, table.width * ICON_SIZE.widthShare, table.height - 2 * ICON_SIZE.minTopGap);
  const x = Math.max(table.x + ICON_SIZE.minTopGap, title.x - HEADER_ICON.gap - size);
  const y = Math.max(table.y + ICON_SIZE.minTopGap, title.y + (title.height - size) / 2);
  return { x: round(x), y: round(y), width: round(size), height: round(size) };
}

/**
 * The title of a table: the topmost text grouped with a box that has no text of its own and lying inside it (from-graph
 * draws a table's title, rule and rows as elements grouped with its box). A group without a rule is a box whose label
 * is a text of its own (a D2 image shape, a border that cannot carry the text): its icon goes on top, the label under it.
 */
function titlesOf(elements: readonly StampableElement[]): Map<string, StampableElement> {
  const texts = new Map<string, StampableElement[]>();
  const ruled = new Set<string>();
  for (const e of elements) {
    const group = e.groupIds?.[0];
    if (e.type === 'text' && group !== undefined) texts.set(group, [...(texts.get(group) ?? []), e]);
    if (e.type === 'line' && group !== undefined) ruled.add(group);
  }
  const titles = new Map<string, StampableElement>();
  for (const e of elements) {
    const group = e.groupIds?.[0];
    if (e.type !== 'rectangle' || (typeof e.text === 'string' && e.text !== '') || group === undefined || !ruled.has(group)) continue;
    const inside = (texts.get(group) ?? []).filter((t) => t.x >= e.x && t.y >= e.y && t.x + t.width <= e.x + e.width + 1 && t.y + t.height <= e.y + e.height + 1);
    const title = inside.sort((a, b) => a.y - b.y)[0];
    if (title !== undefined) titles.set(e.id, title);
  }
  return titles;
}

const describe = (index: number, element: StampableElement): string => `elements[${index}] (id "${element.id}")`;

function refText(ref: unknown): string | undefined {
  if (typeof ref === 'string') return ref;
  if (typeof ref === 'object' && ref !== null) {
    const { library, label } = ref as Record<string, unknown>;
    if (typeof library === 'string' && typeof label === 'string') return iconRefOf(library, label);
  }
  return undefined;
}

/** Closest catalog refs to an unknown one, those of the library it named first. */
function closestRefs(ref: string): IconRef[] {
  const slash = ref.indexOf('/');
  const library = slash > 0 ? ref.slice(0, slash) : undefined;
  const label = slash > 0 ? ref.slice(slash + 1) : ref;
  const vendor = isIconVendor(library) ? library : undefined;
  const results = suggestIcons(label, vendor, 20);
  const sameLibrary = results.filter((result) => result.library === library);
  const others = results.filter((result) => result.library !== library);
  return [...sameLibrary, ...others].slice(0, ICON_SUGGESTIONS).map((result) => result.ref);
}

interface Decision {
  iconRef?: IconRef;
  icon?: StampedIcon;
}

function decide(element: StampableElement, index: number, options: StampOptions, warnings: string[], title?: StampableElement): Decision {
  const eligibleType = !ICONLESS_TYPES.has(element.type);
  // A table's icon is as small as its title, whatever the table's height.
  const nodeSized = eligibleType && (title !== undefined ? element.width >= ICON_NODE_BOUNDS.minWidth : isNodeSized(element));
  let explicit: IconItem | undefined;
  if (element.iconRef !== undefined && element.iconRef !== null) {
    const text = refText(element.iconRef);
    explicit = text === undefined ? undefined : resolveIconRef(text);
    if (text === undefined) {
      warnings.push(`${describe(index, element)}: iconRef must be a "library/Label" string or { library, label }; ignored`);
    } else if (!explicit) {
      const closest = closestRefs(text);
      warnings.push(
        `${describe(index, element)}: unknown iconRef ${JSON.stringify(text)}; ` +
          (closest.length > 0 ? `closest: ${closest.join(', ')}` : 'no similar icon'),
      );
    } else if (!eligibleType) {
      warnings.push(`${describe(index, element)}: a ${element.type} element never carries an icon; iconRef dropped`);
      return {};
    } else if (!nodeSized) {
      // Kept, so the icon appears once the box is resized to node size.
      warnings.push(
        `${describe(index, element)}: iconRef kept but not drawn: icons are stamped only on node-sized boxes ` +
          `(width ${ICON_NODE_BOUNDS.minWidth}–${ICON_NODE_BOUNDS.maxWidth}, height ${ICON_NODE_BOUNDS.minHeight}–${ICON_NODE_BOUNDS.maxHeight}), ` +
          `got ${element.width}×${element.height}`,
      );
      return { iconRef: explicit.ref };
    }
  }
  if (explicit) return { iconRef: explicit.ref, icon: { ref: explicit.ref, ...(title !== undefined ? headerIconBox(element, title) : iconBox(element)) } };
  // A diamond is a decision: its text is a question, never the name of a product.
  if (!nodeSized || typeof element.text !== 'string' || element.type === 'diamond') return {};
  const previous = (element as { icon?: StampedIcon }).icon;
  if (options.autoIcons === false) return options.keepGuessedIcons && previous?.auto ? { icon: { ref: previous.ref, ...iconBox(element), auto: true } } : {};
  const guess = guessIcon(element.text, options.vendor);
  if (!guess || !labelFitsBelowIcon(element)) return {};
  // Said once, when the guess is new: a scene sent back as it was read does not repeat it.
  if (previous?.ref !== guess.ref) warnings.push(`${describe(index, element)}: icon "${guess.ref}" added from its label (autoIcons: false turns this off)`);
  return { icon: { ref: guess.ref, ...iconBox(element), auto: true } };
}

const sameIcon = (a: StampedIcon | undefined, b: StampedIcon | undefined): boolean =>
  a === b ||
  (a !== undefined &&
    b !== undefined &&
    a.ref === b.ref &&
    a.x === b.x &&
    a.y === b.y &&
    a.width === b.width &&
    a.height === b.height &&
    a.auto === b.auto);

function apply<T extends StampableElement>(element: T, decision: Decision): T {
  // A table has no label of its own to move below the icon.
  const placement = decision.icon && typeof element.text === 'string' && element.text !== '' ? LABEL_BELOW_ICON : undefined;
  if (element.iconRef === decision.iconRef && sameIcon(element.icon, decision.icon) && element.labelPlacement === placement) {
    return element;
  }
  const { iconRef: _iconRef, icon: _icon, labelPlacement: _labelPlacement, ...rest } = element;
  return {
    ...rest,
    ...(decision.iconRef !== undefined ? { iconRef: decision.iconRef } : {}),
    ...(decision.icon ? { icon: decision.icon } : {}),
    ...(placement !== undefined ? { labelPlacement: placement } : {}),
  } as T;
}

/**
 * Places icons on a scene's elements: explicit iconRefs first (unknown ones become warnings with the closest
 * matches, and the element keeps no iconRef), then a best guess for every other labelled node when confident.
 * Pure: returns new element objects only where something changed.
 */
export function stampIcons<T extends StampableElement>(elements: readonly T[], options: StampOptions = {}): StampResult<T> {
  if (options.vendor !== undefined && !isIconVendor(options.vendor)) {
    throw new AppError('validation_failed', `vendor must be one of ${ICON_VENDORS.join(', ')}, got ${JSON.stringify(options.vendor)}`);
  }
  const warnings: string[] = [];
  const titles = titlesOf(elements);
  const stamped = elements.map((element, index) => (options.stamped?.has(element.id) ? element : apply(element, decide(element, index, options, warnings, titles.get(element.id)))));
  return { elements: stamped, warnings };
}

/**
 * A guess is only a nicety: it is not drawn on an ellipse where it would push the label out of the shape (a small
 * "Users" ellipse sized for its label alone), by the same measure the quality checker applies. An ellipse holds far
 * less text than its box; other shapes keep their guess as before.
 */
function labelFitsBelowIcon(element: StampableElement): boolean {
  if (element.type !== 'ellipse') return true;
  const { fontSize, fontFamily } = element as { fontSize?: number; fontFamily?: string };
  const size = measureText(String(element.text), fontSize ?? 20, fontFamily ?? 'hand');
  const area = textArea(element.type, element.width, element.height, true);
  return size.width <= area.width && size.height <= area.height;
}
