import { VersionedTransaction, type MessageCompiledInstruction, type VersionedMessage } from '@solana/web3.js';
import type { InnerInstructions } from '../../domain/ledger/engine.ts';
import type { LedgerTransaction, TokenBalanceSnapshot } from '../../domain/ledger/ledger.ts';
import type { Submission } from '../../domain/store/submissions.ts';
import { parseInstruction } from './parse-instruction.ts';
import { isReservedAddress, isWritable } from './reserved-accounts.ts';
import { uiTokenAmount } from './ui-token-amount.ts';
import { encodeBase58 } from '../../base/crypto/base58.ts';

export type TransactionEncoding = 'json' | 'jsonParsed' | 'base64' | 'base58';

export interface TransactionJsonOptions {
  encoding: TransactionEncoding;
  /**
   * The highest transaction version the client accepts. Absent (the RPC's default): legacy
   * transactions are rendered without a `version` field and versioned ones are refused with
   * {@link UnsupportedTransactionVersionError}.
   */
  maxSupportedTransactionVersion?: number;
}

/** The RPC answers this with -32015; the message is the validator's. */
export class UnsupportedTransactionVersionError extends Error {
  constructor(readonly version: number) {
    super(
      `Transaction version (${version}) is not supported by the requesting client. ` +
        `Please try the request again with the following configuration parameter: "maxSupportedTransactionVersion": ${version}`,
    );
    this.name = 'UnsupportedTransactionVersionError';
  }
}

/**
 * A processed transaction as the Solana JSON-RPC's `getTransaction` result renders it:
 * `{slot, blockTime, version?, transaction, meta}` with the meta of `UiTransactionStatusMeta`.
 * Null while the transaction has not reached the ledger (queued, or failed before submission).
 *
 * A v0 transaction's lookups are rendered as Agave renders them: json's `message.accountKeys` are
 * the static keys and `meta.loadedAddresses` what the tables loaded; jsonParsed lists every key,
 * each loaded one with `source: "lookupTable"`, and has no `loadedAddresses`. `innerInstructions`
 * is what the engine recorded, or null on an engine that records none (bankrun), as a validator
 * with recording off answers.
 */
export function transactionJson(submission: Submission, options: TransactionJsonOptions): Record<string, unknown> | null {
  const ledger = submission.ledger;
  if (!ledger) return null;
  const bytes = Buffer.from(submission.wire, 'base64');
  const tx = VersionedTransaction.deserialize(bytes);
  const version = versionField(tx, options.maxSupportedTransactionVersion);
  const parsed = options.encoding === 'jsonParsed';
  return {
    slot: Number(ledger.slot),
    blockTime: ledger.blockTime,
    ...(version === undefined ? {} : { version }),
    transaction: encodeTransaction(tx, bytes, options.encoding, ledger.loadedAddresses),
    meta: metaJson(ledger, { parsed }),
  };
}

/** `UiTransactionStatusMeta` for a ledger result; `parsed` drops `loadedAddresses`, as jsonParsed does. */
export function metaJson(ledger: LedgerTransaction, options: { parsed: boolean }): Record<string, unknown> {
  return {
    err: ledger.err,
    status: ledger.err === null ? { Ok: null } : { Err: ledger.err },
    fee: Number(ledger.fee),
    preBalances: ledger.preBalances.map(Number),
    postBalances: ledger.postBalances.map(Number),
    innerInstructions: innerInstructionsJson(ledger.innerInstructions, ledger.accountKeys, options),
    logMessages: ledger.logs,
    preTokenBalances: ledger.preTokenBalances.map(tokenBalanceJson),
    postTokenBalances: ledger.postTokenBalances.map(tokenBalanceJson),
    rewards: [],
    ...(options.parsed ? {} : { loadedAddresses: ledger.loadedAddresses ?? { writable: [], readonly: [] } }),
    ...(ledger.returnData
      ? { returnData: { programId: ledger.returnData.programId, data: [Buffer.from(ledger.returnData.data).toString('base64'), 'base64'] } }
      : {}),
    computeUnitsConsumed: Number(ledger.computeUnitsConsumed),
  };
}

/**
 * `UiInnerInstructions`: compiled (`{programIdIndex, accounts, data, stackHeight}`, data in base58)
 * for json and the binary encodings, parsed where the parser knows the program for jsonParsed.
 */
export function innerInstructionsJson(
  groups: InnerInstructions[] | null,
  accountKeys: string[],
  options: { parsed: boolean },
): Record<string, unknown>[] | null {
  if (groups === null) return null;
  return groups.map(({ index, instructions }) => ({
    index,
    instructions: instructions.map((ix) =>
      options.parsed
        ? parseInstruction(
            { programId: accountKeys[ix.programIdIndex] ?? '', accounts: ix.accounts.map((key) => accountKeys[key] ?? ''), data: ix.data },
            ix.stackHeight,
          )
        : { programIdIndex: ix.programIdIndex, accounts: ix.accounts, data: encodeBase58(ix.data), stackHeight: ix.stackHeight },
    ),
  }));
}

export function tokenBalanceJson(balance: TokenBalanceSnapshot): Record<string, unknown> {
  return {
    accountIndex: balance.accountIndex,
    mint: balance.mint,
    owner: balance.owner,
    programId: balance.programId,
    uiTokenAmount: uiTokenAmount(balance.amount, balance.decimals),
  };
}

function versionField(tx: VersionedTransaction, max: number | undefined): 'legacy' | number | undefined {
  const version = tx.version;
  if (max === undefined) {
    if (version === 'legacy') return undefined;
    throw new UnsupportedTransactionVersionError(version);
  }
  if (version !== 'legacy' && version > max) throw new UnsupportedTransactionVersionError(version);
  return version;
}

/** What a transaction's lookup tables loaded (LedgerTransaction's `loadedAddresses`). */
type Loaded = { writable: string[]; readonly: string[] } | undefined;

/**
 * The `transaction` field in `encoding`: `[data, encoding]` for binary encodings, an object
 * otherwise; jsonParsed names the addresses `loaded` from lookup tables among its account keys.
 */
export function encodeTransaction(tx: VersionedTransaction, bytes: Uint8Array, encoding: TransactionEncoding, loaded?: Loaded): unknown {
  switch (encoding) {
    case 'base64':
      return [Buffer.from(bytes).toString('base64'), 'base64'];
    case 'base58':
      return [encodeBase58(bytes), 'base58'];
    case 'json':
      return { signatures: tx.signatures.map((signature) => encodeBase58(signature)), message: rawMessage(tx) };
    case 'jsonParsed':
      return { signatures: tx.signatures.map((signature) => encodeBase58(signature)), message: parsedMessage(tx, loaded) };
  }
}

function lookupsJson(tx: VersionedTransaction): Record<string, unknown> {
  const message = tx.message;
  if (message.version === 'legacy') return {};
  return {
    addressTableLookups: message.addressTableLookups.map((lookup) => ({
      accountKey: lookup.accountKey.toBase58(),
      writableIndexes: [...lookup.writableIndexes],
      readonlyIndexes: [...lookup.readonlyIndexes],
    })),
  };
}

function rawMessage(tx: VersionedTransaction): Record<string, unknown> {
  const message = tx.message;
  return {
    header: { ...message.header },
    accountKeys: message.staticAccountKeys.map((key) => key.toBase58()),
    recentBlockhash: message.recentBlockhash,
    instructions: message.compiledInstructions.map((ix: MessageCompiledInstruction) => ({
      programIdIndex: ix.programIdIndex,
      accounts: [...ix.accountKeyIndexes],
      data: encodeBase58(ix.data),
      stackHeight: null,
    })),
    ...lookupsJson(tx),
  };
}

/**
 * jsonParsed's account keys: the static ones (`source: "transaction"`), then those the lookup tables
 * loaded (`source: "lookupTable"`), writable ones first; a reserved account loaded writable is
 * demoted, as a static one is.
 */
export function parsedAccountKeys(message: VersionedMessage, loaded: Loaded): Record<string, unknown>[] {
  const staticKeys = message.staticAccountKeys.map((key) => key.toBase58());
  const parsed = staticKeys.map((pubkey, index) => ({
    pubkey,
    signer: message.isAccountSigner(index),
    source: 'transaction',
    writable: isWritable(message, index),
  }));
  if (!loaded) return parsed;
  for (const pubkey of loaded.writable) parsed.push({ pubkey, signer: false, source: 'lookupTable', writable: !isReservedAddress(pubkey) });
  for (const pubkey of loaded.readonly) parsed.push({ pubkey, signer: false, source: 'lookupTable', writable: false });
  return parsed;
}

function parsedMessage(tx: VersionedTransaction, loaded: Loaded): Record<string, unknown> {
  const message = tx.message;
  const keys = [...message.staticAccountKeys.map((key) => key.toBase58()), ...(loaded?.writable ?? []), ...(loaded?.readonly ?? [])];
  return {
    accountKeys: parsedAccountKeys(message, loaded),
    recentBlockhash: message.recentBlockhash,
    instructions: message.compiledInstructions.map((ix) =>
      parseInstruction({
        programId: keys[ix.programIdIndex] ?? '',
        accounts: ix.accountKeyIndexes.map((index) => keys[index] ?? ''),
        data: ix.data,
      }),
    ),
    ...lookupsJson(tx),
  };
}
