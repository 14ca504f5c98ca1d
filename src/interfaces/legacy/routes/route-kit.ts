import { RelayError } from '../../../base/errors/relay-error.ts';
import type { RouteContext } from '../../../base/http/router.ts';
import { parseAddress } from '../../../base/http/address.ts';
import { operationsById, requestBodySchema, resolveRef, schemaProperties, type JsonSchema } from '../../../domain/openapi/document.ts';
import { isSolanaSignature } from '../../../domain/openapi/formats.ts';
import type { LegacyDeps } from '../legacy-deps.ts';
import type { LegacyApp } from '../legacy-apps.ts';
import type { LegacyService } from '../legacy-service.ts';
import { InternalError } from '../../../base/errors/internal-error.ts';

export type LegacyContext = RouteContext<LegacyDeps>;

/** `{index}` path segments are integers, negative ones included, as NestJS's ParseIntPipe takes them (its message otherwise). */
function indexParam(context: LegacyContext): number {
  const raw = context.params.index ?? '';
  if (!/^-?\d+$/.test(raw)) {
    throw new RelayError('VALIDATION_FAILED', 'Validation failed (numeric string is expected)', { errors: [{ path: 'index', message: 'must be an integer' }] });
  }
  return Number(raw);
}

/** The app named by the `{environment}/{index}` path segments, or 404. */
export function appOf(context: LegacyContext): { legacy: LegacyService; app: LegacyApp } {
  const { legacy } = context.deps;
  return { legacy, app: legacy.apps.get(context.params.environment ?? '', indexParam(context)) };
}

/** A base58 transaction signature path segment (64 bytes), or 400 VALIDATION_FAILED naming it: never echoed unchecked. */
export function signatureParam(context: LegacyContext, name: string): string {
  const raw = context.params[name] ?? '';
  if (!isSolanaSignature(raw)) {
    throw new RelayError('VALIDATION_FAILED', `${name} is not a base58 transaction signature.`, {
      errors: [{ path: name, message: 'must be a base58 signature (64 bytes)' }],
    });
  }
  return raw;
}

/**
 * Validates the `?commitment=` of a legacy read (Kinetic SDKs send it; the one ledger state answers
 * every level): 400 for a value outside the Commitment enum.
 */
export function checkReadCommitment(context: LegacyContext, operationId: LegacyReadOperation): void {
  context.deps.binder.query(operationId, context.url.searchParams);
}

/** The legacy reads that take `?commitment=`. */
export type LegacyReadOperation =
  | 'legacyBalance'
  | 'legacyHistory'
  | 'legacyAccountInfo'
  | 'legacyAccountInfoDefaultMint'
  | 'legacyTokenAccounts'
  | 'legacyGetTransaction';

/** A base58 address path segment, or 400 INVALID_ADDRESS naming it. */
export function addressParam(context: LegacyContext, name: string): string {
  return parseAddress(context.params[name], name).toBase58();
}

/** The reference fields of a legacy body or listing; each may be absent, null (Kinetic SDKs send null for "none") or empty. */
export interface ReferenceFields {
  reference?: string | null;
  referenceId?: string | null;
  referenceType?: string | null;
}

/**
 * The record's reference: `reference`, else the older `referenceType|referenceId` pair (either alone
 * when only one is given), else null — as the legacy service combined them. Null and empty count as absent.
 */
export function referenceOf(body: ReferenceFields): string | null {
  if (body.reference) return body.reference;
  const { referenceType: type, referenceId: id } = body;
  if (type && id) return `${type}|${id}`;
  return type || id || null;
}

/**
 * The guard of the two legacy routes that share a path with current ones (account/create and
 * account/close), which the body decides: the legacy operation claims a JSON object body that
 * carries `environment`, or carries fields of its own body and none of the current operation's
 * (`signedTransaction`, in any case or alias). So a legacy client that forgot `environment` gets
 * the legacy error body it expects, and an empty or unreadable body stays the current route's.
 */
export function claimsLegacyBody(legacyOperationId: string, currentOperationId: string): (context: LegacyContext) => Promise<boolean> {
  // Read from the contract on the first request the guard sees, not when the routes are defined:
  // parsing openapi/relay.yaml is most of a cold start's own work (BENCHMARKS.md).
  let bodyKeys: { legacyKeys: Set<string>; currentKeys: Set<string> } | undefined;
  return async (context) => {
    bodyKeys ??= { legacyKeys: bodyKeysOf(legacyOperationId), currentKeys: bodyKeysOf(currentOperationId) };
    const { legacyKeys, currentKeys } = bodyKeys;
    let body: unknown;
    try {
      body = await context.body();
    } catch {
      // Unreadable bodies are the current route's to refuse (it owns the path's problem+json errors).
      return false;
    }
    // None: the current route's. JSON that is no object (an array, null, a scalar) carries fields of
    // neither body: the interface whose credential the request carries refuses it (issue 24.8).
    if (body === undefined) return false;
    if (typeof body !== 'object' || body === null || Array.isArray(body)) return !context.request.headers.has('x-api-key');
    const keys = Object.keys(body).map((key) => key.toLowerCase());
    if (keys.includes('environment')) return true;
    return keys.some((key) => legacyKeys.has(key)) && !keys.some((key) => currentKeys.has(key));
  };
}

/** The lower-cased property names (and their `x-aliases`) of an operation's JSON body in the contract. */
function bodyKeysOf(operationId: string): Set<string> {
  const found = operationsById().get(operationId);
  if (!found) throw new InternalError('CONTRACT_MISMATCH', { operationId, problem: 'no such operation in openapi/relay.yaml' });
  const names = new Set<string>();
  for (const [name, property] of Object.entries(schemaProperties(requestBodySchema(found.operation)))) {
    names.add(name.toLowerCase());
    const aliases = resolveRef<JsonSchema>(property)['x-aliases'] ?? property['x-aliases'];
    if (Array.isArray(aliases)) for (const alias of aliases) names.add(String(alias).toLowerCase());
  }
  return names;
}
