/**
 * Where the time of one relay call goes: each stage of the pipeline timed on its own over the same
 * transactions, and the whole call through fetch for comparison.
 */
import { createTransferInstruction, getAssociatedTokenAddressSync } from '@solana/spl-token';
import { PublicKey, Transaction } from '@solana/web3.js';
import { createRelayEmulator } from '../src/index.ts';
import { createEd25519Signer } from '../src/crypto/ed25519.ts';
import { keypairOf, loadFixtures } from '../src/fixtures/load-fixtures.ts';
import { checkPolicy } from '../src/relay/policy.ts';
import { resolvePolicy } from '../src/relay/policy-options.ts';
import { checkSignatures, signAsFeePayer } from '../src/relay/signatures.ts';
import { decodeWireTransaction } from '../src/relay/wire.ts';
import type { StageMeasurement } from './figures.ts';

/** Times each stage over `count` transfers; stageBreakdown (figures.ts) makes the table. */
export async function measureStages(count: number): Promise<StageMeasurement> {
  const fixtures = loadFixtures();
  const feePayer = keypairOf(fixtures.relay.feePayer);
  const signer = createEd25519Signer(feePayer.secretKey);
  const alice = keypairOf({ publicKey: fixtures.wallets[0]!.publicKey, secretKey: fixtures.wallets[0]!.secretKey! });
  const source = getAssociatedTokenAddressSync(new PublicKey(fixtures.mints[0]!.address), alice.publicKey, true);
  const emulator = await createRelayEmulator({ queue: { mode: 'manual' } });
  const { ledger } = emulator.services;
  const totals = new Map<string, number>();
  const add = (stage: string, started: number) => totals.set(stage, (totals.get(stage) ?? 0) + (performance.now() - started) * 1000);

  for (let index = 0; index < count; index += 1) {
    let started = performance.now();
    const { blockhash } = await ledger.latestBlockhash();
    add('client: blockhash', started);
    started = performance.now();
    const tx = new Transaction({ feePayer: feePayer.publicKey, blockhash, lastValidBlockHeight: 0 }).add(createTransferInstruction(source, source, alice.publicKey, BigInt(index + 1)));
    tx.partialSign(alice);
    const base64 = tx.serialize({ requireAllSignatures: false, verifySignatures: false }).toString('base64');
    add('client: build + sign (web3.js)', started);
    started = performance.now();
    const wire = decodeWireTransaction(base64);
    add('relay: decode', started);
    started = performance.now();
    checkSignatures(wire, signer.publicKey, { maxSignatures: 6 });
    add('relay: verify client signatures', started);
    started = performance.now();
    signAsFeePayer(wire, signer);
    add('relay: fee-payer signature', started);
    started = performance.now();
    await checkPolicy(wire.tx, { feePayer: feePayer.publicKey, operation: 'send', options: resolvePolicy(), getAccount: (address) => ledger.getAccount(address), tokenAccountRent: 2039280n });
    add('relay: policy', started);
    started = performance.now();
    await ledger.process(wire.tx);
    add('ledger: process (bankrun + balances)', started);
  }
  await emulator.close();
  return { calls: count, totalMicros: totals };
}
