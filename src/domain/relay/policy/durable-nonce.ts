import type { VersionedTransaction } from '@solana/web3.js';
import { RelayError } from '../../../base/errors/relay-error.ts';
import { PROGRAMS, SYSTEM_INSTRUCTION } from '../programs.ts';

const NONCE_INSTRUCTIONS: ReadonlySet<number> = new Set([
  SYSTEM_INSTRUCTION.AdvanceNonceAccount,
  SYSTEM_INSTRUCTION.WithdrawNonceAccount,
  SYSTEM_INSTRUCTION.InitializeNonceAccount,
  SYSTEM_INSTRUCTION.AuthorizeNonceAccount,
  SYSTEM_INSTRUCTION.UpgradeNonceAccount,
]);

/** The System Program instruction tag of `data`, or -1 when it is too short to have one. */
export function systemInstructionTag(data: Uint8Array): number {
  return data.length >= 4 ? Buffer.from(data.buffer, data.byteOffset, data.byteLength).readUInt32LE(0) : -1;
}

export function isNonceInstruction(data: Uint8Array): boolean {
  return NONCE_INSTRUCTIONS.has(systemInstructionTag(data));
}

/**
 * Rule N1, checked before the blockhash: a durable-nonce transaction starts with
 * AdvanceNonceAccount and carries a nonce where the blockhash goes, so without this check it
 * would be refused as BLOCKHASH_NOT_FOUND, which would send its author looking in the wrong place.
 * Durable transactions stay valid until the nonce advances, so a leaked one could be replayed at
 * the fee payer's cost at any later time.
 */
export function checkDurableNonce(tx: VersionedTransaction): void {
  const { staticAccountKeys, compiledInstructions } = tx.message;
  const first = compiledInstructions[0];
  if (!first || !staticAccountKeys[first.programIdIndex]?.equals(PROGRAMS.system)) return;
  if (systemInstructionTag(first.data) === SYSTEM_INSTRUCTION.AdvanceNonceAccount) {
    throw new RelayError('DURABLE_NONCE_NOT_ALLOWED', 'Durable-nonce transactions are not relayed: use a recent blockhash (GET /Transaction/blockhash).', {
      rule: 'N1',
    });
  }
}
