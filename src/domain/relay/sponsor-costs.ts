import type { Submission } from '../store/submissions.ts';

/** A token payment a Kora relay took from its user: the mint, the amount in base units, and its lamport value at Kora's price. */
export interface TokenPayment {
  mint: string;
  amount: bigint;
  lamports: bigint;
}

/** What sponsored transactions cost their fee payer, added up (one label's, or the totals). */
export interface SponsorCost {
  transactions: number;
  /** Fees the fee payer paid (base and priority). */
  feeLamports: bigint;
  /** What else left the fee payer: rent it fronted (token accounts, PDAs an Anchor `payer` makes), less what came back (a close's refund). */
  rentLamports: bigint;
  /** The fee payer's net loss: fees plus rent, less refunds (its balance before, less after). */
  sponsorLamports: bigint;
  computeUnits: bigint;
  /** Kora relays paid in tokens. */
  paidTokens: TokenPayment[];
}

export function emptyCost(): SponsorCost {
  return { transactions: 0, feeLamports: 0n, rentLamports: 0n, sponsorLamports: 0n, computeUnits: 0n, paidTokens: [] };
}

/**
 * One landed transaction's cost to its fee payer, when that is a sponsor (the relay's fee payer,
 * Kora's signers): its balance before and after, and the fee; null for one that did not land or
 * that someone else paid for.
 */
export function sponsorCostOf(submission: Submission, sponsors: ReadonlySet<string>): SponsorCost | null {
  const record = submission.ledger;
  if (!record || record.landed === false) return null;
  const payer = record.accountKeys[0];
  if (payer === undefined || !sponsors.has(payer)) return null;
  const spent = record.preBalances[0]! - record.postBalances[0]!;
  return {
    transactions: 1,
    feeLamports: record.fee,
    rentLamports: spent - record.fee,
    sponsorLamports: spent,
    computeUnits: record.computeUnitsConsumed,
    paidTokens: submission.payments ?? [],
  };
}

export function addCost(total: SponsorCost, cost: SponsorCost): SponsorCost {
  return {
    transactions: total.transactions + cost.transactions,
    feeLamports: total.feeLamports + cost.feeLamports,
    rentLamports: total.rentLamports + cost.rentLamports,
    sponsorLamports: total.sponsorLamports + cost.sponsorLamports,
    computeUnits: total.computeUnits + cost.computeUnits,
    paidTokens: mergePayments(total.paidTokens, cost.paidTokens),
  };
}

function mergePayments(a: TokenPayment[], b: TokenPayment[]): TokenPayment[] {
  const byMint = new Map(a.map((payment) => [payment.mint, { ...payment }]));
  for (const payment of b) {
    const known = byMint.get(payment.mint);
    if (known) {
      known.amount += payment.amount;
      known.lamports += payment.lamports;
    } else byMint.set(payment.mint, { ...payment });
  }
  return [...byMint.values()];
}

/** Every sponsored transaction's cost, by the label each was accepted under (`(unlabelled)` for none). */
export function sponsorCostsByLabel(submissions: Iterable<Submission>, sponsors: ReadonlySet<string>): Map<string, SponsorCost> {
  const byLabel = new Map<string, SponsorCost>();
  for (const submission of submissions) {
    const cost = sponsorCostOf(submission, sponsors);
    if (cost === null) continue;
    const label = submission.label ?? UNLABELLED;
    byLabel.set(label, addCost(byLabel.get(label) ?? emptyCost(), cost));
  }
  return byLabel;
}

export const UNLABELLED = '(unlabelled)';
