import { AppError, describeValue } from '../errors.js';
import { expandSkeletons, skeletonMarkers } from './excalidraw-skeleton.js';
import { focusFromEnd, type Box, type Focus } from './binding-geometry.js';
import {
  CORNERS,
  ELEMENT_TYPES,
  FILL_STYLES,
  IMAGE_DATA_URL_MAX_CHARS,
  IMAGE_MIME_TYPES,
  SHAPE_TYPES,
  STROKE_STYLES,
  STROKE_WIDTH,
  TEXT_ALIGNS,
} from './constants.js';
import {
  ARROWHEAD_FROM_EXCALIDRAW,
  EXCALIDRAW_ARROWHEAD_MAP,
  FILL_TO_EXCALIDRAW,
  FONT_FROM_EXCALIDRAW,
  ROUGHNESS_FROM_EXCALIDRAW,
} from './excalidraw-maps.js';
import { ELEMENT_SCHEMAS, imageSchema, isSafeLink, isWebUrl, type Point } from './schema.js';

/**
 * Excalidraw scenes in: detection of the three input forms and conversion to native element inputs, which then go
 * through the same validation as anything a client sends. Follows what Excalidraw's own restore() tolerates.
 */

type Raw = Record<string, unknown>;
export interface ExcalidrawInput {
  elements: unknown[];
  files: Record<string, unknown>;
}

const isRecord = (v: unknown): v is Raw => typeof v === 'object' && v !== null && !Array.isArray(v);
const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
/**
 * A geometry field: missing or not a number is 0, as Excalidraw's restore() has it; a number too large for a double
 * (`1e999` parses as Infinity) is kept, so that validation refuses it by name instead of it silently becoming 0.
 */
const coordinateOf = (v: unknown): number => (typeof v === 'number' ? v : 0);
/** An element's type, or '' when it is not a string (a hostile `{"toString": …}` must not reach String()). */
const typeOf = (e: Raw): string => (typeof e.type === 'string' ? e.type : '');
const clamp = (v: number, min: number, max: number) => Math.min(max, Math.max(min, v));

/**
 * Telling a bare elements array apart: native or Excalidraw. Reading a native element as Excalidraw loses its native
 * fields without a word (text on a shape, fillColor, iconRef) and drops native-only types; reading Excalidraw as native
 * fails on its every field. So each element is weighed by the strength of its evidence:
 * - strong Excalidraw: fields Excalidraw writes on every element and no native client would type (versionNonce,
 *   boundElements, containerId, isDeleted, …), relative `[x, y]` points, Excalidraw-only types;
 * - weak Excalidraw: Excalidraw's names and encodings that a native client might plausibly send by mistake
 *   (`roughness: 1`, `backgroundColor`, a numeric fontFamily, verticalAlign, …);
 * - native: fields of the native schema Excalidraw does not have (fillColor, iconRef, corner, … — taken from the
 *   schema, so new native fields count), the native encodings of shared fields (`roughness: "sketch"`, `{x, y}`
 *   points, an object focus), a label in `text` on a non-text element, native-only types (cylinder, math, …).
 * Then, over the array:
 * - any strong Excalidraw evidence together with native evidence (in one element or across two) is refused with an
 *   error naming both: whichever way it was read, part of it would be lost or fail, and only the client knows which
 *   format it meant;
 * - native evidence with only weak Excalidraw evidence reads as native: validation then names the stray field
 *   precisely (`roughness must be one of: clean, sketch, scribble`, `unknown field "backgroundColor" dropped`);
 * - any Excalidraw evidence and no native evidence reads as Excalidraw (nothing native can be lost);
 * - no evidence either way (`{type, x, y, width, height}` fits both) reads as native.
 */
const EXCALIDRAW_TYPES: ReadonlySet<string> = new Set(['rectangle', 'ellipse', 'diamond', 'text', 'arrow', 'line', 'freedraw', 'image', 'frame']);
const EXCALIDRAW_ONLY_TYPES: ReadonlySet<string> = new Set(['draw', 'magicframe', 'embeddable', 'iframe', 'selection']);
/** Fields both formats have under the same name (values may be encoded differently; see evidenceOf). */
const SHARED_FIELDS: ReadonlySet<string> = new Set([
  'id', 'type', 'x', 'y', 'width', 'height', 'angle', 'strokeColor', 'fillStyle', 'strokeWidth', 'strokeStyle', 'roughness',
  'opacity', 'seed', 'groupIds', 'link', 'text', 'fontSize', 'fontFamily', 'textAlign', 'points', 'startBinding',
  'endBinding', 'startArrowhead', 'endArrowhead', 'name', 'frameId',
]);
const NATIVE_ONLY_FIELDS: ReadonlySet<string> = new Set(
  Object.values(ELEMENT_SCHEMAS).flatMap((schema) => Object.keys(schema.shape).filter((key) => !SHARED_FIELDS.has(key))),
);
const STRONG_EXCALIDRAW_FIELDS = [
  'versionNonce', 'version', 'boundElements', 'containerId', 'isDeleted', 'updated', 'fileId', 'originalText',
  'strokeSharpness', 'elbowed', 'lastCommittedPoint', 'pressures', 'simulatePressure', 'customData',
] as const;
const WEAK_EXCALIDRAW_FIELDS = ['backgroundColor', 'verticalAlign', 'lineHeight', 'autoResize', 'locked', 'index', 'status', 'scale'] as const;

interface Evidence {
  native: string[];
  strong: string[];
  weak: string[];
}

/** `skeleton`: the array uses Excalidraw's skeleton form, in which text written on a container is its label too. */
function evidenceOf(e: Raw, skeleton: boolean): Evidence {
  const type = typeOf(e);
  const native = Object.keys(e).filter((key) => NATIVE_ONLY_FIELDS.has(key));
  if ((ELEMENT_TYPES as readonly string[]).includes(type) && !EXCALIDRAW_TYPES.has(type)) native.push(`type "${type}"`);
  if (typeof e.roughness === 'string') native.push(`roughness "${e.roughness}"`);
  if (typeof e.fontFamily === 'string') native.push(`fontFamily "${e.fontFamily}"`);
  if (e.text !== undefined && type !== 'text' && !skeleton) native.push(`text on a ${type}`);
  if (Array.isArray(e.points) && isRecord(e.points[0])) native.push('{x, y} points');
  if ([e.startBinding, e.endBinding].some((b) => isRecord(b) && isRecord(b.focus))) native.push('binding focus {x, y}');

  const strong: string[] = STRONG_EXCALIDRAW_FIELDS.filter((key) => Object.hasOwn(e, key));
  if (EXCALIDRAW_ONLY_TYPES.has(type)) strong.push(`type "${type}"`);
  strong.push(...skeletonMarkers(e));
  if (Array.isArray(e.points) && Array.isArray(e.points[0])) strong.push('[x, y] points');
  // Excalidraw writes null or {type}; a number is a native client's guess at corner radius.
  if (Object.hasOwn(e, 'roundness') && (e.roundness === null || isRecord(e.roundness))) strong.push('roundness');
  const weak: string[] = WEAK_EXCALIDRAW_FIELDS.filter((key) => Object.hasOwn(e, key));
  if (Object.hasOwn(e, 'roundness') && !strong.includes('roundness')) weak.push('roundness');
  if (isNum(e.roughness)) weak.push(`roughness ${e.roughness}`);
  if (isNum(e.fontFamily)) weak.push(`fontFamily ${e.fontFamily}`);
  return { native, strong, weak };
}

/** Which format a bare elements array is in, by the rules above; throws when it mixes the two. */
function isExcalidrawArray(raw: readonly unknown[]): boolean {
  const at = (i: number) => {
    const id = (raw[i] as Raw).id;
    return `elements[${i}]${typeof id === 'string' ? ` (id "${id}")` : ''}`;
  };
  const list = (markers: string[]) => (markers.length > 3 ? [...markers.slice(0, 3), '…'] : markers).join(', ');
  const skeleton = raw.some((e) => isRecord(e) && skeletonMarkers(e).length > 0);
  const weighed = raw.map((e) => (isRecord(e) ? evidenceOf(e, skeleton) : { native: [], strong: [], weak: [] }));
  const mixed = weighed.findIndex((w) => w.native.length > 0 && w.strong.length > 0);
  if (mixed >= 0) {
    const w = weighed[mixed]!;
    throw new AppError(
      'validation_failed',
      `${at(mixed)} mixes native fields (${list(w.native)}) with Excalidraw fields (${list(w.strong)}); send each scene in one format`,
    );
  }
  const native = weighed.findIndex((w) => w.native.length > 0);
  const excalidraw = weighed.findIndex((w) => w.strong.length > 0);
  if (native >= 0 && excalidraw >= 0) {
    throw new AppError(
      'validation_failed',
      `elements mixes two formats: ${at(native)} looks native (${list(weighed[native]!.native)}) but ${at(excalidraw)} ` +
        `looks like Excalidraw (${list(weighed[excalidraw]!.strong)}); send each scene in one format`,
    );
  }
  return native < 0 && weighed.some((w) => w.strong.length > 0 || w.weak.length > 0);
}

/** The Excalidraw form of `raw` (file object, clipboard or bare elements array), or undefined for native input. */
export function detectExcalidraw(raw: unknown): ExcalidrawInput | undefined {
  if (Array.isArray(raw)) return isExcalidrawArray(raw) ? { elements: raw, files: {} } : undefined;
  if (!isRecord(raw)) return undefined;
  if (raw.type === 'excalidraw' || raw.type === 'excalidraw/clipboard') {
    if (!Array.isArray(raw.elements)) throw new AppError('validation_failed', `an Excalidraw scene (type "${raw.type}") needs an elements array`);
    return { elements: raw.elements, files: isRecord(raw.files) ? raw.files : {} };
  }
  if (raw.type === 'excalidrawlib') {
    throw new AppError('unsupported_format', 'Excalidraw libraries (type "excalidrawlib") are not scenes; send a .excalidraw file or its elements');
  }
  return undefined;
}

const hexOr = (v: unknown, fallback: string) =>
  typeof v === 'string' && /^#(?:[0-9a-fA-F]{3,4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/.test(v) ? v : fallback;
const oneOr = <T extends string>(v: unknown, allowed: readonly T[], fallback: T): T =>
  allowed.includes(v as T) ? (v as T) : fallback;

/** The element's box with negative sizes flipped, as restore() does. */
function boxOf(e: Raw): Box {
  let x = coordinateOf(e.x);
  let y = coordinateOf(e.y);
  let width = coordinateOf(e.width);
  let height = coordinateOf(e.height);
  if (width < 0) [x, width] = [x + width, -width];
  if (height < 0) [y, height] = [y + height, -height];
  return { type: typeOf(e), x, y, width, height };
}

function absolutePoints(e: Raw): Point[] {
  const { x, y } = { x: coordinateOf(e.x), y: coordinateOf(e.y) };
  const points = Array.isArray(e.points)
    ? e.points.filter((p): p is [number, number] => Array.isArray(p) && typeof p[0] === 'number' && typeof p[1] === 'number').map(([px, py]) => ({ x: x + px, y: y + py }))
    : [];
  if (points.length >= 2 || e.type === 'freedraw') return points.length > 0 ? points : [{ x, y }];
  // restore(): fewer than 2 points become a segment across the box.
  return [
    { x, y },
    { x: x + coordinateOf(e.width), y: y + coordinateOf(e.height) },
  ];
}

/** Fitted control points are rounded to a millionth of a pixel, so an exported curve comes back bit for bit. */
const micro = (v: number) => Math.round(v * 1e6) / 1e6;
const weigh = (ps: Point[], ws: number[], over: number): Point => ({
  x: micro(ps.reduce((sum, p, i) => sum + ws[i]! * p.x, 0) / over),
  y: micro(ps.reduce((sum, p, i) => sum + ws[i]! * p.y, 0) / over),
});

/**
 * Excalidraw's curved arrows pass through their points. Three points fit a quadratic exactly (control point = the
 * one that puts the curve through the middle point at t=½); four fit a cubic through them at t=⅓ and t=⅔.
 */
function fitCurve(points: Point[]): { points: Point[]; controlPoint?: Point; controlPoint2?: Point } {
  const [p0, p1, p2, p3] = points as [Point, Point, Point, Point?];
  if (points.length === 3) return { points: [p0, p2], controlPoint: weigh([p0, p1, p2], [-1, 4, -1], 2) };
  return {
    points: [p0, p3!],
    controlPoint: weigh([p0, p1, p2, p3!], [-5, 18, -9, 2], 6),
    controlPoint2: weigh([p0, p1, p2, p3!], [2, -9, 18, -5], 6),
  };
}

/** Native-only fields a Drawbridge export kept in customData; each is used only while Excalidraw still agrees. */
function extrasOf(e: Raw): Raw {
  const custom = isRecord(e.customData) ? e.customData.drawbridge : undefined;
  return isRecord(custom) ? custom : {};
}

const CONTAINERS = new Set(['rectangle', 'ellipse', 'diamond', 'arrow', 'line']);

export function fromExcalidraw(input: ExcalidrawInput): { elements: Raw[]; warnings: string[] } {
  const warnings: string[] = [];
  const live = expandSkeletons(input.elements).filter((e): e is Raw => isRecord(e) && e.isDeleted !== true && e.type !== 'selection');
  const byId = new Map(live.filter((e) => typeof e.id === 'string').map((e) => [e.id as string, e]));
  const labelOf = new Map<string, Raw>();
  for (const e of live) {
    if (e.type !== 'text') continue;
    const owner = typeof e.containerId === 'string' ? e.containerId : extrasOf(e).labelOf;
    const container = typeof owner === 'string' ? byId.get(owner) : undefined;
    if (container && CONTAINERS.has(typeOf(container)) && !labelOf.has(owner as string)) labelOf.set(owner as string, e);
  }
  // A shape draws its label in its stroke colour: a label of another colour (white text in a dark box, black text in a
  // box outlined in its own fill colour) stays a text of its own over the shape, grouped with it, so it keeps its colour.
  const ownColour = new Map<string, string>();
  for (const [owner, label] of labelOf) {
    const container = byId.get(owner)!;
    if (typeOf(container) === 'arrow' || typeOf(container) === 'line') continue;
    const colour = (e: Raw) => hexOr(e.strokeColor, '#1e1e1e').toLowerCase();
    if (colour(label) !== colour(container)) ownColour.set(owner, `${owner}-label`);
  }
  for (const owner of ownColour.keys()) labelOf.delete(owner);
  const merged = new Set([...labelOf.values()]);
  const labels = new Set(live.filter((e) => e.type === 'text' && typeof e.containerId === 'string' && (labelOf.get(e.containerId) === e || ownColour.has(e.containerId))));
  /** A binding aimed at a label really means its container. */
  const targetOf = (id: string): Raw | undefined => {
    const t = byId.get(id);
    if (t && labels.has(t) && typeof t.containerId === 'string') return byId.get(t.containerId);
    return t;
  };

  const out: Raw[] = [];
  const seen = new Set<string>();
  /** Where an element without an id sits in the file, for its warnings. */
  const indexOf = new Map(input.elements.map((e, i) => [e, i]));
  for (const e of live) {
    if (merged.has(e)) continue;
    // A Drawbridge export's icon picture: stamped again from the shape's iconRef, never data of its own.
    if (typeof extrasOf(e).iconOf === 'string') continue;
    const where = typeof e.id === 'string' ? `Excalidraw element "${e.id}"` : `Excalidraw elements[${indexOf.get(e)}] (type ${describeValue(e.type)})`;
    const converted = convert(e, where);
    if (converted === undefined) continue;
    const label = typeof e.id === 'string' ? labelOf.get(e.id) : undefined;
    if (label) Object.assign(converted, textFields(label));
    const group = labels.has(e) ? ownColour.get(e.containerId as string) : typeof e.id === 'string' ? ownColour.get(e.id) : undefined;
    if (group !== undefined) converted.groupIds = [group, ...((converted.groupIds as string[] | undefined) ?? [])];
    out.push(converted);
  }
  return { elements: out, warnings };

  function convert(e: Raw, where: string): Raw | undefined {
    const extras = extrasOf(e);
    const base = style(e, where);
    const box = boxOf(e);
    const geometry = { x: box.x, y: box.y, width: box.width, height: box.height };
    switch (e.type) {
      case 'rectangle':
      case 'ellipse':
      case 'diamond': {
        const type = (SHAPE_TYPES as readonly unknown[]).includes(extras.type) ? extras.type : e.type;
        return { type, ...base, ...geometry };
      }
      case 'text': {
        const type = extras.type === 'math' || extras.type === 'code' ? extras.type : 'text';
        return { type, ...base, ...geometry, ...textFields(e), ...(type === 'code' && typeof extras.language === 'string' ? { language: extras.language } : {}) };
      }
      case 'arrow':
        return arrow(e, base, extras, where);
      case 'line':
      case 'draw': // 2020-era name of the line tool; restore() reads it as a line
        return line(e, base, extras);
      case 'freedraw':
        return { type: extras.type === 'highlight' ? 'highlight' : 'freedraw', ...base, points: absolutePoints(e) };
      case 'image': {
        const file = typeof e.fileId === 'string' ? input.files[e.fileId] : undefined;
        const dataUrl = isRecord(file) ? file.dataURL : undefined;
        if (typeof dataUrl !== 'string') return void warnings.push(`${where}: image dropped, its file is not in the scene's files`);
        const mime = /^data:([^;,]+)/.exec(dataUrl)?.[1];
        if (!(IMAGE_MIME_TYPES as readonly unknown[]).includes(mime)) {
          return void warnings.push(`${where}: image dropped, ${mime ?? 'its type'} is not one of ${IMAGE_MIME_TYPES.join(', ')}`);
        }
        // Like every other item the native schema cannot hold, an image it would refuse is dropped, not the file.
        if (dataUrl.length > IMAGE_DATA_URL_MAX_CHARS) {
          return void warnings.push(
            `${where}: image dropped, its file ${describeValue(e.fileId)} is ${dataUrl.length} characters as a data URL, over the limit of ${IMAGE_DATA_URL_MAX_CHARS}`,
          );
        }
        const format = imageSchema.shape.dataUrl.safeParse(dataUrl);
        if (!format.success) return void warnings.push(`${where}: image dropped, its file's data URL ${format.error.issues[0]!.message}`);
        return { type: 'image', ...base, ...geometry, dataUrl };
      }
      case 'frame':
      case 'magicframe':
        return { type: 'frame', ...base, ...geometry, strokeStyle: 'dashed', name: typeof e.name === 'string' ? e.name : '' };
      case 'embeddable': {
        if (typeof e.link !== 'string' || !isWebUrl(e.link)) return void warnings.push(`${where}: embeddable dropped, its link is not an http(s) URL`);
        const { link: _link, ...rest } = base;
        return { type: 'embed', ...rest, ...geometry, url: e.link };
      }
      default:
        return void warnings.push(`${where}: type ${describeValue(e.type)} has no native counterpart and was dropped`);
    }
  }

  function style(e: Raw, where: string): Raw {
    const extras = extrasOf(e);
    const rounded = (isRecord(e.roundness) || e.strokeSharpness === 'round') && !['arrow', 'line', 'draw'].includes(typeOf(e));
    const fillStyle = FILL_TO_EXCALIDRAW[extras.fillStyle as keyof typeof FILL_TO_EXCALIDRAW] === e.fillStyle ? extras.fillStyle : e.fillStyle;
    const out: Raw = {
      strokeColor: hexOr(e.strokeColor, '#1e1e1e'),
      fillColor: e.backgroundColor === 'transparent' ? 'transparent' : hexOr(e.backgroundColor, 'transparent'),
      fillStyle: oneOr(fillStyle, FILL_STYLES, 'solid'),
      strokeWidth: isNum(e.strokeWidth) ? clamp(e.strokeWidth, STROKE_WIDTH.min, STROKE_WIDTH.max) : 2,
      strokeStyle: oneOr(e.strokeStyle, STROKE_STYLES, 'solid'),
      roughness: ROUGHNESS_FROM_EXCALIDRAW[isNum(e.roughness) ? clamp(Math.round(e.roughness), 0, 2) : 1],
      opacity: isNum(e.opacity) ? clamp(e.opacity, 0, 100) : 100,
      corner: oneOr(extras.corner, CORNERS, rounded ? 'rounded' : 'sharp'),
      angle: isNum(e.angle) ? e.angle : 0,
      // A Drawbridge export groups an outline drawing with its label under a group of its own; that group goes.
      groupIds: Array.isArray(e.groupIds) ? e.groupIds.filter((g) => typeof g === 'string' && g !== '' && g !== extras.group) : [],
    };
    // restore() renames repeated ids; here the second one gets a generated id, and bindings keep meaning the first.
    if (typeof e.id === 'string' && e.id !== '' && !seen.has(e.id)) out.id = e.id;
    else if (typeof e.id === 'string' && e.id !== '') warnings.push(`${where}: id repeats an earlier element; a new id was given`);
    if (typeof e.id === 'string') seen.add(e.id);
    if (isNum(e.seed) && Number.isInteger(e.seed)) out.seed = e.seed;
    for (const key of ['bowing', 'shadow', 'iconRef', 'parentId', 'role', 'fontWeight', 'fontStyle'] as const) if (extras[key] !== undefined) out[key] = extras[key];
    if (extras.linkedTo !== undefined) out.labelOf = extras.linkedTo;
    if (typeof e.frameId === 'string' && e.frameId !== '') out.frameId = e.frameId;
    for (const [key, value] of [
      ['strokeColor', e.strokeColor],
      ['backgroundColor', e.backgroundColor],
    ] as const) {
      if (value !== undefined && value !== 'transparent' && hexOr(value, '') === '') {
        warnings.push(`${where}: ${key} ${JSON.stringify(value)} is not a hex colour; the default was used`);
      }
    }
    if (typeof e.link === 'string' && e.link !== '' && e.type !== 'embeddable') {
      if (isSafeLink(e.link)) out.link = e.link;
      else warnings.push(`${where}: link dropped, only http(s), mailto and relative links are kept`);
    }
    return out;
  }

  function textFields(t: Raw): Raw {
    const text = typeof t.originalText === 'string' && t.originalText !== '' ? t.originalText : typeof t.text === 'string' ? t.text : '';
    return {
      text,
      fontSize: isNum(t.fontSize) && t.fontSize > 0 ? t.fontSize : 20,
      fontFamily: (isNum(t.fontFamily) && FONT_FROM_EXCALIDRAW[t.fontFamily]) || 'hand',
      textAlign: oneOr(t.textAlign, TEXT_ALIGNS, 'left'),
    };
  }

  function line(e: Raw, base: Raw, extras: Raw): Raw {
    const points = absolutePoints(e);
    if ((SHAPE_TYPES as readonly unknown[]).includes(extras.type) && isRecord(extras.box)) {
      // A native shape Excalidraw has no twin for, exported as its outline drawing.
      return { type: extras.type, ...base, ...extras.box };
    }
    const rounded = isRecord(e.roundness) || e.strokeSharpness === 'round';
    const inferred = points.length === 2 ? 'straight' : rounded ? 'multipoint-curved' : 'multipoint';
    const lineShape = extras.lineShape === 'multipoint' || extras.lineShape === 'multipoint-curved' ? extras.lineShape : inferred;
    return { type: 'line', ...base, lineShape, points };
  }

  function arrow(e: Raw, base: Raw, extras: Raw, where: string): Raw {
    const polyline = absolutePoints(e);
    const n = polyline.length;
    const rounded = isRecord(e.roundness) || e.strokeSharpness === 'round';
    let shape: string;
    if (e.elbowed === true) shape = n === 3 ? 'elbow' : n === 2 ? 'straight' : 'multipoint';
    else if (n === 2) shape = 'straight';
    else if (rounded) shape = n === 3 ? 'curved' : n === 4 ? 's-curve' : 'multipoint-curved';
    else shape = n === 3 ? 'elbow' : 'multipoint';
    // A kept shape wins while the point count still allows it (a 2-point curve is one drawn without control points).
    const kept = extras.arrowShape as string | undefined;
    if (kept === 'smart' || kept === 'multipoint' || kept === 'multipoint-curved' || (n === 2 && (kept === 'curved' || kept === 's-curve'))) shape = kept;
    const curve = (shape === 'curved' && n === 3) || (shape === 's-curve' && n === 4) ? fitCurve(polyline) : { points: polyline };

    const head = (end: 'startArrowhead' | 'endArrowhead'): string => {
      // Arrows from before arrowheads were configurable (no key at all) point at their end.
      const value = end in e ? (e[end] ?? null) : end === 'endArrowhead' ? 'arrow' : null;
      const kept = extras[end] as keyof typeof EXCALIDRAW_ARROWHEAD_MAP | undefined;
      if (kept !== undefined && EXCALIDRAW_ARROWHEAD_MAP[kept] === value) return kept;
      if (value === null) return 'none';
      const mapped = typeof value === 'string' ? ARROWHEAD_FROM_EXCALIDRAW[value] : undefined;
      if (mapped === undefined) warnings.push(`${where}: ${end} ${describeValue(value)} is unknown; drawn as "arrow"`);
      return mapped ?? 'arrow';
    };
    const bind = (end: 'startBinding' | 'endBinding'): Raw | undefined => {
      // Bindings to outline drawings cannot exist in Excalidraw; an export keeps them in customData.
      const b = isRecord(e[end]) ? e[end] : extras[end];
      if (!isRecord(b) || typeof b.elementId !== 'string') return undefined;
      const target = targetOf(b.elementId);
      const outline = target !== undefined && (SHAPE_TYPES as readonly unknown[]).includes(extrasOf(target).type);
      if (target === undefined || (!outline && ['arrow', 'line', 'draw', 'freedraw'].includes(typeOf(target)))) {
        warnings.push(`${where}: ${end} to "${b.elementId}" dropped, no such shape in the scene`);
        return undefined;
      }
      const box = isRecord(extrasOf(target).box) ? { ...boxOf(target), ...(extrasOf(target).box as Raw), type: typeOf(extrasOf(target)) } : boxOf(target);
      const [tip, from] = end === 'startBinding' ? [polyline[0]!, polyline[1]!] : [polyline[n - 1]!, polyline[n - 2]!];
      const focus = isRecord(b.focus) ? b.focus : focusOf(b, box, tip, from);
      return { elementId: target.id, focus };
    };
    const out: Raw = { type: 'arrow', ...base, arrowShape: shape, ...curve, startArrowhead: head('startArrowhead'), endArrowhead: head('endArrowhead') };
    const start = bind('startBinding');
    const end = bind('endBinding');
    if (start) out.startBinding = start;
    if (end) out.endBinding = end;
    return out;
  }
}

/** v2 bindings (and elbow arrows) carry the exact attach point as fixedPoint ratios; v1 ones are read by geometry. */
function focusOf(b: Raw, box: Box, tip: Point, from: Point): Focus {
  const fixed = b.fixedPoint;
  if (Array.isArray(fixed) && isNum(fixed[0]) && isNum(fixed[1])) {
    // Excalidraw nudges an exact ½ to 0.5001 so its binding math never divides by zero.
    const unnudge = (v: number) => (Math.abs(v - 0.5) <= 0.0002 ? 0.5 : clamp(v, 0, 1));
    return { x: unnudge(fixed[0]), y: unnudge(fixed[1]) };
  }
  return focusFromEnd(box, tip, from);
}
