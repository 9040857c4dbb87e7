import { generateNKeysBetween } from 'fractional-indexing';
import { figureBox, isFigure, type ShapeType } from './constants.js';
import {
  EXCALIDRAW_ARROWHEAD_MAP,
  FILL_TO_EXCALIDRAW,
  FONT_TO_EXCALIDRAW,
  ROUGHNESS_TO_EXCALIDRAW,
} from './excalidraw-maps.js';
import type { ArrowElement, Binding, Element, Point } from './schema.js';
import { boundsOf } from './binding-geometry.js';
import { EXCALIDRAW_SHAPE_TWIN, figureTrace, SHAPE_OUTLINES } from './shape-outlines.js';
import { estimateTextSize } from './validate.js';
import { getIcon } from '../icons/catalog.js';

/**
 * Native scene → `.excalidraw` file object that Excalidraw opens as is: every field restore() expects, bound text
 * as separate elements linked both ways, bindings with all five keys (v1 and v2 readers). Native-only fields ride in
 * `customData.drawbridge`, so a scene exported here and imported back is unchanged.
 */

export type ExcalidrawElement = Record<string, unknown> & { id: string; type: string };
export interface ExcalidrawScene {
  type: 'excalidraw';
  version: 2;
  source: string;
  elements: ExcalidrawElement[];
  appState: { viewBackgroundColor: string; gridSize: number | null };
  files: Record<string, { id: string; mimeType: string; dataURL: string; created: number }>;
}

export const EXCALIDRAW_SOURCE = 'drawbridge';
/** Unitless line height Excalidraw uses for Excalifont, Nunito and Virgil (the families written here; Cascadia's 1.2 is close). */
const LABEL_LINE_HEIGHT = 1.25;
/** Elements Excalidraw lets an arrow bind to. */
const BINDABLE = new Set(['rectangle', 'diamond', 'ellipse', 'text', 'image', 'embeddable', 'frame']);
const CONTAINER = new Set(['rectangle', 'diamond', 'ellipse', 'arrow']);
/** Excalidraw divides by (0.5 - fixedPoint) in places and nudges exact halves itself; so do we. */
const nudge = (v: number) => (v === 0.5 ? 0.5001 : v);

export function toExcalidraw(elements: readonly Element[]): { scene: ExcalidrawScene; warnings: string[] } {
  const warnings: string[] = [];
  const files: ExcalidrawScene['files'] = {};
  const used = new Set(elements.map((e) => e.id));
  const freshId = (wanted: string) => {
    let id = wanted;
    for (let n = 2; used.has(id); n++) id = `${wanted}-${n}`;
    used.add(id);
    return id;
  };
  const out: ExcalidrawElement[] = [];
  const byId = new Map<string, ExcalidrawElement>();
  const note = (e: Element, what: string) => warnings.push(`element "${e.id}" (${e.type}): ${what}`);

  for (const e of elements) {
    const converted = convert(e);
    out.push(converted);
    byId.set(e.id, converted);
    if (e.text !== undefined && e.text !== '' && !['text', 'math', 'code'].includes(e.type)) out.push(label(e, converted));
    const icon = e.icon && iconPicture(e, e.icon);
    if (icon) out.push(icon);
  }
  // Second pass: bindings need every target converted first.
  for (const e of elements) if (e.type === 'arrow') bindArrow(e, byId.get(e.id)!);

  const indices = generateNKeysBetween(null, null, out.length);
  out.forEach((el, i) => (el.index = indices[i]));
  return {
    scene: { type: 'excalidraw', version: 2, source: EXCALIDRAW_SOURCE, elements: out, appState: { viewBackgroundColor: '#ffffff', gridSize: null }, files },
    warnings,
  };

  function base(e: Element, type: string, extras: Record<string, unknown> = {}): ExcalidrawElement {
    const kept: Record<string, unknown> = { ...extras };
    if (e.bowing !== 'curved') kept.bowing = e.bowing;
    if (e.shadow !== 'none') kept.shadow = e.shadow;
    if (e.iconRef !== undefined) kept.iconRef = e.iconRef;
    // The scene's structure rides along: Excalidraw has frames but no containment of shapes, roles or linked titles.
    if (e.parentId !== undefined) kept.parentId = e.parentId;
    if (e.role !== undefined) kept.role = e.role;
    if (e.labelOf !== undefined) kept.linkedTo = e.labelOf;
    if (e.corner === 'beveled') kept.corner = e.corner;
    if (FILL_TO_EXCALIDRAW[e.fillStyle] !== e.fillStyle) kept.fillStyle = e.fillStyle;
    // Excalidraw has no bold or italic: they ride along for the way back (its editor shows the text upright and regular).
    const { fontWeight, fontStyle } = e as { fontWeight?: string; fontStyle?: string };
    if (fontWeight !== undefined) kept.fontWeight = fontWeight;
    if (fontStyle !== undefined) kept.fontStyle = fontStyle;
    return {
      id: e.id,
      type,
      x: e.x,
      y: e.y,
      width: e.width,
      height: e.height,
      angle: e.angle,
      strokeColor: e.strokeColor,
      backgroundColor: e.fillColor,
      fillStyle: FILL_TO_EXCALIDRAW[e.fillStyle],
      strokeWidth: e.strokeWidth,
      strokeStyle: e.strokeStyle,
      roughness: ROUGHNESS_TO_EXCALIDRAW[e.roughness],
      opacity: e.opacity,
      roundness: null,
      seed: e.seed,
      version: 1,
      versionNonce: e.seed,
      index: null,
      isDeleted: false,
      groupIds: [...e.groupIds],
      frameId: e.frameId ?? null,
      boundElements: [],
      updated: 1,
      link: e.link ?? null,
      locked: false,
      ...(Object.keys(kept).length > 0 ? { customData: { drawbridge: kept } } : {}),
    };
  }

  function textElement(e: Element, id: string, text: string, box: { x: number; y: number; width: number; height: number }, extra: Record<string, unknown>) {
    const fontFamily = e.fontFamily ?? 'hand';
    return {
      ...base(e, 'text'),
      id,
      ...box,
      angle: e.type === 'arrow' ? 0 : e.angle,
      strokeColor: e.strokeColor,
      backgroundColor: 'transparent',
      boundElements: null,
      link: null,
      text,
      originalText: text,
      fontSize: e.fontSize ?? 20,
      fontFamily: FONT_TO_EXCALIDRAW[fontFamily],
      textAlign: e.textAlign ?? 'center',
      verticalAlign: 'middle',
      containerId: null,
      autoResize: true,
      lineHeight: LABEL_LINE_HEIGHT,
      ...extra,
    };
  }

  /** A shape's or arrow's label as Excalidraw bound text (or, for outline drawings, a text grouped with the outline). */
  function label(e: Element, owner: ExcalidrawElement): ExcalidrawElement {
    const text = e.text!;
    const size = estimateTextSize(text, e.fontSize ?? 20, e.fontFamily ?? 'hand');
    // A figure's label (a person's, an interface's) is centred in the band under it, where the layout made room for it.
    const top = isFigure(e.type) ? figureBox(e.type, e).labelTop : e.y;
    const centre = e.type === 'arrow' ? midpoint(e.points) : { x: e.x + e.width / 2, y: (top + e.y + e.height) / 2 };
    const box = { x: centre.x - size.width / 2, y: centre.y - size.height / 2, ...size };
    const id = freshId(`${e.id}-label`);
    if (CONTAINER.has(owner.type)) {
      (owner.boundElements as unknown[]).push({ type: 'text', id });
      // Under a stamped icon the label sits at the bottom of the box, as our renderer draws it.
      if (e.labelPlacement === 'below-icon' && e.icon) {
        const low = { ...box, y: e.y + e.height - size.height - 8 };
        return textElement(e, id, text, low, { containerId: owner.id, verticalAlign: 'bottom' });
      }
      return textElement(e, id, text, box, { containerId: owner.id });
    }
    const group = freshId(`${e.id}-group`);
    (owner.groupIds as string[]).unshift(group);
    ((owner.customData as { drawbridge: Record<string, unknown> }).drawbridge).group = group;
    return textElement(e, id, text, box, { groupIds: [group, ...e.groupIds], customData: { drawbridge: { labelOf: e.id, group } } });
  }

  /**
   * A stamped icon as a locked image over its shape, so Excalidraw (and the canvas editor) shows it while clicks go
   * through to the shape. It is derived, not data: the import leaves it out (`iconOf`) and the shape's iconRef stamps
   * it again, placed by the shape's box as it is then.
   */
  function iconPicture(e: Element, icon: NonNullable<Element['icon']>): ExcalidrawElement | undefined {
    const svg = getIcon(icon.ref)?.svg;
    if (svg === undefined) return undefined;
    const fileId = freshId(`file-${e.id}-icon`);
    files[fileId] = { id: fileId, mimeType: 'image/svg+xml', dataURL: `data:image/svg+xml;base64,${base64(svg)}`, created: 1 };
    return {
      ...base(e, 'image'),
      id: freshId(`${e.id}-icon`),
      x: icon.x,
      y: icon.y,
      width: icon.width,
      height: icon.height,
      angle: 0,
      strokeColor: 'transparent',
      backgroundColor: 'transparent',
      boundElements: [],
      locked: true,
      fileId,
      status: 'saved',
      scale: [1, 1],
      crop: null,
      customData: { drawbridge: { iconOf: e.id } },
    };
  }

  function convert(e: Element): ExcalidrawElement {
    switch (e.type) {
      case 'text':
        return textElement(e, e.id, e.text, boxOf(e), { verticalAlign: 'top', link: e.link ?? null });
      case 'math':
        note(e, 'LaTeX has no Excalidraw twin; exported as its source text');
        return { ...textElement(e, e.id, e.text, boxOf(e), { verticalAlign: 'top' }), customData: { drawbridge: { type: 'math' } } };
      case 'code':
        return { ...textElement(e, e.id, e.text, boxOf(e), { verticalAlign: 'top' }), customData: { drawbridge: { type: 'code', language: e.language } } };
      case 'image': {
        const fileId = freshId(`file-${e.id}`);
        const mimeType = /^data:([^;]+);/.exec(e.dataUrl)![1]!;
        files[fileId] = { id: fileId, mimeType, dataURL: e.dataUrl, created: 1 };
        return { ...base(e, 'image'), fileId, status: 'saved', scale: [1, 1], crop: null };
      }
      case 'frame':
        return { ...base(e, 'frame'), name: e.name };
      case 'embed':
        return { ...base(e, 'embeddable'), link: e.url };
      case 'arrow':
        return arrow(e);
      case 'line': {
        const curved = e.lineShape === 'multipoint-curved';
        const extras = e.lineShape === 'multipoint' && e.points.length === 2 ? { lineShape: e.lineShape } : {};
        return { ...linear(base(e, 'line', extras), e.points), roundness: curved ? { type: 2 } : null, startArrowhead: null, endArrowhead: null, polygon: false };
      }
      case 'freedraw':
      case 'highlight': {
        if (e.type === 'highlight') note(e, 'no highlighter in Excalidraw; exported as a freehand stroke');
        const extras = e.type === 'highlight' ? { type: 'highlight' } : {};
        return { ...linear(base(e, 'freedraw', extras), e.points), pressures: [], simulatePressure: true };
      }
      default:
        return shape(e);
    }
  }

  function shape(e: Extract<Element, { type: ShapeType }>): ExcalidrawElement {
    const twin = EXCALIDRAW_SHAPE_TWIN[e.type];
    if (twin) {
      if (twin.type !== e.type) note(e, `no Excalidraw twin; exported as the closest shape, a ${twin.type}`);
      const rounded = twin.rounded === true || e.corner === 'rounded';
      // A closest shape drawn rounded for its look (a terminator) keeps its own corner for the way back.
      const extras = twin.type === e.type ? {} : { type: e.type, ...(rounded && e.corner !== 'rounded' ? { corner: e.corner } : {}) };
      return { ...base(e, twin.type, extras), roundness: rounded ? { type: twin.type === 'rectangle' ? 3 : 2 } : null };
    }
    const extras = { type: e.type, box: boxOf(e), corner: e.corner };
    if (isFigure(e.type)) {
      note(e, 'no Excalidraw twin; exported as a line drawing of its figure');
      return { ...linear(base(e, 'line', extras), figureTrace(e.type, e)), startArrowhead: null, endArrowhead: null, polygon: false };
    }
    note(e, 'no Excalidraw twin; exported as a line drawing of its outline');
    const unit = SHAPE_OUTLINES[e.type]!;
    const outline = [...unit, unit[0]!].map((p) => ({ x: e.x + p.x * e.width, y: e.y + p.y * e.height }));
    return { ...linear(base(e, 'line', extras), outline), startArrowhead: null, endArrowhead: null, polygon: true };
  }

  function arrow(e: ArrowElement): ExcalidrawElement {
    const extras: Record<string, unknown> = {};
    const [p0, p1] = e.points as [Point, Point];
    let points = e.points;
    let curved = e.arrowShape === 'multipoint-curved';
    if (e.arrowShape === 'curved' && e.controlPoint) {
      // The quadratic's point at t=½; import fits the same control point back.
      points = [p0, { x: 0.25 * p0.x + 0.5 * e.controlPoint.x + 0.25 * p1.x, y: 0.25 * p0.y + 0.5 * e.controlPoint.y + 0.25 * p1.y }, p1];
      curved = true;
    } else if (e.arrowShape === 's-curve' && e.controlPoint) {
      const c2 = e.controlPoint2 ?? e.controlPoint;
      points = [p0, cubic(p0, e.controlPoint, c2, p1, 1 / 3), cubic(p0, e.controlPoint, c2, p1, 2 / 3), p1];
      curved = true;
    }
    if (e.arrowShape !== inferredShape(points.length, curved)) extras.arrowShape = e.arrowShape;
    if (e.arrowShape === 'smart') note(e, 'smart routing is not an Excalidraw feature; exported as its current path');
    for (const end of ['startArrowhead', 'endArrowhead'] as const) {
      if (e[end] === 'circle-bar' || e[end] === 'circle-crows-foot') {
        extras[end] = e[end];
        note(e, `${end} "${e[end]}" has no Excalidraw 0.18 twin; exported as "${EXCALIDRAW_ARROWHEAD_MAP[e[end]]}"`);
      }
    }
    return {
      ...linear(base(e, 'arrow', extras), points),
      roundness: curved ? { type: 2 } : null,
      startArrowhead: EXCALIDRAW_ARROWHEAD_MAP[e.startArrowhead],
      endArrowhead: EXCALIDRAW_ARROWHEAD_MAP[e.endArrowhead],
      startBinding: null,
      endBinding: null,
      elbowed: false,
    };
  }

  function bindArrow(e: ArrowElement, out: ExcalidrawElement): void {
    for (const end of ['startBinding', 'endBinding'] as const) {
      const b: Binding | undefined = e[end];
      if (!b) continue;
      const target = byId.get(b.elementId);
      if (!target || !BINDABLE.has(target.type)) {
        note(e, `${end} to "${b.elementId}" cannot bind in Excalidraw (the target is drawn as a line); kept for re-import only`);
        const custom = (out.customData ??= { drawbridge: {} }) as { drawbridge: Record<string, unknown> };
        custom.drawbridge[end] = b;
        continue;
      }
      const focus = b.focus ?? { x: 0.5, y: 0.5 };
      out[end] = { elementId: b.elementId, focus: 0, gap: 0, fixedPoint: [nudge(focus.x), nudge(focus.y)], mode: 'orbit' };
      const bound = (target.boundElements ??= []) as Array<{ id: string; type: string }>;
      if (!bound.some((x) => x.id === e.id)) bound.push({ id: e.id, type: 'arrow' });
    }
  }
}

/** The shape import infers from an Excalidraw polyline; anything else rides in customData. */
function inferredShape(n: number, curved: boolean): string {
  if (n === 2) return 'straight';
  if (curved) return n === 3 ? 'curved' : n === 4 ? 's-curve' : 'multipoint-curved';
  return n === 3 ? 'elbow' : 'multipoint';
}

function linear(el: ExcalidrawElement, points: readonly Point[]): ExcalidrawElement {
  const x0 = points[0]!.x;
  const y0 = points[0]!.y;
  const { width, height } = boundsOf(points);
  return {
    ...el,
    x: x0,
    y: y0,
    width,
    height,
    points: points.map((p) => [p.x - x0, p.y - y0]),
    lastCommittedPoint: null,
  };
}

function cubic(a: Point, b: Point, c: Point, d: Point, t: number): Point {
  const u = 1 - t;
  const w = [u * u * u, 3 * u * u * t, 3 * u * t * t, t * t * t] as const;
  return { x: w[0] * a.x + w[1] * b.x + w[2] * c.x + w[3] * d.x, y: w[0] * a.y + w[1] * b.y + w[2] * c.y + w[3] * d.y };
}

/** Halfway along the polyline, where Excalidraw puts an arrow's label. */
function midpoint(points: readonly Point[]): Point {
  const lengths = points.slice(1).map((p, i) => Math.hypot(p.x - points[i]!.x, p.y - points[i]!.y));
  let rest = lengths.reduce((a, b) => a + b, 0) / 2;
  for (let i = 0; i < lengths.length; i++) {
    const len = lengths[i]!;
    if (rest <= len && len > 0) {
      const a = points[i]!;
      const b = points[i + 1]!;
      return { x: a.x + ((b.x - a.x) * rest) / len, y: a.y + ((b.y - a.y) * rest) / len };
    }
    rest -= len;
  }
  return points[0]!;
}

const boxOf = (e: Element) => ({ x: e.x, y: e.y, width: e.width, height: e.height });

/** Base64 of UTF-8 text without Node's Buffer (the core runs anywhere). */
function base64(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}
