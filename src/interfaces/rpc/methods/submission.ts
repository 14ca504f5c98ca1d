import { type PublicKey, SystemProgram, VersionedTransaction } from '@solana/web3.js';
import { failedBeforeExecution, landedInBlock } from '../../../domain/ledger/transaction-error.ts';
import { createEd25519Signer } from '../../../base/crypto/ed25519.ts';
import { signTransaction, type SignedTransaction } from '../../../base/crypto/sign-transaction.ts';
import { keypairOf } from '../../../domain/fixtures/load-fixtures.ts';
import { innerInstructionsJson, tokenBalanceJson } from '../transaction-json.ts';
import { accountEncodingOf, accountJson, type AccountEncodingOptions } from '../account-json.ts';
import type { TransactionErrorJson } from '../../../domain/ledger/transaction-error.ts';
import type { RpcDeps } from '../rpc-deps.ts';
import { commitmentOf, contextSlot, withContext, type MethodTable } from '../context.ts';
import { decodeTransaction, signaturesVerify, type DecodedTransaction } from '../decode-transaction.ts';
import { JsonRpcError, RPC_ERROR, invalidParams, paramsError } from '../json-rpc-error.ts';
import { configObject, optionalBoolean, optionalInteger, optionalVariant, positional, requireInteger, requirePubkey, requireString } from '../params.ts';
import { transactionErrorText } from '../transaction-error-text.ts';
import { encodeBase58 } from '../../../base/crypto/base58.ts';
import { addressOf } from '../../../base/crypto/key-cache.ts';

const BINARY_ENCODINGS = ['base58', 'base64'] as const;
/** Airdrops that collide with an identical earlier one move the ledger on a slot, at most this often. */
const AIRDROP_ATTEMPTS = 4;

/** The validator's `RpcSimulateTransactionResult` (Agave 4.1: rpc-client-types' field order). */
interface SimulationValue {
  err: TransactionErrorJson | null;
  logs: string[];
  accounts: (Record<string, unknown> | null)[] | null;
  unitsConsumed: number;
  loadedAccountsDataSize: number;
  returnData: { programId: string; data: [string, 'base64'] } | null;
  /** Parsed where the parser knows the program, as the validator answers it; null unless asked for, or when the engine records none. */
  innerInstructions: Record<string, unknown>[] | null;
  replacementBlockhash: { blockhash: string; lastValidBlockHeight: number } | null;
  fee: bigint | null;
  preBalances: bigint[] | null;
  postBalances: bigint[] | null;
  preTokenBalances: Record<string, unknown>[] | null;
  postTokenBalances: Record<string, unknown>[] | null;
  loadedAddresses: { writable: string[]; readonly: string[] } | null;
}

export const submissionMethods: MethodTable = {
  /**
   * Sends a fully signed transaction directly (not sponsored): preflight as the validator does it,
   * then the emulator's queue, which submits it to the ledger. With skipPreflight a transaction that
   * could never land (bad signature, unknown blockhash) is answered with its signature and dropped,
   * as the network drops it.
   */
  async sendTransaction(params, context) {
    const [encoded, raw] = positional(params, 'sendTransaction', { min: 1, max: 2 });
    const config = configObject(raw);
    const encoding = optionalVariant(config, 'encoding', BINARY_ENCODINGS) ?? 'base58';
    const skipPreflight = optionalBoolean(config, 'skipPreflight') ?? false;
    commitmentOf(config, 'preflightCommitment');
    optionalInteger(config, 'maxRetries');
    contextSlot(context, config);
    const decoded = decodeTransaction(requireString(encoded), encoding);
    const { deps } = context;
    const landed = inStatusCache(deps.submissions.get(decoded.signature)?.ledger);

    if (!skipPreflight) {
      // Agave 3.1 on: a bad signature is the simulation's SignatureFailure, answered as a preflight failure (-32002).
      const failure = !signaturesVerify(decoded.tx)
        ? unexecuted('SignatureFailure')
        : // The runtime's order (check_transactions): the transaction's age, then the status cache.
          !(await deps.ledger.isTransactionRecent(decoded.tx.message))
          ? unexecuted('BlockhashNotFound')
          : landed
            ? unexecuted('AlreadyProcessed')
            : await simulationValue(deps, decoded, { replacementBlockhash: null, innerInstructions: false });
      if (failure.err !== null) {
        throw new JsonRpcError(RPC_ERROR.SEND_TRANSACTION_PREFLIGHT_FAILURE, `Transaction simulation failed: ${transactionErrorText(failure.err)}`, failure);
      }
    } else if (landed || !signaturesVerify(decoded.tx) || !(await deps.ledger.isTransactionRecent(decoded.tx.message))) {
      return decoded.signature;
    }
    return deps.relay.submitSigned(decoded.tx, decoded.bytes, 'rpc');
  },

  async simulateTransaction(params, context) {
    const [encoded, raw] = positional(params, 'simulateTransaction', { min: 1, max: 2 });
    const config = configObject(raw);
    const sigVerify = optionalBoolean(config, 'sigVerify') ?? false;
    const replace = optionalBoolean(config, 'replaceRecentBlockhash') ?? false;
    if (sigVerify && replace) throw paramsError('sigVerify may not be used with replaceRecentBlockhash');
    const encoding = optionalVariant(config, 'encoding', BINARY_ENCODINGS) ?? 'base58';
    commitmentOf(config);
    const inner = optionalBoolean(config, 'innerInstructions') ?? false;
    const slot = contextSlot(context, config);
    const decoded = decodeTransaction(requireString(encoded), encoding);
    const accounts = accountsRequested(config.accounts, decoded);

    const { ledger, submissions } = context.deps;
    let value: SimulationValue;
    if (sigVerify && !signaturesVerify(decoded.tx)) {
      // Agave 3.1 on: a result whose error is SignatureFailure (-32003 before).
      value = unexecuted('SignatureFailure');
    } else if (replace) {
      const latest = await ledger.latestBlockhash();
      const replacement = { blockhash: latest.blockhash, lastValidBlockHeight: Number(latest.lastValidBlockHeight) };
      value = await simulationValue(context.deps, decoded, { replacementBlockhash: replacement, innerInstructions: inner, accounts });
    } else if (!(await ledger.isTransactionRecent(decoded.tx.message))) {
      value = unexecuted('BlockhashNotFound', accounts);
    } else if (inStatusCache(submissions.get(decoded.signature)?.ledger)) {
      value = unexecuted('AlreadyProcessed', accounts);
    } else {
      value = await simulationValue(context.deps, decoded, { replacementBlockhash: null, innerInstructions: inner, accounts });
    }
    return withContext(slot, value);
  },

  /** A real SystemProgram transfer from the faucet fixture key, submitted like any sent transaction. */
  async requestAirdrop(params, context) {
    const [address, amount, raw] = positional(params, 'requestAirdrop', { min: 2, max: 3 });
    const to = requirePubkey(address);
    const lamports = requireInteger(amount);
    const config = configObject(raw);
    commitmentOf(config);
    const { deps } = context;
    for (let attempt = 0; attempt < AIRDROP_ATTEMPTS; attempt += 1) {
      const { tx, bytes } = await airdropTransaction(deps, to, lamports);
      if (!deps.submissions.get(encodeBase58(tx.signatures[0]!))) return deps.relay.submitSigned(tx, bytes, 'rpc');
      // The same transfer in the same blockhash would be the same transaction: move to a new slot.
      await deps.ledger.warp({ slots: 1 });
    }
    throw new JsonRpcError(RPC_ERROR.INTERNAL_ERROR, 'airdrop request failed: could not build a new transaction');
  },
};

async function airdropTransaction(deps: RpcDeps, to: PublicKey, lamports: number): Promise<SignedTransaction> {
  const faucet = keypairOf(deps.fixtures.relay.faucet);
  const { blockhash } = await deps.ledger.latestBlockhash();
  const instructions = [SystemProgram.transfer({ fromPubkey: faucet.publicKey, toPubkey: to, lamports })];
  return signTransaction({ instructions, blockhash, signers: [createEd25519Signer(faucet.secretKey)] });
}

/** The engine rebinds the blockhash of what it simulates: give it a copy, never the transaction we keep. */
function copyOf(decoded: DecodedTransaction): VersionedTransaction {
  return VersionedTransaction.deserialize(decoded.bytes);
}

/** A transaction refused before execution: no logs, no units, nothing loaded; each account asked for null. */
function unexecuted(err: TransactionErrorJson, accounts: AccountsRequest | null = null): SimulationValue {
  return {
    err,
    logs: [],
    accounts: accounts === null ? null : accounts.addresses.map(() => null),
    unitsConsumed: 0,
    loadedAccountsDataSize: 0,
    returnData: null,
    innerInstructions: null,
    replacementBlockhash: null,
    fee: null,
    preBalances: null,
    postBalances: null,
    preTokenBalances: null,
    postTokenBalances: null,
    loadedAddresses: null,
  };
}

/** The transaction simulated as a validator reports it (Ledger.simulateDetailed), in the RPC's form. */
async function simulationValue(
  deps: RpcDeps,
  decoded: DecodedTransaction,
  options: { replacementBlockhash: SimulationValue['replacementBlockhash']; innerInstructions: boolean; accounts?: AccountsRequest | null },
): Promise<SimulationValue> {
  const { ledger } = deps;
  const request = options.accounts ?? null;
  const simulated = await ledger.simulateDetailed(copyOf(decoded), decoded.bytes, request?.addresses ?? []);
  const { result, before, after, keys, loaded } = simulated;
  // Stopped before it ran (its fee payer missing or too poor, …): no fee, balances or loads, as the validator reports it.
  if (failedBeforeExecution(result.err)) return unexecuted(result.err!, request);
  const accounts =
    request === null
      ? null
      : await Promise.all(
          simulated.requested.map((account, index) =>
            account === null ? null : accountJson(addressOf(request.addresses[index]!), account, request.encoding, ledger),
          ),
        );
  return {
    err: result.err,
    logs: result.logs,
    accounts,
    unitsConsumed: Number(result.computeUnitsConsumed),
    loadedAccountsDataSize: simulated.loadedAccountsDataSize,
    returnData: result.returnData ? { programId: result.returnData.programId, data: [Buffer.from(result.returnData.data).toString('base64'), 'base64'] } : null,
    innerInstructions: options.innerInstructions ? innerInstructionsJson(result.innerInstructions, keys.map(addressOf), { parsed: true }) : null,
    replacementBlockhash: options.replacementBlockhash,
    fee: simulated.fee,
    preBalances: before.map((account) => account?.lamports ?? 0n),
    // An engine that reports no post-simulation states (bankrun): the balances as they stand.
    postBalances: (after ?? before).map((account) => account?.lamports ?? 0n),
    preTokenBalances: simulated.preTokenBalances.map(tokenBalanceJson),
    postTokenBalances: (simulated.postTokenBalances ?? simulated.preTokenBalances).map(tokenBalanceJson),
    loadedAddresses: { writable: loaded.writable.map(addressOf), readonly: loaded.readonly.map(addressOf) },
  };
}

interface AccountsRequest {
  addresses: PublicKey[];
  encoding: AccountEncodingOptions;
}

/**
 * `accounts: {addresses, encoding}`, checked as the validator checks it: the encoding base64 (the
 * default), base64+zstd or jsonParsed (base58 and binary refused), at most as many addresses as the
 * transaction has accounts, each an address.
 */
function accountsRequested(value: unknown, decoded: DecodedTransaction): AccountsRequest | null {
  if (value === undefined || value === null) return null;
  const config = configObject(value);
  const addresses = config.addresses;
  if (!Array.isArray(addresses)) throw invalidParams('missing field `addresses`');
  const encoding = accountEncodingOf(config, 'base64');
  if (encoding.encoding === 'binary' || encoding.encoding === 'base58') throw paramsError('base58 encoding not supported');
  const message = decoded.tx.message;
  const lookups =
    message.version === 'legacy'
      ? 0
      : message.addressTableLookups.reduce((sum, lookup) => sum + lookup.writableIndexes.length + lookup.readonlyIndexes.length, 0);
  const max = message.staticAccountKeys.length + lookups;
  if (addresses.length > max) throw paramsError(`Too many accounts provided; max ${max}`);
  return { addresses: addresses.map(requirePubkey), encoding };
}

/**
 * Whether the runtime's status cache holds the transaction, so that running it again is
 * AlreadyProcessed: only what landed in a block does. One that failed to load (a lookup table that
 * does not exist, an index past its end) or was dropped was never committed, and runs again to the
 * same error (issue 45, item 12).
 */
function inStatusCache(ledger: Parameters<typeof landedInBlock>[0] | null | undefined): boolean {
  return ledger !== null && ledger !== undefined && landedInBlock(ledger);
}
