/** (Over 250 lines: every relaxed rule's flow under both profiles, and the neighbours faithful still refuses, read best together.)
 *
 * The two fee-payer policy profiles side by side (issue 14): each shape the vendor's clients build
 * that today's hardened rules refused is refused by `strict` with its code, the fee payer's lamports
 * unchanged and nothing recorded, and relayed by `faithful` to a final successful status, with the
 * strict rules it breaks and its sponsor exposure in its submission and the journal, and the fee payer
 * moved by exactly the fee plus the rent it funded. The exact client wire formats are in
 * test/real-clients/.
 */
import {
  ACCOUNT_SIZE,
  AuthorityType,
  createAssociatedTokenAccountIdempotentInstruction,
  createAssociatedTokenAccountInstruction,
  createCloseAccountInstruction,
  createInitializeAccount3Instruction,
  createSetAuthorityInstruction,
  NATIVE_MINT,
  TOKEN_PROGRAM_ID,
} from '@solana/spl-token';
import { type Keypair, PublicKey, SystemProgram, TransactionInstruction } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRelayEmulator } from '../src/index.ts';
import type { PolicyProfile } from '../src/domain/relay/policy-options.ts';
import { startHarness, type Harness } from './support/harness.ts';
import { policyRules } from './support/policy-table.ts';
import { validateAgainst } from './support/openapi.ts';
import { ALICE, ata, build, createAtaInstructions, FEE_PAYER, transferInstruction, USDC } from './support/transactions.ts';
import { newKeypair } from './support/keys.ts';

const RENT = 2_039_280n;
const FEE = 5_000n;
const ENGINE = process.env.RELAY_EMULATOR_ENGINE ?? 'litesvm';
/** An app's own program: the real Associated Token Account program, loaded again at this address (its Create funds the account from its payer). */
const APP_PROGRAM = newKeypair().publicKey;
const ATA_PROGRAM = new PublicKey('ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL');

interface Flow {
  name: string;
  path: string;
  /** Builds the signed transaction (and arranges the ledger it needs). */
  build(h: Harness): Promise<{ transaction: string; signatures: number }>;
  /** What strict answers. */
  strictCode: string;
  /** The strict rules faithful records, and the exposure. */
  breaks: string[];
  exposure: bigint;
  /** Rent the fee payer funds (recoverable or not). */
  funded: bigint;
  /** Checked on the ledger after faithful relayed it. */
  landed?(h: Harness): Promise<void>;
  /** Faithful weighs it by simulation, which bankrun cannot show: there it is refused as under strict. */
  simulated?: true;
}

async function signed(h: Harness, instructions: TransactionInstruction[], signers: Keypair[]): Promise<{ transaction: string; signatures: number }> {
  return { transaction: build({ instructions, blockhash: await h.blockhash(), signers }), signatures: 1 + signers.length };
}

const lamportsOf = async (h: Harness, address: PublicKey) => (await h.emulator.services.ledger.getAccount(address))?.lamports ?? 0n;

/** A recipient whose USDC account the fee payer creates without a hand-over (as Android's send does). */
const noHandOverRecipient = newKeypair();

const flows: Flow[] = [
  {
    name: 'a wrapped-SOL associated token account with its close authority handed over (Android Token.SOL)',
    path: '/Account/create',
    strictCode: 'MINT_NOT_ALLOWED',
    breaks: ['A5'],
    exposure: RENT,
    funded: RENT,
    async build(h) {
      const owner = newKeypair();
      return signed(h, createAtaInstructions(owner.publicKey, NATIVE_MINT), [owner]);
    },
  },
  {
    name: 'a wrapped-SOL account by createAccount + InitializeAccount3 + SetAuthority (the dynamic demo)',
    path: '/Account/create',
    strictCode: 'MINT_NOT_ALLOWED',
    breaks: ['A5'],
    exposure: RENT,
    funded: RENT,
    async build(h) {
      const owner = newKeypair();
      const account = newKeypair();
      return signed(
        h,
        [
          SystemProgram.createAccount({
            fromPubkey: FEE_PAYER,
            newAccountPubkey: account.publicKey,
            lamports: Number(RENT),
            space: ACCOUNT_SIZE,
            programId: TOKEN_PROGRAM_ID,
          }),
          createInitializeAccount3Instruction(account.publicKey, NATIVE_MINT, owner.publicKey),
          createSetAuthorityInstruction(account.publicKey, owner.publicKey, AuthorityType.CloseAccount, FEE_PAYER),
        ],
        [account, owner],
      );
    },
  },
  {
    name: 'a transfer whose destination account the fee payer creates without a hand-over',
    path: '/Transaction/send',
    strictCode: 'CLOSE_AUTHORITY_NOT_FEE_PAYER',
    breaks: ['A6'],
    exposure: RENT,
    funded: RENT,
    async build(h) {
      const recipient = noHandOverRecipient.publicKey;
      return signed(
        h,
        [createAssociatedTokenAccountInstruction(FEE_PAYER, ata(recipient), recipient, USDC), transferInstruction(ALICE, recipient, 7n, { checked: true })],
        [ALICE],
      );
    },
    async landed(h) {
      const balance = await h.emulator.services.ledger.getAccount(ata(noHandOverRecipient.publicKey));
      expect(balance).not.toBeNull();
    },
  },
  {
    name: 'a SOL transfer from the user’s own wallet, signed by it',
    path: '/Transaction/send',
    strictCode: 'INSTRUCTION_NOT_ALLOWED',
    breaks: ['T2'],
    exposure: 0n,
    funded: 0n,
    async build(h) {
      const payer = newKeypair();
      await h.emulator.faucet({ address: payer.publicKey, lamports: 2_000_000n });
      // Both ends stay rent-exempt (890,880 lamports for a wallet), as the ledger requires.
      return signed(h, [SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: newKeypair().publicKey, lamports: 1_000_000 })], [payer]);
    },
  },
  {
    name: 'an account creation posted to Transaction/send (the dynamic demo’s step 4)',
    path: '/Transaction/send',
    strictCode: 'OPERATION_MISMATCH',
    breaks: ['O1'],
    exposure: 0n,
    funded: RENT,
    async build(h) {
      const owner = newKeypair();
      return signed(h, createAtaInstructions(owner.publicKey), [owner]);
    },
  },
  {
    name: 'the close of an account by its own close authority (Android closeAccount of an account created without a hand-over)',
    path: '/Account/close',
    strictCode: 'CLOSE_DESTINATION_NOT_FEE_PAYER',
    breaks: ['K2', 'K3'],
    exposure: 0n,
    funded: 0n,
    async build(h) {
      const owner = newKeypair();
      await h.emulator.faucet({ address: owner.publicKey, mint: USDC });
      const account = ata(owner.publicKey);
      return signed(h, [createCloseAccountInstruction(account, owner.publicKey, owner.publicKey)], [owner]);
    },
  },
  {
    name: "an app program's instruction that pays a new account's rent from the fee payer (Anchor's payer = …)",
    path: '/Transaction/send',
    strictCode: 'FEE_PAYER_MISUSE',
    breaks: ['F3'],
    exposure: RENT,
    funded: RENT,
    simulated: true,
    async build(h) {
      const owner = newKeypair();
      const [account] = PublicKey.findProgramAddressSync([owner.publicKey.toBuffer(), TOKEN_PROGRAM_ID.toBuffer(), USDC.toBuffer()], APP_PROGRAM);
      const create = new TransactionInstruction({
        programId: APP_PROGRAM,
        data: Buffer.from([0]),
        keys: [
          { pubkey: FEE_PAYER, isSigner: true, isWritable: true },
          { pubkey: account, isSigner: false, isWritable: true },
          { pubkey: owner.publicKey, isSigner: false, isWritable: false },
          { pubkey: USDC, isSigner: false, isWritable: false },
          { pubkey: SystemProgram.programId, isSigner: false, isWritable: false },
          { pubkey: TOKEN_PROGRAM_ID, isSigner: false, isWritable: false },
        ],
      });
      return signed(h, [create], []);
    },
  },
];

/** The strict rules faithful recorded, with their codes, across this file's flows. */
const recorded = new Map<string, Set<string>>();

function profileSuite(profile: PolicyProfile): void {
  describe(`the ${profile} profile`, () => {
    let h: Harness;
    beforeAll(async () => {
      const reader = await createRelayEmulator({ loopback: false });
      const ataElf = (await reader.getAccount(ATA_PROGRAM))!.data;
      await reader.close();
      h = await startHarness({ policy: profile, programs: [{ programId: APP_PROGRAM.toBase58(), bytes: ataElf }] });
    });
    afterAll(() => h.close());

    for (const flow of flows) {
      it(`${profile === 'strict' ? `refuses ${flow.strictCode}` : `relays, recording ${flow.breaks.join('+')}`}: ${flow.name}`, async () => {
        const { transaction, signatures } = await flow.build(h);
        const { submissions: records } = h.emulator.services;
        const before = await lamportsOf(h, FEE_PAYER);
        const recordsBefore = records.all().length;
        const response = await h.call('POST', flow.path, { body: { signedTransaction: transaction } });
        await h.emulator.settle();
        if (profile === 'strict' || (flow.simulated && ENGINE === 'bankrun')) {
          expect(response.status, JSON.stringify(response.body)).toBe(422);
          if (profile === 'faithful') expect(response.body.detail).toContain('the bankrun engine cannot show what a simulation takes from it');
          expect(response.body.code).toBe(flow.strictCode);
          expect(await lamportsOf(h, FEE_PAYER)).toBe(before);
          expect(records.all().length).toBe(recordsBefore);
          return;
        }
        expect(response.status, JSON.stringify(response.body)).toBe(200);
        const record = records.get(response.body.signature)!;
        expect(record.status, JSON.stringify(record.ledger?.logs)).toBe('processed');
        expect(record.strictBreaks.map((broken) => broken.rule)).toEqual(flow.breaks);
        for (const broken of record.strictBreaks) recorded.set(broken.rule, (recorded.get(broken.rule) ?? new Set()).add(broken.code));
        expect(record.sponsorExposure).toBe(flow.exposure);
        // The fee payer pays the fee, and the exposure is exactly the rent it funded and cannot get back.
        expect(before - (await lamportsOf(h, FEE_PAYER))).toBe(BigInt(signatures) * FEE + flow.funded);
        const [entry] = h.emulator.transactionJournal({ signature: record.signature });
        validateAgainst('EmulatorTransactionRecord', entry);
        expect(entry).toMatchObject({
          sponsorExposure: Number(flow.exposure),
          strictBreaks: flow.breaks.map((rule) => expect.objectContaining({ rule, code: expect.any(String), detail: expect.any(String) })),
        });
        await flow.landed?.(h);
      });
    }

    it('relays a CreateIdempotent of an account that exists before a transfer (gill), funding nothing and breaking nothing', async () => {
      const recipient = newKeypair();
      await h.emulator.faucet({ address: recipient.publicKey, mint: USDC });
      const before = await lamportsOf(h, FEE_PAYER);
      const { transaction } = await signed(
        h,
        [
          createAssociatedTokenAccountIdempotentInstruction(FEE_PAYER, ata(recipient.publicKey), recipient.publicKey, USDC),
          transferInstruction(ALICE, recipient.publicKey, 2n),
        ],
        [ALICE],
      );
      const response = await h.call('POST', '/Transaction/send', { body: { signedTransaction: transaction } });
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      await h.emulator.settle();
      const record = h.emulator.services.submissions.get(response.body.signature)!;
      expect(record.status).toBe('processed');
      expect(record.strictBreaks).toEqual([]);
      expect(before - (await lamportsOf(h, FEE_PAYER))).toBe(2n * FEE);
    });

    it('refuses, as strict does, a SOL transfer on Account/create (rule O1) or from the fee payer (rule F1)', async () => {
      for (const [path, instruction, signers, code] of [
        [
          '/Account/create',
          SystemProgram.transfer({ fromPubkey: ALICE.publicKey, toPubkey: newKeypair().publicKey, lamports: 1 }),
          [ALICE],
          profile === 'strict' ? 'INSTRUCTION_NOT_ALLOWED' : 'OPERATION_MISMATCH',
        ],
        ['/Transaction/send', SystemProgram.transfer({ fromPubkey: FEE_PAYER, toPubkey: ALICE.publicKey, lamports: 1 }), [], 'FEE_PAYER_MISUSE'],
      ] as const) {
        const before = await lamportsOf(h, FEE_PAYER);
        const { transaction } = await signed(h, [instruction], [...signers]);
        const response = await h.call('POST', path, { body: { signedTransaction: transaction } });
        await h.emulator.settle();
        expect([response.status, response.body.code]).toEqual([422, code]);
        expect(await lamportsOf(h, FEE_PAYER)).toBe(before);
      }
    });

    it('records nothing for the transactions both profiles relay', async () => {
      const owner = newKeypair();
      const { transaction } = await signed(h, createAtaInstructions(owner.publicKey), [owner]);
      const response = await h.call('POST', '/Account/create', { body: { signedTransaction: transaction } });
      await h.emulator.settle();
      expect(h.emulator.services.submissions.get(response.body.signature)).toMatchObject({ status: 'processed', strictBreaks: [], sponsorExposure: 0n });
    });
  });
}

profileSuite('strict');
profileSuite('faithful');

describe('the faithful column of the policy table', () => {
  it('names exactly the rules the flows above saw faithful relax, each recorded with the code the table gives it', () => {
    // F3 is weighed by a simulation bankrun cannot show: there faithful refuses it (checked above).
    const relaxed = policyRules().filter((rule) => rule.faithful !== 'same' && !(rule.id === 'F3' && ENGINE === 'bankrun'));
    expect([...recorded.keys()].sort()).toEqual(relaxed.map((rule) => rule.id).sort());
    for (const rule of relaxed) expect([...recorded.get(rule.id)!], rule.id).toEqual([rule.code]);
  });
});

/** What faithful still refuses: the neighbours of the shapes it relaxes. */
describe('the faithful profile still refuses the neighbours of what it relaxes', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ policy: { profile: 'faithful', allowedMints: [USDC.toBase58()] } });
  });
  afterAll(() => h.close());

  const refused = async (path: string, instructions: TransactionInstruction[], signers: Keypair[], code: string) => {
    const before = await lamportsOf(h, FEE_PAYER);
    const { transaction } = await signed(h, instructions, signers);
    const response = await h.call('POST', path, { body: { signedTransaction: transaction } });
    await h.emulator.settle();
    expect(response.status, JSON.stringify(response.body)).toBe(422);
    expect(response.body.code).toBe(code);
    expect(await lamportsOf(h, FEE_PAYER)).toBe(before);
  };

  it('an account funded without a hand-over that receives no transfer (rule A6)', async () => {
    const owner = newKeypair();
    await refused(
      '/Account/create',
      [createAssociatedTokenAccountInstruction(FEE_PAYER, ata(owner.publicKey), owner.publicKey, USDC)],
      [],
      'CLOSE_AUTHORITY_NOT_FEE_PAYER',
    );
  });

  it('a recipient account whose close authority is handed to someone else (rule A6)', async () => {
    const recipient = newKeypair();
    const account = ata(recipient.publicKey);
    await refused(
      '/Transaction/send',
      [
        createAssociatedTokenAccountInstruction(FEE_PAYER, account, recipient.publicKey, USDC),
        createSetAuthorityInstruction(account, recipient.publicKey, AuthorityType.CloseAccount, ALICE.publicKey),
        transferInstruction(ALICE, recipient.publicKey, 1n),
      ],
      [ALICE, recipient],
      'CLOSE_AUTHORITY_NOT_FEE_PAYER',
    );
  });

  it('a wrapped-SOL account, or a SOL transfer, when allowedMints leaves the native mint out (rules A5, T1)', async () => {
    const owner = newKeypair();
    await refused('/Account/create', createAtaInstructions(owner.publicKey, NATIVE_MINT), [owner], 'MINT_NOT_ALLOWED');
    const payer = newKeypair();
    await h.emulator.faucet({ address: payer.publicKey, lamports: 1_000_000n });
    await refused(
      '/Transaction/send',
      [SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: owner.publicKey, lamports: 1 })],
      [payer],
      'MINT_NOT_ALLOWED',
    );
  });

  it(
    'a close by the owner of an account whose close authority is the fee payer (rule K3), and one listing the fee payer as a co-signer (rule ' + 'F1)',
    async () => {
      const owner = newKeypair();
      const { transaction } = await signed(h, createAtaInstructions(owner.publicKey), [owner]);
      expect((await h.call('POST', '/Account/create', { body: { signedTransaction: transaction } })).status).toBe(200);
      await h.emulator.settle();
      await refused(
        '/Account/close',
        [createCloseAccountInstruction(ata(owner.publicKey), owner.publicKey, owner.publicKey)],
        [owner],
        'CLOSE_DESTINATION_NOT_FEE_PAYER',
      );
      await refused(
        '/Account/close',
        [createCloseAccountInstruction(ata(owner.publicKey), FEE_PAYER, owner.publicKey)],
        [owner],
        'CLOSE_AUTHORITY_NOT_FEE_PAYER',
      );
      const other = newKeypair();
      await h.emulator.faucet({ address: other.publicKey, mint: USDC });
      const coSigned = new TransactionInstruction({
        programId: TOKEN_PROGRAM_ID,
        data: Buffer.from([9]),
        keys: [
          { pubkey: ata(other.publicKey), isSigner: false, isWritable: true },
          { pubkey: other.publicKey, isSigner: false, isWritable: true },
          { pubkey: other.publicKey, isSigner: true, isWritable: false },
          { pubkey: FEE_PAYER, isSigner: true, isWritable: false },
        ],
      });
      await refused('/Account/close', [coSigned], [other], 'FEE_PAYER_MISUSE');
    },
  );
});
