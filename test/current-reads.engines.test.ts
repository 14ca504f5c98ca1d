import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './support/harness.ts';
import { ALICE, ata, build, createAtaInstructions, FEE_PAYER, KIN, transferInstruction, USDC } from './support/transactions.ts';
import { newKeypair } from './support/keys.ts';
import { TOKEN_PROGRAM_ID } from '../src/domain/ledger/spl-token.ts';

describe('account reads and history', () => {
  let h: Harness;
  const wallet = newKeypair();
  const signatures: string[] = []; // oldest first
  let kinSignature = '';

  beforeAll(async () => {
    h = await startHarness();
    // Seven USDC transfers and one KIN transfer to a fresh wallet.
    const first = build({
      instructions: [...createAtaInstructions(wallet.publicKey), transferInstruction(ALICE, wallet.publicKey, 1n)],
      blockhash: await h.blockhash(),
      signers: [ALICE, wallet],
    });
    signatures.push((await h.call('POST', '/Transaction/send', { body: { signedTransaction: first } })).body.signature);
    for (let amount = 2n; amount <= 7n; amount += 1n) {
      const tx = build({ instructions: [transferInstruction(ALICE, wallet.publicKey, amount)], blockhash: await h.blockhash(), signers: [ALICE] });
      signatures.push((await h.call('POST', '/Transaction/send', { body: { signedTransaction: tx } })).body.signature);
    }
    const kin = build({
      instructions: [
        ...createAtaInstructions(wallet.publicKey, KIN),
        transferInstruction(ALICE, wallet.publicKey, 5n, { mint: KIN, checked: true, decimals: 5 }),
      ],
      blockhash: await h.blockhash(),
      signers: [ALICE, wallet],
    });
    kinSignature = (await h.call('POST', '/Transaction/send', { body: { signedTransaction: kin } })).body.signature;
    await h.emulator.settle();
  });
  afterAll(() => h.close());

  const history = (query: string) => h.call('POST', `/Account/gethistory?${query}`);

  it('answers account info from the ledger, 404 for an unknown account, 400 for a bad address', async () => {
    const { status, body } = await h.call('POST', '/Account/getaccountinfo', { body: { accountAddress: FEE_PAYER.toBase58() } });
    expect(status).toBe(200);
    expect(body.accountInfo).toEqual({
      address: FEE_PAYER.toBase58(),
      owner: '11111111111111111111111111111111',
      lamports: expect.any(Number),
      executable: false,
    });
    const unknown = await h.call('POST', '/Account/getaccountinfo', { body: { AccountAddress: newKeypair().publicKey.toBase58() } });
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('ACCOUNT_NOT_FOUND');
    const malformed = await h.call('POST', '/Account/getaccountinfo', { body: { accountAddress: 'not-an-address' } });
    expect(malformed.status).toBe(400);
    expect(malformed.body).toMatchObject({ code: 'VALIDATION_FAILED', errors: [expect.objectContaining({ path: 'accountAddress' })] });
    // base58 of the right length that is not 32 bytes: passes the contract's pattern, fails as a key.
    const invalid = await h.call('POST', '/Account/getaccountinfo', { body: { accountAddress: 'z'.repeat(44) } });
    expect(invalid.status).toBe(400);
    expect(invalid.body.code).toBe('INVALID_ADDRESS');
  });

  it('lists no uninitialized token account as a wallet’s: its zeroed owner field names no one (the System Program’s address)', async () => {
    // 165 zero bytes under the Token program: an account made and not yet initialized. Its owner field reads as 1111…1111.
    const uninitialized = newKeypair().publicKey;
    const lamports = await h.emulator.services.ledger.minimumBalanceForRentExemption(165);
    await h.emulator.setAccount(uninitialized, { lamports, owner: TOKEN_PROGRAM_ID.toBase58(), data: new Uint8Array(165), executable: false });
    const system = '11111111111111111111111111111111';
    const { status, body } = await h.call('POST', '/Account/getaccountinfo', { body: { accountAddress: system } });
    expect(status).toBe(200);
    expect(body.TokenInfos).toEqual([]);
    const balance = await h.call('POST', '/Account/balance', { body: { accountAddress: system } });
    expect(balance.status).toBe(200);
    expect(balance.body.tokens).toEqual([]);
  });

  it('answers balances: SOL and every token account, or one mint', async () => {
    const { body } = await h.call('POST', '/Account/balance', { body: { accountAddress: wallet.publicKey.toBase58() } });
    expect(body.sol).toEqual({ amount: '0', decimals: 9, uiAmountString: '0' });
    expect(body.tokens).toEqual(
      expect.arrayContaining([
        { mint: USDC.toBase58(), tokenAccount: ata(wallet.publicKey).toBase58(), amount: '28', decimals: 6, uiAmountString: '0.000028' },
        { mint: KIN.toBase58(), tokenAccount: ata(wallet.publicKey, KIN).toBase58(), amount: '5', decimals: 5, uiAmountString: '0.00005' },
      ]),
    );
    const onlyKin = await h.call('POST', '/Account/balance', { body: { accountAddress: wallet.publicKey.toBase58(), MintAddress: KIN.toBase58() } });
    expect(onlyKin.body.tokens.map((token: { mint: string }) => token.mint)).toEqual([KIN.toBase58()]);
    const alice = await h.call('POST', '/Account/balance', { body: { accountAddress: ALICE.publicKey.toBase58(), mintAddress: USDC.toBase58() } });
    expect(alice.body.tokens[0].uiAmountString).toBe('999.999972');
  });

  it('lists history newest first, and pages without gaps or duplicates', async () => {
    const all = (await history(`WalletAddress=${wallet.publicKey.toBase58()}&PageSize=100`)).body.transactions;
    expect(all.map((entry: { signature: string }) => entry.signature)).toEqual([kinSignature, ...[...signatures].reverse()]);
    // Newest first: slots never go up (a slot holds several transactions, newest first within it),
    // and block times come from the seeded clock, one per slot.
    for (const [index, entry] of all.entries()) {
      if (index > 0) expect(entry.slot).toBeLessThanOrEqual(all[index - 1].slot);
      expect(entry.blockTime).toBe(h.emulator.services.ledger.blockTime(BigInt(entry.slot)));
      expect(entry.blockTime).toBeGreaterThanOrEqual(1_767_225_600);
    }
    const pages = [];
    for (let page = 1; page <= 3; page += 1)
      pages.push(...(await history(`WalletAddress=${wallet.publicKey.toBase58()}&PageNumber=${page}&PageSize=3`)).body.transactions);
    expect(pages).toEqual(all);
    expect((await history(`WalletAddress=${wallet.publicKey.toBase58()}&PageNumber=4&PageSize=3`)).body.transactions).toEqual([]);
  });

  it('binds query names case-insensitively, with Page as an alias of PageNumber', async () => {
    const a = await history(`walletaddress=${wallet.publicKey.toBase58()}&page=2&pagesize=2`);
    const b = await history(`WalletAddress=${wallet.publicKey.toBase58()}&PageNumber=2&PageSize=2`);
    expect(a.status).toBe(200);
    expect(a.body).toEqual(b.body);
    expect(a.body.transactions).toHaveLength(2);
  });

  it('filters by mint and caps the total with Limit', async () => {
    const kin = await history(`WalletAddress=${wallet.publicKey.toBase58()}&MintAddress=${KIN.toBase58()}`);
    expect(kin.body.transactions.map((entry: { signature: string }) => entry.signature)).toEqual([kinSignature]);
    const usdc = await history(`WalletAddress=${wallet.publicKey.toBase58()}&MintAddress=${USDC.toBase58()}&PageSize=100`);
    expect(usdc.body.transactions).toHaveLength(7);
    const limited = await history(`WalletAddress=${wallet.publicKey.toBase58()}&Limit=4&PageSize=3&PageNumber=2`);
    expect(limited.body.transactions).toHaveLength(1);
  });

  it('files a transaction under the owners of the token accounts it touched', async () => {
    const alice = await history(`WalletAddress=${ALICE.publicKey.toBase58()}&PageSize=100`);
    expect(alice.body.transactions.map((entry: { signature: string }) => entry.signature)).toContain(signatures[3]);
    const account = await history(`WalletAddress=${ata(wallet.publicKey).toBase58()}&PageSize=100`);
    expect(account.body.transactions).toHaveLength(7);
  });

  it('answers 400 for a missing or invalid WalletAddress and for out-of-bounds paging', async () => {
    const missing = await history('PageSize=3');
    expect(missing.status).toBe(400);
    expect(missing.body.code).toBe('INVALID_QUERY');
    const malformed = await history('WalletAddress=xyz');
    expect(malformed.status).toBe(400);
    expect(malformed.body.code).toBe('INVALID_QUERY');
    const invalid = await history(`WalletAddress=${'z'.repeat(44)}`);
    expect(invalid.status).toBe(400);
    expect(invalid.body.code).toBe('INVALID_ADDRESS');
    for (const paging of ['PageSize=0', 'PageSize=101', 'PageNumber=-1', 'PageNumber=abc', 'Limit=0']) {
      const response = await history(`WalletAddress=${wallet.publicKey.toBase58()}&${paging}`);
      expect(response.status, paging).toBe(400);
      expect(response.body.code).toBe('INVALID_QUERY');
    }
  });
});
