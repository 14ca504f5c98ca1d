import { respond } from './respond.ts';

/** A JSON response. bigint values are written as JSON numbers (Solana amounts fit or are strings already). */
export function jsonResponse(body: unknown, init: { status?: number; headers?: Record<string, string> } = {}): Response {
  return jsonTextResponse(stringifyJson(body), init);
}

const JSON_HEADERS: Readonly<Record<string, string>> = { 'Content-Type': 'application/json; charset=utf-8' };

/** A JSON response from text that is JSON already (a body rendered once and served many times). */
export function jsonTextResponse(text: string, init: { status?: number; headers?: Record<string, string> } = {}): Response {
  return respond(text, {
    status: init.status ?? 200,
    headers: init.headers === undefined ? JSON_HEADERS : { ...JSON_HEADERS, ...init.headers },
  });
}

/** JSON.stringify, with a replacer for bigint only when the value holds one (a replacer slows every key). */
export function stringifyJson(body: unknown): string {
  try {
    return JSON.stringify(body);
  } catch (error) {
    // A TypeError is a bigint or a cycle; told apart by trying again with the replacer (a cycle throws again).
    if (!(error instanceof TypeError)) throw error;
    return JSON.stringify(body, (_key, value: unknown) => (typeof value === 'bigint' ? Number(value) : value));
  }
}
