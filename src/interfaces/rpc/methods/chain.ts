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
    contextSlot(context, config);
    return Number(context.deps.ledger.blockHeightAt(commitmentOf(config)));
  },

  /** Every slot up to the confirmed one is a block (the ledger never skips); later ones are -32004, as a validator answers for a block it has not confirmed. */
  getBlockTime(params, context) {
    const [slotParam] = positional(params, 'getBlockTime', { min: 1, max: 1 });
    const slot = requireU64(slotParam);
    const { ledger } = context.deps;
    if (slot > ledger.slotAt('confirmed')) throw new JsonRpcError(RPC_ERROR.BLOCK_NOT_AVAILABLE, `Block not available for slot ${slot}`);
    return ledger.blockTime(slot);
  },

  getEpochInfo(params, context) {
    const [raw] = positional(params, 'getEpochInfo', { min: 0, max: 1 });
    const config = configObject(raw);
    const commitment = commitmentOf(config);
    contextSlot(context, config);
    // At the commitment's slot, as the validator answers from that bank.
    const { ledger } = context.deps;
    const slot = ledger.slotAt(commitment);
    const { epoch, slotIndex, slotsInEpoch } = ledger.epochSchedule.epochOf(slot);
    return {
      absoluteSlot: Number(slot),
      blockHeight: Number(ledger.blockHeightAt(commitment)),
      epoch: Number(epoch),
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
