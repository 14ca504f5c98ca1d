import type { RpcContext } from './rpc-deps.ts';
import { JsonRpcError, RPC_ERROR, invalidParams, paramsError } from './json-rpc-error.ts';
import { configObject, optionalInteger, optionalVariant } from './params.ts';

/**
 * The Agave release line the RPC answers as (getVersion, `context.apiVersion`, the validator log):
 * 4.1, the line anza-xyz/kit 8.4's RPC tests hold a validator to (kit commit 8d3bbf1b, "RPC
 * updates for Agave 4.1.0"), and what its CI runs (scripts/get-latest-validator-release-version.sh).
 * docs/rpc.md says, method by method, what answers as 4.1 does.
 */
export const API_VERSION = '4.1.0';
/**
 * The feature-set id getVersion, getClusterNodes and the validator log report beside
 * {@link API_VERSION} (`feat:%08x`). Agave's is the first 4 bytes of a SHA-256 over its sorted
 * feature ids; this one is fixed, as the emulator's feature set is the engine's.
 */
export const FEATURE_SET = 1_725_507_508;

export const COMMITMENTS = ['processed', 'confirmed', 'finalized'] as const;
export type RpcCommitment = (typeof COMMITMENTS)[number];

export type { MethodTable, RpcContext, RpcMethod } from './rpc-deps.ts';

export function commitmentOf(config: Record<string, unknown>, field = 'commitment'): RpcCommitment {
  return optionalVariant(config, field, COMMITMENTS) ?? 'finalized';
}

/**
 * The commitment of a method whose config is the bare `CommitmentConfig` (getTokenAccountBalance,
 * getTokenSupply, getTokenLargestAccounts, getInflationGovernor, getMinimumBalanceForRentExemption):
 * absent or null is finalized, but a map must name `commitment` (`{}` is "missing field
 * `commitment`.", as serde words it), and `minContextSlot` is no field of it.
 */
export function bareCommitment(raw: unknown): RpcCommitment {
  const config = configObject(raw);
  if (raw !== undefined && raw !== null && config.commitment === undefined) throw invalidParams('missing field `commitment`');
  return commitmentOf(config);
}

/** Whether a transaction at commitment `have` (null: not executed) is seen by a read at `want`. */
export function reachedCommitment(have: RpcCommitment | null, want: RpcCommitment): boolean {
  return have !== null && COMMITMENTS.indexOf(have) >= COMMITMENTS.indexOf(want);
}

/** For methods that refuse `processed` (getTransaction, getSignaturesForAddress, getBlock…). */
export function confirmedOrFinalized(config: Record<string, unknown>): 'confirmed' | 'finalized' {
  const commitment = commitmentOf(config);
  if (commitment === 'processed') throw paramsError('Method does not support commitment below `confirmed`');
  return commitment;
}

/**
 * The slot a read is answered at: the slot of the commitment asked (`config.commitment`,
 * finalized by default), which under validator timing lags the current one as a validator's does
 * (Ledger.slotAt). The value read is the current state whatever the commitment (the emulator keeps
 * one bank; x-emulator-choice on /rpc). Refuses with -32016 when `minContextSlot` is ahead.
 */
export function contextSlot(context: RpcContext, config: Record<string, unknown>): number {
  const slot = Number(context.deps.ledger.slotAt(commitmentOf(config)));
  const minContextSlot = optionalInteger(config, 'minContextSlot');
  if (minContextSlot !== undefined && minContextSlot > slot) {
    throw new JsonRpcError(RPC_ERROR.MIN_CONTEXT_SLOT_NOT_REACHED, 'Minimum context slot has not been reached', { contextSlot: slot });
  }
  return slot;
}

/** `{context: {apiVersion, slot}, value}`, the `RpcResponse` envelope. */
export function withContext<T>(slot: number, value: T): { context: { apiVersion: string; slot: number }; value: T } {
  return { context: { apiVersion: API_VERSION, slot }, value };
}
