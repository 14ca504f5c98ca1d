/**
 * The Altude Android SDK (AltudePlatform/AndroidSDK) against the current interface, call by call as
 * the SDK sends them (test/real-clients/altude/android-sdk.ts), through `emulator.fetch` at the
 * SDK's own base URL. Each answer is decoded as the SDK's kotlinx data classes would decode it, and
 * each relayed transaction is settled and checked on the ledger: the accounts, the balances, a final
 * status, and the fee payer's lamports moved by exactly the fees and rents expected. Runs under the
 * default (faithful) policy profile: the SDK's wrapped-SOL account and its new recipients' accounts
 * are relayed and recorded with their sponsor exposure.
 */
import { ASSOCIATED_TOKEN_PROGRAM_ID, TOKEN_PROGRAM_ID } from '@solana/spl-token';
import { ComputeBudgetProgram, PublicKey, SystemProgram, SYSVAR_RENT_PUBKEY } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRelayEmulator, type RelayEmulator } from '../../src/index.ts';
import { AndroidSdk, androidAta, androidDefaultMint, NATIVE } from './altude/android-sdk.ts';
import { ANDROID_RELEASED_CAMEL_TYPES, ANDROID_TYPES, decodeKotlin } from './altude/kotlin-decode.ts';
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
import { KIN, USDC } from '../support/transactions.ts';
import { newKeypair } from '../support/keys.ts';

const BASE = 'https://api.altude.so';
const TOKEN = TOKEN_PROGRAM_ID.toBase58();
const CU_LIMIT_400K = { program: ComputeBudgetProgram.programId.toBase58(), keys: [], data: `02${u32Hex(400_000)}` };

describe('the Altude Android SDK on the current interface', () => {
  let emulator: RelayEmulator;
  let wire: Wire;
  let sdk: AndroidSdk;
  let feePayer: string;
  const owner = newKeypair();
  const recipient = newKeypair();
  const second = newKeypair();
  const signatures: string[] = [];

  beforeAll(async () => {
    // No loopback listener: RpcUrl stays <origin>/rpc, on the service's origin, and the recorder calls the core directly.
    emulator = await createRelayEmulator({ baseUrl: `${BASE}/api`, loopback: false });
    wire = new Wire(emulator);
    sdk = new AndroidSdk(wire, emulator.config.apiKey);
    feePayer = emulator.config.feePayer;
  });
  afterAll(() => emulator.close());

  /** Runs a relayed call, checks the answer decodes as TransactionResponse, settles, and returns the fee payer's loss. */
  async function relayed(run: () => Promise<{ transaction: string; answer: { status: number; body: any } }>, signers: number) {
    const before = await lamportsOf(emulator, feePayer);
    const { transaction, answer } = await run();
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(decodeKotlin(answer.body, ANDROID_TYPES.TransactionResponse)).toEqual([]);
    expect(answer.body).toMatchObject({ Status: 'Queued', Signature: answer.body.signature });
    const [entry] = await settleAndCheckFinal(emulator, [{ signature: answer.body.Signature, signers }]);
    signatures.push(answer.body.Signature);
    return { transaction, answer, entry: entry!, spent: before - (await lamportsOf(emulator, feePayer)) };
  }

  it('init: GET api/transaction/config with X-API-Key, decoded as ConfigResponse', async () => {
    const answer = await sdk.init();
    expect(wire.last()).toEqual({ method: 'GET', path: '/api/transaction/config', headers: { 'X-API-Key': emulator.config.apiKey }, body: null });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ FeePayer: feePayer, RpcUrl: `${BASE}/rpc`, Token: expect.any(String), RpcEnvironment: 'devnet' });
    // ConfigResponse.TokenExpiration is a kotlin.time.Instant: an ISO 8601 instant.
    expect(new Date(answer.body.TokenExpiration as string).toISOString()).toBe(answer.body.TokenExpiration);
  });

  it('reads the blockhash and accounts from RpcUrl with Authorization: Bearer <Token> (AltudeRpc)', async () => {
    const blockhash = await sdk.latestBlockhash();
    expect(blockhash).toMatch(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/);
    expect(wire.last()).toMatchObject({ method: 'POST', path: `${BASE}/rpc`, headers: { Authorization: `Bearer ${String(sdk.config.Token)}` } });
    expect(JSON.parse(wire.last().body!)).toEqual({ jsonrpc: '2.0', id: '3141592653', method: 'getLatestBlockhash', params: [{ commitment: 'finalized' }] });
    expect(await sdk.tokenDecimals(USDC)).toBe(6);
  });

  it(
    'createAccount for USDC and Token.SOL: one Create + SetAuthority pair per token; the wrapped-SOL account is relayed and its rent recorded as ' + 'exposure',
    async () => {
      const { transaction, entry, spent } = await relayed(() => sdk.createAccount(owner, [USDC, NATIVE]), 2);
      const usdc = androidAta(owner.publicKey, USDC).toBase58();
      const sol = androidAta(owner.publicKey, NATIVE).toBase58();
      const o = owner.publicKey.toBase58();
      // The owner is read-only in the creation, but a signer of the message (its hand-over): the table shows the message's flags.
      const create = (ata: string, mint: string) => ({
        program: ASSOCIATED_TOKEN_PROGRAM_ID.toBase58(),
        keys: [`${feePayer} sw`, `${ata} w`, `${o} s`, mint, SystemProgram.programId.toBase58(), TOKEN, SYSVAR_RENT_PUBKEY.toBase58()],
        data: '',
      });
      const handOver = (ata: string) => ({ program: TOKEN, keys: [`${ata} w`, `${o} s`], data: `060301${new PublicKey(feePayer).toBuffer().toString('hex')}` });
      expect(instructionTable(transaction)).toEqual({
        feePayer,
        signers: [feePayer, o],
        instructions: [CU_LIMIT_400K, create(usdc, USDC.toBase58()), handOver(usdc), create(sol, NATIVE.toBase58()), handOver(sol)],
      });
      expect(JSON.parse(wire.last().body!)).toEqual({ SignedTransaction: transaction });
      expect(wire.last()).toMatchObject({
        path: '/api/account/create',
        headers: { 'X-API-Key': emulator.config.apiKey, 'Content-Type': 'application/json; charset=utf-8' },
      });
      for (const [ata, mint] of [
        [usdc, USDC.toBase58()],
        [sol, NATIVE.toBase58()],
      ]) {
        expect(await tokenAccountOf(emulator, ata!)).toMatchObject({ owner: o, mint, amount: 0n, closeAuthority: feePayer });
      }
      expect(spent).toBe(2n * SIGNATURE_FEE + 2n * TOKEN_ACCOUNT_RENT);
      expect(entry).toMatchObject({
        sponsorExposure: Number(TOKEN_ACCOUNT_RENT),
        strictBreaks: [{ rule: 'A5', code: 'MINT_NOT_ALLOWED', account: sol, exposure: Number(TOKEN_ACCOUNT_RENT) }],
      });
    },
  );

  it('getAccountInfo of the gasless wallet (no SOL, two token accounts): 200, decoded as GetAccountResponse', async () => {
    const answer = await sdk.getAccountInfo(owner.publicKey);
    expect(JSON.parse(wire.last().body!)).toEqual({ accountAddress: owner.publicKey.toBase58() });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(decodeKotlin(answer.body, ANDROID_TYPES.GetAccountResponse)).toEqual([]);
    expect(answer.body.AccountInfo).toMatchObject({ Lamports: 0, Owner: SystemProgram.programId.toBase58(), Executable: false });
    expect(answer.body.TokenInfos.map((info: any) => info.Account.Data.Parsed.Info.Mint).sort()).toEqual([USDC.toBase58(), NATIVE.toBase58()].sort());
  });

  it('send to a new recipient: its ATA created with no hand-over (the recipient cannot sign), then TransferChecked with the mint writable', async () => {
    await emulator.faucet({ address: owner.publicKey, mint: USDC, amount: 5_000_000n });
    const { transaction, entry, spent } = await relayed(() => sdk.send(owner, recipient.publicKey, 1_250_000n, USDC), 2);
    const source = androidAta(owner.publicKey, USDC).toBase58();
    const destination = androidAta(recipient.publicKey, USDC).toBase58();
    const table = instructionTable(transaction);
    expect(table.instructions.map((ix) => ix.program)).toEqual([ComputeBudgetProgram.programId.toBase58(), ASSOCIATED_TOKEN_PROGRAM_ID.toBase58(), TOKEN]);
    expect(table.instructions[1]!.keys.slice(0, 3)).toEqual([`${feePayer} sw`, `${destination} w`, recipient.publicKey.toBase58()]);
    expect(table.instructions[2]).toEqual({
      program: TOKEN,
      keys: [`${source} w`, `${USDC.toBase58()} w`, `${destination} w`, `${owner.publicKey.toBase58()} s`],
      data: `0c${u64Hex(1_250_000n)}06`,
    });
    expect(wire.last().path).toBe('/api/transaction/send');
    expect(await tokenAccountOf(emulator, destination)).toMatchObject({ owner: recipient.publicKey.toBase58(), amount: 1_250_000n, closeAuthority: null });
    expect(spent).toBe(2n * SIGNATURE_FEE + TOKEN_ACCOUNT_RENT);
    expect(entry).toMatchObject({ sponsorExposure: Number(TOKEN_ACCOUNT_RENT), strictBreaks: [{ rule: 'A6', account: destination }] });
  });

  it('getBalance: GetBalanceRequest(accountAddress, mintAddress), decoded as GetBalanceResponse with TokenInfos[0]…TokenAmount', async () => {
    const answer = await sdk.getBalance(owner.publicKey, USDC);
    expect(JSON.parse(wire.last().body!)).toEqual({ accountAddress: owner.publicKey.toBase58(), mintAddress: USDC.toBase58() });
    expect(answer.status).toBe(200);
    expect(decodeKotlin(answer.body, ANDROID_TYPES.GetBalanceResponse)).toEqual([]);
    expect(answer.body.TokenInfos).toHaveLength(1);
    expect(answer.body.TokenInfos[0].Account.Data.Parsed.Info.TokenAmount).toMatchObject({ Amount: '3750000', Decimals: 6, UiAmount: 3.75 });
    expect(answer.body).toMatchObject({ AccountAddress: owner.publicKey.toBase58(), Balance: 3.75, Symbol: 'USDC' });
  });

  it('sendBatch to the known recipient and a new one: one compute limit, one creation, two transfers', async () => {
    const { transaction, spent } = await relayed(
      () =>
        sdk.sendBatch(owner, [
          { to: recipient.publicKey, amount: 250_000n, mint: USDC },
          { to: second.publicKey, amount: 100n, mint: USDC },
        ]),
      2,
    );
    expect(instructionTable(transaction).instructions.map((ix) => ix.data.slice(0, 2))).toEqual(['02', '0c', '', '0c']);
    expect(wire.last().path).toBe('/api/transaction/sendbatch');
    expect((await tokenAccountOf(emulator, androidAta(recipient.publicKey, USDC)))?.amount).toBe(1_500_000n);
    expect((await tokenAccountOf(emulator, androidAta(second.publicKey, USDC)))?.amount).toBe(100n);
    expect(spent).toBe(2n * SIGNATURE_FEE + TOKEN_ACCOUNT_RENT);
  });

  it('getHistory: POST api/account/gethistory?Page=0&PageSize=10&walletAddress=… with no body answers the first page', async () => {
    const answer = await sdk.getHistory(owner.publicKey);
    expect(wire.last()).toEqual({
      method: 'POST',
      path: `/api/account/gethistory?Page=0&PageSize=10&walletAddress=${owner.publicKey.toBase58()}`,
      headers: { 'X-API-Key': emulator.config.apiKey },
      body: '',
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.transactions.map((entry: any) => entry.signature)).toEqual([...signatures].reverse());
  });

  it('the recipient sends everything back, then closes its account: Android closes to and by the owner when the close authority is the owner', async () => {
    await relayed(() => sdk.send(recipient, owner.publicKey, 1_500_000n, USDC), 2);
    const account = androidAta(recipient.publicKey, USDC).toBase58();
    const { transaction, entry, spent } = await relayed(() => sdk.closeAccount(recipient, [USDC]), 2);
    const r = recipient.publicKey.toBase58();
    expect(instructionTable(transaction).instructions).toEqual([CU_LIMIT_400K, { program: TOKEN, keys: [`${account} w`, `${r} sw`, `${r} sw`], data: '09' }]);
    expect(await tokenAccountOf(emulator, account)).toBeNull();
    expect(await lamportsOf(emulator, recipient.publicKey)).toBe(TOKEN_ACCOUNT_RENT);
    expect(spent).toBe(2n * SIGNATURE_FEE);
    expect(entry.strictBreaks.map((broken) => broken.rule)).toEqual(['K2', 'K3']);
  });

  it(
    'default options: CreateAccountOption(), GetBalanceOption() and SendOptions() name Token.USDC and Token.KIN by address, which are the ' +
      'emulator\u2019s USDC and KIN',
    async () => {
      // Token.mint() picks the devnet address because the config's RpcEnvironment is "devnet".
      const usdc = androidDefaultMint('USDC', sdk.config.RpcEnvironment as string);
      const kin = androidDefaultMint('KIN', sdk.config.RpcEnvironment as string);
      expect([usdc.toBase58(), kin.toBase58()]).toEqual([USDC.toBase58(), KIN.toBase58()]);
      const holder = newKeypair();
      const payee = newKeypair();
      await relayed(() => sdk.createAccount(holder, [usdc, kin]), 2);
      expect(await tokenAccountOf(emulator, androidAta(holder.publicKey, usdc))).toMatchObject({ mint: usdc.toBase58(), closeAuthority: feePayer });
      const balance = await sdk.getBalance(holder.publicKey, usdc);
      expect(decodeKotlin(balance.body, ANDROID_TYPES.GetBalanceResponse)).toEqual([]);
      expect(balance.body).toMatchObject({ Symbol: 'USDC', TokenInfos: [expect.any(Object)] });
      await emulator.faucet({ address: holder.publicKey, mint: kin, amount: 100_000n });
      expect(await sdk.tokenDecimals(kin)).toBe(5);
      await relayed(() => sdk.send(holder, payee.publicKey, 25_000n, kin), 2);
      expect(await tokenAccountOf(emulator, androidAta(payee.publicKey, kin))).toMatchObject({ mint: kin.toBase58(), amount: 25_000n });
    },
  );

  it(
    'the released v0.1.2-alpha to v0.1.5-alpha read camelCase: ConfigResponse(feePayer, rpcUrl), TransactionResponse(status, …), ' +
      'GetBalanceResponse(tokenInfos, …), GetAccountResponse(accountAddress, accountInfo, tokenInfos); v0.1.2-alpha sends gethistory?…&address=',
    async () => {
      // Same paths and bodies as today's SDK; only the classes the answers are decoded into differ.
      const config = await sdk.init();
      expect(decodeKotlin(config.body, ANDROID_RELEASED_CAMEL_TYPES.ConfigResponse)).toEqual([]);
      expect(config.body).toMatchObject({ feePayer, rpcUrl: config.body.RpcUrl });
      const balance = await sdk.getBalance(owner.publicKey, USDC);
      expect(balance.status).toBe(200);
      expect(decodeKotlin(balance.body, ANDROID_RELEASED_CAMEL_TYPES.GetBalanceResponse)).toEqual([]);
      expect(balance.body).toMatchObject({ balance: balance.body.Balance, symbol: 'USDC' });
      expect(balance.body.tokenInfos[0]).toEqual({
        pubkey: balance.body.TokenInfos[0].pubkey,
        account: expect.objectContaining({
          data: expect.objectContaining({
            parsed: {
              type: 'account',
              info: expect.objectContaining({
                tokenAmount: expect.objectContaining({
                  amount: balance.body.TokenInfos[0].Account.Data.Parsed.Info.TokenAmount.Amount,
                  decimals: 6,
                  uiAmount: balance.body.Balance,
                }),
                mint: USDC.toBase58(),
                owner: owner.publicKey.toBase58(),
              }),
            },
          }),
        }),
      });
      const info = await sdk.getAccountInfo(owner.publicKey);
      expect(info.status).toBe(200);
      expect(decodeKotlin(info.body, ANDROID_RELEASED_CAMEL_TYPES.GetAccountResponse)).toEqual([]);
      expect(info.body.tokenInfos.map((token: any) => token.account.data.parsed.info.mint).sort()).toEqual(
        info.body.TokenInfos.map((token: any) => token.Account.Data.Parsed.Info.Mint).sort(),
      );
      const { answer } = await relayed(() => sdk.send(owner, second.publicKey, 1n, USDC), 2);
      expect(decodeKotlin(answer.body, ANDROID_RELEASED_CAMEL_TYPES.TransactionResponse)).toEqual([]);
      // v0.1.2-alpha named the history's wallet `address` (@Query("address")), after Page and PageSize.
      const byAddress = await sdk.post(`/api/account/gethistory?Page=0&PageSize=10&address=${owner.publicKey.toBase58()}`, null);
      expect(byAddress.status, JSON.stringify(byAddress.body)).toBe(200);
      expect(byAddress.body).toEqual((await sdk.getHistory(owner.publicKey)).body);
      expect(byAddress.body.transactions[0].signature).toBe(answer.body.Signature);
    },
  );

  it('closeAccount of the wrapped-SOL account whose close authority is the fee payer: to and by the fee payer, no owner signature, the rent back', async () => {
    const { transaction, spent } = await relayed(() => sdk.closeAccount(owner, [USDC, NATIVE]), 1);
    const sol = androidAta(owner.publicKey, NATIVE).toBase58();
    // The USDC account holds tokens, so the SDK leaves it out.
    expect(instructionTable(transaction)).toEqual({
      feePayer,
      signers: [feePayer],
      instructions: [CU_LIMIT_400K, { program: TOKEN, keys: [`${sol} w`, `${feePayer} sw`, `${feePayer} sw`], data: '09' }],
    });
    expect(await tokenAccountOf(emulator, sol)).toBeNull();
    expect(spent).toBe(SIGNATURE_FEE - TOKEN_ACCOUNT_RENT);
  });
});
