import type { VersionedTransaction } from '@solana/web3.js';
import { PROGRAMS } from './programs.ts';

/** The memo field as the Solana RPC reports it: `[length] text` per memo, joined by `; `, or null. */
export function memoOf(tx: VersionedTransaction): string | null {
  const keys = tx.message.staticAccountKeys;
  const memos = tx.message.compiledInstructions
    .filter((ix) => {
      const program = keys[ix.programIdIndex];
      return program !== undefined && (program.equals(PROGRAMS.memo) || program.equals(PROGRAMS.memoV1));
    })
    .map((ix) => {
      const text = Buffer.from(ix.data).toString('utf8');
      return `[${ix.data.length}] ${text}`;
    });
  return memos.length > 0 ? memos.join('; ') : null;
}
