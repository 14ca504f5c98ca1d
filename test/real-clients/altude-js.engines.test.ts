/**
 * altude-js (AltudePlatform/altude-js, packages/gasstation) against the current interface, in both
 * request shapes its history holds (test/real-clients/altude/altude-js.ts), through `emulator.fetch`
 * at the client's base URL. Its transfers are gill's layouts; each relayed one is settled and checked
 * on the ledger: the balances, a final status, and the fee payer's lamports moved by exactly the
 * fees and rents expected.
 */
import { ASSOCIATED_TOKEN_PROGRAM_ID, getAssociatedTokenAddressSync, TOKEN_2022_PROGRAM_ID, TOKEN_PROGRAM_ID } from '@solana/spl-token';
import { ComputeBudgetProgram, type PublicKey, SystemProgram } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRelayEmulator, type RelayEmulator } from '../../src/index.ts';
import { AltudeJsClient, gillCloseAccount, gillCreateAccount, gillTransferSol, gillTransferTokens } from './altude/altude-js.ts';
import {
  instructionTable,
  lamportsOf,
  settleAndCheckFinal,
  SIGNATURE_FEE,
  TOKEN_ACCOUNT_RENT,
  tokenAccountOf,
  u32Hex,
  u64Hex,
} from './altude/ledger-checks.ts';
import { Wire } from './altude/recorder.ts';
import { build, createAtaInstructions, USDC } from '../support/transactions.ts';
import { newKeypair } from '../support/keys.ts';

const BASE = 'https://api.altude.so';
const TOKEN = TOKEN_PROGRAM_ID.toBase58();
const ata = (owner: PublicKey) => getAssociatedTokenAddressSync(USDC, owner, true);

describe('altude-js on the current interface', () => {
  let emulator: RelayEmulator;
  let wire: Wire;
  let client: AltudeJsClient;
  let feePayer: string;
  const owner = newKeypair();

  beforeAll(async () => {
    // No loopback listener: RpcUrl stays <origin>/rpc, on the service's origin, and the recorder calls the core directly.
    emulator = await createRelayEmulator({ baseUrl: `${BASE}/api`, loopback: false });
    wire = new Wire(emulator);
    client = new AltudeJsClient(wire, emulator.config.apiKey);
    feePayer = emulator.config.feePayer;
    await emulator.faucet({ address: owner.publicKey, mint: USDC, amount: 10_000_000n });
  });
  afterAll(() => emulator.close());

  const jsonHeaders = () => ({ 'Content-Type': 'application/json', 'X-API-Key': emulator.config.apiKey });
  const sentBody = () => JSON.parse(wire.last().body!) as Record<string, unknown>;

  /** A relayed call: 200, settled to a final status, and what the fee payer spent. */
  async function relayed(call: () => Promise<{ status: number; body: any }>, signers: number) {
    const before = await lamportsOf(emulator, feePayer);
    const answer = await call();
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const signature = answer.body.Signature ?? answer.body.signature;
    const [entry] = await settleAndCheckFinal(emulator, [{ signature, signers }]);
    return { answer, entry: entry!, spent: before - (await lamportsOf(emulator, feePayer)) };
  }

  describe('the newer client (client.ts 2982bee, gasstation.ts 8bcc01b)', () => {
    it('getConfig: GET /api/transaction/config with the JSON content type and X-API-Key; RpcUrl and Token feed the Gill RPC client', async () => {
      const config = await client.getConfig();
      expect(wire.last()).toEqual({ method: 'GET', path: '/api/transaction/config', headers: jsonHeaders(), body: null });
      expect(config).toMatchObject({ FeePayer: feePayer, RpcUrl: `${BASE}/rpc`, Token: expect.any(String) });
      expect(await client.rpcBlockhash()).toMatch(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/);
      expect(wire.last().headers).toEqual({ 'Content-Type': 'application/json', Authorization: `Bearer ${String(config.Token)}` });
    });

    it(
      'send({token, to}) to a recipient whose account exists: gill’s CreateIdempotent funds nothing, Transfer moves the tokens, ' + '{SignedTransaction} first',
      async () => {
        const recipient = newKeypair().publicKey;
        await emulator.faucet({ address: recipient, mint: USDC });
        const instructions = gillTransferTokens({ feePayer: client.feePayer, mint: USDC, authority: owner.publicKey, destination: recipient, amount: 1_000n });
        const transaction = await client.serialize(instructions, [owner]);
        const { answer, entry, spent } = await relayed(() => client.request('POST', '/api/Transaction/send', { SignedTransaction: transaction }), 2);
        expect(instructionTable(transaction).instructions).toEqual([
          { program: ComputeBudgetProgram.programId.toBase58(), keys: [], data: `02${u32Hex(31_000)}` },
          {
            program: ASSOCIATED_TOKEN_PROGRAM_ID.toBase58(),
            keys: [`${feePayer} sw`, `${ata(recipient).toBase58()} w`, recipient.toBase58(), USDC.toBase58(), SystemProgram.programId.toBase58(), TOKEN],
            data: '01',
          },
          {
            program: TOKEN,
            keys: [`${ata(owner.publicKey).toBase58()} w`, `${ata(recipient).toBase58()} w`, `${owner.publicKey.toBase58()} s`],
            data: `03${u64Hex(1_000n)}`,
          },
        ]);
        expect(wire.last()).toMatchObject({ path: '/api/Transaction/send', headers: jsonHeaders() });
        // #normalizeTransactionResponse reads Signature ?? signature, Status ?? status, Message ?? message.
        expect(answer.body).toMatchObject({ Signature: answer.body.signature, Status: 'Queued', Message: 'Transaction sent successfully' });
        expect((await tokenAccountOf(emulator, ata(recipient)))?.amount).toBe(1_000n);
        expect(spent).toBe(2n * SIGNATURE_FEE);
        expect(entry.strictBreaks).toEqual([]);
      },
    );

    it('send({token, to}) to a new recipient: the CreateIdempotent creates its account without a hand-over, relayed and its rent recorded', async () => {
      const recipient = newKeypair().publicKey;
      const transaction = await client.serialize(
        gillTransferTokens({ feePayer: client.feePayer, mint: USDC, authority: owner.publicKey, destination: recipient, amount: 2_000n }),
        [owner],
      );
      const { entry, spent } = await relayed(() => client.request('POST', '/api/Transaction/send', { SignedTransaction: transaction }), 2);
      expect(await tokenAccountOf(emulator, ata(recipient))).toMatchObject({ owner: recipient.toBase58(), amount: 2_000n, closeAuthority: null });
      expect(spent).toBe(2n * SIGNATURE_FEE + TOKEN_ACCOUNT_RENT);
      expect(entry).toMatchObject({ sponsorExposure: Number(TOKEN_ACCOUNT_RENT), strictBreaks: [{ rule: 'A6', account: ata(recipient).toBase58() }] });
    });

    it('send({to}) without a token: a System transfer of SOL from the user’s wallet, which pays it; the fee payer pays the fee only', async () => {
      const payer = newKeypair();
      const recipient = newKeypair().publicKey;
      await emulator.faucet({ address: payer.publicKey, lamports: 5_000_000n });
      const transaction = await client.serialize([gillTransferSol(payer.publicKey, recipient, 2_000_000n)], [payer]);
      expect(instructionTable(transaction).instructions).toEqual([
        {
          program: SystemProgram.programId.toBase58(),
          keys: [`${payer.publicKey.toBase58()} sw`, `${recipient.toBase58()} w`],
          data: `02000000${u64Hex(2_000_000n)}`,
        },
      ]);
      const { entry, spent } = await relayed(() => client.request('POST', '/api/Transaction/send', { SignedTransaction: transaction }), 2);
      expect(await lamportsOf(emulator, recipient)).toBe(2_000_000n);
      expect(await lamportsOf(emulator, payer.publicKey)).toBe(3_000_000n);
      expect(spent).toBe(2n * SIGNATURE_FEE);
      expect(entry).toMatchObject({ sponsorExposure: 0, strictBreaks: [{ rule: 'T2' }] });
    });

    it('sendBatch({signedTransaction}): POST /api/transaction/sendbatch with the lower-case key first', async () => {
      const recipient = newKeypair().publicKey;
      await emulator.faucet({ address: recipient, mint: USDC });
      const transaction = await client.serialize(
        gillTransferTokens({ feePayer: client.feePayer, mint: USDC, authority: owner.publicKey, destination: recipient, amount: 3_000n }),
        [owner],
      );
      const { answer } = await relayed(() => client.request('POST', '/api/transaction/sendbatch', { signedTransaction: transaction }), 2);
      expect(answer.body).toMatchObject({ success: true, signatures: [answer.body.Signature] });
      expect((await tokenAccountOf(emulator, ata(recipient)))?.amount).toBe(3_000n);
    });

    it('getBalance({account, token}) sends {accountAddress, mintAddress}; with no token, mintAddress "" (no mint)', async () => {
      const withMint = await client.request('POST', '/api/Account/balance', { accountAddress: owner.publicKey.toBase58(), mintAddress: USDC.toBase58() });
      expect(withMint.status).toBe(200);
      expect(withMint.body.TokenInfos[0].Account.Data.Parsed.Info.TokenAmount).toMatchObject({ Amount: '9994000', Decimals: 6 });
      const noMint = await client.request('POST', '/api/Account/balance', { accountAddress: owner.publicKey.toBase58(), mintAddress: '' });
      expect(sentBody()).toEqual({ accountAddress: owner.publicKey.toBase58(), mintAddress: '' });
      expect(noMint.status, JSON.stringify(noMint.body)).toBe(200);
      expect(noMint.body).toMatchObject({ Symbol: 'SOL', Balance: 0, TokenInfos: [expect.objectContaining({ pubkey: ata(owner.publicKey).toBase58() })] });
    });

    it('getAccountInfo({account}) sends {accountAddress}: a gasless wallet is answered with its token accounts', async () => {
      const answer = await client.request('POST', '/api/account/getaccountinfo', { accountAddress: owner.publicKey.toBase58() });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      expect(answer.body).toMatchObject({ accountInfo: { lamports: 0 }, AccountAddress: owner.publicKey.toBase58(), TokenInfos: [expect.any(Object)] });
    });

    it(
      'closeAccount({accountAddress, destination}) names the Token-2022 program on an SPL Token account (gill’s getCloseAccountInstruction): refused ' +
        '422 TOKEN_2022_UNSUPPORTED, nothing submitted',
      async () => {
        // An account created with the hand-over, as any client of spec 4.2 makes it.
        const holder = newKeypair();
        const creation = build({ instructions: createAtaInstructions(holder.publicKey), blockhash: await client.rpcBlockhash(), signers: [holder] });
        await relayed(() => client.request('POST', '/api/Account/create', { signedTransaction: creation }), 2);
        const transaction = await client.serialize([gillCloseAccount(ata(holder.publicKey), client.feePayer, client.feePayer)], []);
        // gill's builder defaults to Token-2022's program address: the instruction the client really sends.
        expect(instructionTable(transaction)).toMatchObject({
          signers: [feePayer],
          instructions: [
            { program: TOKEN_2022_PROGRAM_ID.toBase58(), keys: [`${ata(holder.publicKey).toBase58()} w`, `${feePayer} sw`, `${feePayer} sw`], data: '09' },
          ],
        });
        const before = await lamportsOf(emulator, feePayer);
        const answer = await client.request('POST', '/api/account/close', { signedTransaction: transaction });
        expect([answer.status, answer.body.code, answer.body.rule]).toEqual([422, 'TOKEN_2022_UNSUPPORTED', 'P2']);
        // Against a relay that sponsored Token-2022, the program would refuse an account it does not own: it never closes.
        await emulator.settle();
        expect(await tokenAccountOf(emulator, ata(holder.publicKey))).not.toBeNull();
        expect(await lamportsOf(emulator, feePayer)).toBe(before);
      },
    );

    it(
      'createAccount({newAccountPubkey, lamports, signer}) funds a bare System account from the fee payer: refused under both profiles (rule A2), and ' +
        'so is its {SignedTransaction} fallback',
      async () => {
        const created = newKeypair();
        const before = await lamportsOf(emulator, feePayer);
        const transaction = await client.serialize([gillCreateAccount(client.feePayer, created.publicKey, 890_880n, 0n, SystemProgram.programId)], [created]);
        const first = await client.request('POST', '/api/Account/create', { signedTransaction: transaction });
        const fallback = await client.request('POST', '/api/Account/create', { SignedTransaction: transaction });
        for (const answer of [first, fallback]) expect([answer.status, answer.body.code]).toEqual([422, 'FEE_PAYER_MISUSE']);
        await emulator.settle();
        expect(await lamportsOf(emulator, feePayer)).toBe(before);
      },
    );

    it('getHistory reads the RPC: getSignaturesForAddress, then getTransaction (json) with the token balances’ owners it summarizes', async () => {
      const signatures = await client.rpc('getSignaturesForAddress', [owner.publicKey.toBase58()]);
      expect(signatures.length).toBeGreaterThanOrEqual(3);
      const tx = await client.rpc('getTransaction', [
        signatures[0].signature,
        { encoding: 'json', commitment: 'confirmed', maxSupportedTransactionVersion: 0 },
      ]);
      const mine = (balances: any[]) => balances.find((balance) => balance.owner === owner.publicKey.toBase58() && balance.mint === USDC.toBase58());
      // The summary: the wallet's change between pre and post uiAmountString, negative for a send.
      const change = Number(mine(tx.meta.postTokenBalances).uiTokenAmount.uiAmountString) - Number(mine(tx.meta.preTokenBalances).uiTokenAmount.uiAmountString);
      expect(change).toBeCloseTo(-0.003, 9);
      expect(tx.transaction.message.accountKeys).toContain(owner.publicKey.toBase58());
    });
  });

  describe('an intermediate client (the client.ts between 031f6d8 and 2982bee whose getHistory posts a body first)', () => {
    it(
      'getHistory: {page, pageSize, walletAddress}, then {Page, PageSize, WalletAddress}, are refused 400 (the parameters are query parameters), so ' +
        'its last fallback, the query, answers',
      async () => {
        const wallet = owner.publicKey.toBase58();
        const first = await client.request('POST', '/api/account/gethistory', { page: 1, pageSize: 10, walletAddress: wallet });
        const second = await client.request('POST', '/api/account/gethistory', { Page: 1, PageSize: 10, WalletAddress: wallet });
        for (const answer of [first, second])
          expect([answer.status, answer.body.code, answer.body.errors]).toEqual([400, 'INVALID_QUERY', [{ path: 'WalletAddress', message: 'is required' }]]);
        const last = await client.request(
          'POST',
          `/api/account/gethistory?${new URLSearchParams({ Page: '1', PageSize: '10', walletAddress: wallet }).toString()}`,
        );
        expect(last.status, JSON.stringify(last.body)).toBe(200);
        expect(last.body.transactions.length).toBeGreaterThanOrEqual(1);
      },
    );

    it('getAccountInfo: {accountAddress}, and on a refusal {AccountAddress}, bind alike', async () => {
      const lower = await client.request('POST', '/api/account/getaccountinfo', { accountAddress: owner.publicKey.toBase58() });
      const upper = await client.request('POST', '/api/account/getaccountinfo', { AccountAddress: owner.publicKey.toBase58() });
      expect(upper).toEqual(lower);
      expect(lower.status).toBe(200);
    });
  });

  describe('the older client (client.ts 031f6d8)', () => {
    it('getBlockhash: POST /api/Transaction/blockhash with {} answers Blockhash', async () => {
      const answer = await client.request('POST', '/api/Transaction/blockhash', {});
      expect(wire.last()).toEqual({ method: 'POST', path: '/api/Transaction/blockhash', headers: jsonHeaders(), body: '{}' });
      expect([answer.status, typeof answer.body.Blockhash]).toEqual([200, 'string']);
    });

    it('sendTransaction({transaction, commitment}) binds as signedTransaction; it reads `signature`', async () => {
      const recipient = newKeypair().publicKey;
      await emulator.faucet({ address: recipient, mint: USDC });
      const blockhash = (await client.request('POST', '/api/Transaction/blockhash', {})).body.Blockhash as string;
      const transaction = await client.serialize(
        gillTransferTokens({ feePayer: client.feePayer, mint: USDC, authority: owner.publicKey, destination: recipient, amount: 4_000n }),
        [owner],
        blockhash,
      );
      const { answer, spent } = await relayed(() => client.request('POST', '/api/Transaction/send', { transaction, commitment: 'confirmed' }), 2);
      expect(sentBody()).toEqual({ transaction, commitment: 'confirmed' });
      expect(answer.body.signature).toMatch(/^[1-9A-HJ-NP-Za-km-z]{64,88}$/);
      expect((await tokenAccountOf(emulator, ata(recipient)))?.amount).toBe(4_000n);
      expect(spent).toBe(2n * SIGNATURE_FEE);
    });

    it('sendBatchTransaction and closeAccount send {SignedTransaction}', async () => {
      const recipient = newKeypair().publicKey;
      await emulator.faucet({ address: recipient, mint: USDC });
      const transaction = await client.serialize(
        gillTransferTokens({ feePayer: client.feePayer, mint: USDC, authority: owner.publicKey, destination: recipient, amount: 5n }),
        [owner],
      );
      await relayed(() => client.request('POST', '/api/transaction/sendbatch', { SignedTransaction: transaction }), 2);
      expect(sentBody()).toEqual({ SignedTransaction: transaction });
    });

    it('getBalance({address, mint}) binds as {accountAddress, mintAddress}, and {address} alone as no mint', async () => {
      const both = await client.request('POST', '/api/Account/balance', { address: owner.publicKey.toBase58(), mint: USDC.toBase58() });
      expect(both.status).toBe(200);
      expect(both.body).toMatchObject({ accountAddress: owner.publicKey.toBase58(), tokens: [{ mint: USDC.toBase58() }] });
      const alone = await client.request('POST', '/api/Account/balance', { address: owner.publicKey.toBase58() });
      expect([alone.status, alone.body.Symbol]).toEqual([200, 'SOL']);
    });

    it('getHistory: POST /api/account/gethistory?Page=1&PageSize=10&walletAddress=… with the JSON content type and no body', async () => {
      const answer = await client.request(
        'POST',
        `/api/account/gethistory?${new URLSearchParams({ Page: '1', PageSize: '10', walletAddress: owner.publicKey.toBase58() }).toString()}`,
      );
      expect(wire.last()).toMatchObject({ headers: jsonHeaders(), body: null });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      expect(answer.body.transactions.length).toBeGreaterThanOrEqual(5);
    });

    it('createAccount({newAccountPubkey, space, programId}) carries no transaction to relay: 400 naming signedTransaction', async () => {
      const answer = await client.request('POST', '/api/Account/create', { newAccountPubkey: newKeypair().publicKey.toBase58(), space: 165, programId: TOKEN });
      expect(answer).toMatchObject({ status: 400, body: { code: 'VALIDATION_FAILED', errors: [{ path: 'signedTransaction' }] } });
    });
  });
});
