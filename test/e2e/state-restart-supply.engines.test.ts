import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type CliProcess, startCli } from '../support/cli-process.ts';
import { ALICE, BOB, build, FEE_PAYER, transferInstruction, USDC } from '../support/transactions.ts';

const ENGINE = process.env.RELAY_EMULATOR_ENGINE ?? 'litesvm';
/** The faucet fixture key: the reservoir that direct writes balance against. */
const FAUCET = 'Huf2knMAuxXYLceogSrAzvXto4i5dDdCr7RXDMurcBGU';

/**
 * Issue 34, fuzz finding 5: a restart created lamports. After 5 relays and a faucet call, a clean
 * stop and start left the faucet account richer by exactly the fees burned (55,000 lamports) and
 * getSupply moved with it. A restart must give back the ledger exactly, after a clean stop (a
 * snapshot) and after kill -9 (the journal replayed). On litesvm exactly; on bankrun, whose bank
 * checks its capitalization, the faucet alone takes back the fees burned before the restart.
 */
describe('a restart on a state file reproduces every balance and the supply', () => {
  async function ledgerOf(cli: CliProcess): Promise<{ lamports: Map<string, string>; supply: bigint }> {
    // Exact integers: the faucet's lamports pass 2^53, which JSON.parse would round.
    const text = (await (await fetch(`${cli.origin}/__emulator/accounts`)).text()).replace(/"lamports":(\d+)/g, '"lamports":"$1"');
    const { accounts } = JSON.parse(text) as { accounts: { pubkey: string; account: { lamports: string } }[] };
    const supply = await fetch(cli.rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'getSupply', params: [] }),
    });
    const total = /"total":(\d+)/.exec(await supply.text())![1]!;
    return { lamports: new Map(accounts.map(({ pubkey, account }) => [pubkey, account.lamports])), supply: BigInt(total) };
  }

  async function traffic(cli: CliProcess): Promise<void> {
    const headers = { 'content-type': 'application/json', 'X-API-Key': cli.apiKey };
    // Bob's USDC account, so that the transfers to it land (and their fees are burned).
    const account = await fetch(`${cli.origin}/__emulator/faucet`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ address: BOB.publicKey.toBase58(), mint: USDC.toBase58(), amount: '0' }),
    });
    expect(account.status).toBe(200);
    for (let index = 0; index < 5; index += 1) {
      const { Blockhash } = (await (await fetch(`${cli.baseUrl}/Transaction/blockhash`, { headers })).json()) as { Blockhash: string };
      const signedTransaction = build({
        instructions: [transferInstruction(ALICE, BOB.publicKey, 1_000n + BigInt(index))],
        blockhash: Blockhash,
        signers: [ALICE],
      });
      const sent = await fetch(`${cli.baseUrl}/Transaction/send`, { method: 'POST', headers, body: JSON.stringify({ signedTransaction }) });
      expect(sent.status).toBe(200);
    }
    const faucet = await fetch(`${cli.origin}/__emulator/faucet`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ address: BOB.publicKey.toBase58(), lamports: '5000000' }),
    });
    expect(faucet.status).toBe(200);
    await expect
      .poll(
        async () => {
          const { transactions } = (await (await fetch(`${cli.origin}/__emulator/journal/transactions`)).json()) as { transactions: { status: string }[] };
          return transactions.filter((entry) => entry.status === 'processed' || entry.status === 'finalized').length;
        },
        { timeout: 15_000 },
      )
      .toBeGreaterThanOrEqual(5);
  }

  for (const how of ['a clean stop', 'kill -9'] as const) {
    it(`after ${how}`, async () => {
      const stateFile = join(mkdtempSync(join(tmpdir(), 'relay-emulator-supply-')), 'state.json');
      let cli = await startCli(['--state-file', stateFile]);
      let before: Awaited<ReturnType<typeof ledgerOf>>;
      let fresh: Awaited<ReturnType<typeof ledgerOf>>;
      try {
        fresh = await ledgerOf(cli);
        await traffic(cli);
        before = await ledgerOf(cli);
        // The relays landed and the fee payer paid their fees (5 relays of 2 signatures), which the runtime burns.
        const feePayer = FEE_PAYER.toBase58();
        expect(BigInt(fresh.lamports.get(feePayer)!) - BigInt(before.lamports.get(feePayer)!)).toBe(50_000n);
      } finally {
        await cli.stop(how === 'kill -9' ? 'SIGKILL' : 'SIGTERM');
      }
      cli = await startCli(['--state-file', stateFile]);
      try {
        const after = await ledgerOf(cli);
        if (ENGINE === 'bankrun') {
          // bankrun's bank checks its capitalization at every slot, so the total cannot drop by
          // a write: the faucet takes back what was burned before the restart (docs/programs.md).
          const burned = fresh!.supply - before!.supply;
          expect(burned).toBeGreaterThanOrEqual(50_000n);
          expect(Object.fromEntries(after.lamports)).toEqual({
            ...Object.fromEntries(before!.lamports),
            [FAUCET]: String(BigInt(before!.lamports.get(FAUCET)!) + burned),
          });
          expect(after.supply).toBe(fresh!.supply);
          return;
        }
        expect(Object.fromEntries(after.lamports)).toEqual(Object.fromEntries(before!.lamports));
        expect(after.supply).toBe(before!.supply);
        // And once more: a second restart adds nothing either.
      } finally {
        await cli.stop();
      }
      cli = await startCli(['--state-file', stateFile]);
      try {
        expect((await ledgerOf(cli)).supply).toBe(before!.supply);
      } finally {
        await cli.stop();
      }
    }, 60_000);
  }
});
