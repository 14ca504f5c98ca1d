/**
 * The README's hello-relay examples (examples/*.mjs), each run as written — `node examples/…` in the
 * repository — against the emulator started as `npm start` starts it (here on a free port, which the
 * examples learn from RELAY_BASE_URL, as `relay-emulator exec` hands it to them).
 */
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCli, type CliProcess } from '../support/cli-process.ts';
import { readmeBlock } from '../support/readme.ts';

const run = promisify(execFile);
const REPO = fileURLToPath(new URL('../..', import.meta.url));
const lines = readmeBlock('Hello relay examples')
  .code.split('\n')
  .map((line) => line.replace(/#.*$/, '').trim())
  .filter(Boolean);

/** What each example prints when its relays landed and read back. */
const EXPECTED: Record<string, RegExp[]> = {
  'node examples/hello-web3.mjs': [
    /^Account\/create +Queued \w{80,90}$/m,
    /^Transaction\/send +Queued \w{80,90}$/m,
    /^bob holds 1\.5 USDC; his history lists 2 transactions$/m,
  ],
  'node examples/hello-kit.mjs': [/^Transaction\/send +Queued \w{80,90}$/m, /^the recipient holds 1\.5 USDC \(Account\/balance lists 1 token account\)$/m],
  'node examples/hello-legacy.mjs': [
    /^account\/create +Confirmed \w{80,90}$/m,
    /^transaction\/make-transfer Confirmed 2\.5 KIN \w{80,90}$/m,
    /^bob holds 2\.5 KIN; his history lists 1 token account$/m,
  ],
  'node examples/hello-anchor.mjs': [/^Transaction\/send +Queued \w{80,90}$/m, /^puppet \w{32,44} holds 42$/m],
};

describe('the hello-relay examples, as the README runs them', () => {
  let cli: CliProcess;
  beforeAll(async () => {
    // hello-anchor's programs: the README starts the emulator with this workspace (the others need nothing of it).
    cli = await startCli(['--log-level', 'warn', '--anchor', 'test/real-clients/anchor/workspace']);
  }, 120_000);
  afterAll(async () => {
    await cli?.stop();
  });

  it('lists every example in the README and examples/README.md', () => {
    expect(lines).toEqual(Object.keys(EXPECTED));
    const own = readFileSync(new URL('../../examples/README.md', import.meta.url), 'utf8').match(/^```sh\n([^]*?)^```$/m)?.[1];
    expect(own?.trim().split('\n')).toEqual(Object.keys(EXPECTED));
    expect(
      readdirSync(new URL('../../examples/', import.meta.url))
        .filter((f) => f.endsWith('.mjs'))
        .map((f) => `node examples/${f}`)
        .sort(),
    ).toEqual(Object.keys(EXPECTED).sort());
  });

  it.each(Object.keys(EXPECTED))(
    '%s relays, settles and reads back',
    async (line) => {
      const [file, ...args] = line.split(/\s+/) as [string, ...string[]];
      expect(file).toBe('node');
      const { stdout } = await run(process.execPath, args, {
        cwd: REPO,
        env: { ...process.env, RELAY_BASE_URL: cli.baseUrl, RELAY_API_KEY: cli.apiKey },
        timeout: 60_000,
      });
      for (const pattern of EXPECTED[line]!) expect(stdout).toMatch(pattern);
    },
    90_000,
  );
});
