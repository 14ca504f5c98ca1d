import { PublicKey, type VersionedTransaction } from '@solana/web3.js';
import type { Ed25519Signer } from '../crypto/ed25519.ts';
import { RelayError } from '../errors/relay-error.ts';
import type { Ledger, LedgerTransaction } from '../ledger/ledger.ts';
import type { HistoryIndex } from '../store/history-index.ts';
import type { TokenAccountIndex } from '../store/token-account-index.ts';
import type { Operation, TransactionRecord, TransactionRecords } from '../store/transaction-records.ts';
import { memoOf } from './memo.ts';
import { checkDurableNonce, checkPolicy, type PolicyVerdict, type RelayOperation } from './policy.ts';
import type { PolicyOptions } from './policy-options.ts';
import type { RelayQueue } from './relay-queue.ts';
import { checkSignatures, signAsFeePayer } from './signatures.ts';
import { decodeWireTransaction, type WireTransaction } from './wire.ts';
import { encodeBase58 } from '../crypto/base58.ts';

/** The receipt texts of spec 2.1. */
export const RECEIPT_MESSAGES: Record<RelayOperation, string> = {
  create: 'Account creation transaction queued successfully.',
  close: 'Account close transaction queued successfully.',
  send: 'Transaction sent successfully',
  sendbatch: 'Transaction sent successfully',
};

export interface RelayReceipt {
  status: 'Queued';
  message: string;
  signature: string;
}

export interface SubmissionJob {
  id: string;
  tx: VersionedTransaction;
  /** `tx`'s signed wire bytes, handed to the ledger as they are. */
  bytes: Uint8Array;
  /** The record's operation; the worker may run before the record is stored, so the job carries it. */
  operation?: Operation;
}

export interface RelayServiceOptions {
  ledger: Ledger;
  records: TransactionRecords;
  history: HistoryIndex;
  tokenAccounts: TokenAccountIndex;
  queue: RelayQueue<SubmissionJob>;
  feePayer: Ed25519Signer;
  policy: PolicyOptions;
  now: () => Date;
  /** Delay before a processed transaction counts as finalized, in ms. */
  finalizeMs: number;
  hooks?: RelayHooks;
}

export interface RelayOutcome {
  receipt: RelayReceipt;
  /** What the transaction does (null when the receipt is a repeat). */
  verdict: PolicyVerdict | null;
  wire: WireTransaction;
  /** True when this exact transaction had been relayed before and nothing new was queued. */
  repeated: boolean;
}

/** A transaction that passed every check and is signed, but is not queued yet. */
export interface PreparedRelay {
  operation: RelayOperation;
  signature: string;
  /** The fully signed wire bytes. */
  bytes: Uint8Array;
  wire: WireTransaction;
  verdict: PolicyVerdict;
}

export interface RelayCallOptions {
  /** Signs as this fee payer instead of the relay's own (legacy apps have one per mint). */
  feePayer?: Ed25519Signer;
  /** The record's operation label, when it differs from the policy operation (e.g. `legacy`). */
  recordAs?: Operation;
}

/**
 * Hooks for fault injection and test control. `beforeRelay` may throw a RelayError or delay;
 * `beforeSubmit` may return a ledger error text to fail the submission with, instead of submitting.
 */
export interface RelayHooks {
  beforeRelay?(operation: RelayOperation): Promise<void>;
  beforeSubmit?(job: SubmissionJob & { operation: Operation }): Promise<string | null>;
}

/** Commitment levels a caller can wait for, weakest first. */
export type Commitment = 'processed' | 'confirmed' | 'finalized';

/**
 * The relay pipeline: decode → check fee payer and signatures → idempotency → blockhash → policy →
 * fee-payer signature → record → queue. Submission happens after the answer, in the queue worker.
 */
export class RelayService {
  readonly #options: RelayServiceOptions;
  readonly #feePayerKey: PublicKey;
  readonly #finalizations = new Set<Promise<void>>();
  readonly #waiters = new Set<() => void>();
  /** Records being stored, by signature: the worker waits for its job's record. */
  readonly #inserting = new Map<string, Promise<unknown>>();

  constructor(options: RelayServiceOptions) {
    this.#options = options;
    this.#feePayerKey = new PublicKey(options.feePayer.publicKey);
  }

  get feePayer(): PublicKey {
    return this.#feePayerKey;
  }

  /** Runs the whole pipeline and queues the transaction. */
  async relay(operation: RelayOperation, signedTransaction: string, options: RelayCallOptions = {}): Promise<RelayOutcome> {
    const prepared = await this.prepare(operation, signedTransaction, options);
    if ('repeated' in prepared) return prepared;
    await this.accept(prepared, options);
    return { receipt: receiptOf(operation, prepared.signature), verdict: prepared.verdict, wire: prepared.wire, repeated: false };
  }

  /**
   * Every check and the fee-payer signature, without queuing: either a prepared transaction for
   * {@link accept}, or the original receipt when this exact transaction was relayed before.
   */
  async prepare(operation: RelayOperation, signedTransaction: string, options: RelayCallOptions = {}): Promise<PreparedRelay | RelayOutcome> {
    const { ledger, records, policy } = this.#options;
    const feePayer = options.feePayer ?? this.#options.feePayer;
    await this.#options.hooks?.beforeRelay?.(operation);
    const wire = decodeWireTransaction(signedTransaction);
    checkSignatures(wire, feePayer.publicKey, { maxSignatures: policy.maxSignatures });

    // ed25519 is deterministic: the same message always gets the same fee-payer signature, which
    // makes that signature the idempotency key.
    const signed = signAsFeePayer(wire, feePayer);
    const previous = records.get(signed.signature);
    const recordAs = options.recordAs ?? operation;
    if (previous) {
      if (previous.operation !== recordAs) {
        // (rule R2)
        throw new RelayError('ALREADY_PROCESSED', `This transaction was already relayed as ${previous.operation} (${previous.signature}).`);
      }
      if (!ledger.isBlockhashValid(wire.tx.message.recentBlockhash)) {
        // (rule R3) A retry happens within the blockhash's life; past it, this is a replay.
        throw new RelayError('ALREADY_PROCESSED', `This transaction was already relayed (${previous.signature}) and its blockhash has expired since: build a new one with a fresh blockhash.`);
      }
      return { receipt: receiptOf(operation, signed.signature), verdict: null, wire, repeated: true };
    }

    checkDurableNonce(wire.tx);
    if (!ledger.isBlockhashValid(wire.tx.message.recentBlockhash)) {
      // (rule B1)
      throw new RelayError('BLOCKHASH_NOT_FOUND', `Blockhash ${wire.tx.message.recentBlockhash} is unknown or expired; fetch a new one (GET /Transaction/blockhash or getLatestBlockhash).`);
    }

    const verdict = await checkPolicy(wire.tx, {
      feePayer: new PublicKey(feePayer.publicKey),
      operation,
      options: policy,
      getAccount: (address) => ledger.getAccount(address),
      tokenAccountRent: await ledger.minimumBalanceForRentExemption(165),
    });
    return { operation, signature: signed.signature, bytes: signed.bytes, wire, verdict };
  }

  /** Records and queues a prepared transaction. */
  async accept(prepared: PreparedRelay, options: Pick<RelayCallOptions, 'recordAs'> = {}): Promise<RelayReceipt> {
    await this.#accept(options.recordAs ?? prepared.operation, prepared.signature, prepared.bytes, prepared.wire.tx, RECEIPT_MESSAGES[prepared.operation]);
    return receiptOf(prepared.operation, prepared.signature);
  }

  /**
   * Resolves with the record once the transaction reaches `commitment` (or failed), or null when
   * `timeoutMs` passes first. Never resolves early for a transaction that is still queued.
   */
  async waitFor(signature: string, commitment: Commitment, timeoutMs: number): Promise<TransactionRecord | null> {
    const deadline = Date.now() + timeoutMs;
    const rank: Record<Commitment, number> = { processed: 0, confirmed: 1, finalized: 2 };
    for (;;) {
      const record = this.#options.records.get(signature);
      if (record && (record.status === 'failed' || (record.commitment !== null && rank[record.commitment] >= rank[commitment]))) return record;
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

  /** Queues a fully signed transaction that did not go through the relay checks (RPC sendTransaction). */
  async submitSigned(tx: VersionedTransaction, bytes: Uint8Array, operation: Operation): Promise<string> {
    const signature = encodeBase58(tx.signatures[0]!);
    if (this.#options.records.get(signature)) return signature;
    await this.#accept(operation, signature, bytes, tx, 'Transaction submitted');
    return signature;
  }

  /** Waits for every scheduled finalization. */
  async settleFinalizations(): Promise<void> {
    while (this.#finalizations.size > 0) await Promise.all(this.#finalizations);
  }

  /** The queue worker: submits to the ledger, records the outcome, indexes history. */
  readonly process = async (job: SubmissionJob): Promise<void> => {
    const { ledger, records } = this.#options;
    await this.#inserting.get(job.id);
    const operation = job.operation ?? records.get(job.id)?.operation ?? 'rpc';
    try {
      const injected = (await this.#options.hooks?.beforeSubmit?.({ ...job, operation })) ?? null;
      if (injected !== null) {
        await records.update(job.id, { status: 'failed', commitment: null, ledger: null, injectedError: injected });
        return;
      }
      let result: LedgerTransaction;
      try {
        result = await ledger.process(job.tx, job.bytes);
      } catch (error) {
        await records.update(job.id, { status: 'failed', ledger: null, commitment: null, injectedError: `ledger failure: ${(error as Error).message}` });
        throw error;
      }
      await records.update(job.id, {
        status: result.err === null ? 'processed' : 'failed',
        commitment: 'confirmed',
        ledger: result,
      });
      await this.#index(result, job.tx);
      this.#scheduleFinalization(job.id);
    } finally {
      this.#notify();
    }
  };

  #notify(): void {
    const waiters = [...this.#waiters];
    this.#waiters.clear();
    for (const wake of waiters) wake();
  }

  async #accept(operation: Operation, signature: string, bytes: Uint8Array, tx: VersionedTransaction, message: string): Promise<void> {
    const record: TransactionRecord = {
      signature,
      operation,
      status: 'queued',
      commitment: null,
      message,
      wire: Buffer.from(bytes).toString('base64'),
      receivedAt: this.#options.now().toISOString(),
      ledger: null,
      injectedError: null,
    };
    // Enqueue first: a full queue must refuse before anything is recorded. The worker may start
    // before the insert finishes, so it waits for it (see process).
    this.#options.queue.enqueue({ id: signature, tx, bytes, operation });
    const inserted = this.#options.records.insert(record);
    this.#inserting.set(signature, inserted);
    try {
      await inserted;
    } finally {
      this.#inserting.delete(signature);
    }
  }

  async #index(result: LedgerTransaction, tx: VersionedTransaction): Promise<void> {
    const addresses = new Set(result.accountKeys);
    const mintPairs: [string, string][] = [];
    for (const balance of [...result.preTokenBalances, ...result.postTokenBalances]) {
      const account = result.accountKeys[balance.accountIndex]!;
      addresses.add(balance.owner);
      this.#options.tokenAccounts.add(balance.owner, account);
      mintPairs.push([balance.owner, balance.mint], [account, balance.mint]);
    }
    await this.#options.history.add(
      { signature: result.signature, slot: Number(result.slot), blockTime: result.blockTime, err: result.err, memo: memoOf(tx) },
      addresses,
      mintPairs,
    );
  }

  #scheduleFinalization(signature: string): void {
    const finalization = new Promise<void>((resolve) => setTimeout(resolve, this.#options.finalizeMs))
      .then(async () => {
        await this.#options.records.update(signature, { commitment: 'finalized' });
        this.#notify();
      })
      .finally(() => this.#finalizations.delete(finalization));
    this.#finalizations.add(finalization);
  }
}

function receiptOf(operation: RelayOperation, signature: string): RelayReceipt {
  return { status: 'Queued', message: RECEIPT_MESSAGES[operation], signature };
}
