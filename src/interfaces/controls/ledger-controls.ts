import type { PublicKey } from '@solana/web3.js';
import { RelayError } from '../../base/errors/relay-error.ts';
import type { Ledger } from '../../domain/ledger/ledger.ts';
import { ProtectedAccountError } from '../../domain/ledger/protected-accounts.ts';
import { decodeTokenAccount } from '../../domain/ledger/token-accounts.ts';
import type { ControlsDeps } from './controls-deps.ts';
import { parseAddress, toAccountState, toLedgerAccount, type AccountState } from '../../domain/ledger/account-state.ts';
import type { ClockState, TestControlMethods, WarpRequest } from './control-types.ts';

type LedgerControls = Pick<TestControlMethods, 'getAccount' | 'setAccount' | 'clock' | 'warp' | 'expireBlockhash'>;

/** Accounts, the clock and blockhashes: the ledger as tests read and move it. */
export function ledgerControls(deps: Pick<ControlsDeps, 'ledger' | 'tokenAccounts' | 'queue'>): LedgerControls {
  const { ledger, tokenAccounts, queue } = deps;

  const getAccount = async (address: string | PublicKey): Promise<AccountState | null> => {
    const account = await ledger.getAccount(parseAddress(address));
    return account ? toAccountState(account) : null;
  };

  const clock = (): ClockState => {
    const now = ledger.clock();
    return { slot: Number(now.slot), blockHeight: Number(now.blockHeight), unixTimestamp: Number(now.unixTimestamp) };
  };

  return {
    getAccount,

    async setAccount(address, account) {
      const key = parseAddress(address);
      if (account.lamports < 0n) throw new RelayError('VALIDATION_FAILED', 'lamports must not be negative.');
      await writeAccounts(ledger, [{ address: key, account: toLedgerAccount(account) }]);
      const token = decodeTokenAccount(toLedgerAccount(account));
      if (token && account.lamports > 0n) tokenAccounts.add(token.owner, key.toBase58());
      return getAccount(key);
    },

    clock,

    async warp(request: WarpRequest) {
      if (request.slots !== undefined && request.slot !== undefined) throw new RelayError('VALIDATION_FAILED', 'Give slots (or warpSlots) or slot, not both.');
      for (const [name, value] of Object.entries({ slots: request.slots, slot: request.slot, unixTimestamp: request.unixTimestamp })) {
        if (value !== undefined && !Number.isSafeInteger(value)) throw new RelayError('VALIDATION_FAILED', `${name} must be an integer.`);
      }
      if ((request.slots ?? 0) < 0) throw new RelayError('VALIDATION_FAILED', 'slots must not be negative: the ledger only moves forward.');
      if (request.slot !== undefined && BigInt(request.slot) < ledger.clock().slot) {
        throw new RelayError('SLOT_IN_THE_PAST', `The ledger is at slot ${ledger.clock().slot}; it cannot go back to slot ${request.slot}.`);
      }
      // With no job in the ledger: a warp between a transaction and its record would file it in the wrong slot.
      await queue.whileHeld(() =>
        ledger.warp({
          ...(request.slots === undefined ? {} : { slots: request.slots }),
          ...(request.slot === undefined ? {} : { slot: BigInt(request.slot) }),
          ...(request.unixTimestamp === undefined ? {} : { unixTimestamp: BigInt(request.unixTimestamp) }),
        }),
      );
      return clock();
    },

    async expireBlockhash() {
      const { blockhash, lastValidBlockHeight } = await queue.whileHeld(() => ledger.expireBlockhashes());
      return { blockhash, lastValidBlockHeight: Number(lastValidBlockHeight) };
    },
  };
}

/**
 * Ledger writes, with the reservoir's refusal (it cannot cover the lamports asked for) as a 400,
 * and a write to one of the runtime's own accounts (a builtin, a sysvar, a loaded program) as 409
 * ACCOUNT_PROTECTED, nothing written.
 */
export async function writeAccounts(ledger: Ledger, writes: Parameters<Ledger['setAccounts']>[0]): Promise<void> {
  try {
    await ledger.setAccounts(writes);
  } catch (error) {
    if (error instanceof ProtectedAccountError)
      throw new RelayError('ACCOUNT_PROTECTED', `Cannot write the account: ${error.message}; the emulator never replaces the runtime's own accounts.`);
    if (error instanceof RangeError) throw new RelayError('VALIDATION_FAILED', `Cannot write the account: ${error.message}.`);
    throw error;
  }
}
