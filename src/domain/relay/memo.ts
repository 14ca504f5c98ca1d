import type { VersionedTransaction } from '@solana/web3.js';
import { addressOf } from '../../base/crypto/key-cache.ts';
import { PROGRAMS } from './programs.ts';

/** By address: a key remembers its address, where PublicKey#equals compares through bn.js, twice per instruction of every transaction. */
const MEMO_PROGRAMS = new Set([addressOf(PROGRAMS.memo), addressOf(PROGRAMS.memoV1)]);

/** The memo field as the Solana RPC reports it: `[length] text` per memo, joined by `; `, or null. */
export function memoOf(tx: VersionedTransaction): string | null {
  const keys = tx.message.staticAccountKeys;
  const memos = tx.message.compiledInstructions
    .filter((ix) => {
      const program = keys[ix.programIdIndex];
      return program !== undefined && MEMO_PROGRAMS.has(addressOf(program));
    })
    .map((ix) => {
      const text = Buffer.from(ix.data).toString('utf8');
      return `[${ix.data.length}] ${text}`;
    });
  return memos.length > 0 ? memos.join('; ') : null;
}
