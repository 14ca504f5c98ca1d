import { respond } from '../../base/http/respond.ts';
import type { FetchHandler } from '../../base/http/exchange.ts';
import type { Call } from '../../base/http/router.ts';
import { compose } from '../../core/compose.ts';
import { createCall } from '../../core/create-fetch.ts';
import type { Middleware } from '../../core/room.ts';
import { parseJsonExact } from '../../base/codecs/json-exact.ts';
import { RelayError } from '../../base/errors/relay-error.ts';
import type { MethodTable, RpcContext } from './context.ts';
import type { RpcDeps } from './rpc-deps.ts';
import { JsonRpcError, RPC_ERROR } from './json-rpc-error.ts';
import { RPC_METHODS } from './method-table.ts';
import { stringifyRpc } from './rpc-json.ts';
import { VerifiedTokens } from './verified-tokens.ts';
import { headerOf } from '../../base/http/request-header.ts';
import { isJsonRpcId, type JsonRpcId } from '../../base/codecs/json-rpc-id.ts';
import { bearerToken } from '../../domain/auth/bearer.ts';
import { tokenRequired } from '../../domain/auth/rpc-auth.ts';

export interface RpcHandlerOptions {
  /** The methods answered. Default: {@link RPC_METHODS}. */
  methods: MethodTable;
}

type Id = JsonRpcId;
type Envelope = { jsonrpc: '2.0'; id: Id } & ({ result: unknown } | { error: ReturnType<JsonRpcError['toJSON']> });

/**
 * The Solana JSON-RPC 2.0 endpoint at `rpcUrl`, over the emulator's ledger, submissions and indexes.
 *
 * HTTP-level refusals are problem+json like the rest of the emulator (thrown as RelayError for the
 * core to render): 405 for anything but POST, 401 for a bearer Token that does not verify, or for
 * none where `config.rpcAuth` requires one (src/domain/auth/rpc-auth.ts), 413/415 for the body. Everything past that is JSON-RPC with HTTP 200:
 * -32700 for unparsable JSON, -32600 for a malformed request object, -32601 for unknown methods and
 * the method's own errors. Batches are answered in order; notifications (no `id`) get no answer.
 */
export function createRpcHandler(deps: RpcDeps, options: Partial<RpcHandlerOptions> = {}): FetchHandler {
  const run = compose(rpcMiddleware(deps), rpcAnswer(options));
  return (request, requestContext = {}) => run(createCall(request, requestContext, deps, deps.config.maxBodyBytes));
}

/**
 * The RPC's middleware, in order: POST only (405, with a word on PubSub for a WebSocket handshake
 * sent to a fetch mount), then the Token where `config.rpcAuth` asks for it (a Token that is sent
 * is always checked, but with `off`).
 */
export function rpcMiddleware(deps: RpcDeps): Middleware<RpcDeps>[] {
  const verified = new VerifiedTokens(deps.tokens, deps.now);
  const postOnly: Middleware<RpcDeps> = (call, next) => {
    const { request, requestContext } = call;
    if (request.method === 'POST') return next();
    const websocket = headerOf(request, requestContext, 'upgrade')?.toLowerCase() === 'websocket';
    const detail = websocket
      ? "PubSub (WebSocket) is not served through a fetch mount: connect to a listener (RpcUrl on the in-process loopback port, or the server's " +
        'port) with wsEndpoint ws://<host>:<port>/rpc?token=<Token>.'
      : `${request.method} is not allowed: the JSON-RPC endpoint accepts POST.`;
    throw new RelayError('METHOD_NOT_ALLOWED', detail, { headers: { Allow: 'POST' } });
  };
  const token: Middleware<RpcDeps> = (call, next) => {
    const mode = call.deps.config.rpcAuth;
    if (mode === 'off') return next();
    const authorization = headerOf(call.request, call.requestContext, 'authorization');
    if (bearerToken(authorization) === null && !tokenRequired(mode, call.requestContext.mount)) return next();
    return verified.require(authorization).then(next);
  };
  return [postOnly, token];
}

/** The JSON-RPC 2.0 answer to a POST that passed the middleware: one call, a batch, or a parse error. */
export function rpcAnswer(options: Partial<RpcHandlerOptions> = {}): (call: Call<RpcDeps>) => Promise<Response> {
  const methods = options.methods ?? RPC_METHODS;
  const contexts = new WeakMap<RpcDeps, RpcContext>();
  return async function rpc(call): Promise<Response> {
    // One context per call where methods ask who calls (the cheatcodes); else one per deps.
    let context = contexts.get(call.deps);
    if (!context) contexts.set(call.deps, (context = { deps: call.deps }));
    if (call.deps.extraMethods) context = { deps: call.deps, call };
    let body: unknown;
    try {
      body = await call.body();
    } catch (error) {
      if (error instanceof RelayError && error.code === 'MALFORMED_JSON') return reply(failure(null, new JsonRpcError(RPC_ERROR.PARSE_ERROR, 'Parse error')));
      throw error;
    }
    if (body === undefined) return reply(failure(null, new JsonRpcError(RPC_ERROR.PARSE_ERROR, 'Parse error')));
    // Integers past 2^53 read exactly (a u64 slot of 2^63 - 1 is echoed as sent), as serde_json reads them.
    if (call.vars.bodyText !== undefined && /\d{16}/.test(call.vars.bodyText)) body = parseJsonExact(call.vars.bodyText);
    if (!Array.isArray(body)) {
      const answer = await answerOne(body, methods, context);
      return answer === null ? respond(null, { status: 204 }) : reply(answer);
    }
    if (body.length === 0) return reply(failure(null, invalidRequest()));
    // Each answer is written as it comes; once the batch's answer passes MAX_BATCH_ANSWER_BYTES, the
    // calls left are not run and each is answered with an error (its id kept), so that no batch makes
    // the server build an answer it cannot hold (200 getLeaderSchedule calls made 580 MB).
    const parts: string[] = [];
    let bytes = 0;
    for (const each of body) {
      if (bytes > MAX_BATCH_ANSWER_BYTES) {
        if (isCallWithId(each)) parts.push(stringifyRpc(failure(idOf(each), batchTooLarge())));
        continue;
      }
      const answer = await answerOne(each, methods, context);
      if (answer === null) continue;
      const text = stringifyRpc(answer);
      bytes += text.length;
      parts.push(bytes > MAX_BATCH_ANSWER_BYTES ? stringifyRpc(failure(answer.id, batchTooLarge())) : text);
    }
    return parts.length === 0
      ? respond(null, { status: 204 })
      : respond(`[${parts.join(',')}]`, { status: 200, headers: { 'Content-Type': 'application/json; charset=utf-8' } });
  };
}

/**
 * What one batch may make the server write, in characters of JSON: 16 MiB, 256 times the request
 * cap (x-emulator-choice: Agave sets none; one getLeaderSchedule answer is 2.9 MB, getProgramAccounts
 * of a busy program a few MB).
 */
export const MAX_BATCH_ANSWER_BYTES = 16 * 1024 * 1024;

function batchTooLarge(): JsonRpcError {
  return new JsonRpcError(
    RPC_ERROR.INTERNAL_ERROR,
    `Batch answer too large: the batch's answers pass ${MAX_BATCH_ANSWER_BYTES} bytes at this call; send the calls from here in another request`,
  );
}

function isCallWithId(call: unknown): call is { id: Id } {
  return typeof call === 'object' && call !== null && !Array.isArray(call) && 'id' in call;
}

function idOf(call: { id: unknown }): Id {
  const { id } = call;
  return isJsonRpcId(id) ? id : null;
}

/** One request object → its response object, or null for a notification. */
async function answerOne(call: unknown, methods: MethodTable, context: RpcContext): Promise<Envelope | null> {
  if (typeof call !== 'object' || call === null || Array.isArray(call)) return failure(null, invalidRequest());
  const { jsonrpc, method } = call as Record<string, unknown>;
  // jsonrpc-core reads `"params": null` as no params, as a missing member: Rust's solana-client sends
  // it for every method without parameters (getVersion, getHealth, getSlot …). A string, a number or
  // a boolean is no Params and makes the request invalid.
  const params = (call as Record<string, unknown>).params ?? undefined;
  const hasId = 'id' in call;
  const id = (call as Record<string, unknown>).id;
  if (jsonrpc !== '2.0' || typeof method !== 'string' || (hasId && !isJsonRpcId(id)) || (params !== undefined && typeof params !== 'object')) {
    return failure(null, invalidRequest());
  }
  const handler = Object.hasOwn(methods, method) ? methods[method] : undefined;
  let answer: Envelope;
  if (!handler) {
    answer = failure(id as Id, new JsonRpcError(RPC_ERROR.METHOD_NOT_FOUND, 'Method not found'));
  } else {
    try {
      answer = { jsonrpc: '2.0', result: await handler(params, context), id: id as Id };
    } catch (error) {
      answer = failure(id as Id, asJsonRpcError(error));
    }
  }
  return hasId ? answer : null;
}

function asJsonRpcError(error: unknown): JsonRpcError {
  if (error instanceof JsonRpcError) return error;
  if (error instanceof RelayError) {
    // The queue is full (or another emulator-side refusal): say so, with the emulator's code.
    return new JsonRpcError(RPC_ERROR.INTERNAL_ERROR, `Internal error: ${error.message}`, { code: error.code });
  }
  console.error('relay-emulator: unexpected RPC error', error);
  return new JsonRpcError(RPC_ERROR.INTERNAL_ERROR, 'Internal error');
}

function invalidRequest(): JsonRpcError {
  return new JsonRpcError(RPC_ERROR.INVALID_REQUEST, 'Invalid request');
}

function failure(id: Id, error: JsonRpcError): Envelope {
  return { jsonrpc: '2.0', error: error.toJSON(), id };
}

function reply(body: Envelope | Envelope[]): Response {
  return respond(stringifyRpc(body), { status: 200, headers: { 'Content-Type': 'application/json; charset=utf-8' } });
}
