import { execFileSync } from 'node:child_process';
import { lstatSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli-process.ts';

/**
 * Issue 34, item 3: every refusal at start is one line on stderr, no stack, exit code 1 (2 for a
 * usage error), and the stack only with --log-level debug. One bad input of each kind.
 */
describe('relay-emulator start refuses bad input in one line', () => {
  const dir = mkdtempSync(join(tmpdir(), 'relay-emulator-refusals-'));
  const file = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };
  const noKoraValidation = file('kora.toml', '[kora]\nrate_limit = 100\n');
  const badSigners = file('signers.toml', 'not toml [[[');
  const damagedState = file('state.json', '{"version":');
  const notASnapshot = file('import.json', '{}');
  const fixtures = join(dir, 'fixtures');
  mkdirSync(fixtures);
  // Issue 45, item 1: --ready-file deleted whatever was at its path, at start and at exit.
  const precious = file('notes.txt', 'a user’s file\n');
  const link = join(dir, 'link.json');
  symlinkSync(precious, link);
  const fifo = join(dir, 'fifo');
  execFileSync('mkfifo', [fifo]);
  // Past every bound, and costing no disk: a sparse file of 64 MiB.
  const huge = join(dir, 'huge');
  writeFileSync(huge, '');
  truncateSync(huge, 64 * 1024 * 1024);
  /** What each case may touch, as it was: checked after every case, so that none passes for running alone. */
  const untouched = () => {
    expect(readFileSync(precious, 'utf8')).toBe('a user’s file\n');
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(lstatSync(fifo).isFIFO()).toBe(true);
    expect(lstatSync(fixtures).isDirectory()).toBe(true);
    expect(lstatSync(huge).size).toBe(64 * 1024 * 1024);
  };

  const cases: [string, string[], number, RegExp][] = [
    ['a kora.toml without [validation]', ['--kora-config', noKoraValidation], 1, /^relay-emulator: cannot start: .*kora\.toml: \[validation\] is missing$/],
    [
      'a signers.toml that is not TOML',
      ['--kora-signers', badSigners],
      1,
      /^relay-emulator: cannot start: .*signers\.toml: Failed to parse signers config TOML: /,
    ],
    [
      'a damaged state file',
      ['--state-file', damagedState],
      1,
      /^relay-emulator: cannot restore .*state\.json: .* is damaged: it is not JSON .*Nothing was changed\./,
    ],
    ['an import that is no snapshot', ['--import', notASnapshot], 1, /^relay-emulator: cannot import .*import\.json: Not a relay-emulator state snapshot/],
    ['a fixtures folder without its files', ['--fixtures', fixtures], 1, /^relay-emulator: cannot start: .*relay\.json/],
    [
      'an account directory that is not there',
      ['--account-dir', join(dir, 'none')],
      1,
      /^relay-emulator: cannot start: .*none: cannot be read as a folder \(ENOENT\)$/,
    ],
    [
      // Recursive mkdir under /proc never returns on Node 20: it used to spin (src/base/disk/folders.ts).
      'a state file under /proc, where no folder can be made',
      ['--state-file', '/proc/nope/x.json'],
      1,
      /^relay-emulator: cannot .*\/proc\/nope\/x\.json: cannot make the folder \/proc\/nope \(ENOENT\)$/,
    ],
    [
      'a ready file path that holds a file the emulator did not write',
      ['--ready-file', precious],
      1,
      new RegExp(
        '^relay-emulator: cannot start: --ready-file .*notes\\.txt: it is a file of 16 bytes, not a ready file; ' +
          'relay-emulator writes a ready file only where nothing is, over an empty file, or over a ready file it wrote before$',
      ),
    ],
    [
      'a ready file path that is a symbolic link',
      ['--ready-file', link],
      1,
      /^relay-emulator: cannot start: --ready-file .*link\.json: it is a symbolic link \(to .*notes\.txt\), not a ready file; /,
    ],
    [
      'a ready file path that is a folder',
      ['--ready-file', fixtures],
      1,
      /^relay-emulator: cannot start: --ready-file .*fixtures: it is a folder, not a ready file; /,
    ],
    [
      'a ready file path that is a pipe',
      ['--ready-file', fifo],
      1,
      /^relay-emulator: cannot start: --ready-file .*fifo: it is a device, a pipe or a socket, not a ready file; /,
    ],
    [
      // It printed its ready line, then exited 1.
      'a ready file under /proc, where nothing can be written',
      ['--ready-file', '/proc/nope/x.json'],
      1,
      /^relay-emulator: cannot start: --ready-file \/proc\/nope\/x\.json: cannot write there \(cannot make the folder \/proc\/nope \(ENOENT\)\)$/,
    ],
    // Issue 45, item 4: each of these read /dev/zero past 8 GB; a device is now no file to read (decision 0010), and a large file stops at its bound.
    [
      'a kora.toml that never ends',
      ['--kora-config', '/dev/zero'],
      1,
      /^relay-emulator: cannot start: \/dev\/zero: is a device, a pipe or a socket, not a regular file$/,
    ],
    ['a kora.toml past any', ['--kora-config', huge], 1, /^relay-emulator: cannot start: .*huge: is larger than 1048576 bytes$/],
    [
      'a signers.toml that never ends',
      ['--kora-signers', '/dev/zero'],
      1,
      /^relay-emulator: cannot start: \/dev\/zero: is a device, a pipe or a socket, not a regular file$/,
    ],
    ['a signers.toml past any', ['--kora-signers', huge], 1, /^relay-emulator: cannot start: .*huge: is larger than 1048576 bytes$/],
    [
      'a program that never ends',
      ['--bpf-program', 'Fg6PaFpoGXkYsidMpWTK6W2BeZ7FEfcYkg476zPFsLnS', '/dev/zero'],
      1,
      /^relay-emulator: cannot start: \/dev\/zero: is a device, a pipe or a socket, not a regular file$/,
    ],
    [
      'a program past any',
      ['--bpf-program', 'Fg6PaFpoGXkYsidMpWTK6W2BeZ7FEfcYkg476zPFsLnS', huge],
      1,
      /^relay-emulator: cannot start: .*huge: is larger than 10485760 bytes, more than a program can be \(10 MiB, an account’s most\)$/,
    ],
    [
      'an account dump that never ends',
      ['--account', '-', '/dev/zero'],
      1,
      /^relay-emulator: cannot start: \/dev\/zero: is a device, a pipe or a socket, not a regular file$/,
    ],
    [
      'an account dump past any',
      ['--account', '-', huge],
      1,
      /^relay-emulator: cannot start: .*huge: is larger than \d+ bytes, more than a dump of 10 MiB of data$/,
    ],
    [
      'a flag with a bad value',
      ['--engine', 'nope'],
      2,
      /^relay-emulator start: --engine must be one of bankrun, litesvm, not "nope" \(relay-emulator start --help lists the options\)$/,
    ],
  ];

  for (const [what, args, code, message] of cases) {
    it(what, async () => {
      const refused = await runCli(['start', '--port', '0', ...args]);
      expect(refused.code).toBe(code);
      expect(refused.stderr.endsWith('\n')).toBe(true);
      const lines = refused.stderr.trimEnd().split('\n');
      expect(lines, refused.stderr).toHaveLength(1);
      expect(lines[0]).toMatch(message);
      expect(refused.stderr).not.toMatch(/^\s+at /m);
      expect(refused.stdout).not.toMatch(/relay-emulator ready/);
      untouched();
    });
  }

  it('shows the stack with --log-level debug', async () => {
    const refused = await runCli(['start', '--port', '0', '--log-level', 'debug', '--kora-config', noKoraValidation]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^relay-emulator: cannot start: .*\[validation\] is missing$/m);
    expect(refused.stderr).toMatch(/^\s+at /m);
  });
});
