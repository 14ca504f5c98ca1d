import * as spl from '@solana/spl-token';
import { Keypair, PublicKey, type TransactionInstruction } from '@solana/web3.js';
import { describe, expect, it } from 'vitest';
import {
  ACCOUNT_SIZE,
  ASSOCIATED_TOKEN_PROGRAM_ID,
  associatedTokenAddress,
  closeAccount,
  createAssociatedTokenAccount,
  initializeMint2,
  MINT_SIZE,
  mintTo,
  NATIVE_MINT,
  TOKEN_2022_PROGRAM_ID,
  TOKEN_PROGRAM_ID,
  transferChecked,
} from './spl-token.ts';
import { encodeMint, encodeTokenAccount } from './token-accounts.ts';

const key = () => Keypair.generate().publicKey;
/** An instruction as bytes and flags, to compare ours with spl-token's field by field. */
const shape = (instruction: TransactionInstruction) => ({
  programId: instruction.programId.toBase58(),
  keys: instruction.keys.map((meta) => [meta.pubkey.toBase58(), meta.isSigner, meta.isWritable]),
  data: [...instruction.data],
});

describe('the SPL Token facts the emulator writes itself', () => {
  it('has spl-token’s ids and sizes', () => {
    expect([TOKEN_PROGRAM_ID, TOKEN_2022_PROGRAM_ID, ASSOCIATED_TOKEN_PROGRAM_ID, NATIVE_MINT].map(String)).toEqual(
      [spl.TOKEN_PROGRAM_ID, spl.TOKEN_2022_PROGRAM_ID, spl.ASSOCIATED_TOKEN_PROGRAM_ID, spl.NATIVE_MINT].map(String),
    );
    expect([ACCOUNT_SIZE, MINT_SIZE]).toEqual([spl.ACCOUNT_SIZE, spl.MINT_SIZE]);
  });

  it('derives the associated token address as spl-token does, for both programs and for an off-curve owner', () => {
    for (let round = 0; round < 20; round += 1) {
      const [mint, owner] = [key(), key()];
      for (const program of [spl.TOKEN_PROGRAM_ID, spl.TOKEN_2022_PROGRAM_ID]) {
        expect(associatedTokenAddress(mint, owner, program).toBase58()).toBe(spl.getAssociatedTokenAddressSync(mint, owner, true, program).toBase58());
      }
    }
    const pda = associatedTokenAddress(key(), key());
    const mint = key();
    expect(associatedTokenAddress(mint, pda).toBase58()).toBe(spl.getAssociatedTokenAddressSync(mint, pda, true).toBase58());
  });

  it('builds each instruction byte for byte as spl-token does', () => {
    const [a, b, c, d] = [key(), key(), key(), key()];
    for (const program of [spl.TOKEN_PROGRAM_ID, spl.TOKEN_2022_PROGRAM_ID]) {
      expect(shape(createAssociatedTokenAccount(a, b, c, d, { programId: program }))).toEqual(
        shape(spl.createAssociatedTokenAccountInstruction(a, b, c, d, program)),
      );
      expect(shape(createAssociatedTokenAccount(a, b, c, d, { programId: program, idempotent: true }))).toEqual(
        shape(spl.createAssociatedTokenAccountIdempotentInstruction(a, b, c, d, program)),
      );
      expect(shape(transferChecked(a, b, c, d, 2n ** 64n - 1n, 9, program))).toEqual(
        shape(spl.createTransferCheckedInstruction(a, b, c, d, 2n ** 64n - 1n, 9, [], program)),
      );
      expect(shape(mintTo(a, b, c, 12_345n, { programId: program }))).toEqual(shape(spl.createMintToInstruction(a, b, c, 12_345n, [], program)));
      expect(shape(mintTo(a, b, c, 7n, { decimals: 6, programId: program }))).toEqual(shape(spl.createMintToCheckedInstruction(a, b, c, 7n, 6, [], program)));
      expect(shape(closeAccount(a, b, c, program))).toEqual(shape(spl.createCloseAccountInstruction(a, b, c, [], program)));
      expect(shape(initializeMint2(a, 6, b, null, program))).toEqual(shape(spl.createInitializeMint2Instruction(a, 6, b, null, program)));
      expect(shape(initializeMint2(a, 0, b, c, program))).toEqual(shape(spl.createInitializeMint2Instruction(a, 0, b, c, program)));
    }
  });

  it('lays out mints and token accounts as spl-token’s layouts do', () => {
    const [a, b, c] = [key(), key(), key()];
    for (const state of [
      { decimals: 6, supply: 10n ** 15n, mintAuthority: a, freezeAuthority: b },
      { decimals: 0, supply: 2n ** 64n - 1n, mintAuthority: null, freezeAuthority: null },
    ]) {
      const theirs = Buffer.alloc(spl.MINT_SIZE);
      spl.MintLayout.encode(
        {
          mintAuthorityOption: state.mintAuthority ? 1 : 0,
          mintAuthority: state.mintAuthority ?? PublicKey.default,
          supply: state.supply,
          decimals: state.decimals,
          isInitialized: true,
          freezeAuthorityOption: state.freezeAuthority ? 1 : 0,
          freezeAuthority: state.freezeAuthority ?? PublicKey.default,
        },
        theirs,
      );
      expect([...encodeMint(state)]).toEqual([...theirs]);
    }
    for (const closeAuthority of [c, null]) {
      const theirs = Buffer.alloc(spl.ACCOUNT_SIZE);
      spl.AccountLayout.encode(
        {
          mint: a,
          owner: b,
          amount: 123_456_789n,
          delegateOption: 0,
          delegate: PublicKey.default,
          state: 1,
          isNativeOption: 0,
          isNative: 0n,
          delegatedAmount: 0n,
          closeAuthorityOption: closeAuthority ? 1 : 0,
          closeAuthority: closeAuthority ?? PublicKey.default,
        },
        theirs,
      );
      expect([...encodeTokenAccount({ mint: a, owner: b, amount: 123_456_789n, closeAuthority })]).toEqual([...theirs]);
    }
  });
});
