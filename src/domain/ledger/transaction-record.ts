import type { PublicKey, VersionedTransaction } from '@solana/web3.js';
import type { LoadedAddresses } from './loaded-addresses.ts';
import type { AccountReads } from './account-reads.ts';
import type { EngineExecution, LedgerAccount } from './engine.ts';
import { reportedAccount, type ReportedAccount } from './ledger-changes.ts';
import type { LedgerTransaction, SimulationResult } from './ledger-types.ts';
import { addressOf, signatureText } from '../../base/crypto/key-cache.ts';
import { landedInBlock } from './transaction-error.ts';

/**
 * What the ledger keeps and reports of an execution: a processed transaction's record (balances
 * and token balances before and after, as the RPC and the history index report them), a
 * simulation's result, and the accounts a processed transaction left for the change feed.
 */

export interface ExecutedTransaction {
  tx: VersionedTransaction;
  /** Every account it names: its static keys, then the addresses its lookup tables loaded. */
  keys: readonly PublicKey[];
  loaded: LoadedAddresses;
  slot: bigint;
  blockTime: number;
  fee: bigint;
  execution: EngineExecution;
  /** The states of `keys` before and after, by index. */
  before: (LedgerAccount | null)[];
  after: (LedgerAccount | null)[];
  /** False when the engine never executed it (dropped, or refused by preflight). */
  ran: boolean;
}

/** What a transaction dropped before execution (its blockhash no longer valid) reports: it never ran. */
export const DROPPED: EngineExecution = { error: 'BlockhashNotFound', logs: [], computeUnitsConsumed: 0n, returnData: null, innerInstructions: null };

/**
 * The record of a transaction the ledger was given. It landed in a block when it ran and either
 * succeeded or paid its fee (a fee payer that cannot pay fails before a block takes it); one that
 * did not land cost nothing, and its fee is 0.
 */
export async function transactionRecord(
  { tx, keys, loaded, slot, blockTime, fee, execution, before, after, ran }: ExecutedTransaction,
  reads: AccountReads,
): Promise<LedgerTransaction> {
  const landed = ran && landedInBlock({ err: execution.error, fee, preBalances: [before[0]?.lamports ?? 0n], postBalances: [after[0]?.lamports ?? 0n] });
  return {
    landed,
    signature: signatureText(tx.signatures[0] ?? new Uint8Array(64)),
    slot,
    blockTime,
    err: execution.error,
    logs: execution.logs,
    computeUnitsConsumed: execution.computeUnitsConsumed,
    fee: landed ? fee : 0n,
    accountKeys: keys.map((key) => addressOf(key)),
    loadedAddresses: { writable: loaded.writable.map(addressOf), readonly: loaded.readonly.map(addressOf) },
    preBalances: before.map((account) => account?.lamports ?? 0n),
    postBalances: after.map((account) => account?.lamports ?? 0n),
    preTokenBalances: await reads.tokenBalances(before),
    postTokenBalances: await reads.tokenBalances(after),
    returnData: execution.returnData,
    innerInstructions: execution.innerInstructions,
  };
}

export function simulationResult(execution: EngineExecution): SimulationResult {
  return {
    err: execution.error,
    logs: execution.logs,
    computeUnitsConsumed: execution.computeUnitsConsumed,
    returnData: execution.returnData,
    innerInstructions: execution.innerInstructions,
  };
}

/**
 * The accounts a processed transaction may have changed, as now stored: only writable ones can
 * have (programs and sysvars never are), loaded from a lookup table or not.
 */
export function writtenAccountsOf(tx: VersionedTransaction, keys: readonly PublicKey[], after: (LedgerAccount | null)[]): [string, ReportedAccount | null][] {
  return keys.flatMap((key, index): [string, ReportedAccount | null][] =>
    tx.message.isAccountWritable(index) ? [[addressOf(key), reportedAccount(after[index] ?? null)]] : [],
  );
}
