import type { VersionedTransaction } from '@solana/web3.js';
import { RelayError } from '../../base/errors/relay-error.ts';
import type { Ledger, LedgerTransaction } from '../ledger/ledger.ts';
import { landedInBlock } from '../ledger/transaction-error.ts';
import type { HistoryIndex } from '../store/history-index.ts';
import type { TokenAccountIndex } from '../store/token-account-index.ts';
import type { Commitment, Submission, Submissions, TransactionOrigin } from '../store/submissions.ts';
import { memoOf } from './memo.ts';

/** One queued submission: its signature and the fully signed transaction. */
export interface SubmissionJob {
  id: string;
  tx: VersionedTransaction;
  /** `tx`'s signed wire bytes, handed to the ledger as they are. */
  bytes: Uint8Array;
  /** When it was received (performance.now()), for {@link SubmissionWorkerOptions.landingMs}. */
  receivedAtMs?: number;
}

/** The worker's hook for fault injection: a ledger error text to fail the submission with instead of submitting, or null. */
export type BeforeSubmit = (job: SubmissionJob & { origin: TransactionOrigin }) => Promise<string | null>;

export interface SubmissionWorkerOptions {
  ledger: Ledger;
  submissions: Submissions;
  history: HistoryIndex;
  tokenAccounts: TokenAccountIndex;
  /** Delay before a processed transaction counts as finalized, in ms. */
  finalizeMs: number;
  /**
   * Simulate relayed transactions before submitting them, as the real relays' RPC calls do
   * (`sendTransaction` without `skipPreflight`): one that can only fail never lands and costs the
   * fee payer nothing. RPC `sendTransaction` submissions had their own preflight, as their client
   * asked, and are not simulated again. Default true.
   */
  preflight?: boolean;
  beforeSubmit?: BeforeSubmit;
  /**
   * Where commitments lag (validator timing): the time between a transaction's arrival and its
   * landing, in whatever slot is open then, as a validator's crosses its TPU to the banking stage
   * first; so a client that sends and then subscribes (web3.js confirmTransaction) hears it land
   * rather than finding it already there. Default 0.
   */
  landingMs?: number;
}

/**
 * The queue's worker: each job goes to the ledger, its outcome to its submission, the accounts it
 * touched to history and the token-account index; then finalization is scheduled, and whoever
 * waits for the transaction is woken.
 */
export class SubmissionWorker {
  readonly #options: SubmissionWorkerOptions;
  readonly #finalizations = new Set<Promise<void>>();
  readonly #waiters = new Set<() => void>();
  /** Where commitments lag: landed transactions short of finalized, by signature, with their slot. */
  readonly #climbing = new Map<string, bigint>();
  #climbingWatched = false;

  constructor(options: SubmissionWorkerOptions) {
    this.#options = options;
  }

  /**
   * The queue callback: process → ledger → stores → finalization → waiters. Records its own
   * failures. Idempotent by signature: a job whose submission is no longer `queued` (it reached
   * an outcome, whoever queued it again) or is gone (reset) is not run.
   */
  readonly process = async (job: SubmissionJob): Promise<void> => {
    const { ledger, submissions } = this.#options;
    const submission = submissions.get(job.id);
    if (submission?.status !== 'queued') return;
    const { origin } = submission;
    const lagging = ledger.commitmentsLag;
    if (lagging && job.receivedAtMs !== undefined) await this.#landing(job.receivedAtMs);
    try {
      // Field by field: on Node 20 a property added to a spread copy takes a slow path (BENCHMARKS.md, "Measured reasons").
      const injected = (await this.#options.beforeSubmit?.({ id: job.id, tx: job.tx, bytes: job.bytes, origin })) ?? null;
      if (injected !== null) {
        submissions.update(job.id, { status: 'failed', commitment: null, ledger: null, injectedError: injected });
        return;
      }
      try {
        // The outcome is recorded inside the ledger's commit: the accounts written, the submission,
        // history and the token-account index form one unit of changes (one journal entry).
        const preflight = origin !== 'rpc' && this.#options.preflight !== false;
        await ledger.process(
          job.tx,
          (result) => {
            submissions.update(job.id, {
              status: result.err === null ? 'processed' : 'failed',
              commitment: lagging ? 'processed' : 'confirmed',
              ledger: result,
            });
            this.#index(result, job.tx);
          },
          job.bytes,
          { preflight },
        );
      } catch (error) {
        submissions.update(job.id, { status: 'failed', ledger: null, commitment: null, injectedError: `ledger failure: ${(error as Error).message}` });
        throw error;
      }
      if (lagging) this.#climb(job.id);
      else this.#scheduleFinalization(job.id);
    } finally {
      this.#notify();
    }
  };

  /**
   * Resolves with the submission once the transaction reaches `commitment` (or failed), or null when
   * `timeoutMs` passes first. Never resolves early for a transaction that is still queued. Rejects
   * with EMULATOR_RESET when the submission, once there, is gone: a reset (or restore) removed it.
   */
  async waitFor(signature: string, commitment: Commitment, timeoutMs: number): Promise<Submission | null> {
    const deadline = Date.now() + timeoutMs;
    const rank: Record<Commitment, number> = { processed: 0, confirmed: 1, finalized: 2 };
    let seen = false;
    for (;;) {
      const submission = this.#options.submissions.get(signature);
      if (submission) seen = true;
      else if (seen) throw new RelayError('EMULATOR_RESET', `The transaction ${signature} was removed by a reset while this request waited for it.`);
      if (submission && (submission.status === 'failed' || (submission.commitment !== null && rank[submission.commitment] >= rank[commitment])))
        return submission;
      if (Date.now() >= deadline) return null;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.max(0, deadline - Date.now()));
        this.#waiters.add(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** Wakes whoever waits for a transaction, to look again (a reset removed the submissions). */
  wake(): void {
    this.#notify();
  }

  /** Waits for every scheduled finalization. */
  async settleFinalizations(): Promise<void> {
    while (this.#finalizations.size > 0) await Promise.all(this.#finalizations);
  }

  #notify(): void {
    const waiters = [...this.#waiters];
    this.#waiters.clear();
    for (const wake of waiters) wake();
  }

  /**
   * Files the transaction under every address it touched, and the token accounts under their
   * owners; one that never landed in a block (it failed before paying its fee) is not history.
   */
  #index(result: LedgerTransaction, tx: VersionedTransaction): void {
    if (!landedInBlock(result)) return;
    const addresses = new Set(result.accountKeys);
    const mintPairs: [string, string][] = [];
    // A post-balance for the same account, owner and mint as a pre-balance (nearly all of them)
    // files nothing new: skipped before its keys are built.
    const { preTokenBalances: pre } = result;
    const changed = result.postTokenBalances.filter(
      (post) => !pre.some((before) => before.accountIndex === post.accountIndex && before.owner === post.owner && before.mint === post.mint),
    );
    for (const balance of [...pre, ...changed]) {
      const account = result.accountKeys[balance.accountIndex]!;
      addresses.add(balance.owner);
      this.#options.tokenAccounts.add(balance.owner, account);
      mintPairs.push([balance.owner, balance.mint], [account, balance.mint]);
    }
    this.#options.history.add(
      { signature: result.signature, slot: Number(result.slot), blockTime: result.blockTime, err: result.err, memo: memoOf(tx) },
      addresses,
      mintPairs,
    );
  }

  /** Waits until `landingMs` have passed since the transaction arrived. */
  async #landing(receivedAtMs: number): Promise<void> {
    const wait = receivedAtMs + (this.#options.landingMs ?? 0) - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  }

  /**
   * Validator timing: the transaction's commitment follows the slots, confirmed once its slot is
   * the confirmed one, finalized once it is rooted ({@link Ledger.slotAt}).
   */
  #climb(signature: string): void {
    const slot = this.#options.submissions.get(signature)?.ledger?.slot;
    if (slot === undefined) return;
    this.#climbing.set(signature, slot);
    this.#promote();
    if (this.#climbingWatched) return;
    this.#climbingWatched = true;
    void (async () => {
      const { ledger } = this.#options;
      while (this.#climbing.size > 0) {
        await ledger.untilSlotAfter(ledger.clock().slot);
        this.#promote();
      }
      this.#climbingWatched = false;
    })();
  }

  #promote(): void {
    const { ledger, submissions } = this.#options;
    const confirmed = ledger.slotAt('confirmed');
    const finalized = ledger.slotAt('finalized');
    let moved = false;
    for (const [signature, slot] of this.#climbing) {
      const submission = submissions.get(signature);
      const commitment: Commitment = slot <= finalized ? 'finalized' : slot <= confirmed ? 'confirmed' : 'processed';
      if (!submission?.ledger) this.#climbing.delete(signature);
      else if (commitment !== submission.commitment) {
        submissions.update(signature, { commitment });
        moved = true;
      }
      if (commitment === 'finalized') this.#climbing.delete(signature);
    }
    if (moved) this.#notify();
  }

  #scheduleFinalization(signature: string): void {
    const finalization = new Promise<void>((resolve) => setTimeout(resolve, this.#options.finalizeMs))
      .then(() => {
        // A reset waits for finalizations before clearing, but a restore may have replaced the submission.
        if (this.#options.submissions.get(signature)) this.#options.submissions.update(signature, { commitment: 'finalized' });
        this.#notify();
      })
      .finally(() => this.#finalizations.delete(finalization));
    this.#finalizations.add(finalization);
  }
}
