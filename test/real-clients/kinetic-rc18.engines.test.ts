/** (Over 250 lines: one test per SDK flow, each spelling out the wire it checks.)
 *
 * Kinetic SDK 1.0.0-rc.18 (kin-labs/kinetic at tag 1.0.0-rc.18, the last release) against the legacy
 * interface, request by request as the SDK sends them (test/real-clients/kinetic/kinetic-sdk-wire.ts),
 * through `emulator.fetch`. Each test settles and checks the ledger: accounts, balances, final
 * statuses, and the fee payer's lamports moved by exactly the fees and rents expected.
 */
import { ASSOCIATED_TOKEN_PROGRAM_ID, TOKEN_PROGRAM_ID } from '@solana/spl-token';
import { type Keypair, SystemProgram } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRelayEmulator, type RelayEmulator } from '../../src/index.ts';
import { encodeAppMemo } from '../../src/interfaces/legacy/app-memo.ts';
import { KineticSdkWire } from './kinetic/kinetic-sdk-wire.ts';
import { kineticMemoText, MEMO_V1, tokenAddress } from './kinetic/kinetic-transactions.ts';
import {
  feesOf,
  instructionTable,
  lamportsOf,
  setCloseAuthorityData,
  settleAndCheckFinal,
  SIGNATURE_FEE,
  TOKEN_ACCOUNT_RENT,
  tokenAccountOf,
  transferCheckedData,
} from './kinetic/ledger-checks.ts';
import { newKeypair } from '../support/keys.ts';

const ENDPOINT = 'https://kinetic.example.test';
const KIN = 'kinXdEcpDQeHPEuQnqmUgtYykqKGVFq6CeVX5iAHJq6';
const FEE_PAYER = '985XyiszbSJQ5wr33reHL7oMPNtzRgQExEqix4tijVzr';
const SYSTEM = SystemProgram.programId.toBase58();
const TOKEN = TOKEN_PROGRAM_ID.toBase58();
const ATA_PROGRAM = ASSOCIATED_TOKEN_PROGRAM_ID.toBase58();

describe('Kinetic SDK 1.0.0-rc.18 on the legacy interface', () => {
  let emulator: RelayEmulator;
  let sdk: KineticSdkWire;
  let expireBeforeNextPost = false;

  beforeAll(async () => {
    emulator = await createRelayEmulator({ baseUrl: `${ENDPOINT}/api` });
    sdk = new KineticSdkWire('1.0.0-rc.18', {
      endpoint: ENDPOINT,
      environment: 'devnet',
      index: 1,
      fetch: emulator.fetch,
      beforePost: async () => {
        if (!expireBeforeNextPost) return;
        expireBeforeNextPost = false;
        await emulator.expireBlockhash();
      },
    });
    await sdk.init();
  });
  afterAll(() => emulator.close());

  const lastRequest = () => sdk.requests.at(-1)!;
  const sentBody = () => JSON.parse(lastRequest().body!) as Record<string, unknown>;
  const kinBalance = async (owner: Keypair | string) =>
    (await tokenAccountOf(emulator, tokenAddress(typeof owner === 'string' ? owner : owner.publicKey, KIN)))?.amount ?? null;

  /** A wallet with a KIN account made by the SDK's createAccount and `amount` whole KIN airdropped into it. */
  const fundedOwner = async (amount: string) => {
    const owner = newKeypair();
    expect((await sdk.createAccount({ owner })).status).toBe('Confirmed');
    await sdk.requestAirdrop({ account: owner.publicKey.toBase58(), amount });
    return owner;
  };

  it('init reads the app config with its kinetic-* headers, brand word replaced', async () => {
    const [request] = sdk.requests;
    expect(request).toEqual({
      method: 'GET',
      path: '/api/app/devnet/1/config',
      headers: {
        Accept: 'application/json, text/plain, */*',
        'legacy-environment': 'devnet',
        'legacy-index': '1',
        'legacy-user-agent': '@kin-kinetic/sdk@1.0.0-rc.18',
        'User-Agent': 'axios/0.27.2',
      },
    });
    expect(sdk.appConfig).toMatchObject({ app: { index: 1 }, mint: { publicKey: KIN, decimals: 5, feePayer: FEE_PAYER, addMemo: true } });
    // getExplorerUrl fills {path} of the config's template as Kinetic's callers do (`tx/…`, `account/…`): the emulator's own web UI, wherever it serves.
    expect(sdk.appConfig!.environment.explorer.replace('{path}', 'tx/x')).toBe(`${new URL(emulator.config.uiUrl).origin}/tx/x`);
  });

  it('writes the Agora memo bit by bit as Kinetic does: the app index, the type, the reference as foreign key', () => {
    // Without a reference it is the emulator's own app memo (independent encoders agree).
    expect(kineticMemoText({ index: 1, type: 3 })).toBe(encodeAppMemo({ index: 1, type: 3 }));
    // Reference '/w==' is the byte 0xff: its bits start at bit 26 (byte 3 bit 2).
    expect([...Buffer.from(kineticMemoText({ index: 1, reference: '/w==' }), 'base64').subarray(0, 6)]).toEqual([0b101, 0b100, 0, 0xfc, 0b11, 0]);
    expect(() => kineticMemoText({ index: 1, reference: Buffer.alloc(30).toString('base64') })).toThrow('invalid foreign key length');
  });

  it('createAccount: reference null by default, memo + ATA create + close authority to the fee payer', async () => {
    const owner = newKeypair();
    const before = await lamportsOf(emulator, FEE_PAYER);
    const record = await sdk.createAccount({ owner });
    expect(sdk.requests.slice(-3).map((r) => r.path.split('?')[0])).toEqual([
      `/api/account/info/devnet/1/${owner.publicKey.toBase58()}/${KIN}`,
      '/api/transaction/latest-blockhash/devnet/1',
      '/api/account/create',
    ]);
    expect(lastRequest().headers['Content-Type']).toBe('application/json');
    const body = sentBody();
    expect(Object.keys(body)).toEqual(['commitment', 'environment', 'index', 'lastValidBlockHeight', 'mint', 'reference', 'tx']);
    expect(body).toMatchObject({ commitment: 'Confirmed', environment: 'devnet', index: 1, mint: KIN, reference: null });

    const account = tokenAddress(owner.publicKey, KIN).toBase58();
    const owned = owner.publicKey.toBase58();
    expect(instructionTable(body.tx as string)).toEqual({
      feePayer: FEE_PAYER,
      signers: [FEE_PAYER, owned],
      instructions: [
        { program: MEMO_V1.toBase58(), keys: [], data: Buffer.from(kineticMemoText({ index: 1 })).toString('hex') },
        { program: ATA_PROGRAM, keys: [`${FEE_PAYER} sw`, `${account} w`, `${owned} s`, KIN, SYSTEM, TOKEN], data: '' },
        { program: TOKEN, keys: [`${account} w`, `${owned} s`], data: setCloseAuthorityData(FEE_PAYER) },
      ],
    });
    expect(record).toMatchObject({
      status: 'Confirmed',
      errors: [],
      reference: null,
      feePayer: FEE_PAYER,
      mint: KIN,
      source: owned,
      ua: '@kin-kinetic/sdk@1.0.0-rc.18',
    });

    const fees = feesOf(await settleAndCheckFinal(emulator, [{ signature: record.signature, signers: 2 }]));
    expect(await tokenAccountOf(emulator, account)).toMatchObject({ owner: owned, mint: KIN, amount: 0n, closeAuthority: FEE_PAYER });
    expect(await lamportsOf(emulator, FEE_PAYER)).toBe(before - fees - TOKEN_ACCOUNT_RENT);
    expect(fees).toBe(2n * SIGNATURE_FEE);
  });

  it('makeTransfer to an existing account, with a reference carried in the memo and found by the listing', async () => {
    const owner = await fundedOwner('500');
    const destination = newKeypair();
    await sdk.createAccount({ owner: destination });
    await emulator.settle();
    const before = await lamportsOf(emulator, FEE_PAYER);
    const reference = Buffer.from('order-42').toString('base64');

    const record = await sdk.makeTransfer({ owner, destination: destination.publicKey.toBase58(), amount: '12.5', reference });
    expect(sdk.requests.slice(-4).map((r) => r.path.split('?')[0])).toEqual([
      `/api/account/info/devnet/1/${owner.publicKey.toBase58()}/${KIN}`,
      `/api/account/info/devnet/1/${destination.publicKey.toBase58()}/${KIN}`,
      '/api/transaction/latest-blockhash/devnet/1',
      '/api/transaction/make-transfer',
    ]);
    expect(sdk.requests.at(-2)!.path).toBe('/api/transaction/latest-blockhash/devnet/1');
    expect(sdk.requests.at(-3)!.path).toBe(`/api/account/info/devnet/1/${destination.publicKey.toBase58()}/${KIN}?commitment=Confirmed`);
    const body = sentBody();
    expect(Object.keys(body)).toEqual(['commitment', 'environment', 'index', 'lastValidBlockHeight', 'mint', 'reference', 'tx']);
    expect(body.reference).toBe(reference);
    const source = tokenAddress(owner.publicKey, KIN).toBase58();
    const target = tokenAddress(destination.publicKey, KIN).toBase58();
    expect(instructionTable(body.tx as string).instructions).toEqual([
      { program: MEMO_V1.toBase58(), keys: [], data: Buffer.from(kineticMemoText({ index: 1, reference })).toString('hex') },
      { program: TOKEN, keys: [`${source} w`, KIN, `${target} w`, `${owner.publicKey.toBase58()} s`], data: transferCheckedData(1_250_000n, 5) },
    ]);
    expect(record).toMatchObject({ status: 'Confirmed', errors: [], amount: '12.5', source: owner.publicKey.toBase58(), destination: target, reference });

    const fees = feesOf(await settleAndCheckFinal(emulator, [{ signature: record.signature, signers: 2 }]));
    expect(await kinBalance(owner)).toBe(48_750_000n);
    expect(await kinBalance(destination)).toBe(1_250_000n);
    expect(await lamportsOf(emulator, FEE_PAYER)).toBe(before - fees);
    const listed = await sdk.getKineticTransaction({ reference });
    expect(sdk.requests.at(-1)!.path).toBe(`/api/transaction/legacy-transaction/devnet/1?reference=${encodeURIComponent(reference)}&signature=`);
    expect(listed.map((r: { id: string; status: string }) => [r.id, r.status])).toEqual([[record.id, 'Finalized']]);
    const bySignature = await sdk.getKineticTransaction({ signature: record.signature });
    expect(sdk.requests.at(-1)!.path).toBe(`/api/transaction/legacy-transaction/devnet/1?reference=&signature=${record.signature}`);
    expect(bySignature[0].id).toBe(record.id);
    const history = await sdk.getHistory(destination.publicKey.toBase58());
    expect(history[0].history[0]).toMatchObject({ signature: record.signature, memo: expect.stringContaining(kineticMemoText({ index: 1, reference })) });
  });

  it('makeTransfer with senderCreate: the fee payer creates the destination ATA (no close-authority hand-over)', async () => {
    const owner = await fundedOwner('100');
    await emulator.settle();
    const destination = newKeypair().publicKey.toBase58();
    const before = await lamportsOf(emulator, FEE_PAYER);

    const record = await sdk.makeTransfer({ owner, destination, amount: '1', senderCreate: true });
    const body = sentBody();
    expect(body.reference).toBeNull();
    const target = tokenAddress(destination, KIN).toBase58();
    const owned = owner.publicKey.toBase58();
    expect(instructionTable(body.tx as string)).toEqual({
      feePayer: FEE_PAYER,
      signers: [FEE_PAYER, owned],
      instructions: [
        { program: MEMO_V1.toBase58(), keys: [], data: Buffer.from(kineticMemoText({ index: 1 })).toString('hex') },
        { program: ATA_PROGRAM, keys: [`${FEE_PAYER} sw`, `${target} w`, destination, KIN, SYSTEM, TOKEN], data: '' },
        {
          program: TOKEN,
          keys: [`${tokenAddress(owner.publicKey, KIN).toBase58()} w`, KIN, `${target} w`, `${owned} s`],
          data: transferCheckedData(100_000n, 5),
        },
      ],
    });
    expect(record, JSON.stringify(record)).toMatchObject({ status: 'Confirmed', errors: [], destination: target, amount: '1' });

    const fees = feesOf(await settleAndCheckFinal(emulator, [{ signature: record.signature, signers: 2 }]));
    // Relayed under the faithful default; strict would refuse it (A6), and the journal says what it costs the sponsor.
    expect(emulator.transactionJournal({ signature: record.signature })[0]!.strictBreaks).toEqual([
      { rule: 'A6', code: 'CLOSE_AUTHORITY_NOT_FEE_PAYER', detail: expect.any(String), account: target, exposure: Number(TOKEN_ACCOUNT_RENT) },
    ]);
    // The destination owns its account, with no close authority: its rent is the sponsor's for good.
    expect(await tokenAccountOf(emulator, target)).toMatchObject({ owner: destination, amount: 100_000n, closeAuthority: null });
    expect(await lamportsOf(emulator, FEE_PAYER)).toBe(before - fees - TOKEN_ACCOUNT_RENT);
  });

  it('makeTransferBatch: one TransferChecked per destination token account, one memo', async () => {
    const owner = await fundedOwner('100');
    const destinations = [newKeypair(), newKeypair(), newKeypair()];
    for (const destination of destinations) await sdk.createAccount({ owner: destination });
    await emulator.settle();
    const before = await lamportsOf(emulator, FEE_PAYER);

    const record = await sdk.makeTransferBatch({
      owner,
      destinations: destinations.map((d, i) => ({ destination: d.publicKey.toBase58(), amount: String(i + 1) })),
    });
    const body = sentBody();
    expect(Object.keys(body)).toEqual(['commitment', 'environment', 'index', 'lastValidBlockHeight', 'mint', 'reference', 'tx']);
    expect(body.reference).toBeNull();
    const rows = instructionTable(body.tx as string).instructions;
    expect(rows.map((row) => row.program)).toEqual([MEMO_V1.toBase58(), TOKEN, TOKEN, TOKEN]);
    expect(rows.slice(1).map((row) => row.data)).toEqual([
      transferCheckedData(100_000n, 5),
      transferCheckedData(200_000n, 5),
      transferCheckedData(300_000n, 5),
    ]);
    expect(record).toMatchObject({ status: 'Confirmed', errors: [], amount: '1' });

    const fees = feesOf(await settleAndCheckFinal(emulator, [{ signature: record.signature, signers: 2 }]));
    expect(await Promise.all(destinations.map(kinBalance))).toEqual([100_000n, 200_000n, 300_000n]);
    expect(await kinBalance(owner)).toBe(10_000_000n - 600_000n);
    expect(await lamportsOf(emulator, FEE_PAYER)).toBe(before - fees);
  });

  it('closeAccount: the server closes an emptied account and its rent returns to the fee payer', async () => {
    const owner = newKeypair();
    await sdk.createAccount({ owner });
    await emulator.settle();
    const before = await lamportsOf(emulator, FEE_PAYER);

    const record = await sdk.closeAccount({ account: owner.publicKey.toBase58() });
    expect(lastRequest().body).toBe(
      JSON.stringify({ account: owner.publicKey.toBase58(), commitment: 'Confirmed', environment: 'devnet', index: 1, mint: KIN, reference: null }),
    );
    expect(record).toMatchObject({ status: 'Confirmed', errors: [], reference: null, feePayer: FEE_PAYER, source: owner.publicKey.toBase58() });

    const fees = feesOf(await settleAndCheckFinal(emulator, [{ signature: record.signature, signers: 1 }]));
    expect(await emulator.services.ledger.getAccount(tokenAddress(owner.publicKey, KIN))).toBeNull();
    expect(await lamportsOf(emulator, FEE_PAYER)).toBe(before - fees + TOKEN_ACCOUNT_RENT);
  });

  it('reads: balance, history, token accounts, account info, transaction, each with ?commitment=Confirmed', async () => {
    const owner = await fundedOwner('7');
    const airdrop = sdk.requests.at(-1)!;
    expect(JSON.parse(airdrop.body!)).toEqual({
      account: owner.publicKey.toBase58(),
      amount: '7',
      commitment: 'Confirmed',
      environment: 'devnet',
      index: 1,
      mint: KIN,
    });
    await emulator.settle();
    const account = owner.publicKey.toBase58();
    const ata = tokenAddress(owner.publicKey, KIN).toBase58();

    const balance = await sdk.getBalance(account);
    expect(lastRequest().path).toBe(`/api/account/balance/devnet/1/${account}?commitment=Confirmed`);
    expect(balance).toMatchObject({ balance: '7', mints: { [KIN]: '7' }, mintMap: { [KIN]: [ata] } });
    expect(await sdk.getTokenAccounts(account)).toEqual([ata]);
    expect(lastRequest().path).toBe(`/api/account/token-accounts/devnet/1/${account}/${KIN}?commitment=Confirmed`);
    expect(await sdk.findTokenAccount(account, KIN)).toBe(ata);
    const history = await sdk.getHistory(account);
    expect(lastRequest().path).toBe(`/api/account/history/devnet/1/${account}/${KIN}?commitment=Confirmed`);
    expect(history).toEqual([{ account: ata, history: expect.any(Array) }]);
    const [latest, created] = history[0].history as { signature: string }[];
    expect(history[0].history).toHaveLength(2);
    const read = await sdk.getTransaction(latest!.signature);
    expect(lastRequest().path).toBe(`/api/transaction/transaction/devnet/1/${latest!.signature}?commitment=Confirmed`);
    expect(read).toMatchObject({ signature: latest!.signature, status: { err: null, confirmationStatus: 'finalized' } });
    expect(read.transaction.transaction.signatures[0]).toBe(latest!.signature);
    expect(created!.signature).not.toBe(latest!.signature);
  });

  it('a blockhash that expired before the post: the SDK gets a 201 Failed record (BadNonce), not an error, and nothing lands', async () => {
    const owner = await fundedOwner('10');
    const destination = newKeypair();
    await sdk.createAccount({ owner: destination });
    await emulator.settle();
    const before = await lamportsOf(emulator, FEE_PAYER);
    const submitted = emulator.transactionJournal().length;

    expireBeforeNextPost = true;
    const record = await sdk.makeTransfer({ owner, destination: destination.publicKey.toBase58(), amount: '1' });
    expect(record).toMatchObject({
      status: 'Failed',
      signature: null,
      errors: [
        { type: 'BadNonce', message: 'Error: failed to send transaction: Transaction simulation failed: Blockhash not found', logs: [], instruction: null },
      ],
    });

    await emulator.settle();
    expect(emulator.transactionJournal()).toHaveLength(submitted);
    expect(await kinBalance(destination)).toBe(0n);
    expect(await lamportsOf(emulator, FEE_PAYER)).toBe(before);
    const listed = await sdk.getKineticTransaction({ reference: undefined, signature: undefined }).catch((error: Error & { status?: number }) => error);
    expect(listed).toMatchObject({ status: 400, message: 'app-1-devnet: Please provide either reference or signature' });
  });

  describe('with the brand word kept, as the SDK really sends it', () => {
    let kinetic: KineticSdkWire;
    beforeAll(async () => {
      kinetic = new KineticSdkWire('1.0.0-rc.18', { endpoint: ENDPOINT, environment: 'devnet', index: 1, fetch: emulator.fetch, brand: 'kinetic' });
      await kinetic.init();
    });

    it('records kinetic-user-agent as the record’s ua, and lists it at /transaction/kinetic-transaction/…', async () => {
      const owner = newKeypair();
      const record = await kinetic.createAccount({ owner, reference: 'ZmlzaA==' });
      expect(kinetic.requests.at(-1)!.headers).toMatchObject({
        'kinetic-environment': 'devnet',
        'kinetic-index': '1',
        'kinetic-user-agent': '@kin-kinetic/sdk@1.0.0-rc.18',
      });
      expect(record).toMatchObject({ status: 'Confirmed', ua: '@kin-kinetic/sdk@1.0.0-rc.18' });
      const listed = await kinetic.getKineticTransaction({ signature: record.signature });
      expect(kinetic.requests.at(-1)!.path).toBe(`/api/transaction/kinetic-transaction/devnet/1?reference=&signature=${record.signature}`);
      expect(listed).toEqual([expect.objectContaining({ id: record.id, signature: record.signature, ua: '@kin-kinetic/sdk@1.0.0-rc.18' })]);
      await settleAndCheckFinal(emulator, [{ signature: record.signature, signers: 2 }]);
    });

    it('gets a message with every 404, as the SDK rethrows it (not "Unknown error")', async () => {
      const missing = await kinetic.getKineticTransaction({ reference: 'bm9uZQ==' }).catch((error: Error & { status?: number }) => error);
      expect(missing).toMatchObject({ status: 404, message: 'app-1-devnet: Transaction not found' });
      // A path the legacy interface does not have answers in its style, with NestJS's `message`.
      const response = await emulator.fetch(
        new Request(`${ENDPOINT}/api/transaction/no-such-route/devnet/1`, { headers: { 'kinetic-user-agent': '@kin-kinetic/sdk@1.0.0-rc.18' } }),
      );
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ statusCode: 404, message: 'No route matches GET /api/transaction/no-such-route/devnet/1.', error: 'Not Found' });
    });
  });
});
