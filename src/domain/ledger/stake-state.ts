import { Reader, Writer } from './bincode.ts';

// The stake program's accounts a validator's genesis writes and its RPC parses (solana-stake-interface's StakeStateV2), and the stake config.

/** StakeStateV2::size_of(). */
export const STAKE_STATE_SIZE = 200;
const U64_MAX = 2n ** 64n - 1n;

export interface StakeState {
  type: 'uninitialized' | 'initialized' | 'delegated' | 'rewardsPool';
  meta: {
    rentExemptReserve: bigint;
    authorized: { staker: string; withdrawer: string };
    lockup: { unixTimestamp: bigint; epoch: bigint; custodian: string };
  } | null;
  stake: {
    delegation: { voter: string; stake: bigint; activationEpoch: bigint; deactivationEpoch: bigint; warmupCooldownRate: number };
    creditsObserved: bigint;
  } | null;
}

/** A stake account's state (StakeStateV2), or null when the data is none. */
export function decodeStakeState(data: Uint8Array): StakeState | null {
  try {
    const reader = new Reader(data);
    const tag = reader.u32();
    if (tag === 0) return { type: 'uninitialized', meta: null, stake: null };
    if (tag === 3) return { type: 'rewardsPool', meta: null, stake: null };
    if (tag !== 1 && tag !== 2) return null;
    const meta = {
      rentExemptReserve: reader.u64(),
      authorized: { staker: reader.pubkey(), withdrawer: reader.pubkey() },
      lockup: { unixTimestamp: reader.i64(), epoch: reader.u64(), custodian: reader.pubkey() },
    };
    if (tag === 1) return { type: 'initialized', meta, stake: null };
    const delegation = {
      voter: reader.pubkey(),
      stake: reader.u64(),
      activationEpoch: reader.u64(),
      deactivationEpoch: reader.u64(),
      warmupCooldownRate: reader.f64(),
    };
    return { type: 'delegated', meta, stake: { delegation, creditsObserved: reader.u64() } };
  } catch {
    return null;
  }
}

/**
 * A stake account delegated at genesis, as solana-test-validator's bootstrap stake is: staker and
 * withdrawer its own key, no lockup, active from the start (activation epoch u64::MAX).
 */
export function encodeBootstrapStake(init: { authority: Uint8Array; voter: Uint8Array; stake: bigint; rentExemptReserve: bigint }): Uint8Array {
  return new Writer(STAKE_STATE_SIZE)
    .u32(2)
    .u64(init.rentExemptReserve)
    .key(init.authority)
    .key(init.authority)
    .i64(0n)
    .u64(0n)
    .key(new Uint8Array(32))
    .key(init.voter)
    .u64(init.stake)
    .u64(U64_MAX)
    .u64(U64_MAX)
    .f64(0.25)
    .u64(0n)
    .u8(0).bytes;
}

/** The stake config account's data (no keys, warmup/cooldown 0.25, slash penalty 12): 10 bytes, as Agave's genesis writes it. */
export function encodeStakeConfig(): Uint8Array {
  const writer = new Writer(10).u8(0).f64(0.25).u8(12);
  return writer.bytes;
}
