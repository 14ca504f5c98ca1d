import { PublicKey, type VersionedTransaction } from '@solana/web3.js';
import bs58 from 'bs58';
import type { Ed25519Signer } from '../crypto/ed25519.ts';
import { RelayError } from '../errors/relay-error.ts';
import type { Ledger, LedgerTransaction } from '../ledger/ledger.ts';
import type { HistoryIndex } from '../store/history-index.ts';
import type { TokenAccountIndex } from '../store/token-account-index.ts';
import type { Operation, TransactionRecord, TransactionRecords } from '../store/transaction-records.ts';
import { memoOf } from './memo.ts';
import { checkPolicy, type PolicyVerdict, type RelayOperation } from './policy.ts';
import type { PolicyOptions } from './policy-options.ts';
import type { RelayQueue } from './relay-queue.ts';
import { checkSignatures, signAsFeePayer } from './signatures.ts';
import { decodeWireTransaction, type WireTransaction } from './wire.ts';

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
}

export interface RelayOutcome {
  receipt: RelayReceipt;
  /** What the transaction does (null when the receipt is a repeat). */
  verdict: PolicyVerdict | null;
  wire: WireTransaction;
  /** True when this exact transaction had been relayed before and nothing new was queued. */
  repeated: boolean;
}

/**
 * The relay pipeline: decode → check fee payer and signatures → idempotency → blockhash → policy →
 * fee-payer signature → record → queue. Submission happens after the answer, in the queue worker.
 */
export class RelayService {
  readonly #options: RelayServiceOptions;
  readonly #feePayerKey: PublicKey;
  readonly #finalizations = new Set<Promise<void>>();

  constructor(options: RelayServiceOptions) {
    this.#options = options;
    this.#feePayerKey = new PublicKey(options.feePayer.publicKey);
  }

  get feePayer(): PublicKey {
    return this.#feePayerKey;
  }

  async relay(operation: RelayOperation, signedTransaction: string): Promise<RelayOutcome> {
    const { ledger, records, policy } = this.#options;
    const wire = decodeWireTransaction(signedTransaction);
    checkSignatures(wire, this.#options.feePayer.publicKey, { maxSignatures: policy.maxSignatures });

    // ed25519 is deterministic: the same message always gets the same fee-payer signature, which
    // makes that signature the idempotency key.
    const signed = signAsFeePayer(wire, this.#options.feePayer);
    const previous = records.get(signed.signature);
    if (previous) {
      if (previous.operation !== operation) {
        throw new RelayError('ALREADY_PROCESSED', `This transaction was already relayed as ${previous.operation} (${previous.signature}).`);
      }
      return { receipt: receiptOf(operation, signed.signature), verdict: null, wire, repeated: true };
    }

    if (!ledger.isBlockhashValid(wire.tx.message.recentBlockhash)) {
      throw new RelayError('BLOCKHASH_NOT_FOUND', `Blockhash ${wire.tx.message.recentBlockhash} is unknown or expired; fetch a new one (GET /Transaction/blockhash or getLatestBlockhash).`);
    }

    const verdict = await checkPolicy(wire.tx, {
      feePayer: this.#feePayerKey,
      operation,
      options: policy,
      getAccount: (address) => ledger.getAccount(address),
      tokenAccountRent: await ledger.minimumBalanceForRentExemption(165),
    });

    await this.#accept(operation, signed.signature, signed.bytes, wire.tx, RECEIPT_MESSAGES[operation]);
    return { receipt: receiptOf(operation, signed.signature), verdict, wire, repeated: false };
  }

  /** Queues a fully signed transaction that did not go through the relay checks (RPC sendTransaction). */
  async submitSigned(tx: VersionedTransaction, bytes: Uint8Array, operation: Operation): Promise<string> {
    const signature = bs58.encode(tx.signatures[0]!);
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
    let result: LedgerTransaction;
    try {
      result = await ledger.process(job.tx);
    } catch (error) {
      await records.update(job.id, { status: 'failed', ledger: null, commitment: null });
      throw error;
    }
    await records.update(job.id, {
      status: result.err === null ? 'processed' : 'failed',
      commitment: 'confirmed',
      ledger: result,
    });
    this.#index(result, job.tx);
    this.#scheduleFinalization(job.id);
  };

  async #accept(operation: Operation, signature: string, bytes: Uint8Array, tx: VersionedTransaction, message: string): Promise<void> {
    // Enqueue first: a full queue must refuse before anything is recorded.
    this.#options.queue.enqueue({ id: signature, tx });
    const record: TransactionRecord = {
      signature,
      operation,
      status: 'queued',
      commitment: null,
      message,
      wire: Buffer.from(bytes).toString('base64'),
      receivedAt: this.#options.now().toISOString(),
      ledger: null,
    };
    await this.#options.records.insert(record);
  }

  #index(result: LedgerTransaction, tx: VersionedTransaction): void {
    const addresses = new Set(result.accountKeys);
    const mintPairs: [string, string][] = [];
    for (const balance of [...result.preTokenBalances, ...result.postTokenBalances]) {
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

  #scheduleFinalization(signature: string): void {
    const finalization = new Promise<void>((resolve) => setTimeout(resolve, this.#options.finalizeMs))
      .then(async () => {
        await this.#options.records.update(signature, { commitment: 'finalized' });
      })
      .finally(() => this.#finalizations.delete(finalization));
    this.#finalizations.add(finalization);
  }
}

function receiptOf(operation: RelayOperation, signature: string): RelayReceipt {
  return { status: 'Queued', message: RECEIPT_MESSAGES[operation], signature };
}
