import { createRequire } from 'node:module';

/**
 * Anchor's framework errors (100 to 5999: instruction, IDL, event, constraint, require, account
 * and misc errors), which no program's IDL lists, by code: `AccountNotInitialized` for 3012.
 * `@coral-xyz/anchor-errors` is Anchor's published copy of the table (`lang/src/error.rs`), one
 * `ANCHOR_ERROR__ACCOUNT_NOT_INITIALIZED = 3012` constant each; the name is Anchor's own variant,
 * spelled back from it (issue 45, item 13). Loaded on the first error it names: not at start
 * (its import measured ~10 ms of a cold start).
 */
export function anchorFrameworkErrorName(code: number): string | undefined {
  return (names ??= table()).get(code);
}

let names: ReadonlyMap<number, string> | undefined;

function table(): ReadonlyMap<number, string> {
  const found = new Map<number, string>();
  const constants = createRequire(import.meta.url)('@coral-xyz/anchor-errors') as Record<string, unknown>;
  for (const [constant, code] of Object.entries(constants)) {
    if (typeof code !== 'number' || !constant.startsWith(PREFIX)) continue;
    const words = constant.slice(PREFIX.length).toLowerCase().split('_');
    found.set(code, words.map((word) => word.charAt(0).toUpperCase() + word.slice(1)).join(''));
  }
  return found;
}

const PREFIX = 'ANCHOR_ERROR__';

/** Codes below this are Anchor's own; a program's IDL numbers its errors from here. */
export const ANCHOR_USER_ERROR_START = 6000;
