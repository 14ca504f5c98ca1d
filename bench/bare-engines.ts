/**
 * Each engine bare, as a user of that library alone would run it, seeded with the emulator's
 * genesis: the baselines of the throughput and start-up figures.
 *
 * - LiteSVM: its native binding with its defaults (signatures and blockhash checked, history
 *   kept), fed the wire bytes. The binding is the engine's floor: the kit wrapper would add a
 *   decode and an encode per transaction.
 * - bankrun: `start()`, fed web3.js transactions (its API takes objects).
 */
import { VersionedTransaction } from '@solana/web3.js';
import { Account, FailedTransactionMetadata, LiteSvm } from 'litesvm/dist/internal.js';
import { start } from 'solana-bankrun';
import type { EngineName } from '../src/domain/ledger/engines.ts';
import { genesis } from './transfers.ts';

export interface BareEngine {
  latestBlockhash(): Promise<string>;
  /** Turns pre-built wire bytes into what the engine's API takes (done before timing). */
  prepare(bytes: Uint8Array): unknown;
  /** Processes one prepared transaction; throws when it fails. */
  process(prepared: unknown): Promise<void>;
}

export async function startBareEngine(engine: EngineName): Promise<BareEngine> {
  if (engine === 'litesvm') {
    const svm = new LiteSvm();
    for (const { address, account } of genesis)
      svm.setAccount(address.toBytes(), new Account(account.lamports, account.data, account.owner.toBytes(), account.executable, 0n));
    return {
      latestBlockhash: async () => svm.latestBlockhash(),
      prepare: (bytes) => bytes,
      async process(prepared) {
        const result = svm.sendLegacyTransaction(prepared as Uint8Array);
        if (result instanceof FailedTransactionMetadata) throw new Error(`bare litesvm transfer failed: ${result.toString()}`);
      },
    };
  }
  const context = await start(
    [],
    genesis.map(({ address, account }) => ({ address, info: { ...account, lamports: Number(account.lamports), rentEpoch: 0 } })),
  );
  return {
    latestBlockhash: async () => (await context.banksClient.getLatestBlockhash())![0],
    prepare: (bytes) => VersionedTransaction.deserialize(bytes),
    async process(prepared) {
      const result = await context.banksClient.tryProcessTransaction(prepared as VersionedTransaction);
      if (result.result) throw new Error(`bare bankrun transfer failed: ${result.result}`);
    },
  };
}
