/**
 * Kinetic SDK 1.0.0-rc.1 (kin-labs/kinetic at tag 1.0.0-rc.1, the first release candidate) against
 * the legacy interface, request by request as the SDK sends them (test/real-clients/kinetic/
 * kinetic-sdk-wire.ts), through `emulator.fetch`. rc.1 differs from rc.18 on the wire: the
 * `kinetic-environment`/`kinetic-index` headers are the text `undefined`, bodies carry
 * `referenceId: null, referenceType: null`, reads carry no commitment, token accounts are listed
 * rather than read through account info, and the airdrop waits for Finalized.
 */
import { ASSOCIATED_TOKEN_PROGRAM_ID, TOKEN_PROGRAM_ID } from '@solana/spl-token';
import { type Keypair, SystemProgram } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRelayEmulator, type RelayEmulator } from '../../src/index.ts';
import { KineticSdkWire } from './kinetic/kinetic-sdk-wire.ts';
import { kineticMemoText, MEMO_V1, tokenAddress, TransactionType } from './kinetic/kinetic-transactions.ts';
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
const TOKEN = TOKEN_PROGRAM_ID.toBase58();
const ATA_PROGRAM = ASSOCIATED_TOKEN_PROGRAM_ID.toBase58();
const SYSTEM = SystemProgram.programId.toBase58();
const RELAY_KEYS = ['commitment', 'environment', 'index', 'lastValidBlockHeight', 'mint', 'referenceId', 'referenceType', 'tx'];

describe('Kinetic SDK 1.0.0-rc.1 on the legacy interface', () => {
  let emulator: RelayEmulator;
  let sdk: KineticSdkWire;

  beforeAll(async () => {
    emulator = await createRelayEmulator({ baseUrl: `${ENDPOINT}/api` });
    sdk = new KineticSdkWire('1.0.0-rc.1', { endpoint: ENDPOINT, environment: 'devnet', index: 1, fetch: emulator.fetch });
    await sdk.init();
  });
  afterAll(() => emulator.close());

  const lastRequest = () => sdk.requests.at(-1)!;
  const sentBody = () => JSON.parse(lastRequest().body!) as Record<string, unknown>;
  const kinBalance = async (owner: Keypair | string) =>
    (await tokenAccountOf(emulator, tokenAddress(typeof owner === 'string' ? owner : owner.publicKey, KIN)))?.amount ?? null;
  const fundedOwner = async (amount: string) => {
    const owner = newKeypair();
    expect((await sdk.createAccount({ owner })).status).toBe('Confirmed');
    await sdk.requestAirdrop({ account: owner.publicKey.toBase58(), amount });
    return owner;
  };

  it('sends kinetic-environment and kinetic-index as the text "undefined" (set before the app config is read)', () => {
    expect(sdk.requests[0]).toEqual({
      method: 'GET',
      path: '/api/app/devnet/1/config',
      headers: {
        Accept: 'application/json, text/plain, */*',
        'legacy-environment': 'undefined',
        'legacy-index': 'undefined',
        'legacy-user-agent': '@kin-kinetic/sdk@1.0.0-rc.1',
        'User-Agent': 'axios/0.27.2',
      },
    });
  });

  it('createAccount: referenceId and referenceType null, the same three instructions as later versions', async () => {
    const owner = newKeypair();
    const before = await lamportsOf(emulator, FEE_PAYER);
    const record = await sdk.createAccount({ owner });
    expect(sdk.requests.slice(-2).map((r) => r.path)).toEqual(['/api/transaction/latest-blockhash/devnet/1', '/api/account/create']);
    const body = sentBody();
    expect(Object.keys(body)).toEqual(RELAY_KEYS);
    expect(body).toMatchObject({ commitment: 'Confirmed', environment: 'devnet', index: 1, mint: KIN, referenceId: null, referenceType: null });
    const account = tokenAddress(owner.publicKey, KIN).toBase58();
    const owned = owner.publicKey.toBase58();
    expect(instructionTable(body.tx as string).instructions).toEqual([
      { program: MEMO_V1.toBase58(), keys: [], data: Buffer.from(kineticMemoText({ index: 1 })).toString('hex') },
      { program: ATA_PROGRAM, keys: [`${FEE_PAYER} sw`, `${account} w`, `${owned} s`, KIN, SYSTEM, TOKEN], data: '' },
      { program: TOKEN, keys: [`${account} w`, `${owned} s`], data: setCloseAuthorityData(FEE_PAYER) },
    ]);
    expect(record).toMatchObject({ status: 'Confirmed', errors: [], reference: null, ua: '@kin-kinetic/sdk@1.0.0-rc.1' });

    const fees = feesOf(await settleAndCheckFinal(emulator, [{ signature: record.signature, signers: 2 }]));
    expect(await tokenAccountOf(emulator, account)).toMatchObject({ owner: owned, amount: 0n, closeAuthority: FEE_PAYER });
    expect(await lamportsOf(emulator, FEE_PAYER)).toBe(before - fees - TOKEN_ACCOUNT_RENT);
    expect(fees).toBe(2n * SIGNATURE_FEE);
  });

  it('requestAirdrop waits for Finalized by default, amount as whole tokens', async () => {
    const owner = newKeypair();
    await sdk.createAccount({ owner });
    const response = await sdk.requestAirdrop({ account: owner.publicKey.toBase58(), amount: '3' });
    expect(lastRequest().body).toBe(
      JSON.stringify({ account: owner.publicKey.toBase58(), amount: '3', commitment: 'Finalized', environment: 'devnet', index: 1, mint: KIN }),
    );
    expect(emulator.transactionJournal({ signature: response.signature })[0]).toMatchObject({ status: 'processed', commitment: 'finalized', err: null });
    expect(await kinBalance(owner)).toBe(300_000n);
  });

  it('makeTransfer to an existing account: token accounts listed, blockhash first, a P2P memo', async () => {
    const owner = await fundedOwner('50');
    const destination = newKeypair();
    await sdk.createAccount({ owner: destination });
    await emulator.settle();
    const before = await lamportsOf(emulator, FEE_PAYER);

    const record = await sdk.makeTransfer({ owner, destination: destination.publicKey.toBase58(), amount: '0.00001', type: TransactionType.P2P });
    expect(sdk.requests.slice(-3).map((r) => r.path)).toEqual([
      '/api/transaction/latest-blockhash/devnet/1',
      `/api/account/token-accounts/devnet/1/${destination.publicKey.toBase58()}/${KIN}`,
      '/api/transaction/make-transfer',
    ]);
    const body = sentBody();
    expect(Object.keys(body)).toEqual(RELAY_KEYS);
    expect(body).toMatchObject({ referenceId: null, referenceType: null });
    const target = tokenAddress(destination.publicKey, KIN).toBase58();
    expect(instructionTable(body.tx as string).instructions).toEqual([
      { program: MEMO_V1.toBase58(), keys: [], data: Buffer.from(kineticMemoText({ index: 1, type: TransactionType.P2P })).toString('hex') },
      {
        program: TOKEN,
        keys: [`${tokenAddress(owner.publicKey, KIN).toBase58()} w`, KIN, `${target} w`, `${owner.publicKey.toBase58()} s`],
        data: transferCheckedData(1n, 5),
      },
    ]);
    expect(record).toMatchObject({ status: 'Confirmed', errors: [], amount: '0.00001', destination: target, reference: null });

    const fees = feesOf(await settleAndCheckFinal(emulator, [{ signature: record.signature, signers: 2 }]));
    expect(await kinBalance(destination)).toBe(1n);
    expect(await kinBalance(owner)).toBe(5_000_000n - 1n);
    expect(await lamportsOf(emulator, FEE_PAYER)).toBe(before - fees);
  });

  it('makeTransfer with senderCreate to a wallet without an account: the fee payer creates its ATA', async () => {
    const owner = await fundedOwner('50');
    await emulator.settle();
    const destination = newKeypair().publicKey.toBase58();
    const before = await lamportsOf(emulator, FEE_PAYER);

    const record = await sdk.makeTransfer({ owner, destination, amount: '2', senderCreate: true });
    const target = tokenAddress(destination, KIN).toBase58();
    expect(instructionTable(sentBody().tx as string).instructions.slice(1, 2)).toEqual([
      { program: ATA_PROGRAM, keys: [`${FEE_PAYER} sw`, `${target} w`, destination, KIN, SYSTEM, TOKEN], data: '' },
    ]);
    expect(record, JSON.stringify(record)).toMatchObject({ status: 'Confirmed', errors: [] });

    const fees = feesOf(await settleAndCheckFinal(emulator, [{ signature: record.signature, signers: 2 }]));
    // Relayed under the faithful default; strict would refuse it (A6), and the journal says what it costs the sponsor.
    expect(emulator.transactionJournal({ signature: record.signature })[0]!.strictBreaks).toEqual([
      { rule: 'A6', code: 'CLOSE_AUTHORITY_NOT_FEE_PAYER', detail: expect.any(String), account: target, exposure: Number(TOKEN_ACCOUNT_RENT) },
    ]);
    expect(await tokenAccountOf(emulator, target)).toMatchObject({ owner: destination, amount: 200_000n, closeAuthority: null });
    expect(await lamportsOf(emulator, FEE_PAYER)).toBe(before - fees - TOKEN_ACCOUNT_RENT);
  });

  it('makeTransferBatch: the destinations’ ATAs derived without a lookup', async () => {
    const owner = await fundedOwner('50');
    const destinations = [newKeypair(), newKeypair()];
    for (const destination of destinations) await sdk.createAccount({ owner: destination });
    await emulator.settle();
    const before = await lamportsOf(emulator, FEE_PAYER);

    const record = await sdk.makeTransferBatch({ owner, destinations: destinations.map((d) => ({ destination: d.publicKey.toBase58(), amount: '4' })) });
    expect(sdk.requests.slice(-2).map((r) => r.path)).toEqual(['/api/transaction/latest-blockhash/devnet/1', '/api/transaction/make-transfer']);
    expect(Object.keys(sentBody())).toEqual(RELAY_KEYS);
    expect(record).toMatchObject({ status: 'Confirmed', errors: [] });

    const fees = feesOf(await settleAndCheckFinal(emulator, [{ signature: record.signature, signers: 2 }]));
    expect(await Promise.all(destinations.map(kinBalance))).toEqual([400_000n, 400_000n]);
    expect(await lamportsOf(emulator, FEE_PAYER)).toBe(before - fees);
  });

  it('reads: balance, history, token accounts and a transaction, without a commitment', async () => {
    const owner = await fundedOwner('9');
    await emulator.settle();
    const account = owner.publicKey.toBase58();
    const ata = tokenAddress(owner.publicKey, KIN).toBase58();

    expect(await sdk.getBalance(account)).toMatchObject({ balance: '9', mints: { [KIN]: '9' } });
    expect(lastRequest().path).toBe(`/api/account/balance/devnet/1/${account}`);
    expect(await sdk.getTokenAccounts(account)).toEqual([ata]);
    const history = await sdk.getHistory(account);
    expect(lastRequest().path).toBe(`/api/account/history/devnet/1/${account}/${KIN}`);
    expect(history[0].history).toHaveLength(2);
    const signature = history[0].history[0].signature as string;
    const read = await sdk.getTransaction(signature);
    expect(lastRequest().path).toBe(`/api/transaction/transaction/devnet/1/${signature}`);
    expect(read).toMatchObject({ signature, status: { err: null, confirmationStatus: 'finalized' } });
  });
});
