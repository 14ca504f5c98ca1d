import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../test/support/cli-process.ts';
import { ensureDirectory, ensureDirectorySync } from './ensure-directory.ts';

const dir = mkdtempSync(join(tmpdir(), 'relay-emulator-dirs-'));

describe('ensureDirectory', () => {
  it('makes the missing folders, and is a no-op for one that exists', async () => {
    await ensureDirectory(join(dir, 'a/b/c'));
    expect(existsSync(join(dir, 'a/b/c'))).toBe(true);
    await ensureDirectory(join(dir, 'a/b/c'));
    ensureDirectorySync(join(dir, 'd/e'));
    expect(existsSync(join(dir, 'd/e'))).toBe(true);
  });

  it('refuses at once, naming the folder, under /proc (where recursive mkdir never returns) and under a file', async () => {
    await expect(ensureDirectory('/proc/nope/x')).rejects.toThrow('cannot make the folder /proc/nope (ENOENT)');
    expect(() => ensureDirectorySync('/proc/nope/x')).toThrow('cannot make the folder /proc/nope (ENOENT)');
    writeFileSync(join(dir, 'file'), '');
    await expect(ensureDirectory(join(dir, 'file/sub'))).rejects.toThrow(`cannot make the folder ${join(dir, 'file/sub')} (ENOTDIR)`);
  });

  it('gives `relay-emulator start --state-file /proc/nope/x.json` one line and exit code 1, where it used to spin', async () => {
    const refused = await runCli(['start', '--port', '0', '--state-file', '/proc/nope/x.json']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^relay-emulator: cannot .*\/proc\/nope\/x\.json: cannot make the folder \/proc\/nope \(ENOENT\)\n$/);
  });
});
