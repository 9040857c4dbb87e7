/**
 * The few element forms every chart is drawn with: shapes (a label inside, in a colour that reads on the fill), free
 * text, lines (closed ones are filled polygons) and arrows. Positions are rounded to 1/100 px like the other layouts.
 */
import type { NodeKind } from '../../graph/types.js';
import { textContrast } from '../../layout/contrast.js';
import { FONT, SPACING } from '../../layout/drawing-rules.js';
import { measureText } from '../../layout/measure.js';
import { textArea, wrapText } from '../../layout/node-size.js';
import type { ShapeType } from '../constants.js';
import type { GeneratedElement } from '../from-graph.js';

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface Point {
  x: number;
  y: number;
}

/** What a chart drawing gives back: its elements in input form and what it could not draw as written. */
export interface ChartDrawing {
  elements: GeneratedElement[];
  warnings: string[];
}

export const CHART_TEXT = '#1e1e1e';
export const CHART_LINE = '#495057';
/** Chart text sizes: labels at 14 px, small print (axis ticks, commit ids) at 12, so both stay 11 px or more at 880 px. */
export const CHART_FONT = { label: 14, small: 12, heading: 16 } as const;

const round = (value: number) => Math.round(value * 100) / 100;

export const textSize = (text: string, fontSize: number = CHART_FONT.label) => measureText(text, fontSize, FONT.family);

/**
 * A label for a rectangle `width` wide: wrapped to the room a rectangle leaves its text (node-size's text area, the
 * rule the quality checker holds labels to), and the height the box needs for it, at least `minHeight`.
 */
export function wrappedLabel(text: string, width: number, fontSize: number = CHART_FONT.label, minHeight = 0): { text: string; height: number } {
  const wrapped = wrapText(text, textArea('rectangle', width, 1000).width, fontSize).join('\n');
  return { text: wrapped, height: Math.max(minHeight, Math.ceil(textSize(wrapped, fontSize).height) + 2 * SPACING.nodePaddingY) };
}

/** The rectangle a one-line label needs, with the padding the quality checker allows it. */
export function labelBox(text: string, fontSize: number = CHART_FONT.label): { width: number; height: number } {
  const size = textSize(text, fontSize);
  return { width: Math.ceil(size.width) + 2 * SPACING.nodePaddingX, height: Math.ceil(size.height) + 2 * SPACING.nodePaddingY };
}

/** Dark text on a light fill, white on a dark one: whichever reads better. */
export function inkOn(fill: string): string {
  return (textContrast(CHART_TEXT, fill) ?? 21) >= (textContrast('#ffffff', fill) ?? 0) ? CHART_TEXT : '#ffffff';
}

export interface ShapeOptions {
  fill: string;
  stroke?: string;
  text?: string;
  fontSize?: number;
  role?: NodeKind;
  strokeWidth?: number;
  strokeStyle?: 'solid' | 'dashed' | 'dotted';
  corner?: 'sharp' | 'rounded';
}

/** A closed shape; its label, if any, is centred in it in the shape's stroke colour (ink on its fill unless given). */
export function chartShape(id: string, type: ShapeType, box: Box, options: ShapeOptions): GeneratedElement {
  return {
    id,
    type,
    x: round(box.x),
    y: round(box.y),
    width: round(box.width),
    height: round(box.height),
    strokeColor: options.stroke ?? (options.text === undefined ? CHART_LINE : inkOn(options.fill)),
    fillColor: options.fill,
    strokeStyle: options.strokeStyle ?? 'solid',
    strokeWidth: options.strokeWidth ?? 1,
    corner: options.corner ?? 'sharp',
    roughness: 'clean',
    ...(options.text !== undefined && { text: options.text, fontSize: options.fontSize ?? CHART_FONT.label, fontFamily: FONT.family }),
    ...(options.role !== undefined && { role: options.role }),
  } as GeneratedElement;
}

export interface TextOptions {
  fontSize?: number;
  /** Where `at.x` is: the text's left edge, centre or right edge. */
  align?: 'left' | 'center' | 'right';
  color?: string;
  /** Radians, clockwise, around the text's centre. */
  angle?: number;
}

/** Free text with its top at `at.y`. */
export function chartText(id: string, text: string, at: Point, options: TextOptions = {}): GeneratedElement {
  const fontSize = options.fontSize ?? CHART_FONT.label;
  const size = textSize(text, fontSize);
  const align = options.align ?? 'left';
  const left = align === 'left' ? at.x : align === 'center' ? at.x - size.width / 2 : at.x - size.width;
  return {
    id,
    type: 'text',
    x: round(left),
    y: round(at.y),
    width: round(size.width),
    height: round(size.height),
    text,
    fontSize,
    fontFamily: FONT.family,
    strokeColor: options.color ?? CHART_TEXT,
    fillColor: 'transparent',
    roughness: 'clean',
    textAlign: align === 'right' ? 'right' : align,
    ...(options.angle !== undefined && options.angle !== 0 && { angle: options.angle }),
  } as GeneratedElement;
}

export interface LineOptions {
  stroke?: string;
  /** A line that ends where it starts is a closed figure, filled with this. */
  fill?: string;
  strokeWidth?: number;
  strokeStyle?: 'solid' | 'dashed' | 'dotted';
}

function linear(points: readonly Point[]) {
  const rounded = points.map((p) => ({ x: round(p.x), y: round(p.y) }));
  const xs = rounded.map((p) => p.x);
  const ys = rounded.map((p) => p.y);
  return { x: Math.min(...xs), y: Math.min(...ys), width: round(Math.max(...xs) - Math.min(...xs)), height: round(Math.max(...ys) - Math.min(...ys)), points: rounded };
}

export function chartLine(id: string, points: readonly Point[], options: LineOptions = {}): GeneratedElement {
  return {
    id,
    type: 'line',
    ...linear(points),
    lineShape: points.length === 2 ? 'straight' : 'multipoint',
    strokeColor: options.stroke ?? CHART_LINE,
    fillColor: options.fill ?? 'transparent',
    strokeWidth: options.strokeWidth ?? 1,
    strokeStyle: options.strokeStyle ?? 'solid',
    roughness: 'clean',
  } as GeneratedElement;
}

export function chartArrow(id: string, points: readonly Point[], options: LineOptions = {}): GeneratedElement {
  return {
    id,
    type: 'arrow',
    ...linear(points),
    arrowShape: points.length === 2 ? 'straight' : 'multipoint',
    strokeColor: options.stroke ?? CHART_LINE,
    fillColor: 'transparent',
    strokeWidth: options.strokeWidth ?? 2,
    strokeStyle: options.strokeStyle ?? 'solid',
    roughness: 'clean',
    startArrowhead: 'none',
    endArrowhead: 'triangle',
  } as GeneratedElement;
}

/**
 * Mermaid's default theme's chart colours in its order (git0…git7, cScale0…cScale11 and pie1…pie12 follow one hue
 * wheel from the primary colour), deepened where Mermaid's pale yellow would not carry white text or read on paper.
 */
export const CHART_PALETTE = ['#4c5bd4', '#c9b800', '#3fa34d', '#c2255c', '#e8590c', '#1098ad', '#7048e8', '#a61e4d', '#5c940d', '#d6336c', '#0b7285', '#9c36b5'] as const;

/** Paler fills of the same hues, for boxes that carry dark text (sections, timeline periods, journey tasks). */
export const CHART_PALE = ['#e5e8ff', '#fff9c4', '#d3f9d8', '#ffdeeb', '#ffe8cc', '#c5f6fa', '#e5dbff', '#ffe3e3', '#e9fac8', '#fcc2d7', '#c3fae8', '#f3d9fa'] as const;

export const paletteAt = (palette: readonly string[], index: number): string => palette[((index % palette.length) + palette.length) % palette.length]!;
