import { createHmac, timingSafeEqual } from 'node:crypto';
import { readCapped } from '../../base/http/read-capped.ts';
import type { RequestContext } from '../../base/http/request-context.ts';
import { headerOf } from '../../base/http/request-header.ts';
import { KORA_METHOD_KEYS, type KoraMethodName } from './kora-config.ts';
import type { Call } from '../../base/http/router.ts';
import type { Middleware } from '../../core/room.ts';
import type { KoraContext, KoraDeps } from './kora-context.ts';
import { KORA_CALL_FAILED, KoraError } from './kora-error.ts';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../../base/codecs/json-shape.ts';
import { isJsonRpcId, type JsonRpcId } from '../../base/codecs/json-rpc-id.ts';

type Id = JsonRpcId;

/** A Kora call past the first middleware: its body's text, its object and its (enabled) method. */
interface KoraCall {
  text: string;
  object: { id?: Id; method?: unknown; params?: unknown };
  method: KoraMethodName;
}

/**
 * Kora's JSON-RPC endpoint, as Kora 2.0.5's server answers (crates/lib/src/rpc_server/server.rs),
 * its middleware in its order:
 * - `GET …/liveness` is the `liveness` method;
 * - a body whose `method` is not an enabled method (or no JSON at all): HTTP 405, empty body;
 * - with `kora.auth.api_key`, a missing or wrong `x-api-key`: HTTP 401, empty body; with
 *   `kora.auth.hmac_secret`, `x-timestamp` within `max_timestamp_age` seconds of the wall clock and
 *   `x-hmac-signature` = hex HMAC-SHA256(secret, timestamp + body), else 401 (liveness needs neither);
 * - jsonrpsee's own: a body not sent as `application/json`: HTTP 415, in plain text;
 * - then JSON-RPC 2.0 ({@link koraAnswer}): a method's failure is a call error, code -32000 with Kora's message.
 * The per-second `rate_limit` (tower's RateLimitLayer delays, never refuses) is not applied.
 * What refused goes to the journals and the web UI in the request's store (`vars.refusal`), never on Kora's wire.
 */
export function koraMiddleware(context: KoraContext): Middleware<KoraDeps>[] {
  const { kora } = context.config;
  const enabled = new Set((Object.keys(KORA_METHOD_KEYS) as KoraMethodName[]).filter((name) => kora.enabled_methods[KORA_METHOD_KEYS[name]]));
  const methodGate: Middleware<KoraDeps> = async (call, next) => {
    const { request, requestContext, vars } = call;
    // The room hands over a GET only for /liveness (kora-room.ts).
    if (request.method === 'GET') return enabled.has('liveness') ? reply(1, null) : empty(405);
    if (request.method !== 'POST') return empty(405);
    const bytes = requestContext.body ?? (request.body ? await readCapped(request.body, kora.max_request_body_size) : new Uint8Array());
    if (bytes === null || bytes.length > kora.max_request_body_size) return empty(413);
    const text = Buffer.from(bytes).toString('utf8');
    // The body is read here, not by the core: the journal and the live feed take its text from the store.
    vars.bodyText = text;
    const object = parseCall(text);
    const method = typeof object?.method === 'string' ? (object.method as KoraMethodName) : null;
    if (object === null || method === null) return empty(405);
    if (!enabled.has(method)) {
      vars.refusal = { code: 'MethodNotAllowed', rule: 'kora.enabled_methods' };
      return empty(405);
    }
    calls.set(call, { text, object, method });
    return next();
  };
  const auth: Middleware<KoraDeps> = (call, next) => {
    const { method, text } = calls.get(call)!;
    if (method !== 'liveness' && !authorized(call.request, call.requestContext, text, context)) {
      call.vars.refusal = { code: 'Unauthorized', rule: 'kora.auth' };
      return Promise.resolve(empty(401));
    }
    return next();
  };
  // Then jsonrpsee 0.16's own check (transport/http.rs `is_json`): a JSON body sent as anything else is 415.
  const contentType: Middleware<KoraDeps> = (call, next) => {
    if (JSON_CONTENT_TYPES.has((headerOf(call.request, call.requestContext, 'content-type') ?? '').toLowerCase())) return next();
    call.vars.refusal = { code: 'UnsupportedContentType', rule: null };
    return Promise.resolve(
      new Response(UNSUPPORTED_CONTENT_TYPE, {
        status: 415,
        headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Access-Control-Allow-Origin': '*' },
      }),
    );
  };
  return [methodGate, auth, contentType];
}

/** The calls the middleware let through, by request: what {@link koraAnswer} runs. */
const calls = new WeakMap<Call<KoraDeps>, KoraCall>();

/** Runs the method of a call the middleware let through, and answers it as JSON-RPC 2.0. */
export function koraAnswer(context: KoraContext): (call: Call<KoraDeps>) => Promise<Response> {
  return async (call) => {
    const { object, method } = calls.get(call)!;
    // The RPC's rule (issue 45, item 10): an id that is no string, number or null is no id to echo.
    if ('id' in object && !isJsonRpcId(object.id)) {
      call.vars.refusal = { code: 'InvalidRequest', rule: null };
      return failure(null, -32600, 'Invalid request');
    }
    const id = object.id ?? null;
    const params = koraParams(method, object.params);
    if (params === null) return failure(id, -32602, 'Invalid params');
    try {
      const { KORA_METHODS } = await koraMethods();
      return reply(id, await KORA_METHODS[method](params, context));
    } catch (error) {
      if (!(error instanceof KoraError)) throw error;
      call.vars.refusal = { code: error.kind, rule: error.rule };
      return failure(id, KORA_CALL_FAILED, error.message);
    }
  };
}

/**
 * Each method's request fields in Kora 2.0.5's declaration order (crates/lib/src/rpc_server/method/*.rs):
 * jsonrpsee's `params.parse()` is serde_json's, which fills a struct from an array by position.
 */
const REQUEST_FIELDS: Record<KoraMethodName, readonly string[] | 'none'> = {
  liveness: 'none',
  getConfig: 'none',
  getPayerSigner: 'none',
  getSupportedTokens: 'none',
  getBlockhash: 'none',
  estimateTransactionFee: ['transaction', 'fee_token', 'signer_key', 'sig_verify'],
  signTransaction: ['transaction', 'signer_key', 'sig_verify'],
  signAndSendTransaction: ['transaction', 'signer_key', 'sig_verify'],
  transferTransaction: ['amount', 'token', 'source', 'destination', 'signer_key'],
};

/**
 * A call's params as its method reads them, or null for -32602 (issue 53 item 16). Kora 2.0
 * registers liveness, getConfig, getPayerSigner, getSupportedTokens and getBlockhash without reading
 * their params (`_rpc_params` in server.rs): whatever is sent, `[]` included, is answered. The others
 * parse theirs into their request struct: an object by name, an array by position (its fields in
 * order; missing trailing ones take their defaults, more elements than fields are refused), and
 * anything else is Invalid params.
 */
function koraParams(method: KoraMethodName, params: unknown): Record<string, unknown> | null {
  const fields = REQUEST_FIELDS[method];
  if (fields === 'none') return {};
  if (params === undefined || params === null) return {};
  if (Array.isArray(params)) {
    if (params.length > fields.length) return null;
    return Object.fromEntries(params.map((value, index) => [fields[index]!, value]));
  }
  return typeof params === 'object' ? (params as Record<string, unknown>) : null;
}

/**
 * Kora's methods, loaded with the first call: they bring Kora's fee, price and Token-2022 rules
 * (spl-token's extension layouts among them), which an emulator nobody calls Kora on never needs.
 */
function koraMethods(): Promise<typeof import('./kora-methods.ts')> {
  return (methods ??= import('./kora-methods.ts'));
}
let methods: Promise<typeof import('./kora-methods.ts')> | undefined;

/** What jsonrpsee 0.16 takes for JSON, compared case-insensitively, and its answer to anything else. */
const JSON_CONTENT_TYPES: ReadonlySet<string> = new Set(['application/json', 'application/json; charset=utf-8', 'application/json;charset=utf-8']);
const UNSUPPORTED_CONTENT_TYPE = 'Supplied content type is not allowed. Content-Type: application/json is required\n';

/** The call's object, or null when the body is not a JSON object (no method to allow). */
function parseCall(text: string): { id?: Id; method?: unknown; params?: unknown } | null {
  // serde_json stops at its recursion limit; JSON.parse would build whatever it is given.
  if (nestsDeeperThan(text, MAX_JSON_DEPTH)) return null;
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as { id?: Id; method?: unknown; params?: unknown }) : null;
  } catch {
    return null;
  }
}

function authorized(request: Request, requestContext: RequestContext, body: string, { config }: KoraContext): boolean {
  const { api_key: apiKey, hmac_secret: secret, max_timestamp_age: maxAge } = config.kora.auth;
  if (apiKey !== null && !same(headerOf(request, requestContext, 'x-api-key'), apiKey)) return false;
  if (secret === null) return true;
  const timestamp = headerOf(request, requestContext, 'x-timestamp');
  const signature = headerOf(request, requestContext, 'x-hmac-signature');
  if (timestamp === null || signature === null || !/^-?\d+$/.test(timestamp)) return false;
  // The SDK signs with the wall clock (Date.now()), whatever the ledger's clock says.
  if (Math.abs(Math.floor(Date.now() / 1000) - Number(timestamp)) > maxAge) return false;
  return same(
    signature,
    createHmac('sha256', secret)
      .update(timestamp + body)
      .digest('hex'),
  );
}

function same(given: string | null, expected: string): boolean {
  if (given === null) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

function empty(status: number): Response {
  return new Response(null, { status, headers: { 'Access-Control-Allow-Origin': '*' } });
}

function reply(id: Id, result: unknown): Response {
  return Response.json({ jsonrpc: '2.0', result, id }, { headers: { 'Access-Control-Allow-Origin': '*' } });
}

function failure(id: Id, code: number, message: string): Response {
  return Response.json({ jsonrpc: '2.0', error: { code, message }, id }, { headers: { 'Access-Control-Allow-Origin': '*' } });
}
