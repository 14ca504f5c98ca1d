/**
 * Ledger-side checks of the Kinetic tests: what landed, read from the ledger itself (not through
 * the API under test), and the wire layout of a transaction as a table of instructions.
 */
import { PublicKey, VersionedTransaction } from '@solana/web3.js';
import { expect } from 'vitest';
import type { RelayEmulator } from '../../../src/index.ts';
import { decodeTokenAccount, type TokenAccountState } from '../../../src/ledger/token-accounts.ts';

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
 * Settles the queue and background finalizations, then checks that every signature reached a final,
 * successful status on the ledger with the fee of its signature count, and returns the fees paid.
 */
export async function settleAndCheckFinal(emulator: RelayEmulator, signatures: { signature: string; signers: number }[]): Promise<bigint> {
  await emulator.settle();
  let fees = 0n;
  for (const { signature, signers } of signatures) {
    const [entry] = emulator.transactionJournal({ signature });
    expect(entry, signature).toMatchObject({ status: 'processed', commitment: 'finalized', err: null, fee: Number(SIGNATURE_FEE) * signers });
    fees += BigInt(entry!.fee!);
  }
  return fees;
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

/** A transaction's instructions as rows of program, accounts with their flags, and data in hex. */
export function instructionTable(base64: string): { feePayer: string; signers: string[]; instructions: InstructionRow[] } {
  const tx = VersionedTransaction.deserialize(Buffer.from(base64, 'base64'));
  const { message } = tx;
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

/** TransferChecked's data: tag 12, the amount as u64 little-endian, the decimals. */
export function transferCheckedData(amount: bigint, decimals: number): string {
  const data = Buffer.alloc(10);
  data.writeUInt8(12, 0);
  data.writeBigUInt64LE(amount, 1);
  data.writeUInt8(decimals, 9);
  return data.toString('hex');
}

/** SetAuthority's data for the close authority: tag 6, authority type 3 (CloseAccount), option 1, the new authority. */
export function setCloseAuthorityData(authority: string): string {
  return `060301${Buffer.from(new PublicKey(authority).toBytes()).toString('hex')}`;
}
