import { Parser } from 'htmlparser2';

/**
 * SVG sanitiser for icon markup that reaches the renderer and the public icon endpoint.
 *
 * Parsing is htmlparser2's (XML mode); the policy is written here because no DOM-free library applies it: DOMPurify
 * needs a DOM (jsdom is far too heavy for the pure core), and sanitize-html is HTML-minded and would still need the
 * same URL rules. The policy is an allowlist: only drawing elements survive (no script, foreignObject, animation,
 * iframe, …), no event handler or unknown namespace, `href`/`xlink:href` only to `#local` or a raster `data:image/…`,
 * and CSS (style attributes, `<style>`, and every other attribute value, since presentation attributes are CSS) only
 * with allowlisted functions, `url(…)` only to `#local`, no backslash escapes and no `//`. The root must be `<svg>`;
 * the output always has a `viewBox` (derived from width/height when missing) and the SVG namespace.
 */

const ALLOWED_ELEMENTS: ReadonlySet<string> = new Set([
  'svg', 'g', 'defs', 'symbol', 'use', 'title', 'desc', 'style',
  'path', 'rect', 'circle', 'ellipse', 'line', 'polyline', 'polygon', 'image',
  'text', 'tspan', 'textPath',
  'linearGradient', 'radialGradient', 'stop', 'clipPath', 'mask', 'pattern', 'marker',
  'filter', 'feBlend', 'feColorMatrix', 'feComponentTransfer', 'feComposite', 'feDropShadow', 'feFlood',
  'feFuncA', 'feFuncB', 'feFuncG', 'feFuncR', 'feGaussianBlur', 'feMerge', 'feMergeNode', 'feMorphology',
  'feOffset', 'feTile',
]);

/** Elements whose character data is kept; elsewhere text is insignificant whitespace or junk. */
const TEXT_ELEMENTS: ReadonlySet<string> = new Set(['title', 'desc', 'text', 'tspan', 'textPath', 'style']);

/** The only namespaced attributes kept; `xmlns:*` declarations are re-emitted by the sanitiser itself. */
const NAMESPACED_ATTRIBUTES: ReadonlySet<string> = new Set(['xlink:href', 'xml:space']);

const ATTRIBUTE_NAME = /^[a-zA-Z][a-zA-Z0-9_.-]*$/;
const LOCAL_REFERENCE = /^#[^\s"'()]*$/;
const RASTER_DATA_URL = /^data:image\/(png|jpe?g|gif|webp);base64,[a-z0-9+/=\s]*$/i;
/** Anything that could run or fetch: script URLs, legacy CSS expressions, bindings and imports. */
const ACTIVE_CONTENT = /javascript:|vbscript:|expression\s*\(|-moz-binding|behavior\s*:|@import/i;
/**
 * The CSS functions a value may call: colours, arithmetic, transforms, filters, shapes, easing and selector
 * pseudo-classes, each computed from its own arguments. Everything else is refused, so the functions that fetch
 * (image-set, -webkit-image-set, image, cross-fade, element, src, local, attr, …) and whatever CSS adds next stay out.
 */
const CSS_FUNCTIONS: ReadonlySet<string> = new Set([
  'url', // checked on its own: only `#local`
  'rgb', 'rgba', 'hsl', 'hsla', 'hwb', 'lab', 'lch', 'oklab', 'oklch', 'color', 'color-mix',
  'calc', 'min', 'max', 'clamp', 'var',
  'matrix', 'matrix3d', 'translate', 'translatex', 'translatey', 'translate3d', 'scale', 'scalex', 'scaley', 'scale3d',
  'rotate', 'rotatex', 'rotatey', 'rotatez', 'rotate3d', 'skew', 'skewx', 'skewy', 'perspective',
  'blur', 'brightness', 'contrast', 'drop-shadow', 'grayscale', 'hue-rotate', 'invert', 'opacity', 'saturate', 'sepia',
  'inset', 'circle', 'ellipse', 'polygon', 'rect', 'cubic-bezier', 'steps',
  'not', 'is', 'where', 'nth-child', 'nth-last-child', 'nth-of-type', 'nth-last-of-type',
]);
/** A name followed by `(`: wider than CSS's function token (whitespace allowed, any leading character), on purpose. */
const CSS_FUNCTION = /([-\w\u0080-\uffff]+)\s*\(/g;
/** What may follow `url(`: a `#local` reference, quoted or not, and the closing parenthesis. */
const LOCAL_URL_ARGUMENT = /^\s*(['"]?)#[^\s"'()\\]*\1\s*\)/;

const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeXml = (value: string): string => value.replace(/[&<>"']/g, (char) => XML_ESCAPES[char] ?? char);

/**
 * CSS (a style attribute, a style element or a presentation attribute) is safe when it calls only allowlisted
 * functions, every url() points inside the icon, and nothing is active. Backslashes are refused outright: CSS escapes
 * spell any name (`u\72l(`, `\69mage-set(`) past a textual check. So is `//`: a protocol-relative URL has no
 * business in an icon, whatever function or at-rule would carry it.
 */
function isSafeCss(css: string): boolean {
  if (css.includes('\\') || css.includes('//') || ACTIVE_CONTENT.test(css)) return false;
  for (const match of css.matchAll(CSS_FUNCTION)) {
    const name = match[1]!.toLowerCase();
    if (!CSS_FUNCTIONS.has(name)) return false;
    if (name === 'url' && !LOCAL_URL_ARGUMENT.test(css.slice(match.index + match[0].length))) return false;
  }
  return true;
}

function isSafeAttribute(element: string, name: string, value: string): boolean {
  if (/^on/i.test(name)) return false;
  if (name.includes(':') ? !NAMESPACED_ATTRIBUTES.has(name) : !ATTRIBUTE_NAME.test(name)) return false;
  if (name === 'href' || name === 'xlink:href') {
    const target = value.trim();
    return LOCAL_REFERENCE.test(target) || (element === 'image' && RASTER_DATA_URL.test(target));
  }
  // Any other attribute may hold url(...) (fill, clip-path, filter, style): only local references.
  return isSafeCss(value);
}

interface OpenElement {
  name: string;
  /** A style element collects its text and is written out whole when it closes, or dropped. */
  styleText?: string;
}

/** Sanitises one SVG document; returns undefined when there is no `<svg>` root to keep. */
export function sanitizeSvg(svg: string): string | undefined {
  const out: string[] = [];
  const open: OpenElement[] = [];
  let skipDepth = 0;
  let rootSeen = false;
  let rootClosed = false;

  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (skipDepth > 0 || rootClosed) {
          skipDepth += 1;
          return;
        }
        const isRoot = !rootSeen;
        if ((isRoot && name !== 'svg') || !ALLOWED_ELEMENTS.has(name)) {
          skipDepth = 1;
          return;
        }
        rootSeen = true;
        const kept = Object.entries(attributes).filter(
          ([attribute, value]) => !attribute.startsWith('xmlns') && isSafeAttribute(name, attribute, value),
        );
        if (isRoot) kept.push(...rootAttributes(attributes, kept));
        if (name === 'image' && !kept.some(([attribute]) => attribute === 'href' || attribute === 'xlink:href')) {
          skipDepth = 1; // an image without a safe source is nothing to draw
          return;
        }
        open.push(name === 'style' ? { name, styleText: '' } : { name });
        if (name === 'style') return;
        out.push(`<${name}${kept.map(([attribute, value]) => ` ${attribute}="${escapeXml(value)}"`).join('')}>`);
      },
      ontext(text) {
        const current = open.at(-1);
        if (skipDepth > 0 || !current || !TEXT_ELEMENTS.has(current.name)) return;
        if (current.styleText !== undefined) current.styleText += text;
        else out.push(escapeXml(text));
      },
      onclosetag() {
        if (skipDepth > 0) {
          skipDepth -= 1;
          return;
        }
        const closed = open.pop();
        if (!closed) return;
        if (closed.styleText !== undefined) {
          if (isSafeCss(closed.styleText) && !closed.styleText.includes('<')) {
            out.push(`<style>${escapeXml(closed.styleText)}</style>`);
          }
        } else {
          out.push(`</${closed.name}>`);
        }
        if (open.length === 0) rootClosed = true;
      },
    },
    { xmlMode: true, decodeEntities: true, recognizeSelfClosing: true },
  );
  parser.end(svg);
  return rootSeen && rootClosed ? out.join('') : undefined;
}

/** The namespaces (xlink is declared always: descendants may use it) and a viewBox when the source had only width/height. */
function rootAttributes(source: Record<string, string>, kept: Array<[string, string]>): Array<[string, string]> {
  const extra: Array<[string, string]> = [
    ['xmlns', 'http://www.w3.org/2000/svg'],
    ['xmlns:xlink', 'http://www.w3.org/1999/xlink'],
  ];
  if (!kept.some(([name]) => name === 'viewBox')) {
    const width = Number.parseFloat(source.width ?? '');
    const height = Number.parseFloat(source.height ?? '');
    extra.push(['viewBox', `0 0 ${width > 0 ? width : 24} ${height > 0 ? height : 24}`]);
  }
  return extra;
}
