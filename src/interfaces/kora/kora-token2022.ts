import { calculateEpochFee, ExtensionType, getExtensionTypes, getTransferFeeConfig, TOKEN_2022_PROGRAM_ID, unpackAccount, unpackMint } from '@solana/spl-token';
import { PublicKey } from '@solana/web3.js';
import type { LedgerAccount } from '../../domain/ledger/engine.ts';
import type { Ledger } from '../../domain/ledger/ledger.ts';
import { KoraError } from './kora-error.ts';

/**
 * Kora 2.0.5's names of the Token-2022 extensions `[validation.token_2022]` may block, by where it
 * looks for them (crates/lib/src/token/spl_token_2022_util.rs: `default_account_state` is among
 * the account extensions there, and so here).
 */
const MINT_EXTENSIONS: Record<string, number> = {
  confidential_transfer_mint: ExtensionType.ConfidentialTransferMint,
  confidential_mint_burn: 24,
  transfer_fee_config: ExtensionType.TransferFeeConfig,
  mint_close_authority: ExtensionType.MintCloseAuthority,
  interest_bearing_config: ExtensionType.InterestBearingConfig,
  non_transferable: ExtensionType.NonTransferable,
  permanent_delegate: ExtensionType.PermanentDelegate,
  transfer_hook: ExtensionType.TransferHook,
  pausable: ExtensionType.PausableConfig,
};
const ACCOUNT_EXTENSIONS: Record<string, number> = {
  confidential_transfer_account: ExtensionType.ConfidentialTransferAccount,
  non_transferable_account: ExtensionType.NonTransferableAccount,
  transfer_hook_account: ExtensionType.TransferHookAccount,
  pausable_account: ExtensionType.PausableAccount,
  memo_transfer: ExtensionType.MemoTransfer,
  cpi_guard: ExtensionType.CpiGuard,
  immutable_owner: ExtensionType.ImmutableOwner,
  default_account_state: ExtensionType.DefaultAccountState,
};

/** Token2022Config::initialize: the first name Kora does not know, in its words, or null. */
export function unknownExtension(blocked: { blocked_mint_extensions: string[]; blocked_account_extensions: string[] }): string | null {
  for (const [names, known, kind] of [
    [blocked.blocked_mint_extensions, MINT_EXTENSIONS, 'mint'],
    [blocked.blocked_account_extensions, ACCOUNT_EXTENSIONS, 'account'],
  ] as const) {
    const unknown = names.find((name) => !Object.hasOwn(known, name));
    if (unknown !== undefined) return `Invalid ${kind} extension name: '${unknown}'. Valid names are: ${JSON.stringify(Object.keys(known))}`;
  }
  return null;
}

/** What spl-token's unpackers read of an account. */
function infoOf(account: LedgerAccount) {
  return { data: Buffer.from(account.data), owner: account.owner, executable: account.executable, lamports: Number(account.lamports) };
}

function extensionsOf(address: PublicKey, account: LedgerAccount, kind: 'mint' | 'account'): number[] {
  const info = infoOf(account);
  const state = kind === 'mint' ? unpackMint(address, info, TOKEN_2022_PROGRAM_ID) : unpackAccount(address, info, TOKEN_2022_PROGRAM_ID);
  return getExtensionTypes(state.tlvData);
}

/**
 * TokenUtil::validate_token2022_extensions_for_payment (and its partial form while the destination
 * is being created): the mint, the source and the destination of a Token-2022 transfer carry no
 * extension the config blocks.
 */
export async function checkBlockedExtensions(
  ledger: Ledger,
  blocked: { blocked_mint_extensions: string[]; blocked_account_extensions: string[] },
  transfer: { mint: string; source: string; destination: string | null },
): Promise<void> {
  const mintBlocked = new Set(blocked.blocked_mint_extensions.map((name) => MINT_EXTENSIONS[name]));
  const accountBlocked = new Set(blocked.blocked_account_extensions.map((name) => ACCOUNT_EXTENSIONS[name]));
  const read = async (address: string) => {
    const key = new PublicKey(address);
    const account = await ledger.getAccount(key);
    if (!account) throw new KoraError('AccountNotFound', address);
    return { key, account };
  };
  const mint = await read(transfer.mint);
  if (extensionsOf(mint.key, mint.account, 'mint').some((type) => mintBlocked.has(type))) {
    throw new KoraError('ValidationError', `Blocked mint extension found on mint account ${transfer.mint}`, 'validation.token_2022.blocked_mint_extensions');
  }
  for (const [role, address] of [
    ['source', transfer.source],
    ['destination', transfer.destination],
  ] as const) {
    if (address === null) continue;
    const { key, account } = await read(address);
    if (extensionsOf(key, account, 'account').some((type) => accountBlocked.has(type))) {
      throw new KoraError(
        'ValidationError',
        `Blocked account extension found on ${role} account ${address}`,
        'validation.token_2022.blocked_account_extensions',
      );
    }
  }
}

/** Token2022Mint::calculate_transfer_fee: the mint's transfer fee on `amount` in the current epoch, or 0 without one. */
export async function transferFeeOf(ledger: Ledger, mint: string, amount: bigint): Promise<bigint> {
  const key = new PublicKey(mint);
  const account = await ledger.getAccount(key);
  if (!account?.owner.equals(TOKEN_2022_PROGRAM_ID)) return 0n;
  const config = getTransferFeeConfig(unpackMint(key, infoOf(account), TOKEN_2022_PROGRAM_ID));
  return config ? calculateEpochFee(config, ledger.clock().epoch, amount) : 0n;
}
