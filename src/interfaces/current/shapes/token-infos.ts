import type { LedgerAccount } from '../../../domain/ledger/engine.ts';
import { addressOf } from '../../../base/crypto/key-cache.ts';
import { toUiAmountString } from '../../../domain/ledger/token-accounts.ts';
import { RENT_EXEMPT_RENT_EPOCH } from '../../rpc/account-json.ts';
import type { WalletTokenAccount } from './wallet-token-accounts.ts';

/**
 * The Android SDK's account shapes (gasstation/data/GetAccountData.kt), which are Solnet's RPC
 * models serialized with PascalCase names (`pubkey` keeps its JsonPropertyName): what the real .NET
 * service most plausibly sends, and what Android, altude-js and the React Native demo read
 * (`TokenInfos[i].Account.Data.Parsed.Info.TokenAmount.{Amount, Decimals}`).
 */
export interface AccountInfoPascal {
  Lamports: number;
  Owner: string;
  Executable: boolean;
  /** A string, so that every reader keeps the u64's digits (Android declares it `String?`). */
  RentEpoch: string;
}

export interface TokenInfo {
  pubkey: string;
  Account: AccountInfoPascal & {
    Data: {
      Program: 'spl-token';
      Space: number;
      Parsed: {
        Type: 'account';
        Info: {
          TokenAmount: {
            /** Base units as a string, as the RPC and Solnet's TokenBalance; kotlinx reads it into Android's `Int?`. */
            Amount: string;
            Decimals: number;
            UiAmount: number;
            UiAmountString: string;
            /** Base units as a number (exact below 2^53; `Amount` always is). */
            AmountUlong: number;
            AmountDecimal: number;
            AmountDouble: number;
          };
          State: string;
          IsNative: boolean;
          Mint: string;
          Owner: string;
        };
      };
    };
  };
}

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
export interface CamelTokenInfo {
  pubkey: string;
  account: {
    lamports: number;
    owner: string;
    executable: boolean;
    rentEpoch: string;
    data: {
      program: 'spl-token';
      space: number;
      parsed: {
        type: 'account';
        info: {
          tokenAmount: {
            amount: string;
            decimals: number;
            uiAmount: number;
            uiAmountString: string;
            amountUlong: number;
            amountDecimal: number;
            amountDouble: number;
          };
          state: string;
          isNative: boolean;
          mint: string;
          owner: string;
        };
      };
    };
  };
}

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
