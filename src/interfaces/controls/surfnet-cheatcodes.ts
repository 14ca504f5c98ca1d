import { RelayError } from '../../base/errors/relay-error.ts';
import { JsonRpcError, RPC_ERROR } from '../rpc/json-rpc-error.ts';
import type { MethodTable, RpcContext } from '../rpc/context.ts';
import type { AdminGuard } from './admin-guard.ts';
import { accountCheatcodes } from './surfnet/account-cheatcodes.ts';
import { type Cheatcode, type CheatcodeParts, CheatcodeState } from './surfnet/cheatcode-state.ts';
import { clockCheatcodes } from './surfnet/clock-cheatcodes.ts';
import { checkEnabled, gateCheatcodes } from './surfnet/gate-cheatcodes.ts';
import { infoCheatcodes } from './surfnet/info-cheatcodes.ts';
import { profileCheatcodes } from './surfnet/profile-cheatcodes.ts';
import { programCheatcodes } from './surfnet/program-cheatcodes.ts';

export type { CheatcodeParts, RunbookExecution } from './surfnet/cheatcode-state.ts';

/**
 * Surfpool's cheatcodes that mean something offline (solana-foundation/surfpool,
 * crates/core/src/rpc/surfnet_cheatcodes.rs), as JSON-RPC methods beside the RPC's, in Surfpool's
 * parameter shapes and answers, done by the test controls that exist (setAccount, warp, reset,
 * deployProgram) rather than a second set of them. Those that change the ledger are guarded as the
 * controls are: a caller that may not use `/__emulator` (no X-Admin-Token on a non-loopback bind, a
 * web page of another origin) may not call them. Those that only read (getSurfnetInfo, which Anchor
 * 1.x polls with no token, profiles, IDLs, the snapshot) answer anyone the RPC answers. Any of them
 * can be disabled as Surfpool's are. docs/rpc.md lists them, and what is not served and why.
 */
export function surfnetCheatcodes(parts: CheatcodeParts): MethodTable {
  const state = new CheatcodeState();
  const cheatcodes: Record<string, Cheatcode> = {
    ...accountCheatcodes(parts, state),
    ...clockCheatcodes(parts, state),
    ...programCheatcodes(parts, state),
    ...infoCheatcodes(parts, state),
    ...profileCheatcodes(parts, state),
    ...gateCheatcodes(
      state,
      () => SURFNET_METHODS,
      () => parts.slot(),
    ),
  };
  return Object.fromEntries(
    Object.entries(cheatcodes).map(([name, cheatcode]) => [
      name,
      (params: unknown, context: RpcContext): unknown => {
        checkEnabled(state, name);
        if (cheatcode.writes) admit(parts.guard, context);
        return cheatcode.run(params === undefined || params === null ? [] : Array.isArray(params) ? params : [params], context);
      },
    ]),
  );
}

/** The controls' guard, for a JSON-RPC call: X-Admin-Token where the controls need it, never from another origin's page. */
function admit(guard: AdminGuard, context: RpcContext): void {
  const call = context.call;
  if (!call) return;
  try {
    guard.checkBrowser(call.request, call.requestContext);
    guard.check(call.request, call.requestContext);
  } catch (error) {
    if (error instanceof RelayError)
      throw new JsonRpcError(RPC_ERROR.INVALID_REQUEST, `surfnet_ cheatcodes are test controls: ${error.message}`, { code: error.code });
    throw error;
  }
}

/** The cheatcodes served, for docs/rpc.md, the gate and the method table. Surfpool's others answer -32601 (docs/rpc.md says why). */
export const SURFNET_METHODS = [
  'surfnet_setAccount',
  'surfnet_setTokenAccount',
  'surfnet_cloneProgramAccount',
  'surfnet_profileTransaction',
  'surfnet_getProfileResultsByTag',
  'surfnet_setSupply',
  'surfnet_setProgramAuthority',
  'surfnet_getTransactionProfile',
  'surfnet_registerIdl',
  'surfnet_getActiveIdl',
  'surfnet_getLocalSignatures',
  'surfnet_timeTravel',
  'surfnet_pauseClock',
  'surfnet_resumeClock',
  'surfnet_resetAccount',
  'surfnet_resetNetwork',
  'surfnet_offlineAccount',
  'surfnet_exportSnapshot',
  'surfnet_streamAccount',
  'surfnet_streamAccounts',
  'surfnet_getStreamedAccounts',
  'surfnet_getSurfnetInfo',
  'surfnet_writeProgram',
  'surfnet_enableCheatcode',
  'surfnet_disableCheatcode',
] as const;

/** Surfpool's cheatcodes not served here, with why (docs/rpc.md). */
export const SURFNET_UNSERVED: Readonly<Record<string, string>> = {
  surfnet_registerScenario: 'scenarios override accounts from templates of mainnet protocols Surfpool fetches; nothing here fetches them',
};
