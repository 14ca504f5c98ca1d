import { positional } from '../../rpc/params.ts';
import { withContext } from '../../rpc/context.ts';
import type { RpcContext } from '../../rpc/context.ts';
import { JsonRpcError, RPC_ERROR } from '../../rpc/json-rpc-error.ts';
import { RPC_METHODS } from '../../rpc/method-table.ts';
import type { Cheatcode, CheatcodeParts, CheatcodeState } from './cheatcode-state.ts';
import { I64_MAX, MAX_SLOT, timeTravelTarget } from './params.ts';

/**
 * Surfpool's clock and network cheatcodes: time travel (by slot, epoch or a timestamp in
 * milliseconds), wall-clock mode's pause and resume (each answers a bare EpochInfo), and the
 * network's reset, done by the test controls (warp, reset) rather than a second set of them.
 */
export function clockCheatcodes(parts: CheatcodeParts, state: CheatcodeState): Record<string, Cheatcode> {
  const epochInfo = (context: RpcContext) => RPC_METHODS.getEpochInfo!([], context);
  return {
    surfnet_timeTravel: {
      writes: true,
      async run(params, context) {
        const [config] = positional(params, 'surfnet_timeTravel', { min: 0, max: 1 }) as [Record<string, unknown> | null | undefined];
        const current = context.deps.ledger.clock();
        const schedule = context.deps.ledger.epochSchedule;
        const target = timeTravelTarget(config ?? null, current.unixTimestamp);
        // The furthest the ledger's clock goes: slots are counted exactly up to 2^53 - 1, and a validator's
        // unix timestamp is an i64 of seconds (issue 53 item 15: 9e15 ms was taken, and the UI's dates broke).
        const beyond = (what: string) =>
          new JsonRpcError(RPC_ERROR.INTERNAL_ERROR, `Cannot travel to ${what}: the clock goes no further than slot ${MAX_SLOT}`);
        if ('slot' in target) {
          if (target.slot > MAX_SLOT) throw beyond(`slot ${target.slot}`);
          if (target.slot < current.slot)
            throw new JsonRpcError(RPC_ERROR.INTERNAL_ERROR, `Cannot travel to past slot: target=${target.slot}, current=${current.slot}`);
          await parts.controls.warp({ slot: Number(target.slot) });
        } else if ('epoch' in target) {
          if (target.epoch * schedule.slotsPerEpoch > MAX_SLOT) throw beyond(`epoch ${target.epoch}`);
          if (target.epoch < current.epoch)
            throw new JsonRpcError(RPC_ERROR.INTERNAL_ERROR, `Cannot travel to past epoch: target=${target.epoch}, current=${current.epoch}`);
          await parts.controls.warp({ slot: Number(target.epoch * schedule.slotsPerEpoch) });
        } else {
          const seconds = target.milliseconds / 1000n;
          if (seconds < current.unixTimestamp)
            throw new JsonRpcError(
              RPC_ERROR.INTERNAL_ERROR,
              `Cannot travel to past timestamp: target=${target.milliseconds}, current=${current.unixTimestamp * 1000n}`,
            );
          // A slot is 400 ms: the slots that time holds go by, and the clock reads the time asked.
          const slots = ((seconds - current.unixTimestamp) * 1000n) / 400n;
          if (seconds > I64_MAX || current.slot + slots > MAX_SLOT) throw beyond(`timestamp ${target.milliseconds}`);
          await parts.controls.warp({ slot: Number(current.slot + slots), unixTimestamp: Number(seconds) });
        }
        return epochInfo(context);
      },
    },

    surfnet_pauseClock: {
      writes: true,
      run(params, context) {
        positional(params, 'surfnet_pauseClock', { min: 0, max: 0 });
        parts.clock.pause();
        return epochInfo(context);
      },
    },

    surfnet_resumeClock: {
      writes: true,
      run(params, context) {
        positional(params, 'surfnet_resumeClock', { min: 0, max: 0 });
        parts.clock.resume();
        return epochInfo(context);
      },
    },

    surfnet_resetNetwork: {
      writes: true,
      async run(params) {
        positional(params, 'surfnet_resetNetwork', { min: 0, max: 0 });
        await parts.controls.reset();
        state.resetNetwork();
        return withContext(parts.slot(), null);
      },
    },
  };
}
