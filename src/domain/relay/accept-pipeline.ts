import { PublicKey, type VersionedTransaction } from '@solana/web3.js';
import { encodeBase58 } from '../../base/crypto/base58.ts';
import type { Ed25519Signer } from '../../base/crypto/ed25519.ts';
import { RelayError } from '../../base/errors/relay-error.ts';
import type { Ledger } from '../ledger/ledger.ts';
import type { Submission, Submissions, TransactionOrigin } from '../store/submissions.ts';
import { checkDurableNonce, checkPolicy, type PolicyVerdict, type RelayOperation } from './policy.ts';
import type { PolicyOptions } from './policy-options.ts';
import { RECEIPT_MESSAGES, receiptOf, type RelayReceipt } from './receipts.ts';
import type { RelayQueue } from './relay-queue.ts';
import { weighFeePayerLoss } from './fee-payer-loss.ts';
import { checkSignatures, signAsFeePayer } from './signatures.ts';
import type { SubmissionJob } from './submission-worker.ts';
import { decodeWireTransaction, type WireTransaction } from './wire.ts';
import { currentCostLabel } from './cost-labels.ts';
import type { TokenPayment } from './sponsor-costs.ts';

/** The pipeline's hook for fault injection: may throw a RelayError, or delay, before any check. */
export type BeforeRelay = (operation: RelayOperation) => Promise<void>;

export interface AcceptPipelineOptions {
  ledger: Ledger;
  submissions: Submissions;
  queue: RelayQueue<SubmissionJob>;
  feePayer: Ed25519Signer;
  policy: PolicyOptions;
  /** The app's own programs (rules P1, F3). */
  appPrograms: { has(address: string): boolean };
  now: () => Date;
  beforeRelay?: BeforeRelay;
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
  /** The submission's origin, when it is not the relay operation itself (`legacy`). */
  origin?: TransactionOrigin;
}

/**
 * The relay's accept pipeline: decode → fee payer and signatures → idempotency → blockhash →
 * policy → fee-payer signature → submission stored → enqueue. It answers before the ledger sees it; the
 * SubmissionWorker takes the job from the queue.
 */
export class AcceptPipeline {
  readonly #options: AcceptPipelineOptions;
  readonly #feePayerKey: PublicKey;
  /** The policy's account reads, made once: a closure made per call is named per call where names are kept (tsx; BENCHMARKS.md, "Measured reasons"). */
  readonly #getAccount = (address: PublicKey) => this.#options.ledger.getAccount(address);

  constructor(options: AcceptPipelineOptions) {
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
    const queued = this.#acceptOnce(prepared, options.origin ?? operation);
    return { receipt: receiptOf(operation, prepared.signature), verdict: queued ? prepared.verdict : null, wire: prepared.wire, repeated: !queued };
  }

  /**
   * Every check and the fee-payer signature, without queuing: either a prepared transaction for
   * {@link accept}, or the original receipt when this exact transaction was relayed before.
   */
  async prepare(operation: RelayOperation, signedTransaction: string, options: RelayCallOptions = {}): Promise<PreparedRelay | RelayOutcome> {
    const { ledger, submissions, policy } = this.#options;
    const feePayer = options.feePayer ?? this.#options.feePayer;
    await this.#options.beforeRelay?.(operation);
    const wire = decodeWireTransaction(signedTransaction);
    checkSignatures(wire, feePayer.publicKey, { maxSignatures: policy.maxSignatures });

    // ed25519 is deterministic: the same message always gets the same fee-payer signature, which
    // makes that signature the idempotency key.
    const signed = signAsFeePayer(wire, feePayer);
    const previous = submissions.get(signed.signature);
    const origin = options.origin ?? operation;
    if (previous) {
      if (previous.origin !== origin) throw relayedAsAnother(previous);
      if (!ledger.isBlockhashValid(wire.tx.message.recentBlockhash)) {
        // A retry happens within the blockhash's life; past it, this is a replay.
        throw new RelayError(
          'ALREADY_PROCESSED',
          `This transaction was already relayed (${previous.signature}) and its blockhash has expired since: build a new one with a fresh blockhash.`,
          { rule: 'R3' },
        );
      }
      return { receipt: receiptOf(operation, signed.signature), verdict: null, wire, repeated: true };
    }

    checkDurableNonce(wire.tx);
    if (!ledger.isBlockhashValid(wire.tx.message.recentBlockhash)) {
      throw new RelayError(
        'BLOCKHASH_NOT_FOUND',
        `Blockhash ${wire.tx.message.recentBlockhash} is unknown or expired; fetch a new one (GET /Transaction/blockhash or getLatestBlockhash).`,
        { rule: 'B1' },
      );
    }

    // The relay's own key is made once (a PublicKey built from bytes goes through bn.js, and a new one encodes its address again).
    const feePayerKey = feePayer === this.#options.feePayer ? this.#feePayerKey : new PublicKey(feePayer.publicKey);
    const verdict = await checkPolicy(wire.tx, {
      feePayer: feePayerKey,
      operation,
      options: policy,
      getAccount: this.#getAccount,
      tokenAccountRent: await ledger.minimumBalanceForRentExemption(165),
      appPrograms: this.#options.appPrograms,
    });
    if (verdict.feePayerCalls.length > 0) await weighFeePayerLoss(ledger, wire.tx, signed.bytes, feePayerKey, verdict, policy.maxAppProgramLamports);
    return { operation, signature: signed.signature, bytes: signed.bytes, wire, verdict };
  }

  /** Stores and queues a prepared transaction (once: see #acceptOnce). */
  async accept(prepared: PreparedRelay, options: Pick<RelayCallOptions, 'origin'> = {}): Promise<RelayReceipt> {
    this.#acceptOnce(prepared, options.origin ?? prepared.operation);
    return receiptOf(prepared.operation, prepared.signature);
  }

  /**
   * Queues a prepared transaction unless the same one was stored while it was being checked:
   * prepare() awaits the ledger, so two copies sent at once both pass its look-up, and only this
   * second look-up, in the tick that stores, keeps the second copy from running twice. Answers
   * whether it queued; a copy stored for another origin is refused as prepare() refuses it.
   */
  #acceptOnce(prepared: PreparedRelay, origin: TransactionOrigin): boolean {
    const raced = this.#options.submissions.get(prepared.signature);
    if (raced) {
      if (raced.origin !== origin) throw relayedAsAnother(raced);
      return false;
    }
    const { strictBreaks, sponsorExposure } = prepared.verdict;
    this.#enqueue(origin, prepared.signature, prepared.bytes, prepared.wire.tx, RECEIPT_MESSAGES[prepared.operation], {
      policyChecked: true,
      strictBreaks,
      sponsorExposure,
    });
    return true;
  }

  /**
   * Stores and queues a fully signed transaction that did not go through the relay checks (RPC
   * sendTransaction, server-built legacy transactions, Kora's sends), with the sponsor exposure its
   * own checks found (Kora's fee-payer outflow), else 0.
   */
  async submitSigned(
    tx: VersionedTransaction,
    bytes: Uint8Array,
    origin: TransactionOrigin,
    sponsorExposure = 0n,
    payments: TokenPayment[] = [],
  ): Promise<string> {
    const signature = encodeBase58(tx.signatures[0]!);
    if (this.#options.submissions.get(signature)) return signature;
    this.#enqueue(origin, signature, bytes, tx, 'Transaction submitted', { policyChecked: false, strictBreaks: [], sponsorExposure, payments });
    return signature;
  }

  #enqueue(
    origin: TransactionOrigin,
    signature: string,
    bytes: Uint8Array,
    tx: VersionedTransaction,
    message: string,
    /** Whether the fee-payer policy saw it, and what the faithful profile sponsored beyond strict. */
    policy: Pick<Submission, 'policyChecked' | 'strictBreaks' | 'sponsorExposure'> & { payments?: TokenPayment[] },
  ): void {
    const submission: Submission = {
      signature,
      origin,
      status: 'queued',
      commitment: null,
      message,
      wire: Buffer.from(bytes).toString('base64'),
      receivedAt: this.#options.now().toISOString(),
      ledger: null,
      injectedError: null,
      label: currentCostLabel(),
      payments: [],
      ...policy,
    };
    // Enqueue first: a full queue must refuse before anything is recorded. The submission is stored
    // in the same tick, before the worker can take the job.
    this.#options.queue.enqueue({ id: signature, tx, bytes, receivedAtMs: performance.now() });
    this.#options.submissions.insert(submission);
  }
}

/** Rule R2: the same transaction, already relayed through another operation. */
function relayedAsAnother(previous: Submission): RelayError {
  return new RelayError('ALREADY_PROCESSED', `This transaction was already relayed as ${previous.origin} (${previous.signature}).`, { rule: 'R2' });
}
