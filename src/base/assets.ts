import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * Where the package's own files are, found from this module's place rather than a fixed number of
 * `../`: from the sources it is src/base/assets.ts, and in a build (scripts/build.mjs bundles dist/)
 * it is inlined into an entry or a shared chunk, whose depth depends on which. The root is the first
 * folder up whose package.json is this package's; the code's root is the folder under it that holds
 * this module (src/, dist/, or the tests' .test-dist/).
 */
const { packageRoot, codeRoot, manifest } = findRoots(new URL('./', import.meta.url));

/** The package's folder: package.json, openapi/, fixtures/, assets/. */
export const PACKAGE_ROOT: URL = packageRoot;

/** The package's package.json, as read once. */
export const PACKAGE_MANIFEST: { readonly name: string; readonly version: string } = manifest;

/**
 * Files the emulator reads at run time, outside src/ and dist/, so the package finds them wherever it
 * is installed.
 */
export const ASSETS = {
  /** Redoc's standalone bundle (assets/redoc/README.md says where it comes from). */
  redocScript: new URL('assets/redoc/redoc.standalone.js', packageRoot),
  /** The web UI's page, scripts and styles (src/interfaces/ui reads them when first asked). */
  ui: new URL('assets/ui/', packageRoot),
} as const;

/**
 * The file of one of this package's modules that is loaded by its path (vitest's setup file, the
 * conformance checks required on first read): `src/<path>.ts` from the sources, `<build>/<path>.js`
 * from a build, which keeps such modules as entries at their place (scripts/build.mjs lists them).
 */
export function ownModuleFile(path: string): string {
  return fileURLToPath(new URL(`${path}${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, codeRoot));
}

function findRoots(start: URL): { packageRoot: URL; codeRoot: URL; manifest: { name: string; version: string } } {
  let below = start;
  for (let folder = start, depth = 0; depth < 8; depth += 1) {
    const file = new URL('package.json', folder);
    if (existsSync(file)) {
      const manifest = JSON.parse(readFileSync(file, 'utf8')) as { name: string; version: string };
      if (manifest.name === 'relay-emulator') return { packageRoot: folder, codeRoot: below, manifest };
    }
    below = folder;
    folder = new URL('../', folder);
  }
  throw new Error(`relay-emulator: its own package.json was not found above ${fileURLToPath(start)}`);
}
