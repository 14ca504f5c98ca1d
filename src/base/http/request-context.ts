import type { IncomingHttpHeaders } from 'node:http';
import type { ProblemCode } from '../errors/problem-codes.ts';
import type { RuleId } from '../errors/rule-ids.ts';
import type { ServerMount } from './server-mount-type.ts';

/** The interface a request was answered by; also decides a refusal's body (legacy: NestJS's, else problem+json). */
export type InterfaceName = 'current' | 'legacy' | 'rpc' | 'kora' | 'emulator' | 'meta';

/** The interfaces whose routes a router holds (the RPC and Kora are endpoints, matched by URL). */
export type Api = 'current' | 'legacy' | 'emulator' | 'meta';

/**
 * What the adapter knows about a request beside the Request itself, handed along as the second
 * argument of every fetch (as hono's `fetch(request, env)`): a server adapter fills what node
 * already parsed; in process there is nothing. Read-only from there on: what the core and the
 * middleware learn goes in the request's {@link RequestVars}.
 */
export interface RequestContext {
  /** The peer's address, when a server adapter knows it (src/base/http/client-address.ts). */
  readonly socketAddress?: string;
  /** The listener the request came in through (src/base/http/server-mount.ts); absent in process. */
  readonly mount?: ServerMount;
  /** The header record node parsed (src/base/http/request-header.ts). */
  readonly nativeHeaders?: IncomingHttpHeaders;
  /** The body a server adapter read from the socket (src/base/http/buffered-bodies.ts). */
  readonly body?: Uint8Array;
}

/** A refusal of the emulator's error registry: its problem code and, for the fee-payer policy, its rule. */
export interface ProblemRecord {
  code: ProblemCode;
  rule: RuleId | null;
}

/** A refusal an interface answers in its own words (Kora's JSON-RPC): its kind and what refused (a kora.toml key). */
export interface InterfaceRefusal {
  code: string;
  rule: string | null;
}

/**
 * The per-request store the core and the middleware write and the exchange's observers read (as
 * hono's `c.var`): one small object per request, made by the core, each field with one writer.
 */
export interface RequestVars {
  /** The interface that answered (the core, when it routes; CORS, when it refuses a control request); null when none matched. */
  api: InterfaceName | null;
  /** The operationId of the route or endpoint call that answered (the core); null when none matched. */
  operationId: string | null;
  /** A refusal thrown as a RelayError (the core, CORS). */
  problem: ProblemRecord | null;
  /** A refusal the interface answered itself, in its own words (Kora's handler). */
  refusal: InterfaceRefusal | null;
  /** The body's text, once read (readJsonBody, Kora's handler), for the journal and the live feed. */
  bodyText: string | undefined;
}

/** A request's store before anything is learned. */
export function freshVars(): RequestVars {
  return { api: null, operationId: null, problem: null, refusal: null, bodyText: undefined };
}
