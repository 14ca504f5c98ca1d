import type { LedgerAccount } from '../../../domain/ledger/engine.ts';
import { addressOf } from '../../../base/crypto/key-cache.ts';
import { toUiAmountString } from '../../../domain/ledger/token-accounts.ts';
import { RENT_EXEMPT_RENT_EPOCH } from '../../rpc/account-json.ts';
import type { WalletTokenAccount } from './wallet-token-accounts.ts';
import type { components } from '../../../generated/relay.ts';

/**
 * The Android SDK's account shapes (gasstation/data/GetAccountData.kt), which are Solnet's RPC
 * models serialized with PascalCase names (`pubkey` keeps its JsonPropertyName): what the real .NET
 * service most plausibly sends, and what Android, altude-js and the React Native demo read
 * (`TokenInfos[i].Account.Data.Parsed.Info.TokenAmount.{Amount, Decimals}`).
 */
export type AccountInfoPascal = components['schemas']['PascalAccountInfo'];

export type TokenInfo = components['schemas']['TokenInfo'];

export function accountInfoPascal(account: Pick<LedgerAccount, 'lamports' | 'owner' | 'executable'>): AccountInfoPascal {
  return { Lamports: Number(account.lamports), Owner: addressOf(account.owner), Executable: account.executable, RentEpoch: RENT_EXEMPT_RENT_EPOCH.toString() };
}

export function tokenInfo({ address, account, state, decimals }: WalletTokenAccount): TokenInfo {
  const uiAmountString = toUiAmountString(state.amount, decimals);
  const uiAmount = Number(uiAmountString);
  return {
    pubkey: address,
    Account: {
      ...accountInfoPascal(account),
      Data: {
        Program: 'spl-token',
        Space: account.data.length,
        Parsed: {
          Type: 'account',
          Info: {
            TokenAmount: {
              Amount: state.amount.toString(),
              Decimals: decimals,
              UiAmount: uiAmount,
              UiAmountString: uiAmountString,
              AmountUlong: Number(state.amount),
              AmountDecimal: uiAmount,
              AmountDouble: uiAmount,
            },
            State: state.state,
            IsNative: state.isNative !== null,
            Mint: state.mint,
            Owner: state.owner,
          },
        },
      },
    },
  };
}

/**
 * TokenInfo in camelCase: the Android SDK's classes of its released v0.1.3-alpha to v0.1.5-alpha
 * (GetAccountData.kt before it was renamed PascalCase), which read `tokenInfos`. The same values,
 * and the Solana RPC's jsonParsed token-account layout.
 */
export type CamelTokenInfo = components['schemas']['CamelTokenInfo'];

export function camelTokenInfo({ pubkey, Account: account }: TokenInfo): CamelTokenInfo {
  const { Info: info } = account.Data.Parsed;
  const amount = info.TokenAmount;
  return {
    pubkey,
    account: {
      lamports: account.Lamports,
      owner: account.Owner,
      executable: account.Executable,
      rentEpoch: account.RentEpoch,
      data: {
        program: account.Data.Program,
        space: account.Data.Space,
        parsed: {
          type: account.Data.Parsed.Type,
          info: {
            tokenAmount: {
              amount: amount.Amount,
              decimals: amount.Decimals,
              uiAmount: amount.UiAmount,
              uiAmountString: amount.UiAmountString,
              amountUlong: amount.AmountUlong,
              amountDecimal: amount.AmountDecimal,
              amountDouble: amount.AmountDouble,
            },
            state: info.State,
            isNative: info.IsNative,
            mint: info.Mint,
            owner: info.Owner,
          },
        },
      },
    },
  };
}
