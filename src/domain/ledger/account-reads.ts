import { PublicKey } from '@solana/web3.js';
import type { LedgerAccount, LedgerEngine } from './engine.ts';
import type { TokenBalanceSnapshot } from './ledger-types.ts';
import { decodeMint, decodeTokenAccount } from './token-accounts.ts';
import { addressOf } from '../../base/crypto/key-cache.ts';

/**
 * The ledger's reads of accounts: a cache the Ledger clears on every write (every write goes
 * through it, so the cache is never stale; concurrent readers of one account share one engine round
 * trip; a processed transaction's writes enter it at its commit, see {@link AccountReads.commit}),
 * mints' decimals read once (a mint's decimals never change), and token balances as the RPC
 * reports them.
 */
export class AccountReads {
  readonly #engine: LedgerEngine;
  readonly #reads = new Map<string, Promise<LedgerAccount | null>>();
  readonly #decimals = new Map<string, number>();

  constructor(engine: LedgerEngine) {
    this.#engine = engine;
  }

  /** An account's current state, through the cache. Callers must not mutate what they get. */
  read(address: PublicKey): Promise<LedgerAccount | null> {
    const key = addressOf(address);
    let read = this.#reads.get(key);
    if (!read) {
      read = this.#engine.getAccount(address);
      this.#reads.set(key, read);
      read.catch(() => {
        if (this.#reads.get(key) === read) this.#reads.delete(key);
      });
    }
    return read;
  }

  /**
   * A processed transaction's accounts as the engine holds them now, read beside the cache: until
   * {@link commit}, readers keep seeing them as they were before the transaction. Only the
   * writable ones are read again: a transaction cannot change an account it holds read-only (the
   * program, the token owner who signs), so those are still `before`'s. An engine read is most of
   * the ledger's own cost per transfer (a copy of the account out of the bank, or a bankrun round trip).
   */
  readBack(addresses: PublicKey[], before: (LedgerAccount | null)[], isWritable: (index: number) => boolean): Promise<(LedgerAccount | null)[]> {
    return Promise.all(addresses.map((address, index) => (isWritable(index) ? this.#engine.getAccount(address) : (before[index] ?? null))));
  }

  /**
   * Runs `work` (reading back and recording a transaction the engine has executed); when it fails,
   * the cached states from before the transaction are stale, and are forgotten.
   */
  async behind<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      this.clear();
      throw error;
    }
  }

  /**
   * Makes a processed transaction's writes visible, called in the same synchronous step as its
   * commit (its record, history, the token-account index). Until then its accounts read as they
   * were before it (the Ledger cached them before executing), never as the engine already holds
   * them: a reader that saw a new token account and then asked who owns it would otherwise find
   * the index without it. Only the transaction's accounts can have changed; their new states go
   * into the cache, as the next transaction's checks read the same fee payer and accounts.
   */
  commit(addresses: PublicKey[], after: (LedgerAccount | null)[]): void {
    this.#reads.clear();
    for (const [index, address] of addresses.entries()) this.#reads.set(addressOf(address), Promise.resolve(after[index] ?? null));
  }

  /** Forgets every cached read: something was written. */
  clear(): void {
    this.#reads.clear();
  }

  /** Forgets a mint's decimals: its account was written as given. */
  forgetMint(address: string): void {
    this.#decimals.delete(address);
  }

  /** Decimals of a mint, read once and cached. */
  async mintDecimals(mint: string): Promise<number | null> {
    const cached = this.#decimals.get(mint);
    if (cached !== undefined) return cached;
    const decoded = decodeMint(await this.#engine.getAccount(new PublicKey(mint)));
    if (!decoded) return null;
    this.#decimals.set(mint, decoded.decimals);
    return decoded.decimals;
  }

  /** The token accounts among `accounts` (a transaction's, by index), with their balances. */
  async tokenBalances(accounts: (LedgerAccount | null)[]): Promise<TokenBalanceSnapshot[]> {
    const balances: TokenBalanceSnapshot[] = [];
    for (const [accountIndex, account] of accounts.entries()) {
      const token = decodeTokenAccount(account);
      if (!token) continue;
      balances.push({
        accountIndex,
        mint: token.mint,
        owner: token.owner,
        programId: token.programId,
        amount: token.amount,
        decimals: (await this.mintDecimals(token.mint)) ?? 0,
      });
    }
    return balances;
  }
}
