import { createRequire } from 'node:module';
import type { z as Zod } from 'zod';

// zod costs ~75 ms to load on Node 20 (zod 4: about a hundred modules), and the emulator needs it
// only to check a state file being restored and an apps file the fast check in
// interfaces/legacy/apps-file.ts does not vouch for: neither is on the start path of a default
// emulator (issue 46). Its schemas are built over this, on first use. A synchronous require, since
// the restores are synchronous; zod ships a CommonJS build for it.

let loaded: typeof Zod | undefined;

/** zod's `z`, loaded on the first call. */
export function zod(): typeof Zod {
  return (loaded ??= (createRequire(import.meta.url)('zod') as typeof import('zod')).z);
}

/** A value built on its first use (a schema over `zod()`), then kept. */
export function once<T>(build: () => T): () => T {
  let value: { built: T } | undefined;
  return () => (value ??= { built: build() }).built;
}
