/**
 * AltudePlatform/react-native-altude-pay-demo (src/services/gasstationAdapter.ts 374b0c9, solana.ts
 * eec357f) against the current interface, through `emulator.fetch`: the demo talks to the relay
 * through altude-js's AltudeGasStation (getConfig, getBalance({account, token}), send({sourceSigner,
 * …, token}) with gill's transfer), reads the payment token balance from
 * TokenInfos[0].Account.Data.Parsed.Info.TokenAmount.{Amount, Decimals}, and reads confirmation and
 * history from the RPC itself: @solana/kit's createSolanaRpc at api.devnet.solana.com, without the
 * Token. So the emulator is started as that demo needs it: its RPC at that URL, `rpcAuth: false`.
 */
import { getAssociatedTokenAddressSync } from '@solana/spl-token';
import type { PublicKey } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRelayEmulator, type RelayEmulator } from '../../src/index.ts';
import { AltudeJsClient, gillTransferTokens } from './altude/altude-js.ts';
import { lamportsOf, settleAndCheckFinal, SIGNATURE_FEE, TOKEN_ACCOUNT_RENT, tokenAccountOf } from './altude/ledger-checks.ts';
import { Wire } from './altude/recorder.ts';
import { USDC } from '../support/transactions.ts';
import { newKeypair } from '../support/keys.ts';

const DEVNET_RPC = 'https://api.devnet.solana.com';

/** parsePaymentTokenBalance: TokenInfos[0]…TokenAmount.Amount / 10^Decimals, else uiAmount, else 0. */
function parsePaymentTokenBalance(balance: any): number {
  const tokenAmount = balance?.TokenInfos?.[0]?.Account?.Data?.Parsed?.Info?.TokenAmount;
  if (tokenAmount?.Amount !== undefined) {
    const rawAmount = Number(tokenAmount.Amount);
    const decimals = Number(tokenAmount.Decimals ?? 0);
    if (Number.isFinite(rawAmount) && Number.isInteger(decimals) && decimals >= 0) return rawAmount / 10 ** decimals;
  }
  const uiAmount = Number(balance?.uiAmount);
  return Number.isFinite(uiAmount) ? uiAmount : 0;
}

describe('the React Native Altude Pay demo on the current interface', () => {
  let emulator: RelayEmulator;
  let wire: Wire;
  let gasstation: AltudeJsClient;
  const wallet = newKeypair();
  const merchant = newKeypair();
  let paid: string;

  beforeAll(async () => {
    emulator = await createRelayEmulator({ baseUrl: 'https://api.altude.so/api', rpcUrl: DEVNET_RPC, rpcAuth: false });
    wire = new Wire(emulator);
    gasstation = new AltudeJsClient(wire, emulator.config.apiKey);
    // The demo's stable coin, which its wallets hold: given here by the faucet.
    await emulator.faucet({ address: wallet.publicKey, mint: USDC, amount: 25_000_000n });
  });
  afterAll(() => emulator.close());

  /** The demo's own RPC reads (createSolanaRpc(DEFAULT_RPC_URL)): no Authorization header. */
  async function devnetRpc(method: string, params: unknown[]): Promise<any> {
    const answer = await wire.send('POST', DEVNET_RPC, { 'Content-Type': 'application/json' }, JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }));
    expect(answer.body.error, JSON.stringify(answer.body.error)).toBeUndefined();
    return answer.body.result;
  }

  const balance = async (owner: PublicKey) =>
    parsePaymentTokenBalance(
      (await gasstation.request('POST', '/api/Account/balance', { accountAddress: owner.toBase58(), mintAddress: USDC.toBase58() })).body,
    );

  it('getConfig through the gas station, then the wallet’s balance from TokenInfos[0]…TokenAmount', async () => {
    expect(await gasstation.getConfig()).toMatchObject({ FeePayer: emulator.config.feePayer, RpcUrl: DEVNET_RPC });
    expect(await balance(wallet.publicKey)).toBe(25);
    expect(JSON.parse(wire.last().body!)).toEqual({ accountAddress: wallet.publicKey.toBase58(), mintAddress: USDC.toBase58() });
  });

  it(
    'sendWithSigner pays a merchant who has no account yet: gill’s transfer relayed, the merchant’s account created without a hand-over, the ' +
      'signature read as Signature ?? signature',
    async () => {
      const before = await lamportsOf(emulator, emulator.config.feePayer);
      const transaction = await gasstation.serialize(
        gillTransferTokens({ feePayer: gasstation.feePayer, mint: USDC, authority: wallet.publicKey, destination: merchant.publicKey, amount: 12_500_000n }),
        [wallet],
      );
      const answer = await gasstation.request('POST', '/api/Transaction/send', { SignedTransaction: transaction });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      paid = answer.body.Signature ?? answer.body.signature;
      const [entry] = await settleAndCheckFinal(emulator, [{ signature: paid, signers: 2 }]);
      expect(entry).toMatchObject({ sponsorExposure: Number(TOKEN_ACCOUNT_RENT), strictBreaks: [{ rule: 'A6' }] });
      expect((await tokenAccountOf(emulator, getAssociatedTokenAddressSync(USDC, merchant.publicKey)))?.amount).toBe(12_500_000n);
      expect(before - (await lamportsOf(emulator, emulator.config.feePayer))).toBe(2n * SIGNATURE_FEE + TOKEN_ACCOUNT_RENT);
      expect([await balance(wallet.publicKey), await balance(merchant.publicKey)]).toEqual([12.5, 12.5]);
    },
  );

  it('waitForTransactionConfirmation: getSignatureStatuses with searchTransactionHistory reports the payment confirmed or finalized', async () => {
    const { value } = await devnetRpc('getSignatureStatuses', [[paid], { searchTransactionHistory: true }]);
    expect(value[0]).toMatchObject({ err: null, confirmationStatus: expect.stringMatching(/^(confirmed|finalized)$/) });
    expect(wire.last().headers).toEqual({ 'Content-Type': 'application/json' });
  });

  it(
    'getAccountHistory: getSignaturesForAddress with a limit, then getTransaction (json); the summary finds the wallet’s send and the merchant as its ' +
      'counterparty',
    async () => {
      const signatures = await devnetRpc('getSignaturesForAddress', [wallet.publicKey.toBase58(), { limit: 10 }]);
      expect(signatures.map((entry: { signature: string }) => entry.signature)).toContain(paid);
      const tx = await devnetRpc('getTransaction', [paid, { commitment: 'confirmed', encoding: 'json', maxSupportedTransactionVersion: 0 }]);
      const change = (owner: PublicKey) => {
        const of = (balances: any[]) => Number(balances.find((entry) => entry.owner === owner.toBase58())?.uiTokenAmount.uiAmount ?? 0);
        return of(tx.meta.postTokenBalances) - of(tx.meta.preTokenBalances);
      };
      expect([change(wallet.publicKey), change(merchant.publicKey)]).toEqual([-12.5, 12.5]);
      expect(tx.meta.err).toBeNull();
    },
  );
});
