/**
 * Every response the emulator makes is built here, complete at construction:
 * - with its CORS headers, so nothing has to copy a response later to add them (a copy turns
 *   @hono/node-server's fast path for string bodies into a streamed, chunked write);
 * - with its body text remembered, so the request journal never has to read a body back.
 */
export const CORS_RESPONSE_HEADERS: Readonly<Record<string, string>> = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers': 'Retry-After, Allow, Location',
};

const responseTexts = new WeakMap<Response, string>();
const builtHere = new WeakSet<Response>();
const requestTexts = new WeakMap<Request, string>();

export interface RespondInit {
  status?: number;
  headers?: HeadersInit;
}

export function respond(body: string | Uint8Array<ArrayBuffer> | null, init: RespondInit = {}): Response {
  // A plain object, not a Headers instance: @hono/node-server writes those without conversion.
  const headers: Record<string, string> = { ...CORS_RESPONSE_HEADERS };
  if (init.headers instanceof Headers) init.headers.forEach((value, name) => (headers[name] = value));
  else if (Array.isArray(init.headers)) for (const [name, value] of init.headers) headers[name!] = value!;
  else Object.assign(headers, init.headers);
  const response = new Response(body, { status: init.status ?? 200, headers });
  if (typeof body === 'string') responseTexts.set(response, body);
  builtHere.add(response);
  return response;
}

/** True for responses made by {@link respond}: they carry their CORS headers already. */
export function isCompleteResponse(response: Response): boolean {
  return builtHere.has(response);
}

/** The text a response was built with, when it was built by {@link respond}. */
export function responseTextOf(response: Response): string | undefined {
  return responseTexts.get(response);
}

/** Remembers the text of a request body the core read, for the journal. */
export function rememberRequestText(request: Request, text: string): void {
  requestTexts.set(request, text);
}

export function requestTextOf(request: Request): string | undefined {
  return requestTexts.get(request);
}
