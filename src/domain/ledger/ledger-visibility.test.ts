/**
 * A processed transaction's writes become visible to readers in the same step as its outcome is
 * recorded (the commit: records, history, the token-account index), never before: a reader that
 * saw a new token account and then asked the index who owns it found nobody (the conformance
 * kit's gasless-wallet check, under CPU load).
 */
import { Keypair, SystemProgram, TransactionMessage, VersionedTransaction } from '@solana/web3.js';
import { describe, expect, it } from 'vitest';
import { ENGINES, ENGINE_NAMES } from './engines.ts';
import { gatedAfterExecute } from './gated-engine.test-support.ts';
import { Ledger } from './ledger.ts';

const payer = Keypair.fromSeed(new Uint8Array(32).fill(11));
const recipient = Keypair.fromSeed(new Uint8Array(32).fill(12)).publicKey;

describe.each(ENGINE_NAMES)('Ledger over %s', (engine) => {
  it('shows a transaction’s writes only once its outcome is committed', async () => {
    const gated = gatedAfterExecute(ENGINES[engine]);
    const ledger = await Ledger.create({
      engine: gated.factory,
      genesis: [
        { address: payer.publicKey, account: { lamports: 10_000_000_000n, owner: SystemProgram.programId, data: new Uint8Array(), executable: false } },
      ],
      genesisTime: new Date('2026-01-01T00:00:00Z'),
      slotMs: 400,
    });
    try {
      const message = new TransactionMessage({
        payerKey: payer.publicKey,
        recentBlockhash: (await ledger.latestBlockhash()).blockhash,
        instructions: [SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: recipient, lamports: 1_000_000 })],
      }).compileToLegacyMessage();
      const tx = new VersionedTransaction(message);
      tx.sign([payer]);

      let committed = false;
      const processing = ledger.process(tx, () => (committed = true));
      await gated.readingBack;
      // The engine holds the transfer and the ledger is reading it back, not recorded yet. What a reader sees now
      // must agree with what is committed (nothing yet), and it must not wait for the commit.
      const seen: { lamports: bigint; committed: boolean }[] = [];
      const during = Promise.all([recipient, payer.publicKey].map((key) => ledger.getAccount(key))).then(([to, from]) => {
        seen.push({ lamports: to?.lamports ?? 0n, committed }, { lamports: from?.lamports ?? 0n, committed });
      });
      await new Promise((resolve) => setImmediate(resolve));
      const answeredBeforeCommit = seen.length > 0;
      gated.open();
      const result = await processing;
      await during;

      expect(seen).toEqual([
        { lamports: 0n, committed: false },
        { lamports: 10_000_000_000n, committed: false },
      ]);
      expect(answeredBeforeCommit).toBe(true);
      expect(result.err).toBeNull();
      expect(committed).toBe(true);
      expect((await ledger.getAccount(recipient))?.lamports).toBe(1_000_000n);
      expect((await ledger.getAccount(payer.publicKey))?.lamports).toBe(10_000_000_000n - 1_000_000n - result.fee);
    } finally {
      gated.open();
      await ledger.close();
    }
  });
});
