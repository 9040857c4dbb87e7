import { liteAdaptor } from 'mathjax-full/js/adaptors/liteAdaptor.js';
import { RegisterHTMLHandler } from 'mathjax-full/js/handlers/html.js';
import 'mathjax-full/js/input/tex/ams/AmsConfiguration.js';
import 'mathjax-full/js/input/tex/base/BaseConfiguration.js';
import 'mathjax-full/js/input/tex/boldsymbol/BoldsymbolConfiguration.js';
import 'mathjax-full/js/input/tex/braket/BraketConfiguration.js';
import 'mathjax-full/js/input/tex/cancel/CancelConfiguration.js';
import 'mathjax-full/js/input/tex/color/ColorConfiguration.js';
import 'mathjax-full/js/input/tex/mhchem/MhchemConfiguration.js';
import 'mathjax-full/js/input/tex/newcommand/NewcommandConfiguration.js';
import 'mathjax-full/js/input/tex/noundefined/NoUndefinedConfiguration.js';
import { TeX } from 'mathjax-full/js/input/tex.js';
import { mathjax } from 'mathjax-full/js/mathjax.js';
import { SVG } from 'mathjax-full/js/output/svg.js';
import { sanitizeSvg } from '../icons/index.js';
import type { RenderContext } from './context.js';
import { scopeSvg } from './scope.js';
import { boxOf, strokeColorOf, text, textStyleOf, type Drawn, type RenderElement } from './style.js';
import { attrs } from './svg.js';
import { drawTextBlock, textLines } from './text.js';

/**
 * LaTeX with MathJax 3 (TeX in, SVG out, glyphs as paths: no fonts to fetch). Only packages that draw are loaded:
 * `html` (\href, \class, \style), `require` and `autoload` stay out, so a formula can neither link nor load anything.
 * The output still goes through the icon sanitiser's allowlist before it is embedded.
 */
const PACKAGES = ['base', 'ams', 'newcommand', 'noundefined', 'boldsymbol', 'braket', 'cancel', 'color', 'mhchem'];
/** Longer sources are refused: MathJax's work grows with the source, and no diagram formula is this long. */
export const MATH_SOURCE_MAX = 4000;
const CACHE_SIZE = 256;

interface Formula {
  viewBox: string;
  /** Size at font size 1 (MathJax's viewBox is in thousandths of an em). */
  width: number;
  height: number;
  /** The formula's content, ids not yet scoped. */
  body: string;
}
type Typeset = Formula | { error: string };

let engine: { convert(tex: string): string } | undefined;

function mathEngine() {
  if (engine) return engine;
  const adaptor = liteAdaptor();
  RegisterHTMLHandler(adaptor);
  // A TeX error is thrown rather than typeset as MathJax's red box, so it is shown in the renderer's own font.
  const tex = new TeX({ packages: PACKAGES, formatError: (_jax: unknown, error: Error) => { throw error; } });
  const document = mathjax.document('', { InputJax: tex, OutputJax: new SVG({ fontCache: 'local' }) });
  engine = {
    convert: (tex: string) => adaptor.outerHTML(adaptor.firstChild(document.convert(tex, { display: true })) as never),
  };
  return engine;
}

const cache = new Map<string, Typeset>();
const ROOT = /^<svg\b([^>]*)>([\s\S]*)<\/svg>$/;

function formulaOf(tex: string): Typeset {
  let raw: string;
  try {
    raw = mathEngine().convert(tex);
  } catch (error) {
    // MathJax's TexError is not an Error subclass; it carries a message all the same.
    const message = (error as { message?: unknown } | undefined)?.message;
    return { error: typeof message === 'string' ? message : 'formula could not be typeset' };
  }
  // MathJax numbers ids per conversion ("MJX-12-…"); dropping the number keeps the output the same in every process.
  const match = ROOT.exec(sanitizeSvg(raw.replace(/MJX-\d+-/g, 'MJX-')) ?? '');
  const viewBox = match ? /\sviewBox="([^"]*)"/.exec(match[1]!)?.[1] : undefined;
  const size = viewBox?.split(/\s+/).map(Number);
  if (!match || !size || size.length !== 4 || size.some((n) => !Number.isFinite(n))) return { error: 'formula could not be typeset' };
  // The data-* attributes are MathJax's semantic annotations: nothing draws them, and they are half the bytes.
  const body = match[2]!.replace(/\sdata-[\w-]+="[^"]*"/g, '');
  return { viewBox: viewBox!, width: size[2]! / 1000, height: size[3]! / 1000, body };
}

function typeset(tex: string): Typeset {
  const cached = cache.get(tex);
  if (cached) return cached;
  const result = tex.length > MATH_SOURCE_MAX ? { error: `formula longer than ${MATH_SOURCE_MAX} characters` } : formulaOf(tex);
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
  cache.set(tex, result);
  return result;
}

/**
 * A formula at its natural size (1 em = the element's font size), centred in its box and scaled down when it does
 * not fit. A formula MathJax rejects shows MathJax's message in red instead.
 */
export function drawMath(ctx: RenderContext, element: RenderElement & { type: 'math' }): Drawn | undefined {
  const source = text(element.text);
  if (source === undefined) return undefined;
  const box = boxOf(element);
  const style = textStyleOf(element, { family: 'normal', size: 20, align: 'center' });
  const formula = typeset(source);
  if ('error' in formula) {
    const block = drawTextBlock(ctx, textLines(formula.error), { ...style, family: 'normal', color: '#e03131', size: Math.min(style.size, 16) }, box, 'middle');
    return { svg: block.svg, bounds: box };
  }
  const natural = { width: formula.width * style.size, height: formula.height * style.size };
  const scale = Math.min(1, box.width > 0 ? box.width / natural.width : 1, box.height > 0 ? box.height / natural.height : 1);
  const width = natural.width * scale;
  const height = natural.height * scale;
  const x = box.x + (box.width - width) / 2;
  const y = box.y + (box.height - height) / 2;
  const svg = `<svg${attrs([
    ['x', x],
    ['y', y],
    ['width', width],
    ['height', height],
    ['viewBox', formula.viewBox],
    ['color', strokeColorOf(element)],
    ['overflow', 'visible'],
  ])}>${scopeSvg(formula.body, ctx.id('math'))}</svg>`;
  return { svg, bounds: { x: Math.min(x, box.x), y: Math.min(y, box.y), width: Math.max(width, box.width), height: Math.max(height, box.height) } };
}
