/**
 * gill 0.14 (what altude-js is built on) builds a relayed token transfer as altude-js's gasstation.ts
 * does: `buildTransferTokensTransaction` with the relay's fee payer as a noop signer, gill's own
 * 31,000-unit budget, a CreateIdempotent of the recipient's account and the transfer. Its cost
 * depends on the recipient: finding the account's address costs 1,500 units more for each bump
 * below 255. Sixteen recipients whose bumps run from 255 down to 240 (fixed seeds, found once):
 * with p-token (the default engine) bumps 255 to 244 fit the budget (1 recipient in 4,096 does not);
 * with bankrun's 2024 SPL Token only 255 to 252 do (1 in 16 does not). Preflight refuses the others:
 * they end Failed and cost the fee payer nothing.
 */
import { createHash } from 'node:crypto';
import { Keypair, PublicKey } from '@solana/web3.js';
import { address, createKeyPairSignerFromBytes, createNoopSigner, transactionToBase64WithSigners } from 'gill';
import { buildTransferTokensTransaction } from 'gill/programs/token';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRelayEmulator, type RelayEmulator } from '../src/index.ts';
import { ALICE, USDC, ata } from './support/transactions.ts';

/** The seed index (`gill-bump-<n>`) of the first owner whose USDC account has each bump, 255 down to 240. */
const SEED_OF_BUMP: Record<number, number> = {
  255: 0,
  254: 2,
  253: 10,
  252: 14,
  251: 4,
  250: 31,
  249: 179,
  248: 24,
  247: 279,
  246: 287,
  245: 2055,
  244: 1140,
  243: 4135,
  242: 2282,
  241: 76950,
  240: 69956,
};
const ATA_PROGRAM = new PublicKey('ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL');
const TOKEN = new PublicKey('TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA');

const recipientOfSeed = (seed: number) => Keypair.fromSeed(createHash('sha256').update(`gill-bump-${seed}`).digest()).publicKey;

describe('gill’s transfer with its own budget, relayed, to recipients of every bump from 255 to 240', () => {
  let emulator: RelayEmulator;
  const outcomes = new Map<number, { status: string; err: unknown; landed: boolean | undefined; units: bigint | null }>();
  let feePayerBefore = 0n;
  let feePayerAfter = 0n;
  let spentOnLanded = 0n;

  beforeAll(async () => {
    emulator = await createRelayEmulator();
    const feePayer = createNoopSigner(address(emulator.config.feePayer));
    const authority = await createKeyPairSignerFromBytes(ALICE.secretKey);
    const lamportsOf = async (key: string) => (await emulator.services.ledger.getAccount(new PublicKey(key)))!.lamports;
    feePayerBefore = await lamportsOf(emulator.config.feePayer);
    for (const [bump, seed] of Object.entries(SEED_OF_BUMP)) {
      const recipient = recipientOfSeed(seed);
      // The fixed seeds are what they claim to be.
      expect(PublicKey.findProgramAddressSync([recipient.toBuffer(), TOKEN.toBuffer(), USDC.toBuffer()], ATA_PROGRAM)[1]).toBe(Number(bump));
      const { blockhash, lastValidBlockHeight } = await emulator.services.ledger.latestBlockhash();
      const transaction = await buildTransferTokensTransaction({
        feePayer,
        latestBlockhash: { blockhash: blockhash as never, lastValidBlockHeight },
        mint: address(USDC.toBase58()),
        authority,
        amount: 1_000,
        destination: address(recipient.toBase58()),
      });
      const signedTransaction = await transactionToBase64WithSigners(transaction);
      const response = await emulator.fetch(
        new Request(`${emulator.config.baseUrl}/Transaction/send`, {
          method: 'POST',
          headers: { 'X-API-Key': emulator.config.apiKey, 'Content-Type': 'application/json' },
          body: JSON.stringify({ signedTransaction }),
        }),
      );
      const receipt = (await response.json()) as { signature: string };
      expect(response.status, JSON.stringify(receipt)).toBe(200);
      await emulator.settle();
      const submission = emulator.services.submissions.get(receipt.signature)!;
      outcomes.set(Number(bump), {
        status: submission.status,
        err: submission.ledger?.err ?? null,
        landed: submission.ledger?.landed,
        units: submission.ledger?.computeUnitsConsumed ?? null,
      });
      if (submission.ledger?.landed) spentOnLanded += submission.ledger.preBalances[0]! - submission.ledger.postBalances[0]!;
    }
    feePayerAfter = await lamportsOf(emulator.config.feePayer);
  });
  afterAll(() => emulator.close());

  it('lands each whose cost fits gill’s 31,000 units, 1,500 more per bump, and refuses the rest at preflight at no cost', async () => {
    const bumps = [...outcomes.keys()].sort((a, b) => b - a);
    expect(bumps).toEqual([255, 254, 253, 252, 251, 250, 249, 248, 247, 246, 245, 244, 243, 242, 241, 240]);
    // Finding the account's address costs 1,500 units a bump tried below 255 (the ATA program's
    // find_program_address): the budget runs out below 244 on p-token (1 recipient in 4,096) and
    // below 252 on bankrun's 2024 SPL Token (1 in 16).
    const lowest = emulator.config.engine === 'litesvm' ? 244 : 252;
    for (const bump of bumps) {
      const outcome = outcomes.get(bump)!;
      if (bump >= lowest) {
        expect(outcome, `bump ${bump}`).toMatchObject({ status: 'processed', err: null, landed: true });
        expect(outcome.units, `bump ${bump}`).toBe(outcomes.get(255)!.units! + 1_500n * BigInt(255 - bump));
      } else {
        // Refused by preflight: it never lands and costs the fee payer nothing. The runtime names the
        // budget running out as ProgramFailedToComplete or ComputationalBudgetExceeded, at the CreateIdempotent (1) or the transfer after it (2).
        expect(outcome, `bump ${bump}`).toMatchObject({
          status: 'failed',
          landed: false,
          err: { InstructionError: [expect.any(Number), expect.stringMatching(/^(ComputationalBudgetExceeded|ProgramFailedToComplete)$/)] },
        });
      }
    }
    expect(outcomes.get(lowest)!.units!).toBeLessThanOrEqual(31_000n);
    // The fee payer paid for what landed (fees and the new accounts' rent), and nothing for what did not.
    expect(feePayerBefore - feePayerAfter).toBe(spentOnLanded);
    expect(await emulator.services.ledger.getAccount(ata(ALICE.publicKey))).not.toBeNull();
  });
});
