import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeState } from '../../src/domain/state/state-codec.ts';
import { startCli, type CliProcess } from '../support/cli-process.ts';
import { assertFetchResponseMatchesSpec } from '../support/openapi.ts';
import { ALICE, build, createAtaInstructions, transferInstruction } from '../support/transactions.ts';
import { newKeypair } from '../support/keys.ts';
import { rpcAt } from '../support/json-rpc.ts';

describe('relay-emulator start: state file, restart, shutdown and admin token', () => {
  const directory = mkdtempSync(join(tmpdir(), 'relay-emulator-state-'));
  const stateFile = join(directory, 'nested', 'state.json');
  const processes: CliProcess[] = [];
  afterAll(async () => {
    for (const cli of processes) await cli.stop('SIGKILL');
    rmSync(directory, { recursive: true, force: true });
  });

  const client = (cli: CliProcess, adminToken?: string) => {
    const call = async (method: string, path: string, options: { body?: unknown; api?: boolean; headers?: Record<string, string> } = {}) => {
      const headers: Record<string, string> = {
        ...(options.api ? { 'X-API-Key': cli.apiKey } : {}),
        ...(adminToken ? { 'X-Admin-Token': adminToken } : {}),
        ...options.headers,
      };
      if (options.body !== undefined) headers['Content-Type'] = 'application/json';
      const response = await fetch(`${options.api ? cli.baseUrl : cli.origin}${path}`, {
        method,
        headers,
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
      });
      return { status: response.status, body: (await assertFetchResponseMatchesSpec(method, path.split('?')[0]!, response)) as any };
    };
    return {
      call,
      blockhash: async () => (await call('GET', '/Transaction/blockhash', { api: true })).body.Blockhash as string,
      send: async (signedTransaction: string) => (await call('POST', '/Transaction/send', { api: true, body: { signedTransaction } })).body.signature as string,
      balances: async (address: string) => (await call('POST', '/Account/balance', { api: true, body: { accountAddress: address } })).body,
      history: async (address: string) =>
        (await call('POST', `/Account/gethistory?WalletAddress=${address}`, { api: true })).body.transactions.map((entry: any) => entry.signature) as string[],
      statusOf: async (signature: string) =>
        (await call('GET', `/__emulator/journal/transactions?signature=${signature}`)).body.transactions[0]?.status as string | undefined,
    };
  };

  it('saves on SIGTERM (exit 0) and a restarted emulator answers balances and history as before, queued transactions included', async () => {
    const owner = newKeypair();
    const first = await startCli(['--state-file', stateFile]);
    processes.push(first);
    expect(first.output()).toContain(`State file  ${stateFile} (new)`);
    const before = client(first);

    await before.call('POST', '/__emulator/faucet', { body: { address: owner.publicKey.toBase58(), lamports: 3_000_000 } });
    const created = await before.send(
      build({
        instructions: [...createAtaInstructions(owner.publicKey), transferInstruction(ALICE, owner.publicKey, 500n)],
        blockhash: await before.blockhash(),
        signers: [ALICE, owner],
      }),
    );
    await expect.poll(() => before.statusOf(created)).toBe('processed');
    // Acknowledged but not yet on the ledger when the emulator stops: it must not be lost.
    await before.call('POST', '/__emulator/queue/pause');
    const queued = await before.send(
      build({ instructions: [transferInstruction(ALICE, owner.publicKey, 25n)], blockhash: await before.blockhash(), signers: [ALICE] }),
    );
    expect(await before.statusOf(queued)).toBe('queued');
    const balancesBefore = await before.balances(owner.publicKey.toBase58());
    const aliceBefore = await before.balances(ALICE.publicKey.toBase58());
    expect(await before.history(owner.publicKey.toBase58())).toEqual([created]);

    expect(await first.stop('SIGTERM')).toBe(0);
    expect(first.output()).toContain(`state saved to ${stateFile}`);
    expect(existsSync(stateFile)).toBe(true);
    const saved = decodeState(readFileSync(stateFile, 'utf8')) as { queuePaused: boolean; parts: Record<string, unknown> };
    expect(saved.queuePaused).toBe(true);
    expect(Object.keys(saved.parts)).toEqual(expect.arrayContaining(['ledger', 'submissions', 'history', 'tokenAccounts', 'queue', 'legacy']));

    // Restart on a non-loopback bind: the controls now want the admin token; the API does not.
    const second = await startCli(['--state-file', stateFile, '--host', '0.0.0.0', '--admin-token', 'open-sesame']);
    processes.push(second);
    expect(second.output()).toMatch(/State file\s+\S+ \(restored 2 transaction\(s\) saved at /);
    expect(second.adminToken).toBe('open-sesame');
    const anonymous = client(second);
    const admin = client(second, 'open-sesame');

    expect(await anonymous.balances(owner.publicKey.toBase58())).toEqual(balancesBefore);
    expect(await anonymous.balances(ALICE.publicKey.toBase58())).toEqual(aliceBefore);
    expect(await anonymous.history(owner.publicKey.toBase58())).toEqual([created]);

    expect(await anonymous.call('GET', '/__emulator/queue')).toMatchObject({ status: 401, body: { code: 'ADMIN_TOKEN_REQUIRED' } });
    expect(await client(second, 'guess').call('POST', '/__emulator/queue/resume')).toMatchObject({ status: 403, body: { code: 'ADMIN_FORBIDDEN' } });
    expect((await anonymous.call('GET', '/health')).status).toBe(200);
    expect((await admin.call('GET', '/__emulator/queue')).body).toMatchObject({ paused: true, pending: 1 });
    await admin.call('POST', '/__emulator/queue/resume');
    await expect.poll(() => admin.statusOf(queued)).toBe('processed');
    expect(await anonymous.history(owner.publicKey.toBase58())).toEqual([queued, created]);
    const after = await anonymous.balances(owner.publicKey.toBase58());
    expect(after.tokens[0].amount).toBe('525');

    expect(await second.stop('SIGINT')).toBe(0);
  }, 180_000);

  it('--slot-time MS makes slots while idle (wall-clock mode), and the RPC shows them', async () => {
    const cli = await startCli(['--slot-time', '20']);
    processes.push(cli);
    const rpc = rpcAt(cli.rpcUrl);
    const slot = await rpc<number>('getSlot');
    const height = await rpc<number>('getBlockHeight');
    await expect.poll(() => rpc<number>('getSlot'), { timeout: 10_000 }).toBeGreaterThan(slot + 2);
    // Each reads its own commitment's view: the block height follows the slot, not in the same instant.
    await expect.poll(() => rpc<number>('getBlockHeight'), { timeout: 10_000 }).toBeGreaterThan(height + 2);
    expect(await cli.stop()).toBe(0);
  }, 60_000);
});
