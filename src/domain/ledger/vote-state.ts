import { encodeBase58 } from '../../base/crypto/base58.ts';
import { Reader, Writer } from './bincode.ts';

/**
 * A vote account's state as its bincode layout holds it (solana-vote-interface): V0_23_5,
 * V1_14_11, V3 and V4 read, as Agave's account-decoder reads them; V3 written, as
 * solana-test-validator's genesis writes a new vote account.
 */

/** VoteStateV3::size_of(): a vote account's data, whatever its state holds. */
export const VOTE_STATE_V3_SIZE = 3762;

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
