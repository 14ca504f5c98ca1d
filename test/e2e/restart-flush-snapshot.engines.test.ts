import { Keypair } from '@solana/web3.js';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, spawnEmulator, untilHealthy, type EmulatorProcess } from '../support/emulator-process.ts';
import { ALICE, ata, build, transferInstruction, USDC } from '../support/transactions.ts';

/**
 * Issue 24: a kill -9 while `flushQueue()` runs and a state snapshot is being taken. The queue is
 * paused while relays are acknowledged, then flushed; the moment the server logs that a snapshot
 * started while the flush has not answered, it is killed. Restarted on the same state file, every
 * acknowledged relay lands exactly once: none lost, none run twice (a snapshot that held a
 * transfer's effect while listing it as queued would run it again).
 *
 * Bounded: at most ROUNDS rounds of RELAYS relays, doubling up to MAX_RELAYS (a round whose flush
 * answers before a snapshot starts is simply the next round's history); loopback only; only the
 * processes started here are killed, by PID.
 */
// 16, not 8: on a loaded machine (CI's package installs beside it) 8 rounds once ended before any snapshot overlapped a flush.
const ROUNDS = 16;
/**
 * Relays of the first round; each round doubles them up to MAX_RELAYS, so that a flush comes to
 * outlast the 1 s between snapshots however fast the engine is.
 */
const RELAYS = 128;
const MAX_RELAYS = 1024;
const CLIENTS = 16;
const API_KEY = 'relay-emulator-dev-key';

describe('kill -9 while flushQueue() and a snapshot overlap', () => {
  const directory = mkdtempSync(join(tmpdir(), 'relay-emulator-flush-kill-'));
  const processes: EmulatorProcess[] = [];
  afterAll(async () => {
    for (const started of processes) await started.stop('SIGKILL');
    rmSync(directory, { recursive: true, force: true });
  });

  it('restarts with every acknowledged relay landed exactly once', async () => {
    const deadline = Date.now() + 150_000;
    const port = await freePort();
    const start = () => {
      const started = spawnEmulator({
        port,
        args: ['--state-file', join(directory, 'state.json'), '--state-interval', '1', '--log-level', 'debug', '--journal-limit', '0'],
      });
      processes.push(started);
      return started;
    };
    let server = start();
    const origin = server.origin;
    await untilHealthy(origin);
    const call = async (method: string, path: string, body?: unknown) => {
      const response = await fetch(`${origin}${path}`, {
        method,
        headers: { 'X-API-Key': API_KEY, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(60_000),
      });
      const text = await response.text();
      return { status: response.status, body: text ? JSON.parse(text) : null };
    };
    const recipients = Array.from({ length: CLIENTS }, (_, client) => Keypair.fromSeed(createHash('sha256').update(`flush-kill:${client}`).digest()).publicKey);
    for (const recipient of recipients)
      expect((await call('POST', '/__emulator/faucet', { address: recipient.toBase58(), mint: USDC.toBase58(), amount: '1' })).status).toBe(200);

    const acknowledged: { client: number; amount: bigint }[] = [];
    let overlapped = false;
    let rounds = 0;
    let sentPerClient = 0;
    for (let round = 0; round < ROUNDS && !overlapped && Date.now() < deadline; round += 1) {
      rounds += 1;
      const perClient = Math.min(RELAYS << round, MAX_RELAYS) / CLIENTS;
      expect((await call('POST', '/__emulator/queue/pause')).status).toBe(200);
      await Promise.all(
        recipients.map(async (recipient, client) => {
          for (let index = 0; index < perClient; index += 1) {
            const { body: blockhash } = await call('GET', '/api/Transaction/blockhash');
            // Unique amounts: no two transactions alike.
            const amount = BigInt(1 + client + CLIENTS * (sentPerClient + index));
            const signedTransaction = build({
              instructions: [transferInstruction(ALICE, recipient, amount)],
              blockhash: blockhash.Blockhash,
              signers: [ALICE],
            });
            const { status } = await call('POST', '/api/Transaction/send', { signedTransaction });
            expect(status).toBe(200);
            acknowledged.push({ client, amount });
          }
        }),
      );
      sentPerClient += perClient;
      const logged = server.output().length;
      let answered = false;
      const flush = call('POST', '/__emulator/queue/flush').then(
        () => (answered = true),
        () => (answered = true),
      );
      // A snapshot starts every second while changes come in: kill at the first one that starts before the flush answers.
      while (!answered && Date.now() < deadline) {
        if (/state snapshot started/.test(server.output().slice(logged))) {
          expect(await server.stop('SIGKILL')).toBe('SIGKILL');
          overlapped = true;
          break;
        }
        await new Promise((resolve) => setImmediate(resolve));
      }
      await flush;
    }
    expect(overlapped).toBe(true);

    server = start();
    await untilHealthy(origin);
    // The restarted queue holds whatever the flush had not reached: let it run.
    expect((await call('POST', '/__emulator/queue/flush')).status).toBe(200);
    const journal = (await call('GET', '/__emulator/journal/transactions?operation=send')).body.transactions as { status: string }[];
    expect(journal.filter((entry) => entry.status !== 'processed')).toEqual([]);
    expect(journal).toHaveLength(acknowledged.length);
    for (const [client, recipient] of recipients.entries()) {
      const { body } = await call('GET', `/__emulator/accounts/${ata(recipient).toBase58()}`);
      const received = acknowledged.filter((relay) => relay.client === client).reduce((sum, relay) => sum + relay.amount, 0n);
      expect(Buffer.from(body.data, 'base64').readBigUInt64LE(64)).toBe(1n + received);
    }
    console.log(`kill -9 mid-flush and mid-snapshot: round ${rounds}, ${acknowledged.length} relays acknowledged, all landed once after the restart`);
    expect(await server.stop('SIGTERM')).toBe(0);
  }, 200_000);
});
