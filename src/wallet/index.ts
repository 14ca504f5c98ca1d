/**
 * `relay-emulator/wallet`: a test wallet for a dapp's browser tests. The page sees a Wallet Standard
 * wallet (and, opt-in, Phantom's `window.solana`); the key, the user's choices and the record of
 * every request stay in the test's process. `relay-emulator/playwright` gives one to every test.
 */
export { TestWallet, WalletError, type TestWalletOptions, type WalletDecision, type WalletPage, type WalletRequest } from './test-wallet.ts';
export { signInMessage } from './sign-in-message.ts';
