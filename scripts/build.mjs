#!/usr/bin/env node
/**
 * `npm run build`: src/ → dist/, as the published package ships it.
 *
 * The JavaScript is bundled by esbuild, one build for every entry with code splitting: each subpath
 * the package exports is a file at its place in dist/, the code two entries share is a chunk in
 * dist/chunks/ (so a class such as RelayError is one class whichever subpath a consumer imports it
 * through), and every `import()` stays a chunk loaded when first called. Dependencies are not
 * bundled: they resolve from node_modules as the consumer's app resolves them.
 *
 * Why a bundle (issue 46, BENCHMARKS.md "Node 20, 22 and 24"): Node's ES module loader pays per
 * module (resolve, read, compile, link), and one file per source file was ~270 modules on the start
 * path: 560 → 380 ms to import the package on Node 20. The bundle of issue 36 was slower because it
 * was one file with nothing lazy; this one splits at every `import()`.
 *
 * The declarations are still tsc's, one .d.ts per source file, at the places package.json names.
 *
 *   node scripts/build.mjs [--outdir DIR] [--no-declarations]
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const REPO = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const outdir = args.includes('--outdir') ? args[args.indexOf('--outdir') + 1] : 'dist';
if (!outdir || outdir.startsWith('-')) fail('--outdir needs a folder');
// The folder is emptied first: only a folder of its own directly inside the repository, never one
// that holds anything else of it (src/, the repository itself, a path outside it).
const target = resolve(REPO, outdir);
const KEPT = new Set(['src', 'test', 'bench', 'scripts', 'docs', 'fixtures', 'assets', 'openapi', 'bin', 'examples', 'node_modules', '.git', '.ci']);
// A file of the repository (package.json, README.md) is never a build folder either.
const isFile = statSync(target, { throwIfNoEntry: false })?.isDirectory() === false;
if (dirname(target) !== resolve(REPO) || KEPT.has(basename(target)) || isFile) {
  fail(`--outdir must be a build folder directly inside the repository (dist, .test-dist), not ${JSON.stringify(outdir)}`);
}
for (const unknown of args.filter((arg, at) => arg.startsWith('-') && arg !== '--outdir' && arg !== '--no-declarations' && args[at - 1] !== '--outdir')) {
  fail(`unknown option ${unknown} (node scripts/build.mjs [--outdir DIR] [--no-declarations])`);
}

function fail(message) {
  process.stderr.write(`build: ${message}\n`);
  process.exit(1);
}
const declarations = !args.includes('--no-declarations');

/** The package's exports (./dist/X.js ← src/X.ts), the command's entry, and the modules loaded by their path (src/base/assets.ts `ownModuleFile`). */
const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const exported = Object.values(manifest.exports)
  .map((target) => (typeof target === 'string' ? target : target.import))
  .filter((target) => target.startsWith('./dist/') && target.endsWith('.js'))
  .map((target) => `src/${target.slice('./dist/'.length, -'.js'.length)}.ts`);
const entryPoints = [...exported, 'src/adapters/cli/main.ts', 'src/vitest/sponsor-costs-setup.ts', 'src/conformance/checks/index.ts'];

rmSync(target, { recursive: true, force: true });
await build({
  absWorkingDir: REPO,
  entryPoints,
  outbase: 'src',
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20.19',
  packages: 'external',
  chunkNames: 'chunks/[name]-[hash]',
  logLevel: 'warning',
});
if (declarations) {
  execFileSync(process.execPath, [`${REPO}node_modules/typescript/bin/tsc`, '-p', 'tsconfig.build.json', '--outDir', outdir], {
    cwd: REPO,
    stdio: 'inherit',
  });
}
