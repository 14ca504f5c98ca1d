/**
 * What the state file's write-ahead journal costs: 32 concurrent clients relay USDC transfers
 * through the emulator's fetch until every one is settled, with no state file, and with one
 * (every change journaled and fdatasync'd, group-committed, before its answer), in rounds of one
 * of each (bench/figures.ts makes the figure).
 */
import { createTransferInstruction, getAssociatedTokenAddressSync } from '@solana/spl-token';
import { PublicKey, Transaction } from '@solana/web3.js';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRelayEmulator } from '../src/index.ts';
import { keypairOf, loadFixtures } from '../src/domain/fixtures/load-fixtures.ts';
import { StateFile } from '../src/adapters/server/state-file.ts';
import type { JournalMeasurement } from './figures.ts';

const CLIENTS = 32;
const fixtures = loadFixtures();
const feePayer = keypairOf(fixtures.relay.feePayer);
const alice = keypairOf({ publicKey: fixtures.wallets[0]!.publicKey, secretKey: fixtures.wallets[0]!.secretKey! });
const source = getAssociatedTokenAddressSync(new PublicKey(fixtures.mints.find((mint) => mint.symbol === 'USDC')!.address), alice.publicKey, true);

/** Relays/s of `count` transfers from 32 concurrent clients, answered and settled. */
async function relayRate(count: number, journaled: boolean): Promise<{ rate: number; journalBytes: number }> {
  const emulator = await createRelayEmulator({ journalLimit: 0 });
  const directory = journaled ? mkdtempSync(join(tmpdir(), 'relay-emulator-bench-journal-')) : null;
  const file = directory ? new StateFile({ path: join(directory, 'state.json'), emulator, intervalMs: 0 }) : null;
  await file?.open();
  const headers = { 'X-API-Key': emulator.config.apiKey, 'Content-Type': 'application/json' };
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      for (let amount = ++next; amount <= count; amount = ++next) {
        const { blockhash } = await emulator.services.ledger.latestBlockhash();
        const tx = new Transaction({ feePayer: feePayer.publicKey, blockhash, lastValidBlockHeight: 0 }).add(
          createTransferInstruction(source, source, alice.publicKey, BigInt(amount)),
        );
        tx.partialSign(alice);
        const signedTransaction = tx.serialize({ requireAllSignatures: false, verifySignatures: false }).toString('base64');
        const response = await emulator.fetch(
          new Request(`${emulator.config.baseUrl}/Transaction/send`, { method: 'POST', headers, body: JSON.stringify({ signedTransaction }) }),
        );
        if (response.status !== 200) throw new Error(`relay refused: ${await response.text()}`);
      }
    }),
  );
  await emulator.settle();
  await emulator.services.changes.durable();
  const seconds = (performance.now() - started) / 1000;
  const processed = emulator.services.submissions.all().filter((record) => record.status === 'processed').length;
  if (processed !== count) throw new Error(`${count - processed} relayed transfers did not succeed`);
  const journalBytes = directory ? readdirSync(directory).reduce((sum, name) => sum + statSync(join(directory, name)).size, 0) : 0;
  await file?.close();
  await emulator.close();
  if (directory) rmSync(directory, { recursive: true, force: true });
  return { rate: count / seconds, journalBytes };
}

/** Rounds alternate which side goes first, so that a slow stretch of the machine does not always land on one side. */
export async function measureJournalThroughput(transfers: number, rounds: number): Promise<JournalMeasurement> {
  const plainRates: number[] = [];
  const journaledRates: number[] = [];
  let journalBytesPerRelay = 0;
  for (let round = 0; round < rounds; round += 1) {
    const journalFirst = round % 2 === 1;
    const a = await relayRate(transfers, journalFirst);
    const b = await relayRate(transfers, !journalFirst);
    const [plain, journaled] = journalFirst ? [b, a] : [a, b];
    plainRates.push(plain.rate);
    journaledRates.push(journaled.rate);
    journalBytesPerRelay = journaled.journalBytes / transfers;
  }
  return { clients: CLIENTS, plainRates, journaledRates, journalBytesPerRelay };
}
