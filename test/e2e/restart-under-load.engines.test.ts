import { Keypair, type PublicKey } from '@solana/web3.js';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, spawnEmulator, untilHealthy, type EmulatorProcess } from '../support/emulator-process.ts';
import { ALICE, ata, build, transferInstruction, USDC } from '../support/transactions.ts';

/**
 * Restart under load: 32 clients relay transfers to a `relay-emulator start --state-file` child
 * process, which is killed mid-load (SIGKILL: no chance to save; SIGTERM: a clean shutdown) and
 * started again on the same state file and port; the clients keep sending from the moment /health
 * answers. Afterwards every relay that got a 200 is on the ledger and in gethistory exactly once,
 * nothing else is, token totals are conserved and every balance matches.
 *
 * A client whose request died with the server does not know whether it was accepted: it sends the
 * same bytes again once the server is back, as a careful client would, until it gets an answer
 * (200: the relay, now or then; ALREADY_PROCESSED: it was accepted, its blockhash has aged out
 * since; BLOCKHASH_NOT_FOUND: it never was). Those that landed without a 200 are counted apart.
 *
 * Size (chosen for CI on 2 shared cores, about 15-30 s per signal): RELAYS_BEFORE acknowledged
 * relays before the kill, RELAYS_AFTER after the restart; every loop is bounded by count and by
 * DEADLINE_MS. Loopback only; the only processes killed are the ones this test started, by PID.
 */
const CLIENTS = 32;
const RELAYS_BEFORE = Number(process.env.RESTART_LOAD_BEFORE ?? 120);
const RELAYS_AFTER = Number(process.env.RESTART_LOAD_AFTER ?? 120);
const DEADLINE_MS = 120_000;
const API_KEY = 'relay-emulator-dev-key';

interface Relay {
  client: number;
  signature: string;
  amount: bigint;
}

describe.each(['SIGKILL', 'SIGTERM'] as const)('restart under load (%s)', (signal) => {
  const directory = mkdtempSync(join(tmpdir(), `relay-emulator-restart-${signal}-`));
  const processes: EmulatorProcess[] = [];
  afterAll(async () => {
    for (const started of processes) await started.stop('SIGKILL');
    rmSync(directory, { recursive: true, force: true });
  });

  it(
    'loses and repeats no acknowledged relay; balances and totals match',
    async () => {
      const deadline = Date.now() + DEADLINE_MS;
      const port = await freePort();
      const args = ['--state-file', join(directory, 'state.json'), '--state-interval', '1', '--log-level', 'warn', '--journal-limit', '0'];
      const start = () => {
        const started = spawnEmulator({ port, args });
        processes.push(started);
        return started;
      };
      let server = start();
      const origin = server.origin;
      await untilHealthy(origin);

      const call = async (method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> => {
        const response = await fetch(`${origin}${path}`, {
          method,
          headers: { 'X-API-Key': API_KEY, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
          body: body === undefined ? undefined : JSON.stringify(body),
          signal: AbortSignal.timeout(30_000),
        });
        const text = await response.text();
        return { status: response.status, body: text ? JSON.parse(text) : null };
      };
      const tokenAmount = async (owner: PublicKey): Promise<bigint> => {
        const { status, body } = await call('GET', `/__emulator/accounts/${ata(owner).toBase58()}`);
        expect(status).toBe(200);
        return Buffer.from(body.data, 'base64').readBigUInt64LE(64);
      };

      // Each client pays its own recipient from alice's USDC; each recipient's account is made first.
      const recipients = Array.from(
        { length: CLIENTS },
        (_, client) => Keypair.fromSeed(createHash('sha256').update(`restart-under-load:${client}`).digest()).publicKey,
      );
      for (const recipient of recipients) {
        expect((await call('POST', '/__emulator/faucet', { address: recipient.toBase58(), mint: USDC.toBase58(), amount: '1' })).status).toBe(200);
      }
      const before = new Map<string, bigint>([[ALICE.publicKey.toBase58(), await tokenAmount(ALICE.publicKey)]]);
      for (const recipient of recipients) before.set(recipient.toBase58(), await tokenAmount(recipient));

      const acknowledged: Relay[] = [];
      const landedUnanswered: Relay[] = [];
      let refusedAfterDoubt = 0;
      let inDoubt = 0;
      let restarted = false;
      let acknowledgedAtKill = 0;
      // One poller of /health for all the clients whose server went away (32 pollers would be a load of their own).
      let back: Promise<unknown> | null = null;
      const serverBack = () => (back ??= untilHealthy(origin, Math.max(1, deadline - Date.now())).finally(() => (back = null)));
      const enough = () => (restarted && acknowledged.length >= acknowledgedAtKill + RELAYS_AFTER) || Date.now() > deadline;

      /** Sends the same bytes until the relay answers for them; null when they were refused (never accepted). */
      const relayOnce = async (client: number, amount: bigint): Promise<void> => {
        let blockhash: string | null = null;
        while (blockhash === null && Date.now() < deadline) {
          try {
            const response = await call('GET', '/api/Transaction/blockhash');
            if (response.status === 200) blockhash = response.body.Blockhash;
          } catch {
            await serverBack();
          }
        }
        if (blockhash === null) return;
        const signedTransaction = build({ instructions: [transferInstruction(ALICE, recipients[client]!, amount)], blockhash, signers: [ALICE] });
        let doubted = false;
        while (Date.now() < deadline) {
          let response: { status: number; body: any };
          try {
            response = await call('POST', '/api/Transaction/send', { signedTransaction });
          } catch {
            // The server went away with the request: accepted or not, nobody said.
            if (!doubted) inDoubt += 1;
            doubted = true;
            await serverBack();
            continue;
          }
          if (response.status === 200) {
            acknowledged.push({ client, signature: response.body.signature, amount });
            return;
          }
          if (response.status >= 500) continue;
          const code = response.body?.code;
          if (doubted && code === 'ALREADY_PROCESSED') {
            landedUnanswered.push({ client, signature: /\(([1-9A-HJ-NP-Za-km-z]{64,88})\)/.exec(response.body.detail)![1]!, amount });
            return;
          }
          if (code === 'BLOCKHASH_NOT_FOUND') {
            if (doubted) refusedAfterDoubt += 1;
            return;
          }
          throw new Error(`relay refused: ${response.status} ${JSON.stringify(response.body)}`);
        }
      };

      const clients = recipients.map(async (_, client) => {
        // Amounts are unique per relay (client + CLIENTS * round), so no two transactions are alike.
        for (let round = 0; !enough() && round < 10_000; round += 1) await relayOnce(client, BigInt(client + 1 + CLIENTS * round));
      });

      // Kill mid-load, start again on the same state file; the clients carry on by themselves.
      const killer = (async () => {
        while (acknowledged.length < RELAYS_BEFORE && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
        acknowledgedAtKill = acknowledged.length;
        expect(await server.stop(signal)).toBe(signal === 'SIGKILL' ? 'SIGKILL' : 0);
        server = start();
        const startedAt = Date.now();
        const seen = await untilHealthy(origin);
        restarted = true;
        return { readyMs: Date.now() - startedAt, seen };
      })();
      const [restart] = await Promise.all([killer, ...clients]);
      expect(Date.now()).toBeLessThan(deadline);
      // Until it was ready the restarted server said so: nothing, or 503 `starting`, never 200 early.
      expect(restart.seen.filter((status) => status !== -1 && status !== 503 && status !== 200)).toEqual([]);

      // Every acknowledged relay reaches the ledger.
      for (let tries = 0; tries < 600; tries += 1) {
        const { body } = await call('GET', '/__emulator/queue');
        if (body.pending === 0 && (await call('GET', '/__emulator/journal/transactions?status=queued')).body.transactions.length === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const expected = [...acknowledged, ...landedUnanswered];
      const journal = (await call('GET', '/__emulator/journal/transactions?operation=send')).body.transactions as { signature: string; status: string }[];
      expect(journal.filter((entry) => entry.status !== 'processed')).toEqual([]);
      expect(journal.map((entry) => entry.signature).sort()).toEqual(expected.map((relay) => relay.signature).sort());

      // In gethistory exactly once: each recipient's own relays, and alice's all of them.
      const history = async (owner: PublicKey): Promise<string[]> => {
        const signatures: string[] = [];
        for (let page = 1; page <= 100; page += 1) {
          const { status, body } = await call('POST', `/api/Account/gethistory?WalletAddress=${owner.toBase58()}&PageSize=100&PageNumber=${page}`);
          expect(status).toBe(200);
          signatures.push(...body.transactions.map((entry: { signature: string }) => entry.signature));
          if (body.transactions.length < 100) break;
        }
        return signatures;
      };
      for (const [client, recipient] of recipients.entries()) {
        const listed = await history(recipient);
        expect(new Set(listed).size).toBe(listed.length);
        expect(listed.sort()).toEqual(
          expected
            .filter((relay) => relay.client === client)
            .map((relay) => relay.signature)
            .sort(),
        );
      }
      const alice = await history(ALICE.publicKey);
      expect(new Set(alice).size).toBe(alice.length);
      expect(alice.sort()).toEqual(expected.map((relay) => relay.signature).sort());

      // Balances: each recipient got exactly its relays; alice paid exactly all of them; the total is what it was.
      let totalBefore = 0n;
      let totalAfter = 0n;
      for (const [client, recipient] of recipients.entries()) {
        const received = expected.filter((relay) => relay.client === client).reduce((sum, relay) => sum + relay.amount, 0n);
        const now = await tokenAmount(recipient);
        expect(now).toBe(before.get(recipient.toBase58())! + received);
        totalBefore += before.get(recipient.toBase58())!;
        totalAfter += now;
      }
      const paid = expected.reduce((sum, relay) => sum + relay.amount, 0n);
      const aliceNow = await tokenAmount(ALICE.publicKey);
      expect(aliceNow).toBe(before.get(ALICE.publicKey.toBase58())! - paid);
      expect(totalAfter + aliceNow).toBe(totalBefore + before.get(ALICE.publicKey.toBase58())!);

      console.log(
        `restart under load (${signal}): ${acknowledgedAtKill} acknowledged before the kill, ${acknowledged.length} in all; ` +
          `${inDoubt} relays cut off by the stop and sent again (${landedUnanswered.length} of them landed unanswered, ${refusedAfterDoubt} never ` +
          `accepted); ready ${restart.readyMs} ms after the restart (${restart.seen.join(' → ')})`,
      );
      expect(acknowledged.length).toBeGreaterThanOrEqual(RELAYS_BEFORE + RELAYS_AFTER);
      expect(await server.stop('SIGTERM')).toBe(0);
    },
    DEADLINE_MS + 60_000,
  );
});
