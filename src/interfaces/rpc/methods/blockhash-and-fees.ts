import { VersionedMessage, VersionedTransaction } from '@solana/web3.js';
import { COMPUTE_BUDGET_PROGRAM_ID, decodeComputeBudget } from '../../../domain/ledger/compute-budget.ts';
import { commitmentOf, contextSlot, withContext, type MethodTable } from '../context.ts';
import { invalidParams, paramsError } from '../json-rpc-error.ts';
import { configObject, positional, requireHash, requirePubkey, requireString } from '../params.ts';
import { landedInBlock } from '../../../domain/ledger/transaction-error.ts';
import { decodeBinaryParam } from '../decode-transaction.ts';

/** The validator keeps prioritization fees for this many recent blocks. */
const PRIORITIZATION_FEE_SLOTS = 150;
const MAX_PRIORITIZATION_FEE_ACCOUNTS = 128;
/** The type the validator names in getFeeForMessage's decoding errors (Agave 4.1's solana-message crate). */
const MESSAGE_TYPE = 'solana_message::versions::VersionedMessage';

export const blockhashAndFeeMethods: MethodTable = {
  async getLatestBlockhash(params, context) {
    const [raw] = positional(params, 'getLatestBlockhash', { min: 0, max: 1 });
    const config = configObject(raw);
    commitmentOf(config);
    const slot = contextSlot(context, config);
    const { blockhash, lastValidBlockHeight } = await context.deps.ledger.latestBlockhash();
    return withContext(slot, { blockhash, lastValidBlockHeight: Number(lastValidBlockHeight) });
  },

  isBlockhashValid(params, context) {
    const [hash, raw] = positional(params, 'isBlockhashValid', { min: 1, max: 2 });
    const config = configObject(raw);
    commitmentOf(config);
    const blockhash = requireHash(hash);
    const slot = contextSlot(context, config);
    return withContext(slot, context.deps.ledger.isBlockhashValid(blockhash));
  },

  async getFeeForMessage(params, context) {
    const [encoded, raw] = positional(params, 'getFeeForMessage', { min: 1, max: 2 });
    const config = configObject(raw);
    commitmentOf(config);
    const bytes = decodeBinaryParam(requireString(encoded), 'base64', MESSAGE_TYPE);
    let message: VersionedMessage;
    try {
      message = VersionedMessage.deserialize(bytes);
    } catch (error) {
      throw paramsError(`failed to deserialize ${MESSAGE_TYPE}: ${(error as Error).message}`);
    }
    const slot = contextSlot(context, config);
    const { ledger } = context.deps;
    // A durable-nonce message has a fee too, as Agave's get_fee_for_message checks the nonce when the blockhash is not recent.
    const fee = (await ledger.isTransactionRecent(message)) ? Number(ledger.feeFor(new VersionedTransaction(message))) : null;
    return withContext(slot, fee);
  },

  /**
   * One entry per recent slot: the lowest compute-unit price paid in that slot by a transaction
   * that write-locks one of `addresses` (any transaction when none are given); 0 for empty slots.
   */
  getRecentPrioritizationFees(params, context) {
    const [raw] = positional(params, 'getRecentPrioritizationFees', { min: 0, max: 1 });
    const list = raw === undefined || raw === null ? [] : raw;
    if (!Array.isArray(list)) throw invalidParams('invalid type: expected a sequence of account addresses');
    if (list.length > MAX_PRIORITIZATION_FEE_ACCOUNTS) throw paramsError(`Too many inputs provided; max ${MAX_PRIORITIZATION_FEE_ACCOUNTS}`);
    const addresses = new Set(list.map((item) => requirePubkey(item).toBase58()));
    const current = Number(context.deps.ledger.clock().slot);
    const first = Math.max(1, current - PRIORITIZATION_FEE_SLOTS + 1);
    const fees = new Map<number, bigint>();
    const submissions = context.deps.submissions.all();
    for (let index = submissions.length - 1; index >= 0; index -= 1) {
      const record = submissions[index]!;
      if (!record.ledger) continue;
      const slot = Number(record.ledger.slot);
      if (slot < first) break;
      if (!landedInBlock(record.ledger)) continue;
      const tx = VersionedTransaction.deserialize(Buffer.from(record.wire, 'base64'));
      if (addresses.size > 0 && !writesAny(tx, addresses)) continue;
      const price = computeUnitPrice(tx);
      const known = fees.get(slot);
      fees.set(slot, known === undefined || price < known ? price : known);
    }
    const result: { slot: number; prioritizationFee: number }[] = [];
    for (let slot = first; slot <= current; slot += 1) result.push({ slot, prioritizationFee: Number(fees.get(slot) ?? 0n) });
    return result;
  },
};

function writesAny(tx: VersionedTransaction, addresses: Set<string>): boolean {
  return tx.message.staticAccountKeys.some((key, index) => addresses.has(key.toBase58()) && tx.message.isAccountWritable(index));
}

function computeUnitPrice(tx: VersionedTransaction): bigint {
  const keys = tx.message.staticAccountKeys;
  let price = 0n;
  for (const ix of tx.message.compiledInstructions) {
    if (!keys[ix.programIdIndex]?.equals(COMPUTE_BUDGET_PROGRAM_ID)) continue;
    const decoded = decodeComputeBudget(ix.data);
    if (decoded?.kind === 'SetComputeUnitPrice') price = decoded.microLamports;
  }
  return price;
}
