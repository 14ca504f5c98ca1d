import { landedInBlock } from '../../../domain/ledger/transaction-error.ts';
import type { HistoryEntry } from '../../../domain/store/history-index.ts';
import type { Submission } from '../../../domain/store/submissions.ts';
import { confirmedOrFinalized, contextSlot, reachedCommitment, withContext, type MethodTable } from '../context.ts';
import { JsonRpcError, RPC_ERROR, invalidParams, paramsError } from '../json-rpc-error.ts';
import { configObject, optionalBoolean, optionalInteger, optionalVariant, positional, requirePubkey, requireSignature } from '../params.ts';
import { transactionJson, UnsupportedTransactionVersionError, type TransactionEncoding } from '../transaction-json.ts';

const MAX_SIGNATURE_STATUSES = 256;
const MAX_SIGNATURES_FOR_ADDRESS = 1000;
const TRANSACTION_ENCODINGS = ['json', 'jsonParsed', 'base58', 'base64', 'binary'] as const;

export const signatureMethods: MethodTable = {
  /**
   * Statuses from the submissions. A transaction the ledger has not executed (queued, or
   * dropped before submission) is null, as an unknown signature is. History is always searched.
   *
   * One the ledger refused before it reached a block (its blockhash expired in the queue, its fee
   * payer could not pay) keeps its error here, where a cluster answers null until the client gives
   * up at lastValidBlockHeight: here block height moves only with traffic, so confirmTransaction
   * would wait for ever. getTransaction answers null for it, as a cluster does.
   */
  getSignatureStatuses(params, context) {
    const [list, raw] = positional(params, 'getSignatureStatuses', { min: 1, max: 2 });
    if (!Array.isArray(list)) throw invalidParams('invalid type: expected a sequence of signatures');
    if (list.length > MAX_SIGNATURE_STATUSES) throw paramsError(`Too many inputs provided; max ${MAX_SIGNATURE_STATUSES}`);
    const signatures = list.map(requireSignature);
    const config = configObject(raw);
    optionalBoolean(config, 'searchTransactionHistory');
    // The processed bank's slot, as the validator answers it (confirmations count from it).
    const slot = contextSlot(context, { commitment: 'processed' });
    return withContext(
      slot,
      signatures.map((signature) => signatureStatus(context.deps.submissions.get(signature), slot)),
    );
  },

  /** Newest first, from the same history index as POST /Account/gethistory. */
  getSignaturesForAddress(params, context) {
    const [address, raw] = positional(params, 'getSignaturesForAddress', { min: 1, max: 2 });
    const key = requirePubkey(address).toBase58();
    const config = configObject(raw);
    const commitment = confirmedOrFinalized(config);
    contextSlot(context, config);
    const limit = optionalInteger(config, 'limit') ?? MAX_SIGNATURES_FOR_ADDRESS;
    if (limit === 0 || limit > MAX_SIGNATURES_FOR_ADDRESS) throw paramsError(`Invalid limit; max ${MAX_SIGNATURES_FOR_ADDRESS}`);
    const before = config.before === undefined || config.before === null ? undefined : requireSignature(config.before);
    const until = config.until === undefined || config.until === null ? undefined : requireSignature(config.until);
    const { submissions, history } = context.deps;
    const entries: { entry: HistoryEntry; submission: Submission }[] = [];
    let cursor = before;
    // Finalized reads skip the newest entries that are only confirmed, and page on past them.
    while (entries.length < limit) {
      const page = history.query(key, { before: cursor, until, limit: limit - entries.length });
      if (page.length === 0) break;
      for (const entry of page) {
        const submission = submissions.get(entry.signature);
        if (submission && reachedCommitment(submission.commitment, commitment)) entries.push({ entry, submission });
      }
      cursor = page[page.length - 1]!.signature;
    }
    return entries.map(({ entry, submission }) => ({
      signature: entry.signature,
      slot: entry.slot,
      err: entry.err,
      memo: entry.memo,
      blockTime: entry.blockTime,
      confirmationStatus: submission.commitment,
    }));
  },

  getTransaction(params, context) {
    const [signatureParam, raw] = positional(params, 'getTransaction', { min: 1, max: 2 });
    const signature = requireSignature(signatureParam);
    // The second param is a config object, or (deprecated) the encoding alone.
    const config = typeof raw === 'string' ? { encoding: raw } : configObject(raw);
    const encoding = optionalVariant(config, 'encoding', TRANSACTION_ENCODINGS) ?? 'json';
    const commitment = confirmedOrFinalized(config);
    const maxSupportedTransactionVersion = optionalInteger(config, 'maxSupportedTransactionVersion');
    const submission = context.deps.submissions.get(signature);
    if (!submission?.ledger || !landedInBlock(submission.ledger) || !reachedCommitment(submission.commitment, commitment)) return null;
    try {
      return transactionJson(submission, {
        encoding: (encoding === 'binary' ? 'base58' : encoding) satisfies TransactionEncoding,
        ...(maxSupportedTransactionVersion === undefined ? {} : { maxSupportedTransactionVersion }),
      });
    } catch (error) {
      if (error instanceof UnsupportedTransactionVersionError) throw new JsonRpcError(RPC_ERROR.UNSUPPORTED_TRANSACTION_VERSION, error.message);
      throw error;
    }
  },
};

/** The validator's `TransactionStatus` for a record, or null while it has not been executed. */
export function signatureStatus(submission: Submission | undefined, currentSlot: number): Record<string, unknown> | null {
  if (!submission?.ledger) return null;
  const slot = Number(submission.ledger.slot);
  const confirmationStatus = submission.commitment ?? 'processed';
  const err = submission.ledger.err;
  return {
    slot,
    // Blocks built on it since, until it is rooted (null then), as the validator counts them.
    confirmations: confirmationStatus === 'finalized' ? null : Math.max(0, currentSlot - slot),
    err,
    status: err === null ? { Ok: null } : { Err: err },
    confirmationStatus,
  };
}
