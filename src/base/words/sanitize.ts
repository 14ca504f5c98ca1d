import type { VersionedTransaction } from '@solana/web3.js';
import { addressOf } from '../crypto/key-cache.ts';

/**
 * Why Solana's sanitization refuses a transaction's shape, or null when it would not: the checks
 * of `Message::sanitize` and `SanitizedTransaction::try_create` (agave), which make sure nothing
 * downstream meets an impossible index. One function for every interface; each says it in its own
 * error form (the relay's 400 INVALID_TRANSACTION rule W3 in src/domain/relay/wire.ts, the RPC's -32602
 * `invalid transaction: …` in src/interfaces/rpc/decode-transaction.ts).
 */
export type SanitizeProblem =
  | { kind: 'signature-count'; signatures: number; required: number }
  | { kind: 'header' }
  | { kind: 'program-index'; instruction: number; programIndex: number }
  | { kind: 'account-index'; instruction: number; accountIndex: number }
  /** Agave's AccountLoadedTwice, found after the offsets are known good. */
  | { kind: 'duplicate-key' };

export function sanitizeProblem(tx: VersionedTransaction): SanitizeProblem | null {
  const { message } = tx;
  const { numRequiredSignatures, numReadonlySignedAccounts, numReadonlyUnsignedAccounts } = message.header;
  const keys = message.staticAccountKeys;
  if (numRequiredSignatures < 1 || tx.signatures.length !== numRequiredSignatures) {
    return { kind: 'signature-count', signatures: tx.signatures.length, required: numRequiredSignatures };
  }
  if (
    keys.length < numRequiredSignatures ||
    numReadonlySignedAccounts >= numRequiredSignatures ||
    numReadonlyUnsignedAccounts > keys.length - numRequiredSignatures
  ) {
    return { kind: 'header' };
  }
  let loaded = keys.length;
  if (message.version !== 'legacy') for (const lookup of message.addressTableLookups) loaded += lookup.writableIndexes.length + lookup.readonlyIndexes.length;
  for (const [index, instruction] of message.compiledInstructions.entries()) {
    if (instruction.programIdIndex === 0 || instruction.programIdIndex >= keys.length) {
      return { kind: 'program-index', instruction: index, programIndex: instruction.programIdIndex };
    }
    const outOfRange = instruction.accountKeyIndexes.find((keyIndex) => keyIndex >= loaded);
    if (outOfRange !== undefined) return { kind: 'account-index', instruction: index, accountIndex: outOfRange };
  }
  if (new Set(keys.map((key) => addressOf(key))).size !== keys.length) return { kind: 'duplicate-key' };
  return null;
}
