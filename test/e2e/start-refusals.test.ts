import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
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
      /^relay-emulator: cannot start: .*none: cannot be read as a directory \(ENOENT\)$/,
    ],
    [
      // Recursive mkdir under /proc never returns on Node 20: it used to spin (src/adapters/server/ensure-directory.ts).
      'a state file under /proc, where no folder can be made',
      ['--state-file', '/proc/nope/x.json'],
      1,
      /^relay-emulator: cannot .*\/proc\/nope\/x\.json: cannot make the folder \/proc\/nope \(ENOENT\)$/,
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
    });
  }

  it('shows the stack with --log-level debug', async () => {
    const refused = await runCli(['start', '--port', '0', '--log-level', 'debug', '--kora-config', noKoraValidation]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^relay-emulator: cannot start: .*\[validation\] is missing$/m);
    expect(refused.stderr).toMatch(/^\s+at /m);
  });
});
