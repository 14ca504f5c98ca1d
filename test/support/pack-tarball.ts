import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The package as `npm pack` makes it (its prepack builds dist/), for the tests that install it as a user does. */
    packedTarball: string;
  }
}

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const state = globalThis as { relayEmulatorPacked?: Promise<string> };

/**
 * Vitest global setup of the package project: packs the package once per run, before any test
 * file starts, into a folder of its own. Tests that install the tarball share it; packing inside
 * them would rebuild dist/ while another test's `npm pack` (test/package/package.test.ts runs the
 * README's own line) rebuilds it too.
 */
export default async function setup(project: TestProject): Promise<void> {
  state.relayEmulatorPacked ??= pack();
  project.provide('packedTarball', await state.relayEmulatorPacked);
}

async function pack(): Promise<string> {
  const destination = mkdtempSync(join(tmpdir(), 'relay-emulator-packed-'));
  await promisify(execFile)('npm', ['pack', '--pack-destination', destination, '--silent', '--no-audit', '--no-fund'], { cwd: REPO, maxBuffer: 16 << 20 });
  const { version } = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string };
  return join(destination, `relay-emulator-${version}.tgz`);
}
