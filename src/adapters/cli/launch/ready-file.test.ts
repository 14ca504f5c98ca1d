import { existsSync, lstatSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isInternalError } from '../../../base/errors/internal-error.ts';
import type { ReadyFacts } from './ready.ts';
import { ReadyFile } from './ready-file.ts';

const facts: ReadyFacts = {
  origin: 'http://127.0.0.1:1',
  baseUrl: 'http://127.0.0.1:1/api',
  rpcUrl: 'http://127.0.0.1:1/rpc',
  pubsubUrl: 'ws://127.0.0.1:2/rpc',
  docsUrl: 'http://127.0.0.1:1/docs',
  koraUrl: 'http://127.0.0.1:1/kora',
  apiKey: 'k',
  feePayer: 'f',
  rpcAuth: 'remote',
  adminToken: null,
  pid: 1,
  warnings: [],
};

/** Issue 45, item 1: the ready file is written and removed only when it is the emulator's own. */
describe('ReadyFile', () => {
  const dir = mkdtempSync(join(tmpdir(), 'relay-emulator-ready-file-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('takes an empty file or an earlier run’s ready file, and removes only the file it wrote', () => {
    const empty = join(dir, 'mktemp');
    writeFileSync(empty, '');
    const file = ReadyFile.claim(empty);
    file.write(facts);
    expect(JSON.parse(readFileSync(empty, 'utf8'))).toEqual(facts);
    file.remove();
    expect(existsSync(empty)).toBe(false);

    const stale = join(dir, 'stale.json');
    writeFileSync(stale, JSON.stringify({ ...facts, pid: 999_999 }));
    const again = ReadyFile.claim(stale);
    // A stale one never announces this run: it is gone once claimed.
    expect(existsSync(stale)).toBe(false);
    again.write(facts);
    // Something else put at the path meanwhile is not the emulator's to remove.
    rmSync(stale);
    writeFileSync(stale, 'theirs');
    again.remove();
    expect(readFileSync(stale, 'utf8')).toBe('theirs');
  });

  it('refuses a file with other content, and leaves it', () => {
    const json = join(dir, 'package.json');
    writeFileSync(json, '{"name":"x"}');
    let thrown: unknown;
    try {
      ReadyFile.claim(json);
    } catch (error) {
      thrown = error;
    }
    expect(isInternalError(thrown, 'READY_FILE_REFUSED')).toBe(true);
    expect(readFileSync(json, 'utf8')).toBe('{"name":"x"}');
  });

  it('never writes through a link planted where its temporary file or the file goes', () => {
    const target = join(dir, 'target.txt');
    writeFileSync(target, 'keep');
    const path = join(dir, 'planted.json');
    const file = ReadyFile.claim(path);
    // The temporary name is not guessable (pid and random bytes), and is made exclusively: a link at the old name is never touched.
    symlinkSync(target, `${path}.${process.pid}.tmp`);
    file.write(facts);
    expect(readFileSync(target, 'utf8')).toBe('keep');
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual(facts);
    // A link put at PATH during the run is not written through, nor replaced.
    rmSync(path);
    symlinkSync(target, path);
    expect(() => file.write(facts)).toThrow(/it is a symbolic link \(to .*target\.txt\), not a ready file/);
    expect(readFileSync(target, 'utf8')).toBe('keep');
    expect(lstatSync(path).isSymbolicLink()).toBe(true);
  });
});
