import type { components } from '../../generated/relay.ts';
import type { QueryParameters } from '../../domain/openapi/binding.ts';
import type { Submission, Submissions } from '../../domain/store/submissions.ts';
import { type AppProgramNames, describeLedgerError, NO_APP_PROGRAMS, namedInstructions } from '../rpc/program-errors.ts';

/** A relayed (or RPC-sent) transaction as the transaction journal shows it (the contract's EmulatorTransactionRecord). */
export type TransactionJournalEntry = components['schemas']['EmulatorTransactionRecord'];

/** What the transaction journal can be filtered by (the query of GET /__emulator/journal/transactions). */
export type TransactionFilter = QueryParameters<'emulatorTransactionJournal'>;

/**
 * The transaction journal is a view of the submissions, oldest first. Each entry links to the web
 * UI's detail view of its signature (`uiUrl`, the UI's root).
 */
export function transactionJournal(
  submissions: Submissions,
  filter: TransactionFilter = {},
  uiUrl: string,
  programs: AppProgramNames = NO_APP_PROGRAMS,
): TransactionJournalEntry[] {
  const source = filter.signature === undefined ? submissions.all() : [submissions.get(filter.signature)].filter((submission) => submission !== undefined);
  return source
    .filter(
      (submission) =>
        (filter.status === undefined || submission.status === filter.status) && (filter.operation === undefined || submission.origin === filter.operation),
    )
    .map((submission) => toEntry(submission, uiUrl, programs));
}

/** The journal's `operation` is the submission's origin: the relay operation that accepted it, or `rpc` or `legacy`. */
function toEntry(submission: Submission, uiUrl: string, programs: AppProgramNames): TransactionJournalEntry {
  const ledger = submission.ledger;
  const err = ledger?.err ?? null;
  return {
    signature: submission.signature,
    operation: submission.origin,
    status: submission.status,
    commitment: submission.commitment,
    err: ledger?.err ?? (submission.injectedError === null ? null : { InjectedError: submission.injectedError }),
    injectedError: submission.injectedError,
    // In words, as the web UI says it: the failing instruction and its program's error by name (an IDL's, Anchor's own, SPL's).
    errorText: err !== null ? describeLedgerError(err, namedInstructions(Buffer.from(submission.wire, 'base64')), programs) : submission.injectedError,
    logs: ledger?.logs ?? [],
    computeUnitsConsumed: ledger ? Number(ledger.computeUnitsConsumed) : null,
    fee: ledger ? Number(ledger.fee) : null,
    slot: ledger ? Number(ledger.slot) : null,
    blockTime: ledger?.blockTime ?? null,
    receivedAt: submission.receivedAt,
    strictBreaks: submission.strictBreaks.map((broken) => ({ ...broken, exposure: Number(broken.exposure) })),
    sponsorExposure: Number(submission.sponsorExposure),
    explorerUrl: `${uiUrl}tx/${submission.signature}`,
  };
}
