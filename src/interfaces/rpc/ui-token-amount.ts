import { toUiAmountString } from '../../domain/ledger/token-accounts.ts';

/** The RPC's `UiTokenAmount`: base units as a string, plus the decimal forms. */
export interface UiTokenAmount {
  amount: string;
  decimals: number;
  uiAmount: number;
  uiAmountString: string;
}

/** As the validator computes it: `uiAmount` is the f64 quotient, `uiAmountString` the exact decimal. */
export function uiTokenAmount(amount: bigint, decimals: number): UiTokenAmount {
  return {
    amount: amount.toString(),
    decimals,
    uiAmount: Number(amount) / 10 ** decimals,
    uiAmountString: toUiAmountString(amount, decimals),
  };
}
