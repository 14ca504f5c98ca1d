import { RelayError } from '../../errors/relay-error.ts';
import type { Route, RouteContext } from '../../http/router.ts';
import { parseAddress } from '../../http/address.ts';
import type { EmulatorServices } from '../../services.ts';
import type { LegacyApp } from '../../legacy/legacy-apps.ts';
import type { LegacyService } from '../../legacy/legacy-service.ts';

export type LegacyRoute = Route<EmulatorServices>;
export type LegacyContext = RouteContext<EmulatorServices>;

/** `{index}` path segments are integers (NestJS ParseIntPipe's message otherwise). */
export function indexParam(context: LegacyContext): number {
  const raw = context.params.index ?? '';
  if (!/^\d+$/.test(raw)) {
    throw new RelayError('VALIDATION_FAILED', 'Validation failed (numeric string is expected)', { errors: [{ path: 'index', message: 'must be an integer' }] });
  }
  return Number(raw);
}

/** The app named by the `{environment}/{index}` path segments, or 404. */
export function appOf(context: LegacyContext): { legacy: LegacyService; app: LegacyApp } {
  const { legacy } = context.services;
  return { legacy, app: legacy.apps.get(context.params.environment ?? '', indexParam(context)) };
}

/**
 * Validates the `?commitment=` of a legacy read (Kinetic SDKs send it; the one ledger state answers
 * every level): 400 for a value outside the Commitment enum.
 */
export function checkReadCommitment(context: LegacyContext, operationId: LegacyReadOperation): void {
  context.services.binder.query(operationId, context.url.searchParams);
}

/** The legacy reads that take `?commitment=`. */
export type LegacyReadOperation = 'legacyBalance' | 'legacyHistory' | 'legacyAccountInfo' | 'legacyAccountInfoDefaultMint' | 'legacyTokenAccounts' | 'legacyGetTransaction';

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
 * account/close): the legacy route claims a JSON object body with an `environment` key.
 */
export async function hasEnvironment(context: LegacyContext): Promise<boolean> {
  try {
    const body = await context.body();
    return typeof body === 'object' && body !== null && !Array.isArray(body) && Object.keys(body).some((key) => key.toLowerCase() === 'environment');
  } catch {
    // Unreadable bodies are the current route's to refuse (it owns the path's problem+json errors).
    return false;
  }
}
