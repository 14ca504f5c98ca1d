import { TOKEN_PROGRAM_ID } from '@solana/spl-token';
import type { PublicKey } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './support/harness.ts';
import { DEFAULT_APPS } from './support/legacy-transactions.ts';
import { ALICE, ata, KIN, USDC } from './support/transactions.ts';
import { newKeypair } from './support/keys.ts';

// The legacy interface's reads; the transactions its server builds and signs (airdrop, account/close) are in legacy-server-built.test.ts.
describe('legacy reads', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());

  const get = (path: string) => h.call('GET', path, { anonymous: true });
  const post = (path: string, body: unknown) => h.call('POST', path, { anonymous: true, body });
  const app = { environment: 'devnet', index: 1 };
  const recent = async () => (await get('/transaction/latest-blockhash/devnet/1')).body as { blockhash: string; lastValidBlockHeight: number };
  /** An airdrop of KIN, for a history to read. */
  const airdrop = (account: PublicKey, extra: Record<string, unknown> = {}) =>
    post('/airdrop', { ...app, account: account.toBase58(), commitment: 'Confirmed', mint: KIN.toBase58(), ...extra });

  describe('app', () => {
    it('answers the app configuration record from fixtures/apps.json', async () => {
      const { status, body } = await get('/app/devnet/1/config');
      expect(status).toBe(200);
      const [kin, usdc] = DEFAULT_APPS[0]!.mints;
      expect(body).toEqual({
        app: { index: 1, name: 'Relay Emulator App' },
        api: { name: 'relay-emulator', version: expect.stringMatching(/^\d+\.\d+\.\d+/) },
        environment: {
          name: 'devnet',
          explorer: `${new URL(h.emulator.config.uiUrl).origin}/{path}`,
          cluster: { endpoint: h.emulator.config.rpcUrl, id: 'emulator', name: 'Relay Emulator', type: 'Custom' },
        },
        mint: kin,
        mints: [kin, usdc],
      });
    });

    it('404 for an unknown app, 400 for an index that is not an integer', async () => {
      expect((await get('/app/devnet/7/config')).body).toEqual({ statusCode: 404, message: 'app-7-devnet: App not found.', error: 'Not Found' });
      const bad = await get('/app/devnet/one/config');
      expect(bad.status).toBe(400);
      expect(bad.body.message).toBe('Validation failed (numeric string is expected)');
    });

    it('answers health', async () => {
      const { body } = await get('/app/devnet/1/health');
      expect(body).toEqual({ isLedgerOk: true, isLegacyOk: true, time: expect.any(String) });
      expect((await get('/app/mainnet/1/health')).status).toBe(404);
    });
  });

  describe('transaction reads', () => {
    it('answers the latest blockhash, valid on the ledger', async () => {
      const { blockhash, lastValidBlockHeight } = await recent();
      expect(h.emulator.services.ledger.isBlockhashValid(blockhash)).toBe(true);
      expect(lastValidBlockHeight).toBe(Number(h.emulator.services.ledger.clock().blockHeight) + 150);
    });

    it('answers the rent-exempt minimum for a data length, 400 without one', async () => {
      expect((await get('/transaction/minimum-rent-exemption-balance/devnet/1?dataLength=165')).body).toEqual({ lamports: 2_039_280 });
      const missing = await get('/transaction/minimum-rent-exemption-balance/devnet/1');
      expect(missing.status).toBe(400);
      expect(missing.body).toMatchObject({ statusCode: 400, error: 'Bad Request', message: expect.stringContaining('dataLength') });
    });

    it('answers a relayed transaction with its status and RPC JSON, nulls for an unknown signature', async () => {
      const { body: airdropped } = await airdrop(newKeypair().publicKey);
      const { body } = await get(`/transaction/transaction/devnet/1/${airdropped.signature}`);
      expect(body.signature).toBe(airdropped.signature);
      expect(body.status).toMatchObject({ slot: expect.any(Number), err: null, confirmationStatus: expect.stringMatching(/^(confirmed|finalized)$/) });
      expect(body.transaction.transaction.signatures[0]).toBe(airdropped.signature);
      expect(body.transaction.slot).toBe(body.status.slot);
      const unknown = await get(`/transaction/transaction/devnet/1/${'1'.repeat(64)}`);
      expect(unknown.body).toEqual({ signature: '1'.repeat(64), status: null, transaction: null });
    });
  });

  describe('account reads', () => {
    it('answers balances of every app mint in whole-token units', async () => {
      const { body } = await get(`/account/balance/devnet/1/${ALICE.publicKey.toBase58()}`);
      expect(body).toEqual({
        balance: '100',
        mintMap: { [KIN.toBase58()]: [ata(ALICE.publicKey, KIN).toBase58()], [USDC.toBase58()]: [ata(ALICE.publicKey, USDC).toBase58()] },
        mints: { [KIN.toBase58()]: '100', [USDC.toBase58()]: '1000' },
        tokens: [
          { account: ata(ALICE.publicKey, KIN).toBase58(), balance: '100', decimals: 5, mint: KIN.toBase58() },
          { account: ata(ALICE.publicKey, USDC).toBase58(), balance: '1000', decimals: 6, mint: USDC.toBase58() },
        ],
      });
      const nobody = await get(`/account/balance/devnet/1/${newKeypair().publicKey.toBase58()}`);
      expect(nobody.body).toMatchObject({ balance: '0', mints: {}, tokens: [] });
      const invalid = await get('/account/balance/devnet/1/not-an-address');
      expect(invalid.status).toBe(400);
      expect(invalid.body.message).toBe('accountId is not a valid base58 public key.');
    });

    it('answers account info for a wallet, a mint and a token account', async () => {
      const wallet = await get(`/account/info/devnet/1/${ALICE.publicKey.toBase58()}/${KIN.toBase58()}`);
      expect(wallet.body).toEqual({
        account: ALICE.publicKey.toBase58(),
        isMint: false,
        isOwner: true,
        isTokenAccount: false,
        owner: null,
        program: null,
        tokens: [
          {
            account: ata(ALICE.publicKey, KIN).toBase58(),
            balance: '100',
            closeAuthority: null,
            decimals: 5,
            mint: KIN.toBase58(),
            owner: ALICE.publicKey.toBase58(),
          },
        ],
      });
      const mint = await get(`/account/info/devnet/1/${KIN.toBase58()}/${KIN.toBase58()}`);
      expect(mint.body).toMatchObject({ isMint: true, isTokenAccount: false, program: TOKEN_PROGRAM_ID.toBase58(), tokens: null });
      const token = await get(`/account/info/devnet/1/${ata(ALICE.publicKey, KIN).toBase58()}/${KIN.toBase58()}`);
      expect(token.body).toMatchObject({ isMint: false, isTokenAccount: true, owner: ALICE.publicKey.toBase58(), tokens: null });
      // Kinetic's older route without a mint (SDK rc.11, rc.12) reads the app's default mint.
      expect((await get(`/account/info/devnet/1/${ALICE.publicKey.toBase58()}?commitment=Confirmed`)).body).toEqual(wallet.body);
      expect((await get(`/account/info/devnet/9/${ALICE.publicKey.toBase58()}`)).status).toBe(404);
      const stranger = newKeypair().publicKey.toBase58();
      const notInApp = await get(`/account/info/devnet/1/${ALICE.publicKey.toBase58()}/${stranger}`);
      expect(notInApp.status).toBe(400);
      expect(notInApp.body.message).toBe(`app-1-devnet: Can't find mint ${stranger}`);
    });

    it('takes ?commitment= on every read (Kinetic SDK rc.11+ sends it), and refuses a level outside the enum', async () => {
      const alice = ALICE.publicKey.toBase58();
      const reads = [
        `/account/balance/devnet/1/${alice}`,
        `/account/info/devnet/1/${alice}/${KIN.toBase58()}`,
        `/account/info/devnet/1/${alice}`,
        `/account/token-accounts/devnet/1/${alice}/${KIN.toBase58()}`,
        `/account/history/devnet/1/${alice}/${KIN.toBase58()}`,
        `/transaction/transaction/devnet/1/${'1'.repeat(64)}`,
      ];
      for (const path of reads) {
        const plain = await get(path);
        for (const commitment of ['Processed', 'Confirmed', 'Finalized']) {
          const read = await get(`${path}?commitment=${commitment}`);
          expect(read.status, `${path} ${commitment}`).toBe(200);
          expect(read.body, `${path} ${commitment}`).toEqual(plain.body);
        }
        const bogus = await get(`${path}?commitment=Bogus`);
        expect(bogus.status, path).toBe(400);
        expect(bogus.body).toEqual({ statusCode: 400, message: 'commitment must be one of "Confirmed", "Finalized", "Processed"', error: 'Bad Request' });
      }
    });

    it('lists token accounts and their history per mint', async () => {
      expect((await get(`/account/token-accounts/devnet/1/${ALICE.publicKey.toBase58()}/${KIN.toBase58()}`)).body).toEqual([
        ata(ALICE.publicKey, KIN).toBase58(),
      ]);
      const owner = newKeypair();
      const first = (await airdrop(owner.publicKey)).body.signature;
      const second = (await airdrop(owner.publicKey, { amount: '3' })).body.signature;
      const { body } = await get(`/account/history/devnet/1/${owner.publicKey.toBase58()}/${KIN.toBase58()}`);
      expect(body).toHaveLength(1);
      expect(body[0].account).toBe(ata(owner.publicKey, KIN).toBase58());
      expect(body[0].history.map((entry: { signature: string }) => entry.signature)).toEqual([second, first]);
      expect(body[0].history[0]).toEqual({ signature: second, slot: expect.any(Number), blockTime: expect.any(Number), err: null, memo: null });
      expect((await get(`/account/history/devnet/1/${owner.publicKey.toBase58()}/${USDC.toBase58()}`)).body).toEqual([]);
    });
  });
});
