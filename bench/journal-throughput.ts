/**
 * What the state file's write-ahead journal costs: 32 concurrent clients relay USDC transfers
 * through the emulator's fetch until every one is settled, with no state file, and with one
 * (every change journaled and fdatasync'd, group-committed, before its answer). Rounds alternate
 * the two, and the figure is the median of the per-round ratios (journaled / plain).
 */
import { createTransferInstruction, getAssociatedTokenAddressSync } from '@solana/spl-token';
import { PublicKey, Transaction } from '@solana/web3.js';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRelayEmulator } from '../src/index.ts';
import { keypairOf, loadFixtures } from '../src/fixtures/load-fixtures.ts';
import { StateFile } from '../src/server/state-file.ts';
import { median, type Figure } from './stats.ts';

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
        const tx = new Transaction({ feePayer: feePayer.publicKey, blockhash, lastValidBlockHeight: 0 }).add(createTransferInstruction(source, source, alice.publicKey, BigInt(amount)));
        tx.partialSign(alice);
        const signedTransaction = tx.serialize({ requireAllSignatures: false, verifySignatures: false }).toString('base64');
        const response = await emulator.fetch(new Request(`${emulator.config.baseUrl}/Transaction/send`, { method: 'POST', headers, body: JSON.stringify({ signedTransaction }) }));
        if (response.status !== 200) throw new Error(`relay refused: ${await response.text()}`);
      }
    }),
  );
  await emulator.settle();
  await emulator.services.changes.durable();
  const seconds = (performance.now() - started) / 1000;
  const processed = emulator.services.records.all().filter((record) => record.status === 'processed').length;
  if (processed !== count) throw new Error(`${count - processed} relayed transfers did not succeed`);
  const journalBytes = directory ? readdirSync(directory).reduce((sum, name) => sum + statSync(join(directory, name)).size, 0) : 0;
  await file?.close();
  await emulator.close();
  if (directory) rmSync(directory, { recursive: true, force: true });
  return { rate: count / seconds, journalBytes };
}

export async function journalThroughput(count: number, rounds: number): Promise<Figure> {
  const ratios: number[] = [];
  const plain: number[] = [];
  const journaled: number[] = [];
  let bytesPerRelay = 0;
  for (let round = 0; round < rounds; round += 1) {
    // Alternate which goes first, so that a slow stretch of the machine does not always land on one side.
    const first = round % 2 === 0;
    const a = await relayRate(count, !first);
    const b = await relayRate(count, first);
    const [without, withJournal] = first ? [a, b] : [b, a];
    plain.push(without.rate);
    journaled.push(withJournal.rate);
    ratios.push(withJournal.rate / without.rate);
    bytesPerRelay = withJournal.journalBytes / count;
  }
  const ratio = median(ratios);
  return {
    name: `relay throughput with the state file's journal (${CLIENTS} clients)`,
    measured: `${median(journaled).toFixed(0)}/s journaled`,
    baseline: `${median(plain).toFixed(0)}/s no state file`,
    ratio,
    target: '≥ 0.8',
    meets: ratio >= 0.8,
    note: `every change fdatasync'd before its answer, group commit; about ${(bytesPerRelay / 1024).toFixed(1)} KB of journal per relay (before compaction)`,
  };
}
