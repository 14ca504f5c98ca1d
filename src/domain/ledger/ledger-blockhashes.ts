import type { ChangeReporter } from '../state/change-feed.ts';
import { BlockhashRegistry } from './blockhash-registry.ts';
import type { LedgerEngine } from './engine.ts';
import type { LedgerChange } from './ledger-changes.ts';
import type { BlockhashInfo } from './ledger-types.ts';

/**
 * The blockhashes the ledger hands out: the engine's current one, registered when handed out
 * (validity is BlockhashRegistry's rule: 150 blocks, or until expired), every hand-out and expiry
 * reported to the change feed so that a restart brings them back.
 */
export class LedgerBlockhashes {
  readonly #registry = new BlockhashRegistry();
  readonly #report: ChangeReporter;

  constructor(report: ChangeReporter) {
    this.#report = report;
  }

  /** The engine's current blockhash, handed out at `blockHeight`. */
  async latest(engine: LedgerEngine, blockHeight: bigint): Promise<BlockhashInfo> {
    const blockhash = await engine.currentBlockhash();
    const fresh = !this.#registry.has(blockhash);
    const lastValidBlockHeight = this.#registry.issue(blockhash, blockHeight);
    if (fresh) this.#report({ op: 'issue', blockhash, at: blockHeight } satisfies LedgerChange);
    return { blockhash, lastValidBlockHeight };
  }

  isValid(blockhash: string, blockHeight: bigint): boolean {
    return this.#registry.isValid(blockhash, blockHeight);
  }

  expireAll(): void {
    this.#registry.expireAll();
    this.#report({ op: 'expire' } satisfies LedgerChange);
  }

  /** Forgets blockhashes too old to be valid at `blockHeight`. */
  prune(blockHeight: bigint): void {
    this.#registry.prune(blockHeight);
  }

  entries(): [blockhash: string, issuedAt: bigint][] {
    return this.#registry.entries();
  }

  /** Brings back blockhashes handed out before a restart (restore), or forgets them all. */
  restore(change: { issued: [string, bigint][] } | { expired: true }): void {
    if ('expired' in change) {
      this.expireAll();
      return;
    }
    for (const [blockhash, at] of change.issued) {
      this.#registry.issue(blockhash, at);
      this.#report({ op: 'issue', blockhash, at } satisfies LedgerChange);
    }
  }
}
