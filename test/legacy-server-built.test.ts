import { TOKEN_PROGRAM_ID } from '@solana/spl-token';
import type { PublicKey } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeTokenAccount } from '../src/domain/ledger/token-accounts.ts';
import { rentExemptMinimum } from '../src/domain/ledger/rent.ts';
import { startHarness, type Harness } from './support/harness.ts';
import { legacyCreate } from './support/legacy-transactions.ts';
import { ALICE, ata, build, closeInstruction, FEE_PAYER, KIN, USDC } from './support/transactions.ts';
import { newKeypair } from './support/keys.ts';

const MEMO_V1 = 'Memo1UhkJRfHyvLMcVucJwxXeuD728EqVDDwQDxFMNo';

// The transactions the legacy server builds and signs itself (airdrop, account/close); the reads are in legacy-reads.engines.test.ts.
describe('legacy server-built transactions: airdrop and account/close', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());

  const get = (path: string) => h.call('GET', path, { anonymous: true });
  const post = (path: string, body: unknown) => h.call('POST', path, { anonymous: true, body });
  const app = { environment: 'devnet', index: 1 };
  const recent = async () => (await get('/transaction/latest-blockhash/devnet/1')).body as { blockhash: string; lastValidBlockHeight: number };
  /** A fresh owner with an empty KIN account whose close authority is the fee payer (legacy account/create). */
  const newAccountHolder = async (mint = KIN) => {
    const owner = newKeypair();
    const { blockhash, lastValidBlockHeight } = await recent();
    const created = await post('/account/create', {
      ...app,
      commitment: 'Confirmed',
      mint: mint.toBase58(),
      lastValidBlockHeight,
      tx: legacyCreate({ blockhash, owner, mint }),
    });
    expect(created.body.status).toBe('Confirmed');
    return owner;
  };
  const airdrop = (account: PublicKey, extra: Record<string, unknown> = {}) =>
    post('/airdrop', { ...app, account: account.toBase58(), commitment: 'Confirmed', mint: KIN.toBase58(), ...extra });
  /** Writes a token account straight into the ledger, as a test control would. */
  const writeTokenAccount = async (address: PublicKey, owner: PublicKey, closeAuthority: PublicKey | null) => {
    const data = encodeTokenAccount({ mint: KIN, owner, amount: 0n, closeAuthority });
    await h.emulator.services.ledger.setAccount(address, { lamports: rentExemptMinimum(data.length), owner: TOKEN_PROGRAM_ID, data, executable: false });
    h.emulator.services.tokenAccounts.add(owner.toBase58(), address.toBase58());
  };

  describe('airdrop', () => {
    it('mints airdropAmount by default, or the amount asked for, into the associated token account', async () => {
      const owner = newKeypair().publicKey;
      const { status, body } = await airdrop(owner);
      expect(status).toBe(201);
      expect(body).toEqual({ signature: expect.any(String) });
      await airdrop(owner, { amount: '2.5' });
      const balance = await get(`/account/balance/devnet/1/${owner.toBase58()}`);
      expect(balance.body.balance).toBe('1002.5');
    });

    it('reads amount null (what Kinetic SDKs send when none is asked for) as the default amount, and refuses other types', async () => {
      const owner = newKeypair().publicKey;
      expect((await airdrop(owner, { amount: null })).status).toBe(201);
      expect((await get(`/account/balance/devnet/1/${owner.toBase58()}`)).body.balance).toBe('1000');
      const numeric = await airdrop(owner, { amount: 5 });
      expect(numeric.status).toBe(400);
      expect(numeric.body.message).toBe('amount must be a string or null');
    });

    it('refuses above airdropMax, finer than the decimals, mints without airdrops and mints of other apps', async () => {
      const owner = newKeypair().publicKey;
      expect((await airdrop(owner, { amount: '50001' })).body).toEqual({ statusCode: 400, message: 'Try requesting 50000 or less.', error: 'Bad Request' });
      expect((await airdrop(owner, { amount: '1.000001' })).status).toBe(400);
      const usdc = await airdrop(owner, { mint: USDC.toBase58() });
      expect(usdc.status).toBe(400);
      expect(usdc.body.message).toBe(`app-1-devnet: Airdrop configuration not found for mint ${USDC.toBase58()}.`);
      const stranger = newKeypair().publicKey.toBase58();
      expect((await airdrop(owner, { mint: stranger })).body.message).toBe(`app-1-devnet: Can't find mint ${stranger}`);
      expect((await airdrop(owner, { environment: 'nowhere' })).status).toBe(404);
      expect((await get(`/account/token-accounts/devnet/1/${owner.toBase58()}/${KIN.toBase58()}`)).body).toEqual([]);
    });
  });

  describe('account/close (built and signed by the server)', () => {
    it('closes an empty account whose close authority is the fee payer, with the app memo', async () => {
      const owner = await newAccountHolder();
      const lamportsBefore = (await h.emulator.services.ledger.getAccount(FEE_PAYER))!.lamports;
      const { status, body } = await post('/account/close', {
        ...app,
        account: owner.publicKey.toBase58(),
        commitment: 'Confirmed',
        mint: KIN.toBase58(),
        reference: 'bye',
      });
      expect(status).toBe(201);
      expect(body).toMatchObject({
        status: 'Confirmed',
        errors: [],
        feePayer: FEE_PAYER.toBase58(),
        source: owner.publicKey.toBase58(),
        mint: KIN.toBase58(),
        reference: 'bye',
        amount: null,
      });
      expect(body.ledgerTransaction.transaction.message.accountKeys).toContain(MEMO_V1);
      expect(body.ledgerTransaction.meta.err).toBeNull();
      expect(await h.emulator.services.ledger.getAccount(ata(owner.publicKey, KIN))).toBeNull();
      // The rent came back to the fee payer, which also paid the fee.
      const lamportsAfter = (await h.emulator.services.ledger.getAccount(FEE_PAYER))!.lamports;
      expect(lamportsAfter - lamportsBefore).toBe(2_039_280n - 5_000n);
      expect((await get(`/account/token-accounts/devnet/1/${owner.publicKey.toBase58()}/${KIN.toBase58()}`)).body).toEqual([]);
    });

    it('refuses with the legacy service’s reasons', async () => {
      const close = async (account: PublicKey) => {
        const { status, body } = await post('/account/close', { ...app, account: account.toBase58(), commitment: 'Confirmed', mint: KIN.toBase58() });
        expect(status).toBe(400);
        return body.message as string;
      };
      expect(await close(KIN)).toBe('Cannot close a mint');
      expect(await close(ata(ALICE.publicKey, KIN))).toBe('Cannot close a token account');
      expect(await close(newKeypair().publicKey)).toBe('Account has no tokens for the specified mint');
      expect(await close(ALICE.publicKey)).toBe('Token account has no close authority');

      const funded = await newAccountHolder();
      await airdrop(funded.publicKey, { amount: '1' });
      expect(await close(funded.publicKey)).toBe('Cannot close an account with a balance');

      const foreign = newKeypair().publicKey;
      await writeTokenAccount(ata(foreign, KIN), foreign, newKeypair().publicKey);
      expect(await close(foreign)).toBe('Token account close authority is not a known wallet');

      const twice = newKeypair().publicKey;
      await writeTokenAccount(ata(twice, KIN), twice, FEE_PAYER);
      await writeTokenAccount(newKeypair().publicKey, twice, FEE_PAYER);
      expect(await close(twice)).toBe("Can't close account with multiple tokens");
    });

    it('accepts the reference fields as null (Kinetic SDK rc.15+ sends reference: null), and no other non-string', async () => {
      const owner = await newAccountHolder();
      const body = {
        account: owner.publicKey.toBase58(),
        commitment: 'Confirmed',
        ...app,
        mint: KIN.toBase58(),
        reference: null,
        referenceId: null,
        referenceType: null,
      };
      const refused = await post('/account/close', { ...body, reference: 7 });
      expect(refused.status).toBe(400);
      expect(refused.body.message).toBe('reference must be a string or null');
      const { status, body: record } = await post('/account/close', body);
      expect(status).toBe(201);
      expect(record).toMatchObject({ status: 'Confirmed', reference: null });
      expect(await h.emulator.services.ledger.getAccount(ata(owner.publicKey, KIN))).toBeNull();
    });

    it('leaves POST /Account/close without an environment to the current interface', async () => {
      const owner = await newAccountHolder();
      const tx = build({ instructions: [closeInstruction(ata(owner.publicKey, KIN))], blockhash: (await recent()).blockhash, signers: [] });
      const { status, body } = await h.call('POST', '/Account/close', { body: { signedTransaction: tx } });
      expect(status).toBe(200);
      expect(body).toMatchObject({ status: 'Queued', message: 'Account close transaction queued successfully.' });
      await h.emulator.settle();
      expect(await h.emulator.services.ledger.getAccount(ata(owner.publicKey, KIN))).toBeNull();
    });
  });
});
