import { createHash } from 'node:crypto';
import { VersionedTransaction } from '@solana/web3.js';
import { encodeBase58 } from '../../../base/crypto/base58.ts';
import { landedInBlock } from '../../../domain/ledger/transaction-error.ts';
import type { RpcDeps } from '../rpc-deps.ts';
import type { Submission } from '../../../domain/store/submissions.ts';
import { commitmentOf, confirmedOrFinalized, contextSlot, reachedCommitment, type MethodTable } from '../context.ts';
import { JsonRpcError, RPC_ERROR, invalidParam, paramsError } from '../json-rpc-error.ts';
import { configObject, optionalBoolean, optionalInteger, optionalVariant, positional, requireInteger, requireU64 } from '../params.ts';
import {
  encodeTransaction,
  metaJson,
  parsedAccountKeys,
  tokenBalanceJson,
  UnsupportedTransactionVersionError,
  type TransactionEncoding,
} from '../transaction-json.ts';

const BLOCK_ENCODINGS = ['json', 'jsonParsed', 'base58', 'base64', 'binary'] as const;
const TRANSACTION_DETAILS = ['full', 'accounts', 'signatures', 'none'] as const;
/** The validator's bounds on slot ranges and sample counts. */
const MAX_SLOT_RANGE = 500_000;
const MAX_PERFORMANCE_SAMPLES = 720;
/** A performance sample covers 60 seconds: 150 slots of 400 ms. */
const SAMPLE_SLOTS = 150;

/**
 * Blocks. Every slot from 0 to the commitment's one is a block (the ledger never skips one); the
 * emulator keeps every block (the first available is 0) and takes no snapshots.
 */
export const blockMethods: MethodTable = {
  getBlock(params, context) {
    const [slotParam, raw] = positional(params, 'getBlock', { min: 1, max: 2 });
    const slot = requireInteger(slotParam);
    // The second param is a config object, or (deprecated) the encoding alone.
    const config = typeof raw === 'string' ? { encoding: raw } : configObject(raw);
    const encoding = optionalVariant(config, 'encoding', BLOCK_ENCODINGS) ?? 'json';
    const details = optionalVariant(config, 'transactionDetails', TRANSACTION_DETAILS) ?? 'full';
    const rewards = optionalBoolean(config, 'rewards') ?? true;
    const commitment = confirmedOrFinalized(config);
    const max = optionalInteger(config, 'maxSupportedTransactionVersion');
    const { ledger } = context.deps;
    const clock = ledger.clock();
    // A block past the commitment's slot (not yet confirmed, or not yet rooted for finalized) is not available, as on a validator.
    if (BigInt(slot) > ledger.slotAt(commitment))
      throw new JsonRpcError(RPC_ERROR.BLOCK_NOT_AVAILABLE, `Block not available for slot ${requireU64(slotParam)}`);
    const records = transactionsIn(context.deps, slot, commitment);
    const block: Record<string, unknown> = {
      blockHeight: Number(clock.blockHeight - (clock.slot - BigInt(slot))),
      blockTime: ledger.blockTime(BigInt(slot)),
      blockhash: blockhashOf(ledger.genesisHash, slot),
      parentSlot: Math.max(0, slot - 1),
      previousBlockhash: blockhashOf(ledger.genesisHash, Math.max(0, slot - 1)),
    };
    try {
      if (details === 'signatures') block.signatures = records.map((submission) => submission.signature);
      if (details === 'full' || details === 'accounts')
        block.transactions = records.map((submission) => blockTransaction(submission, details, encoding === 'binary' ? 'base58' : encoding, max));
    } catch (error) {
      if (error instanceof UnsupportedTransactionVersionError) throw new JsonRpcError(RPC_ERROR.UNSUPPORTED_TRANSACTION_VERSION, error.message);
      throw error;
    }
    if (rewards) block.rewards = [];
    return block;
  },

  getBlocks(params, context) {
    const [startParam, second, third] = positional(params, 'getBlocks', { min: 1, max: 3 });
    const start = requireInteger(startParam);
    // getBlocks(start, end?, config?): the end may be left out before a config.
    const endParam = typeof second === 'number' || typeof second === 'bigint' ? second : undefined;
    const commitment = confirmedOrFinalized(configObject(typeof second === 'object' ? second : third));
    const current = Number(context.deps.ledger.slotAt(commitment));
    const end = Math.min(endParam === undefined ? current : requireInteger(endParam), current);
    if (end - start > MAX_SLOT_RANGE) throw invalidParam(`Slot range too large; max ${MAX_SLOT_RANGE}`);
    return range(start, end);
  },

  getBlocksWithLimit(params, context) {
    const [startParam, limitParam, raw] = positional(params, 'getBlocksWithLimit', { min: 2, max: 3 });
    const start = requireInteger(startParam);
    const limit = requireInteger(limitParam, 'usize');
    const commitment = confirmedOrFinalized(configObject(raw));
    if (limit > MAX_SLOT_RANGE) throw invalidParam(`Limit too large; max ${MAX_SLOT_RANGE}`);
    const current = Number(context.deps.ledger.slotAt(commitment));
    return range(start, Math.min(start + limit - 1, current));
  },

  getFirstAvailableBlock(params) {
    positional(params, 'getFirstAvailableBlock', { min: 0, max: 0 });
    return 0;
  },

  minimumLedgerSlot(params) {
    positional(params, 'minimumLedgerSlot', { min: 0, max: 0 });
    return 0;
  },

  /** Transactions that landed in a block, failed ones included, as the validator counts them. */
  getTransactionCount(params, context) {
    const [raw] = positional(params, 'getTransactionCount', { min: 0, max: 1 });
    const config = configObject(raw);
    commitmentOf(config);
    contextSlot(context, config);
    return landedCount(context.deps);
  },

  /** One sample per 150 slots (60 s of 400 ms slots) completed, newest first: the transactions that landed in them. */
  getRecentPerformanceSamples(params, context) {
    const [limitParam] = positional(params, 'getRecentPerformanceSamples', { min: 0, max: 1 });
    const limit = limitParam === undefined || limitParam === null ? MAX_PERFORMANCE_SAMPLES : requireInteger(limitParam, 'usize');
    if (limit > MAX_PERFORMANCE_SAMPLES) throw paramsError(`Invalid limit; max ${MAX_PERFORMANCE_SAMPLES}`);
    const current = Number(context.deps.ledger.clock().slot);
    const windows = Math.floor(current / SAMPLE_SLOTS);
    const counts = new Map<number, number>();
    for (const submission of context.deps.submissions.all()) {
      if (submission.ledger && landedInBlock(submission.ledger)) {
        const window = Math.floor(Number(submission.ledger.slot) / SAMPLE_SLOTS);
        counts.set(window, (counts.get(window) ?? 0) + 1);
      }
    }
    const samples = [];
    for (let window = windows - 1; window >= 0 && samples.length < limit; window -= 1) {
      const numTransactions = counts.get(window) ?? 0;
      samples.push({
        slot: (window + 1) * SAMPLE_SLOTS,
        numTransactions,
        numNonVoteTransactions: numTransactions,
        numSlots: SAMPLE_SLOTS,
        samplePeriodSecs: 60,
      });
    }
    return samples;
  },

  /** The emulator takes no ledger snapshots (its state file is not one): a validator with none answers this. */
  getHighestSnapshotSlot(params) {
    positional(params, 'getHighestSnapshotSlot', { min: 0, max: 0 });
    throw new JsonRpcError(RPC_ERROR.NO_SNAPSHOT, 'No snapshot');
  },
};

/** The transactions of a slot that landed and reached `commitment`, in the order they were accepted. */
function transactionsIn(deps: RpcDeps, slot: number, commitment: 'confirmed' | 'finalized'): Submission[] {
  return deps.submissions
    .all()
    .filter(
      (submission) =>
        submission.ledger !== null &&
        Number(submission.ledger.slot) === slot &&
        landedInBlock(submission.ledger) &&
        reachedCommitment(submission.commitment, commitment),
    );
}

export function landedCount(deps: RpcDeps): number {
  return deps.submissions.all().filter((submission) => submission.ledger !== null && landedInBlock(submission.ledger)).length;
}

/**
 * The blockhash of a slot's block: the SHA-256 of the genesis hash and the slot, the same in every
 * run. The blockhashes getLatestBlockhash hands out are the engine's and may differ.
 */
function blockhashOf(genesisHash: string, slot: number): string {
  return encodeBase58(createHash('sha256').update(`${genesisHash}:${slot}`).digest());
}

function range(start: number, end: number): number[] {
  const slots: number[] = [];
  for (let slot = start; slot <= end; slot += 1) slots.push(slot);
  return slots;
}

/** One transaction of getBlock: `{transaction, meta, version?}` in full, or accounts and balances only. */
function blockTransaction(
  submission: Submission,
  details: 'full' | 'accounts',
  encoding: TransactionEncoding,
  max: number | undefined,
): Record<string, unknown> {
  const ledger = submission.ledger!;
  const bytes = Buffer.from(submission.wire, 'base64');
  const tx = VersionedTransaction.deserialize(bytes);
  if (tx.version !== 'legacy' && (max === undefined || tx.version > max)) throw new UnsupportedTransactionVersionError(tx.version);
  const version = max === undefined ? {} : { version: tx.version };
  if (details === 'full')
    return {
      transaction: encodeTransaction(tx, bytes, encoding, ledger.loadedAddresses),
      meta: metaJson(ledger, { parsed: encoding === 'jsonParsed' }),
      ...version,
    };
  const { message } = tx;
  return {
    transaction: {
      signatures: tx.signatures.map((signature) => encodeBase58(signature)),
      accountKeys: parsedAccountKeys(message, ledger.loadedAddresses),
    },
    meta: {
      err: ledger.err,
      status: ledger.err === null ? { Ok: null } : { Err: ledger.err },
      fee: Number(ledger.fee),
      preBalances: ledger.preBalances.map(Number),
      postBalances: ledger.postBalances.map(Number),
      preTokenBalances: ledger.preTokenBalances.map(tokenBalanceJson),
      postTokenBalances: ledger.postTokenBalances.map(tokenBalanceJson),
    },
    ...version,
  };
}
