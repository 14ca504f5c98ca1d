/**
 * Every response the emulator makes is built here, complete at construction:
 * - with its CORS headers, so nothing has to copy a response later to add them (a copy turns
 *   @hono/node-server's fast path for string bodies into a streamed, chunked write);
 * - with its body text remembered, so the request journal never has to read a body back.
 */
export const CORS_RESPONSE_HEADERS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers': 'Retry-After, Allow, Location',
} as const;

/**
 * What respond() knows of each response it built, so nobody has to ask the response itself. Kept
 * on the response under a private symbol (a WeakMap entry per response costs more in garbage
 * collection than building the response).
 */
interface ResponseFacts {
  text: string | undefined;
  contentType: string | null;
}
const BUILT = Symbol('relay-emulator.response-facts');
type Carrier = { [BUILT]?: ResponseFacts };
const factsOf = (response: Response): ResponseFacts | undefined => (response as unknown as Carrier)[BUILT];

export interface RespondInit {
  status?: number;
  headers?: HeadersInit;
  /** Add the open CORS headers (default true; the control routes set their own, src/core/cors.ts). */
  cors?: boolean;
}

export function respond(body: string | Uint8Array<ArrayBuffer> | null, init: RespondInit = {}): Response {
  // A plain object, not a Headers instance: @hono/node-server writes those without conversion.
  // A literal, not a spread of CORS_RESPONSE_HEADERS: adding names to a spread copy is a slow path
  // (BENCHMARKS.md, "Measured reasons"). The Content-Type is noted as the names go in.
  const headers: Record<string, string> =
    init.cors === false
      ? {}
      : {
          'Access-Control-Allow-Origin': CORS_RESPONSE_HEADERS['Access-Control-Allow-Origin'],
          'Access-Control-Expose-Headers': CORS_RESPONSE_HEADERS['Access-Control-Expose-Headers'],
        };
  let contentType: string | null = null;
  const given = init.headers;
  if (given instanceof Headers) {
    given.forEach((value, name) => {
      headers[name] = value;
      if (isContentType(name)) contentType = value;
    });
  } else if (Array.isArray(given)) {
    for (const [name, value] of given) {
      headers[name!] = value!;
      if (isContentType(name!)) contentType = value!;
    }
  } else if (given !== undefined) {
    for (const name in given) {
      const value = (given as Record<string, string>)[name]!;
      headers[name] = value;
      if (isContentType(name)) contentType = value;
    }
  }
  const response = new Response(body, { status: init.status ?? 200, headers });
  (response as unknown as Carrier)[BUILT] = { text: typeof body === 'string' ? body : undefined, contentType };
  return response;
}

/** True for responses made by {@link respond}: they carry their CORS headers already. */
export function isCompleteResponse(response: Response): boolean {
  return factsOf(response) !== undefined;
}

/** The text a response was built with, when it was built by {@link respond}. */
export function responseTextOf(response: Response): string | undefined {
  return factsOf(response)?.text;
}

/**
 * A response's Content-Type. Asked of a response built by {@link respond} it is known already;
 * reading `headers` of @hono/node-server's lightweight Response would build a fetch Headers and
 * cost the server its fast path.
 */
export function contentTypeOf(response: Response): string | null {
  const facts = factsOf(response);
  return facts !== undefined ? facts.contentType : response.headers.get('content-type');
}

function isContentType(name: string): boolean {
  return name.length === 12 && name.toLowerCase() === 'content-type';
}
