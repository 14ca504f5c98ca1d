import { AuthorityType, TOKEN_PROGRAM_ID, decodeSetAuthorityInstruction, decodeTransferCheckedInstruction } from '@solana/spl-token';
import { Keypair, Transaction } from '@solana/web3.js';
import bs58 from 'bs58';
import { describe, expect, it } from 'vitest';
import {
  associatedTokenAddress,
  buildTransaction,
  closeAccountInstruction,
  createAccountInstructions,
  isSignatureOf,
  transferInstruction,
} from './transactions.ts';

const recent = { blockhash: bs58.encode(Buffer.alloc(32, 7)), lastValidBlockHeight: 100 };

describe('transaction builders', () => {
  const feePayer = Keypair.generate();
  const owner = Keypair.generate();
  const mint = Keypair.generate().publicKey;

  it('builds the create transaction of spec 4.2, signed by the owner only', () => {
    const built = buildTransaction(feePayer.publicKey, recent, createAccountInstructions(feePayer.publicKey, owner.publicKey, mint), [owner]);
    const decoded = Transaction.from(Buffer.from(built.base64, 'base64'));
    expect(decoded.feePayer?.toBase58()).toBe(feePayer.publicKey.toBase58());
    expect(decoded.recentBlockhash).toBe(recent.blockhash);
    expect(decoded.instructions).toHaveLength(2);
    const setAuthority = decodeSetAuthorityInstruction(decoded.instructions[1]!);
    expect(setAuthority.keys.account.pubkey.toBase58()).toBe(associatedTokenAddress(owner.publicKey, mint).toBase58());
    expect(setAuthority.data.authorityType).toBe(AuthorityType.CloseAccount);
    expect(setAuthority.data.newAuthority?.toBase58()).toBe(feePayer.publicKey.toBase58());
    const signed = decoded.signatures.filter((s) => s.signature !== null).map((s) => s.publicKey.toBase58());
    expect(signed).toEqual([owner.publicKey.toBase58()]);
    expect(decoded.verifySignatures(false)).toBe(true);
  });

  it('uses TransferChecked when the decimals are known', () => {
    const ix = transferInstruction({
      source: Keypair.generate().publicKey,
      destination: Keypair.generate().publicKey,
      authority: owner,
      amount: 5n,
      mint,
      decimals: 6,
    });
    expect(decodeTransferCheckedInstruction(ix).data).toMatchObject({ amount: 5n, decimals: 6 });
    expect(closeAccountInstruction(feePayer.publicKey, mint).programId.equals(TOKEN_PROGRAM_ID)).toBe(true);
  });

  it('recognises the fee payer signature of a relayed transaction, and nothing else', () => {
    const built = buildTransaction(feePayer.publicKey, recent, createAccountInstructions(feePayer.publicKey, owner.publicKey, mint), [owner]);
    const completed = Transaction.from(Buffer.from(built.base64, 'base64'));
    completed.partialSign(feePayer);
    const feePayerSignature = bs58.encode(completed.signature!);
    expect(isSignatureOf(built, feePayer.publicKey, feePayerSignature)).toBe(true);
    const ownerSignature = bs58.encode(completed.signatures[1]!.signature!);
    expect(isSignatureOf(built, feePayer.publicKey, ownerSignature)).toBe(false);
    expect(isSignatureOf(built, feePayer.publicKey, 'not-base58-0OIl')).toBe(false);
    expect(isSignatureOf(built, Keypair.generate().publicKey, feePayerSignature)).toBe(false);
  });
});
