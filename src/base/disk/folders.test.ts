import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ensureDirectory, ensureDirectorySync } from './folders.ts';

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
});
