import type { IncomingHttpHeaders } from 'node:http';
import { knownRequestFacts, requestFacts } from './request-facts.ts';

/**
 * Request headers as a server adapter already parsed them. @hono/node-server's lightweight
 * Request builds a full fetch `Headers` (validating every name and value) the first time anything
 * reads `request.headers`; node has parsed the same headers into a plain record already. The node
 * server hands that record over here, and the core reads headers through {@link headerOf}.
 */
export function rememberNativeHeaders(request: Request, headers: IncomingHttpHeaders): void {
  requestFacts(request).nativeHeaders = headers;
}

/**
 * One request header, as `request.headers.get(name)` answers it: repeated values joined with
 * ", ", null when absent. `name` must be lower-case. (For the few headers node keeps only the first
 * of when repeated, such as Content-Type and Authorization, the first is what a server sees.)
 */
export function headerOf(request: Request, name: string): string | null {
  const native = knownRequestFacts(request)?.nativeHeaders;
  if (native === undefined) return request.headers.get(name);
  const value = native[name];
  if (value === undefined) return null;
  return Array.isArray(value) ? value.join(', ') : value;
}
