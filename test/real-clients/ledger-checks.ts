/**
 * Ledger-side checks of the real-client tests (both interfaces), read from the ledger and the
 * transaction journal, not through the API under test, and a transaction's wire layout as a table
 * of instructions.
 */
import { PublicKey, VersionedTransaction } from '@solana/web3.js';
import { expect } from 'vitest';
import type { RelayEmulator } from '../../src/index.ts';
import { decodeTokenAccount, type TokenAccountState } from '../../src/domain/ledger/token-accounts.ts';

/** Base fee per signature, and the rent of a 165-byte token account (what an ATA creation costs its payer). */
export const SIGNATURE_FEE = 5_000n;
export const TOKEN_ACCOUNT_RENT = 2_039_280n;

export async function lamportsOf(emulator: RelayEmulator, address: PublicKey | string): Promise<bigint> {
  return (await emulator.services.ledger.getAccount(new PublicKey(address)))?.lamports ?? 0n;
}

export async function tokenAccountOf(emulator: RelayEmulator, address: PublicKey | string): Promise<TokenAccountState | null> {
  return decodeTokenAccount(await emulator.services.ledger.getAccount(new PublicKey(address)));
}

/**
 * Settles the queue and the finalizations, then checks that each signature reached `finalized`
 * without error, with the fee of its signature count; returns the journal entries ({@link feesOf}
 * sums what they paid).
 */
export async function settleAndCheckFinal(emulator: RelayEmulator, signatures: { signature: string; signers: number }[]) {
  await emulator.settle();
  return signatures.map(({ signature, signers }) => {
    const [entry] = emulator.transactionJournal({ signature });
    expect(entry, `${signature}: ${JSON.stringify(entry?.logs)}`).toMatchObject({
      status: 'processed',
      commitment: 'finalized',
      err: null,
      fee: Number(SIGNATURE_FEE) * signers,
    });
    return entry!;
  });
}

/** The fees the entries paid, in lamports. */
export function feesOf(entries: { fee: number | null }[]): bigint {
  return entries.reduce((sum, entry) => sum + BigInt(entry.fee ?? 0), 0n);
}

export interface InstructionRow {
  program: string;
  /**
   * `pubkey` followed by `s` (signer) and/or `w` (writable), e.g. `<fee payer> sw`: the flags the
   * message gives the account (a compiled message keeps one set of flags per account, the union of
   * its instructions' metas).
   */
  keys: string[];
  data: string;
}

/** A base64 transaction's fee payer, signers, and instructions as rows of program, flagged accounts and hex data. */
export function instructionTable(base64: string): { feePayer: string; signers: string[]; instructions: InstructionRow[] } {
  const { message } = VersionedTransaction.deserialize(Buffer.from(base64, 'base64'));
  const keys = message.staticAccountKeys;
  const flags = (index: number) => `${message.isAccountSigner(index) ? 's' : ''}${message.isAccountWritable(index) ? 'w' : ''}`;
  return {
    feePayer: keys[0]!.toBase58(),
    signers: keys.slice(0, message.header.numRequiredSignatures).map((key) => key.toBase58()),
    instructions: message.compiledInstructions.map((ix) => ({
      program: keys[ix.programIdIndex]!.toBase58(),
      keys: ix.accountKeyIndexes.map((index) => `${keys[index]!.toBase58()} ${flags(index)}`.trimEnd()),
      data: Buffer.from(ix.data).toString('hex'),
    })),
  };
}
