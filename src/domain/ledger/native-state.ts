import { encodeBase58 } from '../../base/crypto/base58.ts';

/**
 * The bincode layouts of the native programs' accounts a validator's genesis holds and its RPC
 * parses: vote state (V1_14_11, V3 and V4 read; V3 written, as solana-test-validator's genesis
 * writes it), stake state (read and written) and the stake config. Layouts: solana-vote-interface
 * and solana-stake-interface (anza-xyz/solana-sdk), Agave's account-decoder for what is read.
 */

/** VoteStateV3::size_of(): a vote account's data, whatever its state holds. */
export const VOTE_STATE_V3_SIZE = 3762;
/** StakeStateV2::size_of(). */
export const STAKE_STATE_SIZE = 200;
const U64_MAX = 2n ** 64n - 1n;

export interface VoteLockout {
  slot: bigint;
  confirmationCount: number;
  latency: number;
}

export interface VoteState {
  version: 'V0_23_5' | 'V1_14_11' | 'V3' | 'V4';
  nodePubkey: string;
  authorizedWithdrawer: string;
  /** Percent; V4 keeps basis points (`inflationRewardsCommissionBps / 100`). */
  commission: number;
  inflationRewardsCollector: string | null;
  blockRevenueCollector: string | null;
  inflationRewardsCommissionBps: number;
  blockRevenueCommissionBps: number;
  pendingDelegatorRewards: bigint;
  blsPubkeyCompressed: string | null;
  votes: VoteLockout[];
  rootSlot: bigint | null;
  authorizedVoters: { epoch: bigint; authorizedVoter: string }[];
  priorVoters: { authorizedPubkey: string; epochOfLastAuthorizedSwitch: bigint; targetEpoch: bigint }[];
  epochCredits: { epoch: bigint; credits: bigint; previousCredits: bigint }[];
  lastTimestamp: { slot: bigint; timestamp: bigint };
}

/** A little-endian reader that throws past its end (bincode's "unexpected end"). */
class Reader {
  at = 0;
  constructor(readonly bytes: Uint8Array) {}
  #need(length: number): number {
    if (this.at + length > this.bytes.length) throw new RangeError('unexpected end of data');
    const start = this.at;
    this.at += length;
    return start;
  }
  u8(): number {
    return this.bytes[this.#need(1)]!;
  }
  u16(): number {
    const at = this.#need(2);
    return this.bytes[at]! | (this.bytes[at + 1]! << 8);
  }
  u32(): number {
    const at = this.#need(4);
    return new DataView(this.bytes.buffer, this.bytes.byteOffset).getUint32(at, true);
  }
  u64(): bigint {
    const at = this.#need(8);
    return new DataView(this.bytes.buffer, this.bytes.byteOffset).getBigUint64(at, true);
  }
  i64(): bigint {
    const at = this.#need(8);
    return new DataView(this.bytes.buffer, this.bytes.byteOffset).getBigInt64(at, true);
  }
  f64(): number {
    const at = this.#need(8);
    return new DataView(this.bytes.buffer, this.bytes.byteOffset).getFloat64(at, true);
  }
  pubkey(): string {
    const at = this.#need(32);
    return encodeBase58(this.bytes.subarray(at, at + 32));
  }
  raw(length: number): Uint8Array {
    const at = this.#need(length);
    return this.bytes.subarray(at, at + length);
  }
  /** A collection's length, bounded by what the data could hold (a hostile length never allocates). */
  length(itemBytes: number): number {
    const length = this.u64();
    if (length * BigInt(itemBytes) > BigInt(this.bytes.length - this.at)) throw new RangeError('a length past the data');
    return Number(length);
  }
  option<T>(read: () => T): T | null {
    const tag = this.u8();
    if (tag > 1) throw new RangeError('an option tag that is neither 0 nor 1');
    return tag === 1 ? read() : null;
  }
}

const DEFAULT_PUBKEY = '11111111111111111111111111111111';

/** A vote account's state, or null when the data is none (Agave answers base64 then). */
export function decodeVoteState(data: Uint8Array): VoteState | null {
  try {
    return readVoteState(new Reader(data));
  } catch {
    return null;
  }
}

function readVoteState(reader: Reader): VoteState {
  const variant = reader.u32();
  if (variant === 0) return readV0(reader);
  if (variant > 3) throw new RangeError('an unknown vote state version');
  const version = (['V0_23_5', 'V1_14_11', 'V3', 'V4'] as const)[variant]!;
  const nodePubkey = reader.pubkey();
  const authorizedWithdrawer = reader.pubkey();
  if (version === 'V4') {
    const inflationRewardsCollector = reader.pubkey();
    const blockRevenueCollector = reader.pubkey();
    const inflationRewardsCommissionBps = reader.u16();
    const blockRevenueCommissionBps = reader.u16();
    const pendingDelegatorRewards = reader.u64();
    const bls = reader.option(() => reader.raw(48));
    const votes = readLandedVotes(reader);
    const rootSlot = reader.option(() => reader.u64());
    const authorizedVoters = readAuthorizedVoters(reader);
    const epochCredits = readEpochCredits(reader);
    const lastTimestamp = { slot: reader.u64(), timestamp: reader.i64() };
    return {
      version,
      nodePubkey,
      authorizedWithdrawer,
      commission: Math.floor(inflationRewardsCommissionBps / 100),
      inflationRewardsCollector,
      blockRevenueCollector,
      inflationRewardsCommissionBps,
      blockRevenueCommissionBps,
      pendingDelegatorRewards,
      blsPubkeyCompressed: bls === null ? null : encodeBase58(bls),
      votes,
      rootSlot,
      authorizedVoters,
      priorVoters: [],
      epochCredits,
      lastTimestamp,
    };
  }
  const commission = reader.u8();
  const votes = version === 'V3' ? readLandedVotes(reader) : readLockouts(reader);
  const rootSlot = reader.option(() => reader.u64());
  const authorizedVoters = readAuthorizedVoters(reader);
  const priorVoters = readPriorVoters(reader);
  const epochCredits = readEpochCredits(reader);
  const lastTimestamp = { slot: reader.u64(), timestamp: reader.i64() };
  return {
    version,
    nodePubkey,
    authorizedWithdrawer,
    commission,
    ...asV4(nodePubkey, commission),
    votes,
    rootSlot,
    authorizedVoters,
    priorVoters,
    epochCredits,
    lastTimestamp,
  };
}

/**
 * A V3 (or older) state seen as V4 sees it (SIMD-0185's conversion): inflation rewards to the vote
 * account itself at the same commission, block revenue to the node at 100 %, nothing pending.
 */
function asV4(nodePubkey: string, commission: number) {
  return {
    inflationRewardsCollector: null,
    blockRevenueCollector: nodePubkey,
    inflationRewardsCommissionBps: commission * 100,
    blockRevenueCommissionBps: 10_000,
    pendingDelegatorRewards: 0n,
    blsPubkeyCompressed: null,
  };
}

function readV0(reader: Reader): VoteState {
  const nodePubkey = reader.pubkey();
  const authorizedVoter = reader.pubkey();
  const authorizedVoterEpoch = reader.u64();
  // prior_voters: CircBuf<(Pubkey, Epoch, Epoch, Slot)> of 32, its index and is_empty.
  const priorVoters: VoteState['priorVoters'] = [];
  for (let index = 0; index < 32; index += 1) {
    const authorizedPubkey = reader.pubkey();
    const epochOfLastAuthorizedSwitch = reader.u64();
    const targetEpoch = reader.u64();
    reader.u64();
    if (authorizedPubkey !== DEFAULT_PUBKEY) priorVoters.push({ authorizedPubkey, epochOfLastAuthorizedSwitch, targetEpoch });
  }
  reader.u64();
  reader.u8();
  const authorizedWithdrawer = reader.pubkey();
  const commission = reader.u8();
  const votes = readLockouts(reader);
  const rootSlot = reader.option(() => reader.u64());
  const epochCredits = readEpochCredits(reader);
  const lastTimestamp = { slot: reader.u64(), timestamp: reader.i64() };
  return {
    version: 'V0_23_5',
    nodePubkey,
    authorizedWithdrawer,
    commission,
    ...asV4(nodePubkey, commission),
    votes,
    rootSlot,
    authorizedVoters: [{ epoch: authorizedVoterEpoch, authorizedVoter }],
    priorVoters,
    epochCredits,
    lastTimestamp,
  };
}

function readLockouts(reader: Reader): VoteLockout[] {
  return Array.from({ length: reader.length(12) }, () => ({ slot: reader.u64(), confirmationCount: reader.u32(), latency: 0 }));
}

function readLandedVotes(reader: Reader): VoteLockout[] {
  return Array.from({ length: reader.length(13) }, () => {
    const latency = reader.u8();
    return { latency, slot: reader.u64(), confirmationCount: reader.u32() };
  });
}

function readAuthorizedVoters(reader: Reader): VoteState['authorizedVoters'] {
  return Array.from({ length: reader.length(40) }, () => ({ epoch: reader.u64(), authorizedVoter: reader.pubkey() }));
}

function readPriorVoters(reader: Reader): VoteState['priorVoters'] {
  const voters: VoteState['priorVoters'] = [];
  for (let index = 0; index < 32; index += 1) {
    const authorizedPubkey = reader.pubkey();
    const epochOfLastAuthorizedSwitch = reader.u64();
    const targetEpoch = reader.u64();
    if (authorizedPubkey !== DEFAULT_PUBKEY) voters.push({ authorizedPubkey, epochOfLastAuthorizedSwitch, targetEpoch });
  }
  reader.u64();
  reader.u8();
  return voters;
}

function readEpochCredits(reader: Reader): VoteState['epochCredits'] {
  return Array.from({ length: reader.length(24) }, () => ({ epoch: reader.u64(), credits: reader.u64(), previousCredits: reader.u64() }));
}

/** A little-endian writer into a buffer of a fixed size (the rest zeros). */
class Writer {
  at = 0;
  readonly bytes: Uint8Array;
  readonly #view: DataView;
  constructor(size: number) {
    this.bytes = new Uint8Array(size);
    this.#view = new DataView(this.bytes.buffer);
  }
  u8(value: number): this {
    this.bytes[this.at] = value;
    this.at += 1;
    return this;
  }
  u32(value: number): this {
    this.#view.setUint32(this.at, value, true);
    this.at += 4;
    return this;
  }
  u64(value: bigint): this {
    this.#view.setBigUint64(this.at, value, true);
    this.at += 8;
    return this;
  }
  i64(value: bigint): this {
    this.#view.setBigInt64(this.at, value, true);
    this.at += 8;
    return this;
  }
  f64(value: number): this {
    this.#view.setFloat64(this.at, value, true);
    this.at += 8;
    return this;
  }
  key(key: Uint8Array): this {
    this.bytes.set(key, this.at);
    this.at += 32;
    return this;
  }
}

/**
 * A new vote account's data as genesis writes it (VoteStateV3, in VoteStateV3::size_of() bytes): the
 * node, the voter for epoch 0 and the withdrawer, the commission, and nothing voted yet.
 */
export function encodeVoteStateV3(init: { node: Uint8Array; voter: Uint8Array; withdrawer: Uint8Array; commission: number }): Uint8Array {
  const writer = new Writer(VOTE_STATE_V3_SIZE).u32(2).key(init.node).key(init.withdrawer).u8(init.commission);
  writer.u64(0n); // votes
  writer.u8(0); // root_slot: None
  writer.u64(1n).u64(0n).key(init.voter); // authorized_voters: {0: voter}
  writer.at += 32 * 48; // prior_voters' buffer: default entries
  writer.u64(31n).u8(1); // CircBuf { idx: MAX_ITEMS - 1, is_empty: true }, as Default makes it
  writer.u64(0n); // epoch_credits
  writer.u64(0n).i64(0n); // last_timestamp
  return writer.bytes;
}

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
