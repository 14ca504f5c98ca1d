import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { resolvedExecArgv } from './shims-command.ts';

const MAIN = fileURLToPath(new URL('../main.ts', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'relay-emulator-shims-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('relay-emulator shims', () => {
  it('names a module a node flag loads by its file, so that the shim runs from any folder', () => {
    expect(resolvedExecArgv(['--import', 'tsx', '--no-warnings', '--import', './local.mjs'])).toEqual([
      '--import',
      expect.stringMatching(/^file:\/\/.*\/node_modules\/tsx\/dist\/loader\.mjs$/),
      '--no-warnings',
      '--import',
      './local.mjs',
    ]);
  });

  it('writes shims (under tsx, as npm start runs) that start from a folder with no tsx in reach', () => {
    const shims = join(dir, 'shims');
    const said = execFileSync(process.execPath, ['--import', 'tsx', MAIN, 'shims', shims], {
      cwd: fileURLToPath(new URL('../../../..', import.meta.url)),
      encoding: 'utf8',
    });
    // An absolute folder is named as it is (it was PATH=$PWD//abs/dir, no folder at all: issue 52).
    expect(said).toMatch(new RegExp(`: put their folder first on PATH \\(PATH=${shims.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:\\$PATH\\)\n$`));
    expect(readFileSync(join(shims, 'solana-test-validator'), 'utf8')).toMatch(/'--import' 'file:\/\/[^']*tsx[^']*'/);
    // Run from a folder where a bare `tsx` cannot be resolved: the shim still starts the command.
    const version = execFileSync(join(shims, 'solana-test-validator'), ['--version'], { cwd: tmpdir(), encoding: 'utf8' });
    expect(version).toMatch(/^solana-test-validator 4\.1\.0 /);
  });
});
