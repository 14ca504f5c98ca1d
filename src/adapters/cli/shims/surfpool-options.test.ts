/**
 * The surfpool stand-in's flags refused in one line before anything starts (issue 52's hostile
 * read): a WebSocket port that is the RPC's, an airdrop amount that is no u64 of lamports (it was
 * read as 10,000 SOL), test configs with no Anchor.toml to deploy from; and Surfpool's defaults.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { surfpoolStartOptions } from './surfpool-options.ts';

const dir = mkdtempSync(join(tmpdir(), 'relay-emulator-surfpool-options-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const home = join(dir, 'home');

describe('surfpool start’s options', () => {
  it('refuse in one line what Surfpool would not take', () => {
    expect(() => surfpoolStartOptions(['--port', '8899', '--ws-port', '8899'], {}, home)).toThrow(
      "--ws-port 8899 is the RPC's --port: Surfpool serves WebSocket on a port of its own",
    );
    for (const amount of ['-5', '1e9', '', '18446744073709551616']) {
      expect(() => surfpoolStartOptions([`--airdrop-amount=${amount}`, '--airdrop', '11111111111111111111111111111111'], {}, home)).toThrow(
        `--airdrop-amount must be a whole number of lamports, not "${amount}"`,
      );
    }
    const config = join(dir, 'Test.toml');
    writeFileSync(config, '');
    expect(() => surfpoolStartOptions(['--anchor-test-config-path', config, '--manifest-file-path', join(dir, 'txtx.yml')], {}, home)).toThrow(
      /^--anchor-test-config-path .*Test\.toml: no Anchor\.toml in /,
    );
  });

  it('takes Surfpool’s defaults: WebSocket on 8900 whatever --port, the airdrop 10,000 SOL, logs in .surfpool/logs', () => {
    const options = surfpoolStartOptions(['--port', '9999', '--airdrop', '11111111111111111111111111111111', '--offline'], {}, home);
    expect(options.start.pubsubPort).toBe(8900);
    expect(options.start.genesis?.fund).toEqual([{ address: '11111111111111111111111111111111', lamports: 10_000_000_000_000n }]);
    expect(options.logPath).toBe('.surfpool/logs');
    expect(surfpoolStartOptions(['--airdrop-amount', '5', '--airdrop', '11111111111111111111111111111111'], {}, home).start.genesis?.fund?.[0]?.lamports).toBe(
      5n,
    );
  });
});
