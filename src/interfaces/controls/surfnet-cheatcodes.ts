import { SystemProgram } from '@solana/web3.js';
import { RelayError } from '../../base/errors/relay-error.ts';
import { ACCOUNT_SIZE, TOKEN_2022_PROGRAM_ID, TOKEN_PROGRAM_ID, associatedTokenAddress } from '../../domain/ledger/spl-token.ts';
import type { AccountState } from '../../domain/ledger/account-state.ts';
import { JsonRpcError, RPC_ERROR, invalidParams, paramsError } from '../rpc/json-rpc-error.ts';
import { RPC_METHODS } from '../rpc/method-table.ts';
import type { MethodTable, RpcContext } from '../rpc/context.ts';
import { withContext } from '../rpc/context.ts';
import { describeType, positional, requirePubkey } from '../rpc/params.ts';
import type { AdminGuard } from './admin-guard.ts';
import type { TestControlMethods } from './control-types.ts';
import { hex, I64_MAX, MAX_SLOT, optionalKey, timeTravelTarget, u64 } from './surfnet-params.ts';

/** What the cheatcodes need beside the controls: the genesis account at an address, and the wall-clock ticker. */
export interface CheatcodeParts {
  controls: Pick<TestControlMethods, 'getAccount' | 'setAccount' | 'warp' | 'reset'>;
  guard: AdminGuard;
  /** The account genesis put at `address` (fixtures, dumps, clones), or null. */
  genesisAccount(address: string): AccountState | null;
  /** Stops and restarts wall-clock mode's slots (no-ops when slots move only with transactions). */
  clock: { pause(): void; resume(): void };
  rentExempt(dataLength: number): Promise<bigint>;
  slot(): number;
}

const NATIVE_MINT = 'So11111111111111111111111111111111111111112';

/**
 * Surfpool's cheatcodes (solana-foundation/surfpool, crates/core/src/rpc/surfnet_cheatcodes.rs), as
 * JSON-RPC methods beside the RPC's, in Surfpool's parameter shapes and answers, each done by the
 * test controls that exist (setAccount, warp, reset) rather than a second set of them. They are
 * guarded as the controls are: a caller that may not use `/__emulator` (no X-Admin-Token on a
 * non-loopback bind, a web page of another origin) may not use these. docs/rpc.md lists them, and
 * what is not served.
 */
export function surfnetCheatcodes(parts: CheatcodeParts): MethodTable {
  const guarded =
    (method: (params: unknown[], context: RpcContext) => unknown) =>
    (params: unknown, context: RpcContext): unknown => {
      admit(parts.guard, context);
      return method(params === undefined || params === null ? [] : Array.isArray(params) ? params : [params], context);
    };
  const done = () => withContext(parts.slot(), null);
  const epochInfo = (context: RpcContext) => RPC_METHODS.getEpochInfo!([], context);

  return {
    surfnet_setAccount: guarded(async (params) => {
      const [pubkey, update] = positional(params, 'surfnet_setAccount', { min: 2, max: 2 }) as [unknown, Record<string, unknown>];
      const address = requirePubkey(pubkey).toBase58();
      if (typeof update !== 'object' || update === null || Array.isArray(update))
        throw invalidParams(`invalid type: ${describeType(update)}, expected struct AccountUpdate`);
      const current = (await parts.controls.getAccount(address)) ?? {
        lamports: 0n,
        owner: SystemProgram.programId.toBase58(),
        data: new Uint8Array(),
        executable: false,
      };
      const next: AccountState = { ...current };
      if (update.lamports !== undefined && update.lamports !== null) next.lamports = u64(update.lamports, 'lamports');
      if (update.owner !== undefined && update.owner !== null) next.owner = requirePubkey(update.owner).toBase58();
      if (update.executable !== undefined && update.executable !== null) {
        if (typeof update.executable !== 'boolean') throw invalidParams(`invalid type: ${describeType(update.executable)}, expected a boolean`);
        next.executable = update.executable;
      }
      if (update.data !== undefined && update.data !== null) next.data = hex(update.data);
      await parts.controls.setAccount(address, next);
      return done();
    }),

    surfnet_setTokenAccount: guarded(async (params) => {
      const [owner, mint, update, program] = positional(params, 'surfnet_setTokenAccount', { min: 3, max: 4 }) as [
        unknown,
        unknown,
        Record<string, unknown>,
        unknown,
      ];
      const ownerKey = requirePubkey(owner);
      const mintKey = requirePubkey(mint);
      const tokenProgram = program === undefined || program === null ? TOKEN_PROGRAM_ID : requirePubkey(program);
      if (!tokenProgram.equals(TOKEN_PROGRAM_ID) && !tokenProgram.equals(TOKEN_2022_PROGRAM_ID))
        throw paramsError(`${tokenProgram.toBase58()} is not a token program`);
      if (typeof update !== 'object' || update === null) throw invalidParams(`invalid type: ${describeType(update)}, expected struct TokenAccountUpdate`);
      const mintAccount = await parts.controls.getAccount(mintKey);
      if (mintAccount === null) throw new JsonRpcError(RPC_ERROR.INTERNAL_ERROR, `Mint ${mintKey.toBase58()} not found`);
      const address = associatedTokenAddress(mintKey, ownerKey, tokenProgram);
      const existing = await parts.controls.getAccount(address);
      const data = Buffer.from(existing && existing.data.length >= ACCOUNT_SIZE ? existing.data : new Uint8Array(ACCOUNT_SIZE));
      if (!existing) {
        mintKey.toBuffer().copy(data, 0);
        ownerKey.toBuffer().copy(data, 32);
        data[108] = 1;
        if (mintKey.toBase58() === NATIVE_MINT) data.writeUInt32LE(1, 109);
      }
      if (update.amount !== undefined && update.amount !== null) data.writeBigUInt64LE(u64(update.amount, 'amount'), 64);
      if (update.delegatedAmount !== undefined && update.delegatedAmount !== null) data.writeBigUInt64LE(u64(update.delegatedAmount, 'delegatedAmount'), 121);
      optionalKey(update.delegate, 'delegate', data, 72);
      optionalKey(update.closeAuthority, 'closeAuthority', data, 129);
      if (update.state !== undefined && update.state !== null) {
        const state = ['uninitialized', 'initialized', 'frozen'].indexOf(String(update.state));
        if (state < 0) throw paramsError(`Invalid token account state: ${String(update.state)}`);
        data[108] = state;
      }
      const rent = await parts.rentExempt(data.length);
      // Lamports: the rent-exempt minimum, and for wrapped SOL the amount on top (its is_native holds the rent).
      const native = data.readUInt32LE(109) === 1;
      if (native) data.writeBigUInt64LE(rent, 113);
      const lamports = native ? rent + data.readBigUInt64LE(64) : rent;
      await parts.controls.setAccount(address, { lamports, owner: tokenProgram.toBase58(), data: new Uint8Array(data), executable: false });
      return done();
    }),

    surfnet_resetAccount: guarded(async (params) => {
      const [pubkey, config] = positional(params, 'surfnet_resetAccount', { min: 1, max: 2 }) as [unknown, Record<string, unknown> | null | undefined];
      const address = requirePubkey(pubkey).toBase58();
      // Surfpool reads only the snake_case key (ResetAccountConfig has no rename): so does this.
      if (config?.include_owned_accounts === true) {
        throw new JsonRpcError(RPC_ERROR.INVALID_PARAMS, 'include_owned_accounts is not served: reset each account, or surfnet_resetNetwork');
      }
      // Surfpool drops its copy, and the next read fetches the account again; offline, it is what genesis held (a dump, a clone), or nothing.
      const genesis = parts.genesisAccount(address);
      await parts.controls.setAccount(
        address,
        genesis ?? { lamports: 0n, owner: SystemProgram.programId.toBase58(), data: new Uint8Array(), executable: false },
      );
      return done();
    }),

    surfnet_timeTravel: guarded(async (params, context) => {
      const [config] = positional(params, 'surfnet_timeTravel', { min: 0, max: 1 }) as [Record<string, unknown> | null | undefined];
      const current = context.deps.ledger.clock();
      const schedule = context.deps.ledger.epochSchedule;
      const target = timeTravelTarget(config ?? null, current.unixTimestamp);
      // The furthest the ledger's clock goes: slots are counted exactly up to 2^53 - 1, and a validator's
      // unix timestamp is an i64 of seconds (issue 53 item 15: 9e15 ms was taken, and the UI's dates broke).
      const beyond = (what: string) => new JsonRpcError(RPC_ERROR.INTERNAL_ERROR, `Cannot travel to ${what}: the clock goes no further than slot ${MAX_SLOT}`);
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
    }),

    surfnet_pauseClock: guarded((params, context) => {
      positional(params, 'surfnet_pauseClock', { min: 0, max: 0 });
      parts.clock.pause();
      return epochInfo(context);
    }),

    surfnet_resumeClock: guarded((params, context) => {
      positional(params, 'surfnet_resumeClock', { min: 0, max: 0 });
      parts.clock.resume();
      return epochInfo(context);
    }),

    surfnet_resetNetwork: guarded(async (params) => {
      positional(params, 'surfnet_resetNetwork', { min: 0, max: 0 });
      await parts.controls.reset();
      return done();
    }),

    // Anchor 1.x polls it until every runbook has completed: there are none here.
    surfnet_getSurfnetInfo: guarded((params) => {
      positional(params, 'surfnet_getSurfnetInfo', { min: 0, max: 0 });
      return withContext(parts.slot(), { runbookExecutions: [] });
    }),
  };
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

/** The cheatcodes' names, for docs/rpc.md and the method table. */
export const SURFNET_METHODS = [
  'surfnet_setAccount',
  'surfnet_setTokenAccount',
  'surfnet_resetAccount',
  'surfnet_timeTravel',
  'surfnet_pauseClock',
  'surfnet_resumeClock',
  'surfnet_resetNetwork',
  'surfnet_getSurfnetInfo',
] as const;
