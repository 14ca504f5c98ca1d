import { type PublicKey, SystemProgram, VersionedTransaction } from '@solana/web3.js';
import { landedInBlock } from '../../../domain/ledger/transaction-error.ts';
import { createEd25519Signer } from '../../../base/crypto/ed25519.ts';
import { signTransaction, type SignedTransaction } from '../../../base/crypto/sign-transaction.ts';
import { keypairOf } from '../../../domain/fixtures/load-fixtures.ts';
import type { SimulationResult } from '../../../domain/ledger/ledger.ts';
import { innerInstructionsJson } from '../transaction-json.ts';
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

/** The validator's `RpcSimulateTransactionResult`. */
interface SimulationValue {
  err: TransactionErrorJson | null;
  logs: string[];
  accounts: null | [];
  unitsConsumed: number;
  returnData: { programId: string; data: [string, 'base64'] } | null;
  /** Parsed where the parser knows the program, as the validator answers it; null unless asked for, or when the engine records none. */
  innerInstructions: Record<string, unknown>[] | null;
  replacementBlockhash: { blockhash: string; lastValidBlockHeight: number } | null;
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
      if (!signaturesVerify(decoded.tx)) throw signatureFailure();
      // The runtime's order (check_transactions): the transaction's age, then the status cache.
      const failure = !(await deps.ledger.isTransactionRecent(decoded.tx.message))
        ? unexecuted('BlockhashNotFound')
        : landed
          ? unexecuted('AlreadyProcessed')
          : simulationValue(await deps.ledger.simulate(copyOf(decoded), decoded.bytes), null, decoded, false);
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
    const accounts = accountsRequested(config.accounts);
    const slot = contextSlot(context, config);
    const decoded = decodeTransaction(requireString(encoded), encoding);
    if (sigVerify && !signaturesVerify(decoded.tx)) throw signatureFailure();

    const { ledger, submissions } = context.deps;
    let value: SimulationValue;
    if (replace) {
      const latest = await ledger.latestBlockhash();
      const replacement = { blockhash: latest.blockhash, lastValidBlockHeight: Number(latest.lastValidBlockHeight) };
      value = simulationValue(await ledger.simulate(copyOf(decoded), decoded.bytes), replacement, decoded, inner);
    } else if (!(await ledger.isTransactionRecent(decoded.tx.message))) {
      value = unexecuted('BlockhashNotFound');
    } else if (inStatusCache(submissions.get(decoded.signature)?.ledger)) {
      value = unexecuted('AlreadyProcessed');
    } else {
      value = simulationValue(await ledger.simulate(copyOf(decoded), decoded.bytes), null, decoded, inner);
    }
    return withContext(slot, { ...value, accounts });
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

function signatureFailure(): JsonRpcError {
  return new JsonRpcError(RPC_ERROR.TRANSACTION_SIGNATURE_VERIFICATION_FAILURE, 'Transaction signature verification failure');
}

/** The engine rebinds the blockhash of what it simulates: give it a copy, never the transaction we keep. */
function copyOf(decoded: DecodedTransaction): VersionedTransaction {
  return VersionedTransaction.deserialize(decoded.bytes);
}

/** A transaction refused before execution: no logs, no units. */
function unexecuted(err: TransactionErrorJson): SimulationValue {
  return { err, logs: [], accounts: null, unitsConsumed: 0, returnData: null, innerInstructions: null, replacementBlockhash: null };
}

function simulationValue(
  result: SimulationResult,
  replacementBlockhash: SimulationValue['replacementBlockhash'],
  decoded: DecodedTransaction,
  innerInstructions: boolean,
): SimulationValue {
  return {
    err: result.err,
    logs: result.logs,
    accounts: null,
    unitsConsumed: Number(result.computeUnitsConsumed),
    returnData: result.returnData ? { programId: result.returnData.programId, data: [Buffer.from(result.returnData.data).toString('base64'), 'base64'] } : null,
    innerInstructions: innerInstructions
      ? innerInstructionsJson(result.innerInstructions, decoded.tx.message.staticAccountKeys.map(addressOf), { parsed: true })
      : null,
    replacementBlockhash,
  };
}

/**
 * `accounts: {addresses, encoding}` asks for post-simulation account states, which the engine does
 * not report: an empty list is answered, anything else refused rather than answered wrongly.
 */
function accountsRequested(value: unknown): null | [] {
  if (value === undefined || value === null) return null;
  const addresses = (value as { addresses?: unknown }).addresses;
  if (!Array.isArray(addresses)) throw invalidParams('invalid type: expected accounts {addresses: [..], encoding}');
  if (addresses.length > 0)
    throw paramsError('simulateTransaction `accounts` is not supported by the emulator: the engine does not report post-simulation account states');
  return [];
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
