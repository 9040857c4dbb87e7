import { describe, expect, it } from 'vitest';
import { sanitizeSvg } from './sanitize.js';

const svg = (inner: string, attributes = 'viewBox="0 0 24 24"') => `<svg xmlns="http://www.w3.org/2000/svg" ${attributes}>${inner}</svg>`;

/** What a browser would need to run code or fetch something, in any form the sanitiser might let through. */
const DANGER = /<script|<foreignObject|<iframe|<set\b|<animate|\son[a-z]+=|javascript:|https?:|evil\.example|@import|<!ENTITY|<\?/i;

describe('sanitizeSvg', () => {
  it('keeps ordinary drawing markup and the viewBox', () => {
    const clean = sanitizeSvg(svg('<g fill="#326ce5"><path d="M0 0h24v24H0z"/><circle cx="12" cy="12" r="4"/></g>'));
    expect(clean).toBe(
      '<svg viewBox="0 0 24 24" xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink">' +
        '<g fill="#326ce5"><path d="M0 0h24v24H0z"></path><circle cx="12" cy="12" r="4"></circle></g></svg>',
    );
  });

  it('adds a viewBox from width and height when the source has none', () => {
    expect(sanitizeSvg('<svg width="20" height="19"><path d="M0 0"/></svg>')).toContain('viewBox="0 0 20 19"');
  });

  it('keeps local references and raster data images, and gradients that use them', () => {
    const clean = sanitizeSvg(
      svg(
        '<defs><linearGradient id="a"><stop offset="0" stop-color="#fff"/></linearGradient></defs>' +
          '<rect fill="url(#a)" width="4" height="4"/><use href="#a"/><use xlink:href="#a"/>' +
          '<image href="data:image/png;base64,iVBORw0KGgo=" width="4" height="4"/>',
      ),
    );
    expect(clean).toContain('fill="url(#a)"');
    expect(clean).toContain('<use href="#a">');
    expect(clean).toContain('<use xlink:href="#a">');
    expect(clean).toContain('href="data:image/png;base64,iVBORw0KGgo="');
  });

  const hostile: Array<[string, string]> = [
    ['script element', svg('<script>alert(1)</script><path d="M0 0"/>')],
    ['script in CDATA', svg('<script><![CDATA[alert(1)]]></script>')],
    ['event handler on root', '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1" onload="alert(1)"><path d="M0 0"/></svg>'],
    ['event handler on a child, odd case', svg('<path d="M0 0" OnClick="alert(1)"/><g onmouseover="alert(1)"/>')],
    ['foreignObject with HTML', svg('<foreignObject><iframe src="https://evil.example"></iframe><p onclick="x()">hi</p></foreignObject>')],
    ['javascript href', svg('<a href="javascript:alert(1)"><path d="M0 0"/></a><use href="javascript:alert(1)"/>')],
    ['external use', svg('<use href="https://evil.example/sprite.svg#icon"/><use xlink:href="//evil.example/x.svg#a"/>')],
    ['external image', svg('<image href="http://evil.example/track.png"/>')],
    ['svg data image (scriptable)', svg('<image href="data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9ImFsZXJ0KDEpIi8+"/>')],
    ['url() to the network in an attribute', svg('<rect fill="url(http://evil.example/#a)" width="1" height="1"/>')],
    ['url() to the network in a style attribute', svg('<rect style="fill: url( \'https://evil.example/a.svg#g\' )" width="1" height="1"/>')],
    ['@import in a style element', svg('<style>@import url(https://evil.example/x.css); .a{fill:red}</style><path class="a" d="M0 0"/>')],
    ['url() in a style element', svg('<style>.a{background:url(http://evil.example/x.png)}</style>')],
    ['css expression', svg('<rect style="width: expression(alert(1))"/>')],
    ['image-set() in a style attribute', svg('<rect style="fill: image-set(\'https://evil.example/a.png\' 1x)" width="1" height="1"/>')],
    ['image-set() in a style element', svg('<style>.a{background:image-set("https://evil.example/a.png" 1x)}</style>')],
    ['-webkit-image-set() in a presentation attribute', svg('<rect fill="-webkit-image-set(\'https://evil.example/a.png\' 1x)"/>')],
    ['escaped url() in a style element', svg('<style>.a{background:u\\72l(https://evil.example/x.png)}</style>')],
    ['escaped url() in a style attribute', svg('<rect style="fill:u\\72l(\'https://evil.example/x.svg#a\')" width="1" height="1"/>')],
    ['escaped image-set() in a style element', svg('<style>.a{background:\\69mage-set("https://evil.example/a.png" 1x)}</style>')],
    ['escaped quote inside a local url()', svg('<style>.a{fill:url("#a\\" https://evil.example/x.png")}</style>')],
    ['protocol-relative url()', svg('<style>.a{background:url(//evil.example/x.png)}</style><rect fill="url(\'//evil.example/a.svg#g\')"/>')],
    ['protocol-relative string for a future fetching function', svg('<style>.a{background:"//evil.example/x.png"}</style>')],
    ['local() font source', svg('<style>@font-face{font-family:x;src:local(Arial),url(#f)}</style>')],
    ['set/animate changing href', svg('<a><set attributeName="href" to="javascript:alert(1)"/><animate attributeName="href" values="javascript:alert(1)"/></a>')],
    ['entity declarations', '<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY x "javascript:alert(1)">]><svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><a href="&x;"><path d="M0 0"/></a></svg>'],
    ['processing instruction stylesheet', '<?xml-stylesheet href="https://evil.example/x.css"?><svg viewBox="0 0 1 1"><path d="M0 0"/></svg>'],
    ['namespaced attribute smuggling', svg('<path d="M0 0" xlink:arcrole="https://evil.example" ev:event="click" xmlns:ev="http://www.w3.org/2001/xml-events"/>')],
    ['text that closes the tag', svg('<title>&lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt;</title>')],
  ];

  it.each(hostile)('neutralises %s', (_name, input) => {
    const clean = sanitizeSvg(input);
    expect(clean).toBeDefined();
    // The namespace declarations are the only URLs allowed to remain.
    expect(clean?.replace(/ xmlns(:xlink)?="[^"]*"/g, '')).not.toMatch(DANGER);
    expect(clean).toMatch(/^<svg [^>]*viewBox="[^"]+"/);
  });

  it('keeps the harmless parts around hostile ones', () => {
    const clean = sanitizeSvg(svg('<script>alert(1)</script><path d="M1 1"/><style>.a{fill:#f00}</style>'));
    expect(clean).toContain('<path d="M1 1"></path>');
    expect(clean).toContain('<style>.a{fill:#f00}</style>');
  });

  it('keeps CSS that calls only allowlisted functions and local url()s', () => {
    const clean = sanitizeSvg(
      svg(
        '<style>.a{fill:url(#g);stroke:rgb(1,2,3)} .b:not(.a){filter:drop-shadow(0 0 1px #000)}</style>' +
          '<rect class="a" style="fill: url( \'#g\' ); opacity: calc(1 - 0.5)" transform="matrix(1 0 0 1 0 0) rotate(45)" width="1" height="1"/>',
      ),
    );
    expect(clean).toContain('<style>.a{fill:url(#g);stroke:rgb(1,2,3)} .b:not(.a){filter:drop-shadow(0 0 1px #000)}</style>');
    expect(clean).toContain('style="fill: url( &#39;#g&#39; ); opacity: calc(1 - 0.5)"');
    expect(clean).toContain('transform="matrix(1 0 0 1 0 0) rotate(45)"');
  });

  it('escapes attribute values so quotes cannot open a new attribute', () => {
    // (No function call in the payload: alert(1) would now drop the attribute as CSS calling an unknown function.)
    expect(sanitizeSvg(svg('<path d="M0 0&quot; onload=&quot;location=name"/>'))).toContain('<path d="M0 0&quot; onload=&quot;location=name"></path>');
  });

  it('escapes text so it cannot become markup', () => {
    expect(sanitizeSvg(svg('<title>&lt;script&gt;</title>'))).toContain('<title>&lt;script&gt;</title>');
  });

  it('rejects markup whose root is not <svg>', () => {
    expect(sanitizeSvg('<html><body><svg viewBox="0 0 1 1"/></body></html>')).toBeUndefined();
    expect(sanitizeSvg('<script>alert(1)</script>')).toBeUndefined();
    expect(sanitizeSvg('not markup at all')).toBeUndefined();
    expect(sanitizeSvg('')).toBeUndefined();
  });
});
