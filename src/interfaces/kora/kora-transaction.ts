import { type PublicKey, VersionedTransaction } from '@solana/web3.js';
import { base64Problem } from '../../base/crypto/base64.ts';
import { encodeBase58 } from '../../base/crypto/base58.ts';
import type { Ledger } from '../../domain/ledger/ledger.ts';
import { LOOKUP_TABLE_META_SIZE } from '../../domain/ledger/loaded-addresses.ts';
import { signaturesVerify } from '../rpc/decode-transaction.ts';
import { transactionErrorText } from '../rpc/transaction-error-text.ts';
import { invalidTransaction, KoraError } from './kora-error.ts';
import type { ResolvedInstruction } from './kora-instructions.ts';
import type { KoraTransaction } from './kora-instructions.ts';

/** TransactionUtil::decode_b64_transaction: standard base64, then a transaction (legacy or versioned). */
export function decodeKoraTransaction(encoded: string): VersionedTransaction {
  if (base64Problem(encoded) !== null) throw invalidTransaction('Failed to decode base64 transaction: Invalid input');
  try {
    return VersionedTransaction.deserialize(Buffer.from(encoded, 'base64'));
  } catch (error) {
    throw invalidTransaction(`Failed to deserialize transaction: ${(error as Error).message}`);
  }
}

/**
 * VersionedTransactionResolved::from_transaction: the account keys with the lookup tables' addresses
 * (read from the ledger), the instructions with their accounts resolved, and the inner instructions a
 * simulation shows (so that the program allowlist sees what runs by CPI too). A simulation that fails
 * refuses the transaction, as Kora's does.
 */
export async function resolveKoraTransaction(ledger: Ledger, tx: VersionedTransaction, sigVerify: boolean): Promise<KoraTransaction> {
  const accountKeys = tx.message.staticAccountKeys.map((key) => key.toBase58());
  if (tx.message.version !== 'legacy') {
    for (const lookup of tx.message.addressTableLookups) {
      const table = await ledger.getAccount(lookup.accountKey);
      if (!table) throw new KoraError('InvalidTransaction', `Failed to deserialize lookup table: ${lookup.accountKey.toBase58()} not found`);
      const addresses = (index: number, kind: string) => {
        const at = LOOKUP_TABLE_META_SIZE + index * 32;
        if (at + 32 > table.data.length) throw invalidTransaction(`Lookup table index ${index} out of bounds for ${kind} addresses`);
        return encodeBase58(table.data.subarray(at, at + 32));
      };
      for (const index of lookup.writableIndexes) accountKeys.push(addresses(index, 'writable'));
      for (const index of lookup.readonlyIndexes) accountKeys.push(addresses(index, 'readonly'));
    }
  }
  const outer = resolveInstructions(tx.message.compiledInstructions, accountKeys);
  // sig_verify asks the simulation to verify signatures, the fee payer's included (Kora's default is false).
  if (sigVerify && !signaturesVerify(tx)) throw invalidTransaction('Transaction simulation failed: SignatureFailure', 'simulation');
  // The engine rebinds the blockhash of what it simulates: it gets a copy.
  const simulation = await ledger.simulate(VersionedTransaction.deserialize(tx.serialize()));
  if (simulation.err !== null) throw invalidTransaction(`Transaction simulation failed: ${transactionErrorText(simulation.err)}`, 'simulation');
  const inner = (simulation.innerInstructions ?? []).flatMap((group) =>
    resolveInstructions(
      group.instructions.map(({ programIdIndex, accounts, data }) => ({ programIdIndex, accountKeyIndexes: accounts, data })),
      accountKeys,
    ),
  );
  return { tx, accountKeys, instructions: [...outer, ...inner] };
}

/** Compiled instructions with their program and accounts named (IxUtils::uncompile_instructions). */
export function resolveInstructions(
  instructions: readonly { programIdIndex: number; accountKeyIndexes: readonly number[]; data: Uint8Array }[],
  accountKeys: readonly string[],
): ResolvedInstruction[] {
  return instructions.map((instruction) => ({
    program: accountKeys[instruction.programIdIndex] ?? '',
    accounts: instruction.accountKeyIndexes.map((index) => accountKeys[index] ?? ''),
    data: instruction.data,
  }));
}

/** The fee payer's place among the signers (Kora does not assume 0). */
export function signerPosition(tx: VersionedTransaction, signer: PublicKey): number {
  const position = tx.message.staticAccountKeys.findIndex((key) => key.equals(signer));
  if (position < 0 || position >= tx.message.header.numRequiredSignatures) {
    throw invalidTransaction(`Signer ${signer.toBase58()} not found in transaction account keys`);
  }
  return position;
}
