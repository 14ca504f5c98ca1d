/**
 * bankrun rebinds every transaction to its own blockhash, so two transactions that differ only by
 * their blockhash are one message to it: the second would be AlreadyProcessed, a twin, not a replay
 * (replays are the emulator's records' to refuse). Its execute runs a twin again on bankrun's next
 * blockhash; so must its simulate, or preflight would refuse the twin (found flaky in
 * test/conformance-faults.test.ts: two equal self-transfers a few ms apart). Here the twin is the
 * transaction just executed, simulated again at once: without the engine's own retry most rounds
 * answer AlreadyProcessed.
 */
import { TransactionInstruction, TransactionMessage, VersionedTransaction } from '@solana/web3.js';
import { describe, expect, it } from 'vitest';
import { genesisAccounts, keypairOf, loadFixtures } from '../fixtures/load-fixtures.ts';
import { PROGRAMS } from '../relay/programs.ts';
import { ENGINES } from './engines.ts';

describe('the bankrun engine', () => {
  it('simulates a twin of a message it just executed, as it executes one: never AlreadyProcessed', async () => {
    const fixtures = loadFixtures();
    const engine = await ENGINES.bankrun(genesisAccounts(fixtures));
    try {
      const payer = keypairOf(fixtures.relay.feePayer);
      const outcomes: (string | null)[] = [];
      // Executed, then simulated again at once, 20 times: most pairs fall within one bankrun blockhash.
      for (let round = 0; round < 20; round += 1) {
        const memo = new TransactionInstruction({ programId: PROGRAMS.memo, keys: [], data: Buffer.from(`twin ${round}`) });
        const tx = new VersionedTransaction(
          new TransactionMessage({
            payerKey: payer.publicKey,
            recentBlockhash: await engine.currentBlockhash(),
            instructions: [memo],
          }).compileToLegacyMessage(),
        );
        tx.sign([payer]);
        const bytes = tx.serialize();
        const executed = await engine.execute({ tx, bytes });
        const simulated = await engine.simulate({ tx, bytes });
        outcomes.push(JSON.stringify(executed.error), JSON.stringify(simulated.error));
      }
      expect(new Set(outcomes)).toEqual(new Set(['null']));
    } finally {
      await engine.close();
    }
  });
});
