/**
 * Issue 51, cause 1: what solana-test-validator loads at genesis, the emulator loads. kit's
 * `--account-dir scripts/fixtures` holds the stake config (data under a reserved key), and SPL
 * Token's and Token-2022's own CI load a fresh build with `--bpf-program` at the program's address:
 * both were refused. A builtin program or a sysvar stays refused.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createRelayEmulator } from '../src/index.ts';
import { isInternalError } from '../src/base/errors/internal-error.ts';

const PUPPET_SO = fileURLToPath(new URL('./real-clients/anchor/workspace/target/deploy/puppet.so', import.meta.url));
const TOKEN_2022 = 'TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb';
const STAKE_CONFIG = 'StakeConfig11111111111111111111111111111111';
const dir = mkdtempSync(join(tmpdir(), 'relay-emulator-genesis-loads-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('genesis loads what a validator loads', () => {
  it('a build of its own at Token-2022’s address, and a dump of the stake config, with a warning for the shipped program', async () => {
    const accounts = join(dir, 'accounts');
    mkdirSync(accounts);
    // Agave's stake config: 10 bytes (no keys, warmup 0.25, slash penalty 12), 960,480 lamports.
    writeFileSync(
      join(accounts, 'config-stake-account.json'),
      JSON.stringify({
        pubkey: STAKE_CONFIG,
        account: {
          lamports: 960_480,
          data: ['AAAAAAAAANA/DA==', 'base64'],
          owner: 'Config1111111111111111111111111111111111111',
          executable: false,
          rentEpoch: 0,
          space: 10,
        },
      }),
    );
    const emulator = await createRelayEmulator({ programs: [{ programId: TOKEN_2022, path: PUPPET_SO }], accountDirs: [accounts] });
    try {
      const program = await emulator.getAccount(TOKEN_2022);
      expect(program?.executable).toBe(true);
      expect(Buffer.from(program!.data).equals(readFileSync(PUPPET_SO))).toBe(true);
      const config = await emulator.getAccount(STAKE_CONFIG);
      expect(config).toMatchObject({ lamports: 960_480n, owner: 'Config1111111111111111111111111111111111111' });
      expect(Buffer.from(config!.data).toString('base64')).toBe('AAAAAAAAANA/DA==');
      expect(emulator.warnings).toContainEqual(
        expect.stringMatching(new RegExp(`^${PUPPET_SO}: ${TOKEN_2022} is Token-2022, which the emulator ships: this replaces it at genesis`)),
      );
    } finally {
      await emulator.close();
    }
  });

  it('still refuses a builtin program or a sysvar', async () => {
    const refused = await createRelayEmulator({ programs: [{ programId: 'SysvarC1ock11111111111111111111111111111111', path: PUPPET_SO }] }).then(
      (emulator) => emulator.close().then(() => null),
      (error: unknown) => error,
    );
    expect(isInternalError(refused, 'PROGRAM_INVALID')).toBe(true);
    expect((refused as Error).message).toBe(
      `${PUPPET_SO}: SysvarC1ock11111111111111111111111111111111 is a builtin program or a sysvar of the runtime, which nothing may replace`,
    );
  });
});
