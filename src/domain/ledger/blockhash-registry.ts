/**
 * Blockhash validity, in one place. As on Solana, a blockhash handed out at block height H answers
 * `lastValidBlockHeight = H + MAX_PROCESSING_AGE`, and a transaction naming it is accepted while the
 * ledger's block height is at most that: 150 blocks old is valid, 151 is not. A blockhash the
 * ledger never handed out, or one expired on demand, is not valid at all. Validity depends on
 * block height only, never on how many transactions a block holds.
 */

/** Solana's MAX_PROCESSING_AGE: how many blocks a blockhash stays valid after it was handed out. */
export const MAX_PROCESSING_AGE = 150;

export class BlockhashRegistry {
  /** Block height at which each blockhash was first handed out. */
  readonly #issuedAt = new Map<string, bigint>();

  /**
   * Records that `blockhash` was handed out at `blockHeight` and answers its last valid block
   * height. Handing the same blockhash out again later does not extend its life.
   */
  issue(blockhash: string, blockHeight: bigint): bigint {
    let issuedAt = this.#issuedAt.get(blockhash);
    if (issuedAt === undefined) {
      issuedAt = blockHeight;
      this.#issuedAt.set(blockhash, issuedAt);
    }
    return lastValidBlockHeight(issuedAt);
  }

  /** True when `blockhash` was handed out (valid or not, until pruned). */
  has(blockhash: string): boolean {
    return this.#issuedAt.has(blockhash);
  }

  /** Every blockhash remembered, with the block height it was handed out at (state snapshots). */
  entries(): [blockhash: string, issuedAt: bigint][] {
    return [...this.#issuedAt];
  }

  /** True when `blockhash` was handed out and `blockHeight` has not passed its last valid block height. */
  isValid(blockhash: string, blockHeight: bigint): boolean {
    const issuedAt = this.#issuedAt.get(blockhash);
    return issuedAt !== undefined && blockHeight <= lastValidBlockHeight(issuedAt);
  }

  /** Expires every blockhash handed out so far. */
  expireAll(): void {
    this.#issuedAt.clear();
  }

  /**
   * Forgets the blockhashes that are no longer valid at `blockHeight`. Block height never goes
   * back, so they never would be again: this bounds the registry and changes no answer.
   */
  prune(blockHeight: bigint): void {
    for (const blockhash of this.#issuedAt.keys()) {
      if (!this.isValid(blockhash, blockHeight)) this.#issuedAt.delete(blockhash);
    }
  }

  /** How many blockhashes are remembered. */
  get size(): number {
    return this.#issuedAt.size;
  }
}

function lastValidBlockHeight(issuedAt: bigint): bigint {
  return issuedAt + BigInt(MAX_PROCESSING_AGE);
}
