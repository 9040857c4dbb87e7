import { LINE_HEIGHT, wordPieces, wrapWords } from '../layout/measure.js';
import type { TEXT_ALIGNS } from '../scene/constants.js';
import type { RenderContext } from './context.js';
import type { FontFamily, FontMetrics, TextFace } from './fonts.js';
import type { Box } from './outlines.js';
import { grow } from './style.js';
import { attrs, escapeXml, fmt, xmlSafe } from './svg.js';

export interface TextStyle {
  family: FontFamily;
  size: number;
  color: string;
  align: (typeof TEXT_ALIGNS)[number];
  /** Bold or italic; regular when absent. */
  face?: TextFace;
}

export interface TextBlock {
  svg: string;
  /** The ink box of the laid-out lines (advance widths × line boxes). */
  bounds: Box;
}

/** Lines of `text` as drawn: tabs as spaces (code keeps its indentation), CR LF as LF, unsafe XML characters replaced. */
export const textLines = (text: string, tabSize = 4): string[] =>
  xmlSafe(text).replace(/\r\n?/g, '\n').replace(/\t/g, ' '.repeat(tabSize)).split('\n');

/**
 * Greedy word wrap to `maxWidth`: explicit line breaks are kept and lines break at spaces. A single word wider than
 * that may still stand alone on its line up to `wordWidthMax` (a shape's whole width, where a diamond's inscribed
 * box is narrow); only a word wider still is broken, after a separator where it has one (wordPieces), else between
 * characters (a URL must not run out of its shape).
 */
export function wrapText(
  fonts: FontMetrics,
  text: string,
  maxWidth: number,
  style: Pick<TextStyle, 'family' | 'size' | 'face'>,
  wordWidthMax = maxWidth,
): string[] {
  const width = (s: string) => fonts.lineWidth(s, style.family, style.size, style.face);
  const space = width(' ');
  const out: string[] = [];
  for (const paragraph of textLines(text)) {
    let line = '';
    let lineWidth = 0;
    let started = false;
    for (const word of wrapWords(paragraph)) {
      const wordWidth = width(word);
      if (started && lineWidth + space + wordWidth <= maxWidth) {
        line += ` ${word}`;
        lineWidth += space + wordWidth;
        continue;
      }
      if (started) out.push(line);
      line = '';
      lineWidth = 0;
      started = true;
      if (wordWidth <= Math.max(maxWidth, wordWidthMax)) {
        line = word;
        lineWidth = wordWidth;
        continue;
      }
      for (const piece of wordPieces(word)) {
        const pieceWidth = width(piece);
        if (line !== '' && lineWidth + pieceWidth > maxWidth) {
          out.push(line);
          line = '';
          lineWidth = 0;
        }
        for (const char of piece) {
          const charWidth = width(char);
          if (line !== '' && lineWidth + charWidth > maxWidth) {
            out.push(line);
            line = '';
            lineWidth = 0;
          }
          line += char;
          lineWidth += charWidth;
        }
      }
    }
    out.push(line);
  }
  return out;
}

/**
 * Lines laid out in `box`: aligned across its width, and at its top or centred in its height. Each line gets an
 * explicit baseline from the font's ascent and descent, centred in a line box of LINE_HEIGHT × size, as CSS does;
 * no renderer-dependent `dominant-baseline`. With `ctx.outlineText` the lines are glyph outlines at the same places.
 */
/** Room a label's paper patch leaves round its text. */
const LABEL_PATCH_PADDING = 4;

/**
 * A patch of the paper behind a label, so a line drawn earlier under it (an arrow's own stroke, a lifeline crossing a
 * frame's name) never strikes through the text.
 */
export function paperPatch(ctx: RenderContext, text: Box): { svg: string; bounds: Box } {
  const patch = grow(text, LABEL_PATCH_PADDING);
  return { svg: `<rect${attrs([['x', patch.x], ['y', patch.y], ['width', patch.width], ['height', patch.height], ['rx', LABEL_PATCH_PADDING], ['fill', ctx.paper]])}/>`, bounds: patch };
}

export function drawTextBlock(
  ctx: RenderContext,
  lines: readonly string[],
  style: TextStyle,
  box: Box,
  vertical: 'top' | 'middle',
): TextBlock {
  const lineHeight = style.size * LINE_HEIGHT;
  const { ascent, descent } = ctx.fonts.vertical(style.family);
  const height = lines.length * lineHeight;
  const top = vertical === 'middle' ? box.y + (box.height - height) / 2 : box.y;
  const baseline0 = top + (lineHeight - (ascent + descent) * style.size) / 2 + ascent * style.size;
  const anchorX = style.align === 'left' ? box.x : style.align === 'right' ? box.x + box.width : box.x + box.width / 2;
  const widths = lines.map((line) => ctx.fonts.lineWidth(line, style.family, style.size, style.face));
  const widest = Math.max(0, ...widths);
  const left = style.align === 'left' ? anchorX : style.align === 'right' ? anchorX - widest : anchorX - widest / 2;
  const bounds = { x: left, y: top, width: widest, height };
  if (ctx.outlineText) {
    let d = '';
    lines.forEach((line, i) => {
      const x = style.align === 'left' ? anchorX : style.align === 'right' ? anchorX - widths[i]! : anchorX - widths[i]! / 2;
      d += ctx.fonts.outline(line, style.family, style.size, x, baseline0 + i * lineHeight, style.face) ?? '';
    });
    return { svg: d === '' ? '' : `<path${attrs([['d', d], ['fill', style.color]])}/>`, bounds };
  }
  let body = '';
  lines.forEach((line, i) => {
    if (line.trim() === '') return;
    ctx.useGlyphs(style.family, line, style.face);
    body += `<tspan${attrs([['x', anchorX], ['y', baseline0 + i * lineHeight]])}>${escapeXml(line)}</tspan>`;
  });
  if (body === '') return { svg: '', bounds };
  const svg =
    `<text${attrs([
      ['font-family', ctx.fonts.cssFamily(style.family)],
      ['font-size', fmt(style.size)],
      ['font-weight', style.face?.bold ? 'bold' : undefined],
      ['font-style', style.face?.italic ? 'italic' : undefined],
      ['fill', style.color],
      ['text-anchor', style.align === 'left' ? undefined : style.align === 'right' ? 'end' : 'middle'],
      ['xml:space', 'preserve'],
    ])}>${body}</text>`;
  return { svg, bounds };
}
