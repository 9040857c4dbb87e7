import type { FastifyReply } from 'fastify';

/** A stand-in origin to resolve against: only its own origin counts as "this site". */
const THIS_SITE = new URL('http://this-site.invalid/');

/**
 * `target` as a path on this site, read as a browser reads a Location header (WHATWG URL parsing: tabs and line
 * breaks dropped, `\` taken as `/`, `//host` and `scheme:` leading elsewhere), or `fallback` when it leads anywhere
 * else. The result is serialised by the same parser, so what a header cannot carry comes out percent-encoded.
 */
export function sameSitePath(target: unknown, fallback = '/'): string {
  if (typeof target !== 'string') return fallback;
  let url: URL;
  try {
    url = new URL(target, THIS_SITE);
  } catch {
    return fallback;
  }
  if (url.origin !== THIS_SITE.origin) return fallback;
  // `/.//host` resolves here to the path `//host`, which a browser would read back as another host.
  if (url.pathname.startsWith('//')) return fallback;
  return url.pathname + url.search + url.hash;
}

/** Every redirect of the web pages: 303 (a form's answer is fetched with GET), and only ever to this site. */
export function seeOther(reply: FastifyReply, target: string): FastifyReply {
  return reply.redirect(sameSitePath(target), 303);
}

/**
 * The one redirect that leaves this site: the OAuth answer (code or error) to the client's redirect URI, which the
 * SDK's authorize handler matched against the client's registration before the request was sealed for consent.
 */
export function toOAuthClient(reply: FastifyReply, redirectUri: string, params: Record<string, string>): FastifyReply {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  return reply.redirect(url.href, 303);
}
