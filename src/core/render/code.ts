import hljs from 'highlight.js/lib/common';
import dockerfile from 'highlight.js/lib/languages/dockerfile';
import { Parser } from 'htmlparser2';
import { LINE_HEIGHT } from '../layout/measure.js';
import { CODE_PANEL } from './constants.js';
import type { RenderContext } from './context.js';
import { drawFigure } from './draw.js';
import { cornerPath } from './outlines.js';
import { boxOf, drawStyleOf, text, textStyleOf, type Drawn, type RenderElement } from './style.js';
import { attrs, escapeXml } from './svg.js';
import { textLines } from './text.js';

/**
 * Source code, highlighted by highlight.js (its common languages plus Dockerfile) in the colours of its GitHub
 * theme, in the monospace font on a panel. Unknown languages are shown plain: guessing would make the same code
 * come out differently as the guesser changes.
 */
hljs.registerLanguage('dockerfile', dockerfile);

/** highlight.js scopes → colours of its `github.css` theme. */
const THEME: Record<string, string> = {
  keyword: '#d73a49',
  doctag: '#d73a49',
  'template-tag': '#d73a49',
  'template-variable': '#d73a49',
  type: '#d73a49',
  title: '#6f42c1',
  attr: '#005cc5',
  attribute: '#005cc5',
  literal: '#005cc5',
  meta: '#005cc5',
  number: '#005cc5',
  operator: '#005cc5',
  variable: '#005cc5',
  'selector-attr': '#005cc5',
  'selector-class': '#005cc5',
  'selector-id': '#005cc5',
  section: '#005cc5',
  regexp: '#032f62',
  string: '#032f62',
  built_in: '#e36209',
  symbol: '#e36209',
  comment: '#6a737d',
  code: '#6a737d',
  formula: '#6a737d',
  name: '#22863a',
  quote: '#22863a',
  'selector-tag': '#22863a',
  'selector-pseudo': '#22863a',
  addition: '#22863a',
  bullet: '#735c0f',
  deletion: '#b31d28',
};

interface Run {
  text: string;
  color: string | undefined;
}

/** highlight.js's HTML (nested `<span class="hljs-…">`, escaped text) as coloured runs, innermost colour winning. */
function colouredRuns(html: string): Run[] {
  const runs: Run[] = [];
  const stack: Array<string | undefined> = [];
  const parser = new Parser(
    {
      onopentag(_name, attributes) {
        const scope = /(?:^|\s)hljs-([\w-]+)/.exec(attributes.class ?? '')?.[1];
        stack.push((scope && THEME[scope]) ?? stack[stack.length - 1]);
      },
      ontext(value) {
        runs.push({ text: value, color: stack[stack.length - 1] });
      },
      onclosetag() {
        stack.pop();
      },
    },
    { decodeEntities: true },
  );
  parser.end(html);
  return runs;
}

/** Runs split into lines, neighbours of one colour merged. */
function runLines(runs: readonly Run[]): Run[][] {
  const lines: Run[][] = [[]];
  for (const run of runs) {
    run.text.split('\n').forEach((piece, i) => {
      if (i > 0) lines.push([]);
      if (piece === '') return;
      const line = lines[lines.length - 1]!;
      const last = line[line.length - 1];
      if (last && last.color === run.color) last.text += piece;
      else line.push({ text: piece, color: run.color });
    });
  }
  return lines;
}

export function drawCode(ctx: RenderContext, element: RenderElement & { type: 'code' }): Drawn | undefined {
  const source = text(element.text);
  if (source === undefined) return undefined;
  const box = boxOf(element);
  const style = drawStyleOf(element);
  const textStyle = { ...textStyleOf(element, { family: 'code', size: 16, align: 'left' }), family: 'code' as const };
  const plain = textLines(source).join('\n');
  const language = typeof element.language === 'string' ? element.language.toLowerCase() : 'text';
  const runs = hljs.getLanguage(language)
    ? colouredRuns(hljs.highlight(plain, { language, ignoreIllegals: true }).value)
    : [{ text: plain, color: undefined }];
  const lines = runLines(runs);
  const lineHeight = textStyle.size * LINE_HEIGHT;
  const widest = Math.max(0, ...lines.map((line) => ctx.fonts.lineWidth(line.map((r) => r.text).join(''), 'code', textStyle.size)));
  // The panel grows to hold the code: the intake's size estimate leaves no room for the padding.
  const width = Math.max(box.width, widest + 2 * CODE_PANEL.padding);
  const height = Math.max(box.height, lines.length * lineHeight + 2 * CODE_PANEL.padding);
  const corners = [
    { x: box.x, y: box.y },
    { x: box.x + width, y: box.y },
    { x: box.x + width, y: box.y + height },
    { x: box.x, y: box.y + height },
  ];
  const panel = { kind: 'path' as const, d: cornerPath(corners, 'rounded', corners.map(() => CODE_PANEL.radius)), closed: true };
  let svg = drawFigure(panel, {
    ...style,
    stroke: CODE_PANEL.border,
    strokeWidth: 1,
    fill: style.fill ?? CODE_PANEL.fill,
    fillStyle: style.fill ? style.fillStyle : 'solid',
  });

  const { ascent, descent } = ctx.fonts.vertical('code');
  const baseline = box.y + CODE_PANEL.padding + (lineHeight - (ascent + descent) * textStyle.size) / 2 + ascent * textStyle.size;
  const x = box.x + CODE_PANEL.padding;
  if (ctx.outlineText) {
    // One path per colour, each run placed after the runs before it on its line.
    const paths = new Map<string, string>();
    lines.forEach((line, i) => {
      let pen = x;
      for (const run of line) {
        const color = run.color ?? textStyle.color;
        paths.set(color, (paths.get(color) ?? '') + (ctx.fonts.outline(run.text, 'code', textStyle.size, pen, baseline + i * lineHeight) ?? ''));
        pen += ctx.fonts.lineWidth(run.text, 'code', textStyle.size);
      }
    });
    for (const [color, d] of paths) if (d !== '') svg += `<path${attrs([['d', d], ['fill', color]])}/>`;
    return { svg, bounds: { x: box.x, y: box.y, width, height } };
  }
  let body = '';
  lines.forEach((line, i) => {
    if (line.length === 0) return;
    let content = '';
    for (const run of line) {
      ctx.useGlyphs('code', run.text);
      content += run.color === undefined ? escapeXml(run.text) : `<tspan${attrs([['fill', run.color]])}>${escapeXml(run.text)}</tspan>`;
    }
    body += `<tspan${attrs([['x', x], ['y', baseline + i * lineHeight]])}>${content}</tspan>`;
  });
  if (body !== '') {
    svg += `<text${attrs([
      ['font-family', ctx.fonts.cssFamily('code')],
      ['font-size', textStyle.size],
      ['fill', textStyle.color],
      ['xml:space', 'preserve'],
    ])}>${body}</text>`;
  }
  return { svg, bounds: { x: box.x, y: box.y, width, height } };
}
