/**
 * If-None-Match as RFC 9110 §13.1.2 reads it: `*`, or a comma-separated list of entity tags compared weakly (a `W/`
 * prefix on either side is ignored). A client or proxy that sends `W/"3"` or `"2", "3"` still gets its 304.
 */
export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  if (ifNoneMatch.trim() === '*') return true;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  const wanted = opaque(etag);
  return ifNoneMatch.split(',').some((tag) => opaque(tag) === wanted);
}
