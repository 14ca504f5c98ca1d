import { JsonRpcError, RPC_ERROR, invalidParams } from '../../rpc/json-rpc-error.ts';
import { describeType, positional } from '../../rpc/params.ts';
import { withContext } from '../../rpc/context.ts';
import type { Cheatcode, CheatcodeState } from './cheatcode-state.ts';

const ENABLE = 'surfnet_enableCheatcode';
const DISABLE = 'surfnet_disableCheatcode';

/**
 * surfnet_enableCheatcode and surfnet_disableCheatcode as Surfpool serves them (crates/core/src/rpc/
 * surfnet_cheatcodes.rs, `CheatcodeConfig`): `"all"` or a list of cheatcode names; a list is
 * checked whole before anything changes; the pair itself is disabled only by `"all"` with
 * `{lockout: true}`, for the rest of the process. Errors are -32600 with `data` the reason.
 */
export function gateCheatcodes(state: CheatcodeState, names: () => readonly string[], slot: () => number): Record<string, Cheatcode> {
  const filterOf = (value: unknown, method: string): 'all' | string[] => {
    if (value === 'all') return 'all';
    if (!Array.isArray(value) || value.some((name) => typeof name !== 'string')) {
      throw invalidParams(`invalid type: ${describeType(value)}, expected "all" or a list of cheatcode names for ${method}`);
    }
    const unknown = value.find((name) => !names().includes(name));
    if (unknown !== undefined) throw refusal(method === ENABLE ? 'enable' : 'disable', `Invalid cheatcode rpc method: ${unknown}`);
    return value as string[];
  };
  return {
    [ENABLE]: {
      writes: true,
      run(params) {
        const [raw] = positional(params, ENABLE, { min: 1, max: 1 });
        const filter = filterOf(raw, ENABLE);
        if (state.lockedOut) throw refusal('enable', 'All cheatcodes are disabled');
        if (filter === 'all') state.disabled.clear();
        else {
          const idle = filter.find((name) => !state.disabled.has(name));
          if (idle !== undefined) throw refusal('enable', "Cheatcode isn't disabled");
          for (const name of filter) state.disabled.delete(name);
        }
        return withContext(slot(), null);
      },
    },
    [DISABLE]: {
      writes: true,
      run(params) {
        const [raw, config] = positional(params, DISABLE, { min: 1, max: 2 }) as [unknown, { lockout?: unknown } | null | undefined];
        const filter = filterOf(raw, DISABLE);
        const lockout = config?.lockout === true;
        if (filter === 'all') {
          if (lockout) state.lockedOut = true;
          for (const name of names()) if (name !== ENABLE && name !== DISABLE) state.disabled.add(name);
          return withContext(slot(), null);
        }
        if (!lockout && (filter.includes(ENABLE) || filter.includes(DISABLE))) {
          throw refusal('disable', `Cannot disable ${ENABLE} or ${DISABLE} rpc method when lockout is not enabled`);
        }
        if (filter.some((name) => state.disabled.has(name))) throw refusal('disable', 'Cheatcode already disabled');
        for (const name of filter) state.disabled.add(name);
        return withContext(slot(), null);
      },
    },
  };
}

/** Surfpool's answer to a disabled cheatcode (its middleware, before the method runs). */
export function checkEnabled(state: CheatcodeState, method: string): void {
  if (state.lockedOut || state.disabled.has(method)) throw new JsonRpcError(RPC_ERROR.INVALID_REQUEST, `Cheatcode rpc method: ${method} is currently disabled`);
}

function refusal(verb: 'enable' | 'disable', reason: string): JsonRpcError {
  return new JsonRpcError(RPC_ERROR.INVALID_REQUEST, 'Invalid request', `Unable to ${verb} cheatcode: ${reason}`);
}
