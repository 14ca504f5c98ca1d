import type { VersionedTransaction } from '@solana/web3.js';
import type { ChangeReporter } from '../../domain/state/change-feed.ts';
import type { UsageLimitConfig } from './kora-config.ts';
import { KoraError } from './kora-error.ts';

/** One reported change: a wallet's count after a use, or every count cleared. */
type UsageChange = { wallet: string; count: number } | { clear: true };

/**
 * Kora 2.0.5's per-wallet usage limit (crates/lib/src/usage_limit/usage_tracker.rs), counted here
 * instead of in Redis (x-emulator-choice: `cache_url` names the store Kora would use; the emulator
 * is that store, so teams test their limits offline). Kora counts a wallet's signed transactions
 * for good (the Redis key never expires): the count lasts until the emulator's reset, and a state
 * file keeps it across restarts.
 */
export class KoraUsage {
  readonly #counts = new Map<string, number>();

  constructor(
    private readonly config: UsageLimitConfig,
    private readonly report: ChangeReporter = () => undefined,
  ) {}

  /** UsageTracker::check_transaction_usage_limit: the first signer that is not Kora's pays a use, or is refused. */
  check(tx: VersionedTransaction, koraSigners: readonly string[]): void {
    const { enabled, cache_url: cacheUrl, fallback_if_unavailable: fallback, max_transactions: max } = this.config;
    if (!enabled) return;
    // Without a cache_url Kora builds no limiter: with fallback it lets everything through, else nothing.
    if (cacheUrl === null) {
      if (!fallback) throw new KoraError('InternalServerError', 'Usage limiter unavailable and fallback disabled', 'kora.usage_limit');
      return;
    }
    const keys = tx.message.staticAccountKeys.map((key) => key.toBase58());
    if (keys.length === 0) throw new KoraError('InvalidTransaction', 'Transaction has no account keys');
    const wallet = keys.slice(0, tx.message.header.numRequiredSignatures).find((key) => !koraSigners.includes(key));
    if (wallet === undefined || max === 0) return;
    const count = this.#counts.get(wallet) ?? 0;
    if (count >= max) throw new KoraError('UsageLimitExceeded', `Wallet ${wallet} exceeded limit: ${count + 1}/${max}`, 'kora.usage_limit');
    this.#counts.set(wallet, count + 1);
    this.report({ wallet, count: count + 1 } satisfies UsageChange);
  }

  snapshot(): [string, number][] {
    return [...this.#counts];
  }

  restore(data: unknown): void {
    for (const [wallet, count] of data as [string, number][]) this.#counts.set(wallet, count);
  }

  reset(): void {
    this.#counts.clear();
    this.report({ clear: true } satisfies UsageChange);
  }

  replay(changes: readonly unknown[]): void {
    for (const change of changes as UsageChange[]) {
      if ('clear' in change) this.#counts.clear();
      else this.#counts.set(change.wallet, change.count);
    }
  }
}
