import { PublicKey, StakeProgram, TransactionInstruction, TransactionMessage, VersionedTransaction } from '@solana/web3.js';
import type { Ledger } from '../../../domain/ledger/ledger.ts';
import { API_VERSION, FEATURE_SET, bareCommitment, commitmentOf, contextSlot, withContext, type MethodTable } from '../context.ts';
import { JsonRpcError, RPC_ERROR, invalidParams, paramsError } from '../json-rpc-error.ts';
import { activeStakes } from './vote-accounts.ts';
import { configObject, positional, requireInteger, requirePubkey, requireU64 } from '../params.ts';

/**
 * The cluster the emulator is: one validator (`config.identity`, its vote account
 * `config.voteAccount`: src/domain/fixtures/validator-genesis.ts), always the leader, on mainnet's
 * inflation schedule.
 */
const MAX_SLOT_LEADERS = 5000;
/** MAX_GET_INFLATION_REWARD_ADDRESSES (rpc-client-types). */
const MAX_INFLATION_REWARD_ADDRESSES = 32;
/** Mainnet's inflation governor (agave `Inflation::default`). */
const INFLATION = { initial: 0.08, terminal: 0.015, taper: 0.15, foundation: 0.05, foundationTerm: 7 } as const;
/** Slots in a year of 400 ms slots, as the runtime counts them (365.25 days). */
const SLOTS_PER_YEAR = (365.25 * 24 * 60 * 60) / 0.4;

export const clusterMethods: MethodTable = {
  getIdentity(params, context) {
    positional(params, 'getIdentity', { min: 0, max: 0 });
    return { identity: context.deps.config.identity };
  },

  getSlotLeader(params, context) {
    const [raw] = positional(params, 'getSlotLeader', { min: 0, max: 1 });
    const config = configObject(raw);
    commitmentOf(config);
    contextSlot(context, config);
    return context.deps.config.identity;
  },

  getSlotLeaders(params, context) {
    const [startParam, limitParam] = positional(params, 'getSlotLeaders', { min: 2, max: 2 });
    const start = requireU64(startParam);
    const limit = requireInteger(limitParam, 'u64');
    if (limit > MAX_SLOT_LEADERS) throw paramsError(`Invalid limit; max ${MAX_SLOT_LEADERS}`);
    // The leader schedule reaches the epoch after the current one; past it, rpc.rs says which epoch it lacks.
    const { ledger } = context.deps;
    const known = ledger.epochSchedule.epochOf(ledger.clock().slot).leaderScheduleEpoch;
    const last = start + BigInt(Math.max(limit, 1) - 1);
    for (const slot of [start, last]) {
      const { epoch } = ledger.epochSchedule.epochOf(slot);
      if (epoch > known) throw paramsError(`Invalid slot range: leader schedule for epoch ${epoch} is unavailable`);
    }
    return new Array<string>(limit).fill(context.deps.config.identity);
  },

  /** The one node: itself, reachable at the RPC URL's host. */
  getClusterNodes(params, context) {
    positional(params, 'getClusterNodes', { min: 0, max: 0 });
    const { rpcUrl, pubsubUrl } = context.deps.config;
    return [
      {
        pubkey: context.deps.config.identity,
        gossip: null,
        tpu: null,
        tpuQuic: null,
        tpuForwards: null,
        tpuForwardsQuic: null,
        tpuVote: null,
        serveRepair: null,
        rpc: new URL(rpcUrl).host,
        pubsub: new URL(pubsubUrl ?? rpcUrl).host,
        version: API_VERSION,
        featureSet: FEATURE_SET,
        shredVersion: 0,
      },
    ];
  },

  /** Every slot of the epoch is the one validator's. */
  getLeaderSchedule(params, context) {
    const [first, second] = positional(params, 'getLeaderSchedule', { min: 0, max: 2 });
    // getLeaderSchedule(slot?, config?): the slot may be left out before a config.
    // A number past 2^53 arrives exact, as a bigint (json-exact.ts).
    const slotParam = typeof first === 'number' || typeof first === 'bigint' || first === null ? first : undefined;
    const config = configObject(slotParam === undefined ? first : second);
    commitmentOf(config);
    const identity = config.identity === undefined || config.identity === null ? null : requirePubkey(config.identity).toBase58();
    const slot = slotParam === undefined || slotParam === null ? context.deps.ledger.clock().slot : requireU64(slotParam);
    const schedule = context.deps.ledger.epochSchedule;
    const { slotsInEpoch, epoch } = schedule.epochOf(slot);
    // The schedule of an epoch the leader schedule does not yet reach is unknown: null, as the validator answers.
    if (epoch > schedule.epochOf(context.deps.ledger.clock().slot).leaderScheduleEpoch) return null;
    const { identity: leader } = context.deps.config;
    if (identity !== null && identity !== leader) return {};
    return { [leader]: Array.from({ length: Number(slotsInEpoch) }, (_, index) => index) };
  },

  /** Blocks produced by the one validator: all of them, in the epoch so far (or the range asked). */
  getBlockProduction(params, context) {
    const [raw] = positional(params, 'getBlockProduction', { min: 0, max: 1 });
    const config = configObject(raw);
    commitmentOf(config);
    const current = context.deps.ledger.clock().slot;
    const range = (config.range ?? {}) as { firstSlot?: unknown; lastSlot?: unknown };
    const firstSlot = range.firstSlot === undefined ? Number(context.deps.ledger.epochSchedule.epochOf(current).firstSlot) : requireInteger(range.firstSlot);
    const lastSlot = range.lastSlot === undefined || range.lastSlot === null ? Number(current) : requireInteger(range.lastSlot);
    if (lastSlot < firstSlot) throw paramsError(`lastSlot, ${lastSlot}, cannot be less than firstSlot, ${firstSlot}`);
    // The slot history holds the slots up to the current one (rpc.rs get_block_production), exactly as asked.
    if (lastSlot > Number(current)) throw paramsError(`lastSlot, ${requireU64(range.lastSlot)}, is too large; max ${current}`);
    const identity = config.identity === undefined || config.identity === null ? null : requirePubkey(config.identity).toBase58();
    const produced = lastSlot - firstSlot + 1;
    const { identity: leader } = context.deps.config;
    const byIdentity = identity === null || identity === leader ? { [leader]: [produced, produced] } : {};
    return withContext(Number(current), { byIdentity, range: { firstSlot, lastSlot } });
  },

  /** No stake, so no votes: a block's commitment is unknown (null) and the total stake is 0. */
  /**
   * No commitment array (a validator keeps one only for recent unrooted slots; the emulator keeps
   * no vote tallies), and the epoch's active stake, as getVoteAccounts counts it.
   */
  async getBlockCommitment(params, context) {
    const [slot] = positional(params, 'getBlockCommitment', { min: 1, max: 1 });
    requireU64(slot);
    const { ledger } = context.deps;
    let totalStake = 0n;
    for (const stake of (await activeStakes(ledger, ledger.clock().epoch)).values()) totalStake += stake;
    return { commitment: null, totalStake };
  },

  /** The ledger holds no stake or vote accounts of anyone's: no address earns an inflation reward. */
  getInflationReward(params, context) {
    const [addresses, raw] = positional(params, 'getInflationReward', { min: 1, max: 2 });
    if (!Array.isArray(addresses)) throw invalidParams('invalid type: expected a sequence of addresses');
    if (addresses.length > MAX_INFLATION_REWARD_ADDRESSES) throw paramsError(`Too many inputs provided; max ${MAX_INFLATION_REWARD_ADDRESSES}`);
    const config = configObject(raw);
    commitmentOf(config);
    contextSlot(context, config);
    const { ledger } = context.deps;
    const current = ledger.clock();
    const epoch = config.epoch === undefined || config.epoch === null ? (current.epoch > 0n ? current.epoch - 1n : 0n) : requireU64(config.epoch);
    // An epoch's rewards are paid in the first block of the next one (rpc.rs get_inflation_reward): not there yet, -32004.
    const paidAt = ledger.epochSchedule.firstSlotOf(epoch + 1n);
    if (paidAt > current.slot) throw new JsonRpcError(RPC_ERROR.BLOCK_NOT_AVAILABLE, `Block not available for slot ${paidAt}`);
    return addresses.map((address) => {
      requirePubkey(address);
      return null;
    });
  },

  /** The highest slot retransmitted and the highest whose shreds were inserted: the current one (the emulator makes its own blocks). */
  getMaxRetransmitSlot(params, context) {
    positional(params, 'getMaxRetransmitSlot', { min: 0, max: 0 });
    return Number(context.deps.ledger.clock().slot);
  },

  getMaxShredInsertSlot(params, context) {
    positional(params, 'getMaxShredInsertSlot', { min: 0, max: 0 });
    return Number(context.deps.ledger.clock().slot);
  },

  getInflationGovernor(params) {
    const [raw] = positional(params, 'getInflationGovernor', { min: 0, max: 1 });
    bareCommitment(raw);
    return { ...INFLATION };
  },

  /** The rates of the current epoch, from the governor: total = max(initial × (1 − taper)^years, terminal). */
  getInflationRate(params, context) {
    positional(params, 'getInflationRate', { min: 0, max: 0 });
    const { epoch } = context.deps.ledger.clock();
    const years = (Number(epoch) * Number(context.deps.ledger.epochSchedule.slotsPerEpoch)) / SLOTS_PER_YEAR;
    const total = Math.max(INFLATION.initial * (1 - INFLATION.taper) ** years, INFLATION.terminal);
    const foundation = years < INFLATION.foundationTerm ? total * INFLATION.foundation : 0;
    return { epoch: Number(epoch), foundation, total, validator: total - foundation };
  },

  /** What the stake program says: its GetMinimumDelegation instruction, simulated on the ledger. */
  async getStakeMinimumDelegation(params, context) {
    const [raw] = positional(params, 'getStakeMinimumDelegation', { min: 0, max: 1 });
    const config = configObject(raw);
    commitmentOf(config);
    const slot = contextSlot(context, {});
    return withContext(slot, await stakeMinimumDelegation(context.deps.ledger, new PublicKey(context.deps.fixtures.relay.faucet.publicKey)));
  },
};

const minimumDelegations = new WeakMap<Ledger, Promise<bigint>>();

/** The stake program's minimum delegation on this ledger's runtime (asked once per ledger). */
function stakeMinimumDelegation(ledger: Ledger, payer: PublicKey): Promise<bigint> {
  let answer = minimumDelegations.get(ledger);
  if (!answer) {
    answer = (async () => {
      const { blockhash } = await ledger.latestBlockhash();
      // StakeInstruction::GetMinimumDelegation (13): no accounts; the answer is the return data, a u64.
      const instruction = new TransactionInstruction({ programId: StakeProgram.programId, keys: [], data: Buffer.from([13, 0, 0, 0]) });
      const tx = new VersionedTransaction(
        new TransactionMessage({ payerKey: payer, recentBlockhash: blockhash, instructions: [instruction] }).compileToV0Message(),
      );
      const result = await ledger.simulate(tx);
      const data = result.returnData?.data;
      if (result.err !== null || !data || data.length < 8)
        throw new JsonRpcError(
          RPC_ERROR.INTERNAL_ERROR,
          `Internal error: the stake program did not answer GetMinimumDelegation (${JSON.stringify(result.err)})`,
        );
      return Buffer.from(data).readBigUInt64LE(0);
    })();
    answer.catch(() => minimumDelegations.delete(ledger));
    minimumDelegations.set(ledger, answer);
  }
  return answer;
}
