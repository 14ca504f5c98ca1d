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

/** A base58 address path segment, or 400 INVALID_ADDRESS naming it. */
export function addressParam(context: LegacyContext, name: string): string {
  return parseAddress(context.params[name], name).toBase58();
}

/**
 * The record's reference: `reference`, else the older `referenceType|referenceId` pair (either alone
 * when only one is given), else null — as the legacy service combined them.
 */
export function referenceOf(body: { reference?: string; referenceId?: string; referenceType?: string }): string | null {
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
