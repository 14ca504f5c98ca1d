import type { LedgerAccount } from '../../domain/ledger/engine.ts';
import { decodeStakeState } from '../../domain/ledger/stake-state.ts';
import { decodeVoteState } from '../../domain/ledger/vote-state.ts';
import { encodeBase58 } from '../../base/crypto/base58.ts';
import { parseSysvar } from './parse-sysvars.ts';

/**
 * jsonParsed data of the native programs' accounts, as Agave 4.1's account-decoder gives them
 * (parse_account_data.rs and its per-program parsers): sysvars, stake, vote, config (validator
 * info; 4.1 no longer parses the stake config, which falls back to base64) and the upgradeable
 * loader. `{program, parsed: {type, info}, space}`, or null where Agave falls back to base64.
 */
export function parsedNativeAccount(address: string, account: LedgerAccount): Record<string, unknown> | null {
  const owner = account.owner.toBase58();
  const wrap = (program: string, parsed: Record<string, unknown> | null) => (parsed === null ? null : { program, parsed, space: account.data.length });
  switch (owner) {
    case 'Sysvar1111111111111111111111111111111111111':
      return wrap('sysvar', parseSysvar(address, account.data));
    case 'Stake11111111111111111111111111111111111111':
      return wrap('stake', parseStake(account.data));
    case 'Vote111111111111111111111111111111111111111':
      return wrap('vote', parseVote(address, account.data));
    case 'Config1111111111111111111111111111111111111':
      return wrap('config', parseConfig(account.data));
    case 'BPFLoaderUpgradeab1e11111111111111111111111':
      return wrap('bpf-upgradeable-loader', parseUpgradeable(account.data));
    default:
      return null;
  }
}

function parseStake(data: Uint8Array): Record<string, unknown> | null {
  const state = decodeStakeState(data);
  if (state === null) return null;
  if (state.meta === null) return { type: state.type };
  const { meta, stake } = state;
  return {
    type: state.type,
    info: {
      meta: {
        rentExemptReserve: meta.rentExemptReserve.toString(),
        authorized: meta.authorized,
        lockup: meta.lockup,
      },
      // Agave 4.1 leaves warmupCooldownRate out of the delegation.
      stake:
        stake === null
          ? null
          : {
              delegation: {
                voter: stake.delegation.voter,
                stake: stake.delegation.stake.toString(),
                activationEpoch: stake.delegation.activationEpoch.toString(),
                deactivationEpoch: stake.delegation.deactivationEpoch.toString(),
              },
              creditsObserved: stake.creditsObserved,
            },
    },
  };
}

function parseVote(address: string, data: Uint8Array): Record<string, unknown> | null {
  const state = decodeVoteState(data);
  if (state === null) return null;
  return {
    type: 'vote',
    info: {
      nodePubkey: state.nodePubkey,
      authorizedWithdrawer: state.authorizedWithdrawer,
      commission: state.commission,
      inflationRewardsCollector: state.inflationRewardsCollector ?? address,
      blockRevenueCollector: state.blockRevenueCollector,
      inflationRewardsCommissionBps: state.inflationRewardsCommissionBps,
      blockRevenueCommissionBps: state.blockRevenueCommissionBps,
      pendingDelegatorRewards: state.pendingDelegatorRewards.toString(),
      blsPubkeyCompressed: state.blsPubkeyCompressed,
      votes: state.votes.map(({ slot, confirmationCount, latency }) => ({ slot, confirmationCount, latency })),
      rootSlot: state.rootSlot,
      authorizedVoters: state.authorizedVoters,
      priorVoters: state.priorVoters,
      epochCredits: state.epochCredits.map(({ epoch, credits, previousCredits }) => ({
        epoch,
        credits: credits.toString(),
        previousCredits: previousCredits.toString(),
      })),
      lastTimestamp: state.lastTimestamp,
    },
  };
}

const VALIDATOR_INFO = 'Va1idator1nfo111111111111111111111111111111';

/** A config account: validator info parsed (its keys and its JSON), anything else null (base64). */
function parseConfig(data: Uint8Array): Record<string, unknown> | null {
  try {
    // ConfigKeys: a short_vec of (Pubkey, bool), then the config's own data.
    let at = 0;
    let count = 0;
    for (let shift = 0; ; shift += 7) {
      const byte = data[at++];
      if (byte === undefined || shift > 14) return null;
      count |= (byte & 0x7f) << shift;
      if ((byte & 0x80) === 0) break;
    }
    const keys: { pubkey: string; signer: boolean }[] = [];
    for (let index = 0; index < count; index += 1) {
      if (at + 33 > data.length) return null;
      keys.push({ pubkey: encodeBase58(data.subarray(at, at + 32)), signer: data[at + 32] === 1 });
      at += 33;
    }
    if (keys[0]?.pubkey !== VALIDATOR_INFO) return null;
    if (at + 8 > data.length) return null;
    const length = Number(new DataView(data.buffer, data.byteOffset).getBigUint64(at, true));
    at += 8;
    if (at + length > data.length) return null;
    const configData: unknown = JSON.parse(Buffer.from(data.subarray(at, at + length)).toString('utf8'));
    return { type: 'validatorInfo', info: { keys, configData } };
  } catch {
    return null;
  }
}

/** UpgradeableLoaderState::size_of_buffer_metadata() and size_of_programdata_metadata(). */
const BUFFER_METADATA = 37;
const PROGRAM_DATA_METADATA = 45;

function parseUpgradeable(data: Uint8Array): Record<string, unknown> | null {
  if (data.length < 4) return null;
  const view = new DataView(data.buffer, data.byteOffset);
  const key = (at: number) => encodeBase58(data.subarray(at, at + 32));
  const optionalKey = (at: number) => (data[at] === 1 && data.length >= at + 33 ? key(at + 1) : null);
  const base64 = (from: number) => [Buffer.from(data.subarray(from)).toString('base64'), 'base64'];
  switch (view.getUint32(0, true)) {
    case 0:
      return { type: 'uninitialized' };
    case 1:
      if (data.length < 5) return null;
      return { type: 'buffer', info: { authority: optionalKey(4), data: base64(BUFFER_METADATA) } };
    case 2:
      if (data.length < 36) return null;
      return { type: 'program', info: { programData: key(4) } };
    case 3:
      if (data.length < 13) return null;
      return { type: 'programData', info: { slot: view.getBigUint64(4, true), authority: optionalKey(12), data: base64(PROGRAM_DATA_METADATA) } };
    default:
      return null;
  }
}
