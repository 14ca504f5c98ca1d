/**
 * AltudePlatform/altude-dynamic-gas-station-demo (src/lib/solana.ts and App.tsx at 7bc7cd7) against the
 * current interface, through `emulator.fetch`: its blockhash read, its account-creation transaction
 * (createAccount of 2,039,280 lamports and 165 bytes from the fee payer, InitializeAccount3 of the
 * native mint or VITE_TOKEN_MINT, SetAuthority(CloseAccount → fee payer), and with VITE_TOKEN_MINT the
 * user's ATA by CreateIdempotent with its own hand-over), signed by the new account and the user's
 * wallet, posted as {SignedTransaction} to Account/create and, in its step 4, to Transaction/send.
 * The demo hard-codes Altude's production fee payer (ALTn7…); against the emulator that one
 * constant is the emulator's FeePayer. Built with the same web3.js and spl-token calls the demo makes.
 */
import {
  ACCOUNT_SIZE,
  AuthorityType,
  createAssociatedTokenAccountIdempotentInstruction,
  createInitializeAccount3Instruction,
  createSetAuthorityInstruction,
  getAssociatedTokenAddressSync,
  NATIVE_MINT,
  TOKEN_PROGRAM_ID,
} from '@solana/spl-token';
import { type Keypair, PublicKey, SystemProgram, Transaction } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRelayEmulator, type RelayEmulator } from '../../src/index.ts';
import { instructionTable, lamportsOf, settleAndCheckFinal, SIGNATURE_FEE, TOKEN_ACCOUNT_RENT, tokenAccountOf, u64Hex } from './altude/ledger-checks.ts';
import { Wire } from './altude/recorder.ts';
import { USDC } from '../support/transactions.ts';
import { newKeypair } from '../support/keys.ts';

const BASE = 'https://api.altude.so';
const TOKEN = TOKEN_PROGRAM_ID.toBase58();

describe('the dynamic gas station demo on the current interface', () => {
  let emulator: RelayEmulator;
  let wire: Wire;
  let feePayer: PublicKey;
  const apiKey = () => emulator.config.apiKey;

  beforeAll(async () => {
    emulator = await createRelayEmulator({ baseUrl: `${BASE}/api` });
    wire = new Wire(emulator);
    feePayer = new PublicKey(emulator.config.feePayer);
  });
  afterAll(() => emulator.close());

  /** getAltudeBlockhash: GET with X-API-Key only; reads Blockhash || blockhash. */
  async function altudeBlockhash(): Promise<string> {
    const answer = await wire.send('GET', '/api/Transaction/blockhash', { 'X-API-Key': apiKey() });
    expect(answer.status).toBe(200);
    return (answer.body.Blockhash || answer.body.blockhash) as string;
  }

  /** createAccountTransaction, then the wallet's signature (App.tsx handleSignTransaction). */
  async function createAccountTransaction(user: Keypair, customMint: PublicKey | null) {
    const newAccount = newKeypair();
    const transaction = new Transaction();
    transaction.add(
      SystemProgram.createAccount({
        fromPubkey: feePayer,
        newAccountPubkey: newAccount.publicKey,
        lamports: 2039280,
        space: ACCOUNT_SIZE,
        programId: TOKEN_PROGRAM_ID,
      }),
      createInitializeAccount3Instruction(newAccount.publicKey, customMint ?? NATIVE_MINT, user.publicKey),
      createSetAuthorityInstruction(newAccount.publicKey, user.publicKey, AuthorityType.CloseAccount, feePayer),
    );
    if (customMint) {
      const ata = getAssociatedTokenAddressSync(customMint, user.publicKey);
      transaction.add(
        createAssociatedTokenAccountIdempotentInstruction(feePayer, ata, user.publicKey, customMint),
        createSetAuthorityInstruction(ata, user.publicKey, AuthorityType.CloseAccount, feePayer),
      );
    }
    transaction.feePayer = feePayer;
    transaction.recentBlockhash = await altudeBlockhash();
    transaction.partialSign(newAccount);
    transaction.partialSign(user);
    // Exactly as the demo serializes. web3.js 1.98.4 checks requireAllSignatures only while verifying, so
    // with verification off the empty fee-payer slot is serialized as is, no throw.
    const base64 = transaction.serialize({ verifySignatures: false }).toString('base64');
    return { base64, newAccount };
  }

  /** altudeApiCall: POST with the JSON content type and X-API-Key, body {SignedTransaction}. */
  function altudeApiCall(endpoint: string, signedTransaction: string) {
    return wire.send('POST', endpoint, { 'Content-Type': 'application/json', 'X-API-Key': apiKey() }, JSON.stringify({ SignedTransaction: signedTransaction }));
  }

  it('reads the blockhash with GET /api/Transaction/blockhash and X-API-Key alone', async () => {
    await altudeBlockhash();
    expect(wire.last()).toEqual({ method: 'GET', path: '/api/Transaction/blockhash', headers: { 'X-API-Key': apiKey() }, body: null });
  });

  it(
    'step 3, the default (wrapped SOL): Account/create relays createAccount + InitializeAccount3(native) + SetAuthority, recording the rent as ' +
      'exposure; step 4 then posts the same transaction to send, refused as already relayed with a detail the demo shows',
    async () => {
      const user = newKeypair();
      const { base64, newAccount } = await createAccountTransaction(user, null);
      const n = newAccount.publicKey.toBase58();
      const u = user.publicKey.toBase58();
      expect(instructionTable(base64)).toEqual({
        feePayer: feePayer.toBase58(),
        signers: expect.arrayContaining([feePayer.toBase58(), n, u]),
        instructions: [
          {
            program: SystemProgram.programId.toBase58(),
            keys: [`${feePayer.toBase58()} sw`, `${n} sw`],
            data: `00000000${u64Hex(2_039_280n)}${u64Hex(165n)}${TOKEN_PROGRAM_ID.toBuffer().toString('hex')}`,
          },
          { program: TOKEN, keys: [`${n} sw`, NATIVE_MINT.toBase58()], data: `12${user.publicKey.toBuffer().toString('hex')}` },
          { program: TOKEN, keys: [`${n} sw`, `${u} s`], data: `060301${feePayer.toBuffer().toString('hex')}` },
        ],
      });
      const before = await lamportsOf(emulator, feePayer);
      const created = await altudeApiCall('/api/Account/create', base64);
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      const signature = (created.body.Signature || created.body.signature) as string;
      const [entry] = await settleAndCheckFinal(emulator, [{ signature, signers: 3 }]);
      expect(await tokenAccountOf(emulator, newAccount.publicKey)).toMatchObject({
        mint: NATIVE_MINT.toBase58(),
        owner: u,
        closeAuthority: feePayer.toBase58(),
        isNative: TOKEN_ACCOUNT_RENT,
      });
      expect(before - (await lamportsOf(emulator, feePayer))).toBe(3n * SIGNATURE_FEE + TOKEN_ACCOUNT_RENT);
      expect(entry).toMatchObject({ sponsorExposure: Number(TOKEN_ACCOUNT_RENT), strictBreaks: [{ rule: 'A5', account: n }] });

      const resent = await altudeApiCall('/api/Transaction/send', base64);
      expect(resent.status).toBe(422);
      expect(resent.body.detail || resent.body.title).toMatch(/already relayed/);
      await emulator.settle();
      expect(emulator.transactionJournal().filter((journaled) => journaled.signature === signature)).toHaveLength(1);
    },
  );

  it('step 4 alone: the creation posted to Transaction/send is relayed under faithful (a send that only creates, rule O1) and lands', async () => {
    const user = newKeypair();
    const { base64, newAccount } = await createAccountTransaction(user, null);
    const sent = await altudeApiCall('/api/Transaction/send', base64);
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const [entry] = await settleAndCheckFinal(emulator, [{ signature: sent.body.Signature, signers: 3 }]);
    expect(entry!.strictBreaks.map((broken) => broken.rule)).toEqual(['A5', 'O1']);
    expect(await tokenAccountOf(emulator, newAccount.publicKey)).not.toBeNull();
  });

  it(
    'with VITE_TOKEN_MINT: the plain account of that mint plus the user’s ATA, each handing its close authority over; nothing strict would ' + 'refuse',
    async () => {
      const user = newKeypair();
      const { base64, newAccount } = await createAccountTransaction(user, USDC);
      const table = instructionTable(base64);
      const ata = getAssociatedTokenAddressSync(USDC, user.publicKey);
      expect(table.instructions[3]).toMatchObject({
        keys: [
          `${feePayer.toBase58()} sw`,
          `${ata.toBase58()} w`,
          `${user.publicKey.toBase58()} s`,
          USDC.toBase58(),
          SystemProgram.programId.toBase58(),
          TOKEN,
        ],
        data: '01',
      });
      const before = await lamportsOf(emulator, feePayer);
      const created = await altudeApiCall('/api/Account/create', base64);
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      const [entry] = await settleAndCheckFinal(emulator, [{ signature: created.body.signature, signers: 3 }]);
      for (const account of [newAccount.publicKey, ata])
        expect(await tokenAccountOf(emulator, account)).toMatchObject({ mint: USDC.toBase58(), closeAuthority: feePayer.toBase58() });
      expect(before - (await lamportsOf(emulator, feePayer))).toBe(3n * SIGNATURE_FEE + 2n * TOKEN_ACCOUNT_RENT);
      expect(entry).toMatchObject({ strictBreaks: [], sponsorExposure: 0 });
    },
  );
});
