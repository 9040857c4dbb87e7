/**
 * Embedded SVG (stamped icons, MathJax output) reuses short ids and class names ("a", "cls-1", "MJX-1-…") that would
 * clash once several pieces sit in one document, so each piece gets its ids, classes and references prefixed.
 * Input is sanitised markup (attribute values quoted and escaped), which is what makes these patterns enough.
 */

function scopeCss(css: string, scope: string): string {
  // Selectors sit outside braces, declarations inside: ids and classes are renamed only in selectors, references in both.
  return css.replace(/([^{}]*)(\{[^}]*\})?/g, (_match, selectors: string, block: string | undefined) => {
    const scoped = selectors.replace(/([.#])(-?[_a-zA-Z][\w-]*)/g, (_m, sigil: string, name: string) => `${sigil}${scope}-${name}`);
    return scoped + (block ?? '').replace(/url\(\s*#/g, `url(#${scope}-`);
  });
}

/** SVG markup with every id, class and local reference renamed into `scope`. */
export function scopeSvg(inner: string, scope: string): string {
  return inner
    .replace(/<style>([\s\S]*?)<\/style>/g, (_m, css: string) => `<style>${scopeCss(css, scope)}</style>`)
    .replace(/(\s)id="([^"]*)"/g, (_m, space: string, id: string) => `${space}id="${scope}-${id}"`)
    .replace(/(\s)class="([^"]*)"/g, (_m, space: string, names: string) => `${space}class="${names.trim().split(/\s+/).map((n) => `${scope}-${n}`).join(' ')}"`)
    // SVG 2 `href` everywhere: the host document declares no xlink namespace.
    .replace(/(\s)xlink:href="/g, '$1href="')
    .replace(/(\s)href="#([^"]*)"/g, (_m, space: string, id: string) => `${space}href="#${scope}-${id}"`)
    .replace(/url\(\s*#/g, `url(#${scope}-`);
}
