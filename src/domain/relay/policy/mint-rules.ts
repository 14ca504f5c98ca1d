import type { PublicKey } from '@solana/web3.js';
import { RelayError } from '../../../base/errors/relay-error.ts';
import { decodeMint } from '../../ledger/token-accounts.ts';
import { NATIVE_MINT_ADDRESS, PROGRAMS } from '../programs.ts';
import type { WalkState } from './walk-state.ts';
import { addressOf } from '../../../base/crypto/key-cache.ts';

/**
 * Rules P2 and A5: the fee payer funds the token account `created` only for an initialized SPL Token
 * mint on the ledger, in `allowedMints` when set. The native mint is strict-only: SetAuthority
 * (AccountOwner) clears a wrapped-SOL account's close authority, so its owner can take the rent;
 * `faithful` funds it (Android's Token.SOL, the dynamic demo's default) and records the rent.
 */
export async function checkNewAccountMint(state: WalkState, mint: PublicKey, index: number, created: string): Promise<void> {
  const address = addressOf(mint);
  const account = await state.context.getAccount(mint);
  if (account?.owner.equals(PROGRAMS.token2022)) {
    throw new RelayError(
      'TOKEN_2022_UNSUPPORTED',
      `Instruction ${index} creates an account for ${address}, a Token-2022 mint, which the relay does not sponsor.`,
      { rule: 'P2' },
    );
  }
  if (mint.equals(NATIVE_MINT_ADDRESS)) {
    state.strictOnly(
      'MINT_NOT_ALLOWED',
      'A5',
      `Instruction ${index} creates a wrapped-SOL account; the relay does not fund them, since their owner can clear the close authority and take the rent.`,
      {
        account: created,
        exposure: state.context.tokenAccountRent,
      },
    );
  }
  checkAllowedMint(state, address, index, 'A5');
  if (!account?.owner.equals(PROGRAMS.token) || !decodeMint(account)) {
    throw new RelayError(
      'MINT_NOT_ALLOWED',
      `Instruction ${index} creates an account for ${address}, which is not an initialized SPL Token mint on the ledger.`,
      { rule: 'A5' },
    );
  }
}

/** Rules A5 and T1: `allowedMints`, when set, names every mint the relay sponsors. */
export function checkAllowedMint(state: WalkState, mint: string | null, index: number, rule: 'A5' | 'T1'): void {
  const allowed = state.context.options.allowedMints;
  if (allowed === null) return;
  if (mint === null) {
    throw new RelayError(
      'MINT_NOT_ALLOWED',
      `Instruction ${index} moves tokens of a mint the relay cannot tell (the source is not a token account on the ledger); only ${allowed.join(', ')} ` +
        `are sponsored.`,
      { rule: 'T1' },
    );
  }
  if (!allowed.includes(mint)) {
    throw new RelayError('MINT_NOT_ALLOWED', `Instruction ${index} uses mint ${mint}, which the relay does not sponsor.`, { rule });
  }
}
