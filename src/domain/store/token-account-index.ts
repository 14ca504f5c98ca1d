import type { ChangeReporter } from '../state/change-feed.ts';

/** A change to the index, as reported to the change feed (the state file's journal). */
export type TokenAccountsChange = { op: 'add'; owner: string; account: string } | { op: 'clear' };

/**
 * Token accounts by owner. The ledger engine cannot list accounts by owner (bankrun has no
 * getProgramAccounts), so the emulator files every token account it sees: at genesis, in each
 * processed transaction's token balances, and through the test controls. Readers re-check the
 * ledger, so an account that was closed or changed hands simply drops out.
 */
export class TokenAccountIndex {
  readonly #byOwner = new Map<string, Set<string>>();
  readonly #report: ChangeReporter;

  /** `report` hears every change (default: nobody). */
  constructor(report: ChangeReporter = () => undefined) {
    this.#report = report;
  }

  add(owner: string, tokenAccount: string): void {
    if (this.#file(owner, tokenAccount)) this.#report({ op: 'add', owner, account: tokenAccount } satisfies TokenAccountsChange);
  }

  of(owner: string): string[] {
    return [...(this.#byOwner.get(owner) ?? [])];
  }

  /** Every token account known, for state snapshots. */
  entries(): [owner: string, accounts: string[]][] {
    return [...this.#byOwner].map(([owner, accounts]) => [owner, [...accounts]]);
  }

  clear(): void {
    this.#byOwner.clear();
    this.#report({ op: 'clear' } satisfies TokenAccountsChange);
  }

  /** Redoes reported changes (journal replay), reporting nothing. */
  replay(changes: readonly unknown[]): void {
    for (const change of changes as TokenAccountsChange[]) {
      if (change.op === 'clear') this.#byOwner.clear();
      else this.#file(change.owner, change.account);
    }
  }

  /** Files the account; false when it was filed already. */
  #file(owner: string, tokenAccount: string): boolean {
    let accounts = this.#byOwner.get(owner);
    if (!accounts) this.#byOwner.set(owner, (accounts = new Set()));
    if (accounts.has(tokenAccount)) return false;
    accounts.add(tokenAccount);
    return true;
  }
}
