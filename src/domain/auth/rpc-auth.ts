import type { ServerMount } from '../../base/http/server-mount.ts';

/**
 * When the RPC and PubSub need the config's Token:
 * - `remote` (the default): for requests that reach the emulator through a listener bound to a
 *   non-loopback address (or behind a public URL). In process and on a loopback bind, unmodified
 *   clients connect with nothing but the URL, as they do to solana-test-validator: web3.js cannot
 *   put a header on a WebSocket, and kit and gill set none. Anything that can reach a loopback
 *   bind can already drive the test controls there.
 * - `always`: every request (the stricter opt-in: tests of a client's Token handling).
 * - `off`: never (`--no-rpc-auth`).
 * A Token that is sent is checked whatever the mode (but `off`): an expired one is refused, not ignored.
 */
export type RpcAuthMode = 'remote' | 'always' | 'off';

export const RPC_AUTH_MODES: readonly RpcAuthMode[] = ['remote', 'always', 'off'];

/** The mode of option `rpcAuth`: true is `always`, false is `off`, absent is `remote`. */
export function rpcAuthMode(option: boolean | RpcAuthMode | undefined): RpcAuthMode {
  if (option === undefined) return 'remote';
  if (option === true) return 'always';
  if (option === false) return 'off';
  if (!RPC_AUTH_MODES.includes(option))
    throw new RangeError(`rpcAuth must be true, false or one of ${RPC_AUTH_MODES.join(', ')}, not ${JSON.stringify(option)}`);
  return option;
}

/** Whether a request without a Token is refused: `mount` is the listener it came through (none: in process). */
export function tokenRequired(mode: RpcAuthMode, mount: ServerMount | undefined): boolean {
  if (mode === 'always') return true;
  if (mode === 'off') return false;
  return mount !== undefined && !mount.loopbackBind;
}
