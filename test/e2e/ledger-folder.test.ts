/**
 * Issue 53, items 1 and 2: the ledger folder is a live emulator's while it runs, and `--reset`
 * deletes only what the emulator made. A second test-validator on the same ledger, `--reset` or
 * not, refuses "in use" before it reads or deletes anything; every relay the first acknowledged
 * survives its kill -9 and a restart. A reset leaves the user's files (a backup folder, `*.old`, a
 * log of their own) where they were.
 */
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Keypair } from '@solana/web3.js';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../support/emulator-process.ts';
import type { Rpc } from '../support/json-rpc.ts';
import { runCli, serveCli } from '../support/validator-process.ts';

const MINUTE = 60_000;
const root = mkdtempSync(join(tmpdir(), 'relay-emulator-ledger-folder-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const env = { HOME: join(root, 'home') };

/** Airdrops to `count` new addresses and waits until each is finalized: acknowledged and landed. */
async function airdrops(rpc: Rpc, count: number): Promise<string[]> {
  const signatures: string[] = [];
  for (let index = 0; index < count; index += 1) signatures.push(await rpc('requestAirdrop', [Keypair.generate().publicKey.toBase58(), 1_000_000]));
  await expect
    .poll(async () => (await rpc('getSignatureStatuses', [signatures])).value.every((status: { confirmationStatus?: string } | null) => status !== null))
    .toBe(true);
  return signatures;
}

describe('test-validator --ledger', () => {
  it(
    'refuses a second start on a ledger in use, --reset included, and loses nothing the first acknowledged',
    async () => {
      const ledger = join(root, 'shared');
      const [portA, portB] = [await freePort(), await freePort()];
      const a = await serveCli(['test-validator', '--ledger', ledger, '--rpc-port', String(portA), '--quiet'], portA, { cwd: root, env });
      const before = await airdrops(a.rpc, 10);

      for (const extra of [['--reset'], []]) {
        const b = await runCli(['test-validator', '--ledger', ledger, '--rpc-port', String(portB), ...extra], { cwd: root, env });
        expect(b.code).toBe(1);
        const lines = b.stderr.trim().split('\n');
        expect(lines).toHaveLength(1);
        expect(lines[0]).toMatch(new RegExp(`^relay-emulator test-validator: cannot start: --ledger ${ledger}: it is in use by process ${a.child.pid} `));
      }
      const after = await airdrops(a.rpc, 10);
      expect(await a.stop('SIGKILL')).toBe('SIGKILL');

      const again = await serveCli(['test-validator', '--ledger', ledger, '--rpc-port', String(portA), '--quiet'], portA, { cwd: root, env });
      const statuses = (await again.rpc('getSignatureStatuses', [[...before, ...after], { searchTransactionHistory: true }])).value;
      expect(statuses.filter((status: unknown) => status === null)).toHaveLength(0);
      expect(await again.stop('SIGTERM')).toBe(0);
    },
    3 * MINUTE,
  );

  it(
    '--reset deletes the state, its journal and the logs it made, and nothing of the user’s',
    async () => {
      const ledger = join(root, 'mine');
      mkdirSync(join(ledger, 'relay-emulator.state.json.backup'), { recursive: true });
      const theirs: Record<string, string> = {
        'relay-emulator.state.json.backup/state.json': 'a backup',
        'relay-emulator.state.json.old': 'an old state',
        'notes.old': 'notes',
        'validator.log': 'a log the user wrote',
      };
      for (const [name, text] of Object.entries(theirs)) writeFileSync(join(ledger, name), text);
      const port = await freePort();
      const first = await serveCli(['test-validator', '--ledger', ledger, '--rpc-port', String(port), '--quiet'], port, { cwd: root, env });
      const [signature] = await airdrops(first.rpc, 1);
      expect(await first.stop('SIGTERM')).toBe(0);
      const made = readdirSync(ledger).filter((name) => /^validator-\d+\.log$/.test(name));
      expect(made).toHaveLength(1);
      // The user's validator.log is theirs: the run logged beside it, and left it as it was.
      expect(lstatSync(join(ledger, 'validator.log')).isFile()).toBe(true);
      expect(readFileSync(join(ledger, made[0]!), 'utf8')).toMatch(/POST \/ 200/);

      const reset = await serveCli(['test-validator', '--ledger', ledger, '--rpc-port', String(port), '--quiet', '--reset'], port, { cwd: root, env });
      expect((await reset.rpc('getSignatureStatuses', [[signature], { searchTransactionHistory: true }])).value).toEqual([null]);
      expect(await reset.stop('SIGTERM')).toBe(0);
      for (const [name, text] of Object.entries(theirs)) expect(readFileSync(join(ledger, name), 'utf8')).toBe(text);
      expect(readdirSync(ledger)).not.toContain(made[0]);
    },
    3 * MINUTE,
  );

  it(
    'says in one line, on SIGTERM, that its ledger folder was deleted while it ran (issue 53: an ENOENT stack before)',
    async () => {
      const ledger = join(root, 'deleted');
      const port = await freePort();
      const served = await serveCli(['test-validator', '--ledger', ledger, '--rpc-port', String(port), '--quiet'], port, { cwd: root, env });
      await airdrops(served.rpc, 1);
      rmSync(ledger, { recursive: true, force: true });
      expect(await served.stop('SIGTERM')).toBe(1);
      expect(served.output().trim()).toBe(
        `relay-emulator: shutdown failed: the folder of its state, ${ledger}, was removed while it ran: what changed since the last save is not kept`,
      );
      expect(existsSync(ledger)).toBe(false);
    },
    2 * MINUTE,
  );
});
