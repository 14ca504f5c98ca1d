import type { RequestContext } from './request-context.ts';

/**
 * One request header, as `request.headers.get(name)` answers it, read from the header record node
 * parsed when a server adapter handed it over in the context: @hono/node-server's lightweight
 * Request builds a full fetch `Headers` (validating every name and value) the first time anything
 * reads `request.headers`. Answers repeated values joined with
 * ", ", null when absent. `name` must be lower-case. (For the few headers node keeps only the first
 * of when repeated, such as Content-Type and Authorization, the first is what a server sees.)
 */
export function headerOf(request: Request, context: RequestContext, name: string): string | null {
  const native = context.nativeHeaders;
  if (native === undefined) return request.headers.get(name);
  const value = native[name];
  if (value === undefined) return null;
  return Array.isArray(value) ? value.join(', ') : value;
}
