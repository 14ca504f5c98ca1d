import { SystemProgram } from '@solana/web3.js';
import { ACCOUNT_SIZE, TOKEN_2022_PROGRAM_ID, TOKEN_PROGRAM_ID, associatedTokenAddress } from '../../../domain/ledger/spl-token.ts';
import type { AccountState } from '../../../domain/ledger/account-state.ts';
import { withContext } from '../../rpc/context.ts';
import { JsonRpcError, RPC_ERROR, invalidParams, paramsError } from '../../rpc/json-rpc-error.ts';
import { describeType, positional, requirePubkey } from '../../rpc/params.ts';
import type { Cheatcode, CheatcodeParts, CheatcodeState } from './cheatcode-state.ts';
import { hex, optionalKey, u64 } from './params.ts';

const NATIVE_MINT = 'So11111111111111111111111111111111111111112';
const EMPTY = (): AccountState => ({ lamports: 0n, owner: SystemProgram.programId.toBase58(), data: new Uint8Array(), executable: false });

/**
 * Surfpool's account cheatcodes (crates/core/src/rpc/surfnet_cheatcodes.rs): set an account or a
 * token account, reset one to what genesis held, and the datasource's marks. Offline there is no
 * datasource to stream from or keep away from: streamed accounts are taken again from what the clone
 * cache loaded at start (x-emulator-choice), and an offline mark is kept (it unmarks a streamed
 * account, and resetAccount and resetNetwork clear it, as Surfpool's do) with nothing to keep away.
 */
export function accountCheatcodes(parts: CheatcodeParts, state: CheatcodeState): Record<string, Cheatcode> {
  const done = () => withContext(parts.slot(), null);
  const restore = async (address: string) => {
    await parts.controls.setAccount(address, parts.genesisAccount(address) ?? EMPTY());
  };
  return {
    surfnet_setAccount: {
      writes: true,
      async run(params) {
        const [pubkey, update] = positional(params, 'surfnet_setAccount', { min: 2, max: 2 }) as [unknown, Record<string, unknown>];
        const address = requirePubkey(pubkey).toBase58();
        if (typeof update !== 'object' || update === null || Array.isArray(update))
          throw invalidParams(`invalid type: ${describeType(update)}, expected struct AccountUpdate`);
        const current = (await parts.controls.getAccount(address)) ?? EMPTY();
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
      },
    },

    surfnet_setTokenAccount: {
      writes: true,
      async run(params) {
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
      },
    },

    surfnet_resetAccount: {
      writes: true,
      async run(params) {
        const [pubkey, config] = positional(params, 'surfnet_resetAccount', { min: 1, max: 2 }) as [unknown, Record<string, unknown> | null | undefined];
        const address = requirePubkey(pubkey).toBase58();
        // Surfpool reads only the snake_case key (ResetAccountConfig has no rename): so does this.
        if (config?.include_owned_accounts === true) {
          throw new JsonRpcError(RPC_ERROR.INVALID_PARAMS, 'include_owned_accounts is not served: reset each account, or surfnet_resetNetwork');
        }
        // Surfpool drops its copy, and the next read fetches the account again; offline, it is what genesis held (a dump, a clone), or nothing.
        state.offline.delete(address);
        await restore(address);
        return done();
      },
    },

    surfnet_offlineAccount: {
      writes: true,
      async run(params) {
        const [pubkey, config] = positional(params, 'surfnet_offlineAccount', { min: 1, max: 2 }) as [unknown, Record<string, unknown> | null | undefined];
        const address = requirePubkey(pubkey).toBase58();
        if (config?.includeOwnedAccounts === true) throw paramsError('includeOwnedAccounts is not served: mark each account');
        state.offline.add(address);
        state.streamed.delete(address);
        return done();
      },
    },

    surfnet_streamAccount: {
      writes: true,
      async run(params) {
        const [pubkey, config] = positional(params, 'surfnet_streamAccount', { min: 1, max: 2 }) as [unknown, Record<string, unknown> | null | undefined];
        await stream(requirePubkey(pubkey).toBase58(), config?.includeOwnedAccounts === true);
        return done();
      },
    },

    surfnet_streamAccounts: {
      writes: true,
      async run(params) {
        const [list] = positional(params, 'surfnet_streamAccounts', { min: 1, max: 1 });
        if (!Array.isArray(list)) throw invalidParams(`invalid type: ${describeType(list)}, expected a sequence`);
        const entries = list.map((entry) => {
          if (typeof entry !== 'object' || entry === null) throw invalidParams(`invalid type: ${describeType(entry)}, expected struct StreamAccountEntry`);
          const { pubkey, includeOwnedAccounts } = entry as Record<string, unknown>;
          return { address: requirePubkey(pubkey).toBase58(), owned: includeOwnedAccounts === true };
        });
        for (const { address, owned } of entries) await stream(address, owned);
        return done();
      },
    },

    surfnet_getStreamedAccounts: {
      writes: false,
      run(params) {
        positional(params, 'surfnet_getStreamedAccounts', { min: 0, max: 0 });
        return withContext(parts.slot(), {
          accounts: [...state.streamed].map(([pubkey, includeOwnedAccounts]) => ({ pubkey, includeOwnedAccounts })),
        });
      },
    },
  };

  /** Marked as streamed, and taken again from what the clone cache loaded (Surfpool reads the datasource on each access). */
  async function stream(address: string, includeOwnedAccounts: boolean): Promise<void> {
    state.offline.delete(address);
    state.streamed.set(address, includeOwnedAccounts);
    if (parts.genesisAccount(address) !== null) await restore(address);
  }
}
