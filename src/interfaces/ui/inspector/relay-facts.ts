import type { Submission } from '../../../domain/store/submissions.ts';
import { decodeWire } from './decoded-transaction.ts';

/** What the relay list filters by (its wallet and mint filters): the addresses and mints a row names, found once per record. */
export const NO_FACTS = { addresses: new Set<string>(), mints: new Set<string>() };
const factsBySubmission = new WeakMap<Submission, { addresses: Set<string>; mints: Set<string> }>();

/** The addresses and mints a record names: its decoded message, and the owners and mints of the token balances the ledger reported. */
export function submissionFacts(submission: Submission): { addresses: ReadonlySet<string>; mints: ReadonlySet<string> } {
  let facts = factsBySubmission.get(submission);
  if (!facts) {
    const decoded = wireFacts(submission.wire);
    facts = { addresses: new Set(decoded.addresses), mints: new Set(decoded.mints) };
    for (const balance of [...(submission.ledger?.preTokenBalances ?? []), ...(submission.ledger?.postTokenBalances ?? [])]) {
      facts.mints.add(balance.mint);
      facts.addresses.add(balance.owner);
    }
    factsBySubmission.set(submission, facts);
  }
  return facts;
}

/** The addresses and mints a transaction's bytes name (base64), or none when they do not decode. */
export function wireFacts(base64: string): { addresses: ReadonlySet<string>; mints: ReadonlySet<string> } {
  return decodeWire(new Uint8Array(Buffer.from(base64, 'base64'))) ?? NO_FACTS;
}
