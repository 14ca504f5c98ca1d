/**
 * The parts of a request's URL the core needs on every request, cut out of `Request#url` without
 * parsing it again. `Request#url` is always a serialized, normalized absolute URL (both a fetch
 * Request and @hono/node-server's lightweight one parse it once), so the path is everything from
 * the first `/` after the authority up to `?` or `#`: exactly what `new URL(href).pathname` gives.
 */
export function pathnameOf(href: string): string {
  const [start, end] = pathBounds(href);
  return start === end ? '/' : href.slice(start, end);
}

/** The query with its `?` (empty when none), as `new URL(href).search` gives it. */
export function searchOf(href: string): string {
  const [, end] = pathBounds(href);
  if (href.charCodeAt(end) !== 63 /* '?' */) return '';
  const hash = href.indexOf('#', end);
  const search = href.slice(end, hash < 0 ? href.length : hash);
  return search === '?' ? '' : search;
}

/** A path without trailing slashes ('/' stays '/'). */
export function withoutTrailingSlashes(path: string): string {
  let end = path.length;
  while (end > 1 && path.charCodeAt(end - 1) === 47 /* '/' */) end -= 1;
  return end === path.length ? path : path.slice(0, end);
}

/** Where the path starts and ends in an href: from the first `/` after the authority to `?` or `#`. */
function pathBounds(href: string): [start: number, end: number] {
  const authority = href.indexOf('//');
  const start = href.indexOf('/', authority < 0 ? 0 : authority + 2);
  if (start < 0) return [href.length, href.length];
  for (let at = start; at < href.length; at += 1) {
    const code = href.charCodeAt(at);
    if (code === 63 /* '?' */ || code === 35 /* '#' */) return [start, at];
  }
  return [start, href.length];
}
