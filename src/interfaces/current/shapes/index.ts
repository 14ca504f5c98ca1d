export { accountInfoBody, type AccountInfoBody } from './account-info-body.ts';
export { balanceBody, type BalanceBody } from './balance-body.ts';
export { receiptBody, type ReceiptBody } from './receipt-body.ts';
export { accountInfoPascal, tokenInfo, type AccountInfoPascal, type TokenInfo } from './token-infos.ts';
export { walletTokenAccounts, type WalletTokenAccount } from './wallet-token-accounts.ts';
