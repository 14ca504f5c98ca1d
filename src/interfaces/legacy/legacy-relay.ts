// Over 250 lines: one relay lifecycle (record, submit, wait for the commitment, webhooks), read top to bottom.
import type { VersionedTransaction } from '@solana/web3.js';
import { RelayError } from '../../base/errors/relay-error.ts';
import { toUiAmountString } from '../../domain/ledger/token-accounts.ts';
import type { Ledger } from '../../domain/ledger/ledger.ts';
import type { AcceptPipeline } from '../../domain/relay/accept-pipeline.ts';
import { checkDurableNonce, type RelayOperation } from '../../domain/relay/policy.ts';
import type { SubmissionWorker } from '../../domain/relay/submission-worker.ts';
import { decodeWireTransaction } from '../../domain/relay/wire.ts';
import { transactionJson } from '../rpc/transaction-json.ts';
import type { LegacyClient } from './client-guard.ts';
import type { LegacyApp, LegacyApps, LegacyMint } from './legacy-apps.ts';
import { badNonce, blockhashNotFound, ledgerFailure, timedOut, webhookFailed, type LegacyErrorEntry } from './legacy-errors.ts';
import { processingRecord, publicRecord, type LegacyCommitment, type LegacyRecord, type LegacyRecords, type LegacyTransaction } from './legacy-records.ts';
import { explorerUrl, firstSigner, mintsOf, transferDestinations } from './relayed-transaction.ts';
import { deliverWebhook } from './webhooks.ts';
import { encodeBase58 } from '../../base/crypto/base58.ts';

/** What every legacy relay call carries, whoever built the transaction. */
export interface LegacyCall {
  app: LegacyApp;
  mint: LegacyMint;
  client: LegacyClient;
  commitment: LegacyCommitment;
  reference: string | null;
  /** When the request arrived (processingDuration runs from here to the record's creation). */
  receivedAt: Date;
}

export interface LegacyRelayOptions {
  /** The relay's accept pipeline: client transactions go through all its checks. */
  relay: AcceptPipeline;
  /** The submission worker, to follow a transaction to its commitment. */
  worker: SubmissionWorker;
  ledger: Ledger;
  now: () => Date;
  apps: LegacyApps;
  records: LegacyRecords;
}

/**
 * The legacy service's transaction lifecycle over the relay:
 * `Processing` (record created, verify webhook) → `Committed` (the ledger executed it) →
 * `Confirmed` (the requested commitment is reached: the call answers here) → `Finalized`
 * (background, then the event webhook), or `Failed` with one error entry at any step.
 */
export class LegacyRelay {
  readonly #options: LegacyRelayOptions;
  readonly #apps: LegacyApps;
  readonly #records: LegacyRecords;
  readonly #background = new Set<Promise<void>>();

  constructor(options: LegacyRelayOptions) {
    this.#options = options;
    this.#apps = options.apps;
    this.#records = options.records;
  }

  /**
   * A transaction the client built and partially signed (make-transfer, account/create): every
   * relay check, then the lifecycle. A ledger failure is a Failed record, answered as such.
   */
  async relayClientTransaction(call: LegacyCall, input: { tx: string; kind: 'transfer' | 'create'; lastValidBlockHeight: number }): Promise<LegacyTransaction> {
    const { relay, ledger } = this.#options;
    const wire = decodeWireTransaction(input.tx);
    const operation: RelayOperation = input.kind === 'create' ? 'create' : transferDestinations(wire.tx) > 1 ? 'sendbatch' : 'send';
    const base = { tx: input.tx, feePayer: call.mint.feePayer, source: firstSigner(wire.tx), amount: null, destination: null };

    const height = ledger.clock().blockHeight;
    if (height > BigInt(input.lastValidBlockHeight)) {
      return this.#failedBeforeSubmission(
        call,
        base,
        badNonce(`Blockhash expired: block height ${height} is past lastValidBlockHeight ${input.lastValidBlockHeight}.`),
      );
    }
    // A blockhash the ledger never issued, or one that expired (a replay past it included), is what
    // the RPC refuses on submission: Kinetic answered that with a Failed record, not an error. A
    // durable-nonce transaction keeps its own refusal (its "blockhash" is a nonce).
    checkDurableNonce(wire.tx);
    if (!ledger.isBlockhashValid(wire.tx.message.recentBlockhash)) return this.#failedBeforeSubmission(call, base, blockhashNotFound());
    let prepared: Awaited<ReturnType<typeof relay.prepare>>;
    try {
      prepared = await relay.prepare(operation, input.tx, { feePayer: this.#apps.signer(call.mint), origin: 'legacy' });
    } catch (error) {
      // The blockhash can expire while a fault hook delays the pipeline.
      if (error instanceof RelayError && error.code === 'BLOCKHASH_NOT_FOUND') return this.#failedBeforeSubmission(call, base, blockhashNotFound());
      throw error;
    }
    if ('repeated' in prepared) {
      // The same signed transaction again: answer what the first call recorded.
      const previous = this.#records.bySignature(prepared.receipt.signature);
      if (previous) return publicRecord(previous);
      throw new RelayError('ALREADY_PROCESSED', `This transaction was already relayed (${prepared.receipt.signature}).`);
    }
    for (const mint of mintsOf(prepared)) this.#apps.mint(call.app, mint);

    const transfer = prepared.verdict.transfers[0];
    const record = this.#create(call, {
      ...base,
      source: transfer?.authority ?? base.source,
      amount: transfer ? toUiAmountString(transfer.amount, call.mint.decimals) : null,
      destination: transfer?.destination ?? null,
    });
    if (!(await this.#verify(call.app, record))) return publicRecord(this.#current(record.id));
    return this.#submit(call, record, prepared.signature, () => relay.accept(prepared, { origin: 'legacy' }));
  }

  /** A transaction the emulator built and fully signed itself (account/close). */
  async relayServerTransaction(call: LegacyCall, input: { tx: VersionedTransaction; bytes: Uint8Array; source: string }): Promise<LegacyTransaction> {
    const { relay, ledger } = this.#options;
    const base = { tx: Buffer.from(input.bytes).toString('base64'), feePayer: call.mint.feePayer, source: input.source, amount: null, destination: null };
    if (!ledger.isBlockhashValid(input.tx.message.recentBlockhash)) return this.#failedBeforeSubmission(call, base, blockhashNotFound());
    const record = this.#create(call, base);
    if (!(await this.#verify(call.app, record))) return publicRecord(this.#current(record.id));
    const signature = encodeBase58(input.tx.signatures[0]!);
    return this.#submit(call, record, signature, () => relay.submitSigned(input.tx, input.bytes, 'legacy'));
  }

  /** Resolves once every background finalization and event webhook is done. */
  async settle(): Promise<void> {
    while (this.#background.size > 0) await Promise.all(this.#background);
  }

  #create(call: LegacyCall, fields: Pick<LegacyRecord, 'tx' | 'feePayer' | 'source' | 'amount' | 'destination'>): LegacyRecord {
    const now = this.#options.now();
    return this.#records.insert(
      processingRecord({
        ...fields,
        id: this.#records.newId(),
        appKey: call.app.key,
        commitment: call.commitment,
        forwardHeaders: call.client.forwardHeaders,
        createdAt: now.toISOString(),
        decimals: call.mint.decimals,
        ip: call.client.ip,
        mint: call.mint.publicKey,
        processingDuration: now.getTime() - call.receivedAt.getTime(),
        reference: call.reference,
        ua: call.client.ua,
      }),
    );
  }

  #failedBeforeSubmission(
    call: LegacyCall,
    fields: Pick<LegacyRecord, 'tx' | 'feePayer' | 'source' | 'amount' | 'destination'>,
    error: LegacyErrorEntry,
  ): LegacyTransaction {
    const record = this.#create(call, fields);
    return publicRecord(this.#fail(record.id, error));
  }

  /** The verify webhook, when the app has one. False when it refused: the record is Failed and nothing is submitted. */
  async #verify(app: LegacyApp, record: LegacyRecord): Promise<boolean> {
    const url = app.webhooks.verify;
    if (!url) return true;
    const delivery = await deliverWebhook({
      app,
      type: 'Verify',
      url,
      record: publicRecord(record),
      forwardHeaders: record.forwardHeaders,
      now: this.#options.now,
    });
    this.#update(record.id, {
      webhookVerifyStart: delivery.start.toISOString(),
      webhookVerifyEnd: delivery.end.toISOString(),
      webhookVerifyDuration: delivery.end.getTime() - delivery.start.getTime(),
    });
    if (!delivery.failure) return true;
    this.#fail(record.id, webhookFailed(delivery.failure.message, delivery.failure.logs));
    return false;
  }

  /** Queues the transaction and follows it to the requested commitment (or failure, or timeout). */
  async #submit(call: LegacyCall, record: LegacyRecord, signature: string, enqueue: () => Promise<unknown>): Promise<LegacyTransaction> {
    const { worker, now } = this.#options;
    const { app } = call;
    const ledgerStart = now();
    try {
      await enqueue();
    } catch (error) {
      // Answered with an error (503 QUEUE_FULL, 422 …): such an answer records nothing.
      this.#records.remove(record.id);
      throw error;
    }
    this.#update(record.id, { signature, ledgerStart: ledgerStart.toISOString(), explorerUrl: explorerUrl(app, signature) });

    const deadline = Date.now() + app.commitmentTimeoutMs;
    const landed = await worker.waitFor(signature, 'processed', app.commitmentTimeoutMs);
    if (!landed) return publicRecord(this.#fail(record.id, timedOut(call.commitment, app.commitmentTimeoutMs)));
    const committed = now();
    this.#update(record.id, {
      ledgerCommitted: committed.toISOString(),
      ledgerCommittedDuration: committed.getTime() - ledgerStart.getTime(),
      ledgerTransaction: transactionJson(landed, { encoding: 'json' }),
      ...(landed.status === 'failed' ? {} : { status: 'Committed' as const }),
    });
    if (landed.status === 'failed') return publicRecord(this.#fail(record.id, ledgerFailure(landed)));

    if (call.commitment === 'Finalized') {
      const finalized = await worker.waitFor(signature, 'finalized', Math.max(0, deadline - Date.now()));
      if (!finalized) return publicRecord(this.#fail(record.id, timedOut(call.commitment, app.commitmentTimeoutMs)));
      this.#update(record.id, { status: 'Confirmed' });
      this.#finalized(record.id, ledgerStart);
      this.#inBackground(this.#event(app, record.id));
    } else {
      this.#update(record.id, { status: 'Confirmed' });
      this.#inBackground(
        (async () => {
          if (!(await worker.waitFor(signature, 'finalized', app.commitmentTimeoutMs))) return;
          this.#finalized(record.id, ledgerStart);
          await this.#event(app, record.id);
        })(),
      );
    }
    return publicRecord(this.#current(record.id));
  }

  #finalized(id: string, ledgerStart: Date): void {
    const finalized = this.#options.now();
    const record = this.#current(id);
    this.#update(id, {
      status: 'Finalized',
      ledgerFinalized: finalized.toISOString(),
      ledgerFinalizedDuration: finalized.getTime() - ledgerStart.getTime(),
      totalDuration: finalized.getTime() - Date.parse(record.createdAt),
    });
  }

  /** The event webhook after finalization. As the legacy service did, a refused event fails the record. */
  async #event(app: LegacyApp, id: string): Promise<void> {
    const url = app.webhooks.event;
    if (!url) return;
    const record = this.#current(id);
    const delivery = await deliverWebhook({
      app,
      type: 'Event',
      url,
      record: publicRecord(record),
      forwardHeaders: record.forwardHeaders,
      now: this.#options.now,
    });
    this.#update(id, {
      webhookEventStart: delivery.start.toISOString(),
      webhookEventEnd: delivery.end.toISOString(),
      webhookEventDuration: delivery.end.getTime() - delivery.start.getTime(),
    });
    if (delivery.failure) this.#fail(id, webhookFailed(delivery.failure.message, delivery.failure.logs));
  }

  #inBackground(work: Promise<void>): void {
    const tracked = work
      .catch((error: unknown) => {
        // A record removed by a reset while its finalization was pending is not an error.
        if (!(error instanceof RelayError && error.code === 'EMULATOR_RESET')) console.error('relay-emulator: legacy background work failed', error);
      })
      .finally(() => this.#background.delete(tracked));
    this.#background.add(tracked);
  }

  /** The record as it stands, or EMULATOR_RESET when a reset removed it while its request waited. */
  #current(id: string): LegacyRecord {
    const record = this.#records.get(id);
    if (!record) throw new RelayError('EMULATOR_RESET', `The legacy record ${id} was removed by a reset while its request waited.`);
    return record;
  }

  #update(id: string, patch: Partial<LegacyRecord>): LegacyRecord {
    return this.#records.update(id, { ...patch, updatedAt: this.#options.now().toISOString() });
  }

  #fail(id: string, error: LegacyErrorEntry): LegacyRecord {
    const record = this.#current(id);
    return this.#update(id, { status: 'Failed', errors: [...record.errors, { id: this.#records.newErrorId(), ...error }] });
  }
}
