import { API_VERSION, FEATURE_SET, commitmentOf, contextSlot, type MethodTable } from '../context.ts';
import { JsonRpcError, RPC_ERROR } from '../json-rpc-error.ts';
import { configObject, positional, requireU64 } from '../params.ts';
import { landedCount } from './blocks.ts';

export const chainMethods: MethodTable = {
  getSlot(params, context) {
    const [raw] = positional(params, 'getSlot', { min: 0, max: 1 });
    const config = configObject(raw);
    commitmentOf(config);
    return contextSlot(context, config);
  },

  getBlockHeight(params, context) {
    const [raw] = positional(params, 'getBlockHeight', { min: 0, max: 1 });
    const config = configObject(raw);
    commitmentOf(config);
    contextSlot(context, config);
    return Number(context.deps.ledger.clock().blockHeight);
  },

  /** Every slot up to the current one is a block (the ledger never skips); later ones are -32004. */
  getBlockTime(params, context) {
    const [slotParam] = positional(params, 'getBlockTime', { min: 1, max: 1 });
    const slot = requireU64(slotParam);
    const { ledger } = context.deps;
    if (slot > ledger.clock().slot) throw new JsonRpcError(RPC_ERROR.BLOCK_NOT_AVAILABLE, `Block not available for slot ${slot}`);
    return ledger.blockTime(slot);
  },

  getEpochInfo(params, context) {
    const [raw] = positional(params, 'getEpochInfo', { min: 0, max: 1 });
    const config = configObject(raw);
    commitmentOf(config);
    contextSlot(context, config);
    // The ledger's clock is the Clock sysvar programs read: its epoch is this epoch.
    const clock = context.deps.ledger.clock();
    const { slotIndex, slotsInEpoch } = context.deps.ledger.epochSchedule.epochOf(clock.slot);
    return {
      absoluteSlot: Number(clock.slot),
      blockHeight: Number(clock.blockHeight),
      epoch: Number(clock.epoch),
      slotIndex: Number(slotIndex),
      slotsInEpoch: Number(slotsInEpoch),
      transactionCount: landedCount(context.deps),
    };
  },

  getEpochSchedule(params, context) {
    positional(params, 'getEpochSchedule', { min: 0, max: 0 });
    const { firstNormalEpoch, firstNormalSlot, leaderScheduleSlotOffset, slotsPerEpoch, warmup } = context.deps.ledger.epochSchedule;
    return {
      firstNormalEpoch: Number(firstNormalEpoch),
      firstNormalSlot: Number(firstNormalSlot),
      leaderScheduleSlotOffset: Number(leaderScheduleSlotOffset),
      slotsPerEpoch: Number(slotsPerEpoch),
      warmup,
    };
  },

  getGenesisHash(params, context) {
    positional(params, 'getGenesisHash', { min: 0, max: 0 });
    return context.deps.ledger.genesisHash;
  },

  getVersion(params) {
    positional(params, 'getVersion', { min: 0, max: 0 });
    return { 'feature-set': FEATURE_SET, 'solana-core': API_VERSION };
  },

  getHealth(params) {
    positional(params, 'getHealth', { min: 0, max: 0 });
    return 'ok';
  },
};
