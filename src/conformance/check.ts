import type { CheckLevel } from './types.ts';

/**
 * One clause of the contract. `run` resolves to pass (optionally with a note saying what was seen),
 * throws SkipCheck to skip with a reason, and throws anything else to fail with the error's message.
 */
export interface ConformanceCheck<Context = unknown> {
  id: string;
  /** Section of docs/relay-service-spec.md. */
  section: string;
  level: CheckLevel;
  /** Required for SHOULD checks: JSON pointer into openapi/relay.yaml of the x-emulator-choice checked. */
  choice?: string;
  title: string;
  /**
   * The interface checked, for a run's scope (`--interface`): default 'legacy' for ids starting
   * `legacy.`, 'kora' for `kora.`, else 'current'; 'any' for what every implementation answers (the emulator's own routes).
   */
  interface?: 'current' | 'legacy' | 'kora' | 'any';
  // biome-ignore lint/suspicious/noConfusingVoidType: a check with nothing to note just returns, and TypeScript types that as void.
  run(ctx: Context): Promise<string | void>;
}

/** The interface a check is of (see ConformanceCheck.interface). */
export function interfaceOfCheck(check: Pick<ConformanceCheck, 'id' | 'interface'>): 'current' | 'legacy' | 'kora' | 'any' {
  if (check.interface) return check.interface;
  return check.id.startsWith('legacy.') ? 'legacy' : check.id.startsWith('kora.') ? 'kora' : 'current';
}

export class SkipCheck extends Error {
  override name = 'SkipCheck';
}

export class CheckFailure extends Error {
  override name = 'CheckFailure';
}

export function skip(reason: string): never {
  throw new SkipCheck(reason);
}

export function fail(reason: string): never {
  throw new CheckFailure(reason);
}

export function ensure(condition: unknown, reason: string): asserts condition {
  if (!condition) throw new CheckFailure(reason);
}

/** A short, single-line rendering of a value for reasons. */
export function show(value: unknown, max = 160): string {
  let s: string;
  try {
    s = typeof value === 'string' ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value));
  } catch {
    s = String(value);
  }
  return s.length > max ? `${s.slice(0, max)}…` : s;
}

/** Does `id` match a selection of ids and prefixes ending in '.'? An empty or absent selection matches every id. */
export function isSelected(id: string, only: readonly string[] | undefined): boolean {
  if (!only || only.length === 0) return true;
  return only.some((s) => (s.endsWith('.') ? id.startsWith(s) : id === s));
}
