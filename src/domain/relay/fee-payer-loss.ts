import type { PublicKey, VersionedTransaction } from '@solana/web3.js';
import { addressOf } from '../../base/crypto/key-cache.ts';
import { RelayError } from '../../base/errors/relay-error.ts';
import type { LedgerAccount } from '../ledger/engine.ts';
import type { Ledger } from '../ledger/ledger.ts';
import { decodeTokenAccount } from '../ledger/token-accounts.ts';
import type { PolicyVerdict } from './policy.ts';

/**
 * Rule F3 under `faithful`: an instruction of the app's own program lists the fee payer, so the
 * program may spend it through a CPI (Anchor's `payer = …` pays rent so). The transaction is
 * simulated on the ledger, as Kora weighs a fee payer's outflow against `max_allowed_lamports`:
 * - the fee payer's lamports lost beyond the fee are sponsored up to `maxAppProgramLamports`, and
 *   recorded as the break F3 with that exposure; past the cap it is refused;
 * - anything else taken from it is refused whatever the amount: tokens out of a token account it
 *   owns or is the delegate of, or the fee payer itself given to another program.
 * A simulation that fails takes nothing (preflight keeps it off the ledger). An engine that cannot
 * show a simulation's accounts (bankrun) cannot weigh it: refused, naming the engine.
 * Mutates `verdict` (its breaks and exposure) when it passes.
 */
export async function weighFeePayerLoss(
  ledger: Ledger,
  tx: VersionedTransaction,
  bytes: Uint8Array,
  feePayer: PublicKey,
  verdict: PolicyVerdict,
  cap: bigint,
): Promise<void> {
  const instructions = verdict.feePayerCalls.join(', ');
  const refuse = (detail: string): never => {
    throw new RelayError('FEE_PAYER_MISUSE', `Instruction ${instructions} gives the fee payer to the app's program, and ${detail}`, { rule: 'F3' });
  };
  const keys = tx.message.staticAccountKeys;
  const before = await Promise.all(keys.map((key) => ledger.getAccount(key)));
  // The fee payer's token accounts this transaction can write: their tokens may not move.
  const payer = addressOf(feePayer);
  const tokenAccounts: { key: PublicKey; amount: bigint }[] = [];
  keys.forEach((key, index) => {
    const token = tx.message.isAccountWritable(index) ? decodeTokenAccount(before[index] ?? null) : null;
    if (token && (token.owner === payer || token.delegate === payer)) tokenAccounts.push({ key, amount: token.amount });
  });
  const simulated = await ledger.simulateAccounts(tx, bytes, [feePayer, ...tokenAccounts.map(({ key }) => key)]);
  if (simulated === null) {
    return refuse(`the ${ledger.engineName} engine cannot show what a simulation takes from it (litesvm can), so the relay cannot weigh it.`);
  }
  if (simulated.result.err !== null) return;
  const [payerAfter, ...tokensAfter] = simulated.accounts;
  const payerBefore = before[0] as LedgerAccount;
  if (!payerAfter?.owner.equals(payerBefore.owner) || payerAfter.data.length !== payerBefore.data.length) {
    return refuse('the simulation shows the fee payer closed, assigned to another program or given data.');
  }
  tokensAfter.forEach((after, index) => {
    const { key, amount } = tokenAccounts[index]!;
    const left = decodeTokenAccount(after)?.amount ?? 0n;
    if (left < amount) refuse(`the simulation shows ${amount - left} tokens leaving ${addressOf(key)}, a token account of the fee payer.`);
  });
  const loss = payerBefore.lamports - payerAfter.lamports - ledger.feeFor(tx);
  if (loss <= 0n) return;
  if (loss > cap) {
    return refuse(`the simulation shows it losing ${loss} lamports beyond the fee, more than the ${cap} the relay sponsors (policy.maxAppProgramLamports).`);
  }
  verdict.strictBreaks.push({
    rule: 'F3',
    code: 'FEE_PAYER_MISUSE',
    detail: `Instruction ${instructions} gives the fee payer to the app's program, which takes ${loss} lamports from it beyond the fee.`,
    account: addressOf(feePayer),
    exposure: loss,
  });
  verdict.sponsorExposure += loss;
}
