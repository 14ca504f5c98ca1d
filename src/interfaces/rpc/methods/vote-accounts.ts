import { PublicKey } from '@solana/web3.js';
import { decodeStakeState } from '../../../domain/ledger/stake-state.ts';
import { decodeVoteState } from '../../../domain/ledger/vote-state.ts';
import { scanAccounts } from '../account-filters.ts';
import { commitmentOf, type MethodTable } from '../context.ts';
import type { RpcDeps } from '../rpc-deps.ts';
import { configObject, optionalBoolean, optionalInteger, positional, requirePubkey } from '../params.ts';

const VOTE_PROGRAM = new PublicKey('Vote111111111111111111111111111111111111111');
const STAKE_PROGRAM = new PublicKey('Stake11111111111111111111111111111111111111');
const U64_MAX = 2n ** 64n - 1n;
/** DELINQUENT_VALIDATOR_SLOT_DISTANCE (rpc-client-types): a vote account whose last vote is further back is delinquent. */
const DELINQUENT_DISTANCE = 128;
/** MAX_RPC_VOTE_ACCOUNT_INFO_EPOCH_CREDITS_HISTORY: the epoch credits getVoteAccounts lists. */
const EPOCH_CREDITS_HISTORY = 5;

export const voteAccountMethods: MethodTable = {
  /**
   * Every vote account on the ledger, as Agave 4.1 lists them (rpc.rs get_vote_accounts): its stake
   * (what stake accounts delegate to it, active now), its commission in percent and in basis points,
   * its last five epochs of credits, its last vote and root; current unless its last vote is more
   * than 128 slots back. The emulator's own vote account votes on every slot.
   */
  async getVoteAccounts(params, context) {
    const [raw] = positional(params, 'getVoteAccounts', { min: 0, max: 1 });
    const config = configObject(raw);
    commitmentOf(config);
    const keepUnstakedDelinquents = optionalBoolean(config, 'keepUnstakedDelinquents') ?? false;
    const distance = optionalInteger(config, 'delinquentSlotDistance') ?? DELINQUENT_DISTANCE;
    const only = config.votePubkey === undefined || config.votePubkey === null ? null : requirePubkey(config.votePubkey).toBase58();
    const { ledger } = context.deps;
    const clock = ledger.clock();
    const slot = clock.slot;
    const epoch = clock.epoch;
    const stakes = await activeStakes(ledger, epoch);
    const current: Record<string, unknown>[] = [];
    const delinquent: Record<string, unknown>[] = [];
    for (const { pubkey, account } of await scanAccounts(ledger, (candidate) => candidate.owner.equals(VOTE_PROGRAM))) {
      if (only !== null && pubkey !== only) continue;
      const state = decodeVoteState(account.data);
      if (state === null) continue;
      const own = pubkey === context.deps.config.voteAccount;
      const { firstSlot } = ledger.epochSchedule.epochOf(slot);
      // The emulator's own votes on each slot once it is made: the last is the confirmed slot, the root the finalized one.
      const lastVote = own ? ledger.slotAt('confirmed') : (state.votes.at(-1)?.slot ?? 0n);
      const rootSlot = own ? ledger.slotAt('finalized') : (state.rootSlot ?? 0n);
      const credits = own
        ? [[epoch, slot, firstSlot]]
        : state.epochCredits.slice(-EPOCH_CREDITS_HISTORY).map((entry) => [entry.epoch, entry.credits, entry.previousCredits]);
      const activatedStake = stakes.get(pubkey) ?? 0n;
      const info = {
        votePubkey: pubkey,
        nodePubkey: state.nodePubkey,
        activatedStake,
        epochVoteAccount: activatedStake > 0n,
        commission: state.commission,
        lastVote,
        epochCredits: credits,
        rootSlot,
        inflationRewardsCommissionBps: state.inflationRewardsCommissionBps,
      };
      const isDelinquent = lastVote < slot - BigInt(Math.min(distance, Number(slot)));
      if (!isDelinquent) current.push(info);
      else if (keepUnstakedDelinquents || activatedStake > 0n) delinquent.push(info);
    }
    return { current, delinquent };
  },
};

/** The stake active in `epoch`, by the vote account it is delegated to (a genesis stake, activated at u64::MAX, counts from the start). */
export async function activeStakes(ledger: RpcDeps['ledger'], epoch: bigint): Promise<Map<string, bigint>> {
  const stakes = new Map<string, bigint>();
  for (const { account } of await scanAccounts(ledger, (candidate) => candidate.owner.equals(STAKE_PROGRAM))) {
    const delegation = decodeStakeState(account.data)?.stake?.delegation;
    if (!delegation) continue;
    const active = (delegation.activationEpoch === U64_MAX || delegation.activationEpoch <= epoch) && delegation.deactivationEpoch > epoch;
    if (active) stakes.set(delegation.voter, (stakes.get(delegation.voter) ?? 0n) + delegation.stake);
  }
  return stakes;
}
