import {
  createAssociatedTokenAccountIdempotentInstruction,
  createCloseAccountInstruction,
  createSetAuthorityInstruction,
  AuthorityType,
  createTransferInstruction,
  TOKEN_PROGRAM_ID,
} from '@solana/spl-token';
import { ComputeBudgetProgram, Keypair, SystemProgram, type TransactionInstruction } from '@solana/web3.js';
import bs58 from 'bs58';
import { describe, expect, it } from 'vitest';
import { parseInstruction } from './parse-instruction.ts';

const key = () => Keypair.generate().publicKey;
const parse = (ix: TransactionInstruction) =>
  parseInstruction({ programId: ix.programId.toBase58(), accounts: ix.keys.map((meta) => meta.pubkey.toBase58()), data: ix.data });

describe('parseInstruction (jsonParsed)', () => {
  it('parses System createAccount and transfer with numbers, as the validator does', () => {
    const [from, to] = [key(), key()];
    expect(
      parse(SystemProgram.createAccount({ fromPubkey: from, newAccountPubkey: to, lamports: 2_039_280, space: 165, programId: TOKEN_PROGRAM_ID })),
    ).toEqual({
      program: 'system',
      programId: '11111111111111111111111111111111',
      parsed: {
        type: 'createAccount',
        info: { source: from.toBase58(), newAccount: to.toBase58(), lamports: 2_039_280, space: 165, owner: TOKEN_PROGRAM_ID.toBase58() },
      },
      stackHeight: null,
    });
    expect(parse(SystemProgram.transfer({ fromPubkey: from, toPubkey: to, lamports: 5 }))).toMatchObject({
      parsed: { type: 'transfer', info: { lamports: 5 } },
    });
  });

  it('parses SPL Token instructions, amounts as strings, multisig signers apart', () => {
    const [account, destination, owner, signerA, signerB] = [key(), key(), key(), key(), key()];
    expect(parse(createTransferInstruction(account, destination, owner, 7n)).parsed).toEqual({
      type: 'transfer',
      info: { source: account.toBase58(), destination: destination.toBase58(), amount: '7', authority: owner.toBase58() },
    });
    expect(parse(createTransferInstruction(account, destination, owner, 7n, [signerA, signerB])).parsed).toMatchObject({
      info: { multisigAuthority: owner.toBase58(), signers: [signerA.toBase58(), signerB.toBase58()] },
    });
    expect(parse(createSetAuthorityInstruction(account, owner, AuthorityType.CloseAccount, destination)).parsed).toEqual({
      type: 'setAuthority',
      info: { account: account.toBase58(), authorityType: 'closeAccount', newAuthority: destination.toBase58(), authority: owner.toBase58() },
    });
    expect(parse(createCloseAccountInstruction(account, destination, owner)).parsed).toEqual({
      type: 'closeAccount',
      info: { account: account.toBase58(), destination: destination.toBase58(), owner: owner.toBase58() },
    });
  });

  it('parses Associated Token creation, and leaves other programs partially decoded', () => {
    const [payer, ata, owner, mint] = [key(), key(), key(), key()];
    expect(parse(createAssociatedTokenAccountIdempotentInstruction(payer, ata, owner, mint))).toMatchObject({
      program: 'spl-associated-token-account',
      parsed: { type: 'createIdempotent', info: { source: payer.toBase58(), account: ata.toBase58(), wallet: owner.toBase58(), mint: mint.toBase58() } },
    });
    const budget = ComputeBudgetProgram.setComputeUnitLimit({ units: 10_000 });
    expect(parse(budget)).toEqual({ programId: budget.programId.toBase58(), accounts: [], data: bs58.encode(budget.data), stackHeight: null });
    // Truncated data: the validator's parser fails and falls back the same way.
    expect(parse({ ...createTransferInstruction(key(), key(), key(), 1n), data: Buffer.from([3, 1]) } as TransactionInstruction)).not.toHaveProperty('parsed');
  });

  it("parses p-token's own instructions by name: withdrawExcessLamports, unwrapLamports (amount optional) and batch", () => {
    const [source, destination, authority] = [key(), key(), key()].map((each) => each.toBase58());
    const token = TOKEN_PROGRAM_ID.toBase58();
    const at = (data: number[], accounts: string[]) => parseInstruction({ programId: token, accounts, data: Uint8Array.from(data) });
    expect(at([38], [source!, destination!, authority!]).parsed).toEqual({ type: 'withdrawExcessLamports', info: { source, destination, authority } });
    expect(at([45, 0], [source!, destination!, authority!]).parsed).toEqual({ type: 'unwrapLamports', info: { source, destination, authority } });
    expect(at([45, 1, 7, 0, 0, 0, 0, 0, 0, 0], [source!, destination!, authority!]).parsed).toEqual({
      type: 'unwrapLamports',
      info: { source, destination, amount: '7', authority },
    });
    // Two transfers in one batch: [accounts, length, data] each, accounts taken in turn.
    const transfer = [3, 5, 0, 0, 0, 0, 0, 0, 0];
    const batch = at(
      [255, 3, transfer.length, ...transfer, 3, transfer.length, ...transfer],
      [source!, destination!, authority!, destination!, source!, authority!],
    );
    expect(batch).toMatchObject({ program: 'spl-token', parsed: { type: 'batch' } });
    expect((batch.parsed as { info: { instructions: unknown[] } }).info.instructions).toEqual([
      { type: 'transfer', info: { source, destination, amount: '5', authority } },
      { type: 'transfer', info: { source: destination, destination: source, amount: '5', authority } },
    ]);
    // A batch that claims more accounts than it has is the partially decoded form.
    expect(at([255, 9, transfer.length, ...transfer], [source!, destination!, authority!])).not.toHaveProperty('parsed');
  });
});
