/**
 * Token accounts by owner. The ledger engine cannot list accounts by owner (bankrun has no
 * getProgramAccounts), so the emulator files every token account it sees: at genesis, in each
 * processed transaction's token balances, and through the test controls. Readers re-check the
 * ledger, so an account that was closed or changed hands simply drops out.
 */
export class TokenAccountIndex {
  readonly #byOwner = new Map<string, Set<string>>();

  add(owner: string, tokenAccount: string): void {
    let accounts = this.#byOwner.get(owner);
    if (!accounts) this.#byOwner.set(owner, (accounts = new Set()));
    accounts.add(tokenAccount);
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
  }
}
