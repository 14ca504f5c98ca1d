import { PublicKey } from '@solana/web3.js';
import type { LedgerAccount } from './engine.ts';

/** An account as the ledger reports it: plain data (the owner in base58), as journals and snapshots keep it. */
export interface ReportedAccount {
  lamports: bigint;
  owner: string;
  data: Uint8Array;
  executable: boolean;
}

/** Where the ledger's clock stands: enough to put a fresh ledger at the same place. */
export interface ClockMark {
  slot: bigint;
  blockHeight: bigint;
  unixTimestamp: bigint;
}

/**
 * What the ledger reports to the change feed (part `ledger`): outcomes, never requests. A processed
 * transaction reports the state it left in every account it names (and the clock after it), not
 * the transaction: replaying it writes those states, so a replay gives the same accounts whatever
 * the engine, the slot rule or the blockhash, and never runs anything twice.
 * - `write`: accounts as now stored (null: absent), and the clock when it moved;
 * - `clock`: the clock moved (warp, expiry);
 * - `issue`: a blockhash was handed out at a block height (it stays valid for 150 blocks);
 * - `expire`: every blockhash handed out so far was expired;
 * - `forget`: the set of written accounts was emptied (reset: only accounts written since count).
 */
export type LedgerChange =
  | { op: 'write'; accounts: [address: string, account: ReportedAccount | null][]; clock?: ClockMark }
  | { op: 'clock'; clock: ClockMark }
  | { op: 'issue'; blockhash: string; at: bigint }
  | { op: 'expire' }
  | { op: 'forget' };

export function reportedAccount(account: LedgerAccount | null): ReportedAccount | null {
  return account && account.lamports > 0n
    ? { lamports: account.lamports, owner: account.owner.toBase58(), data: account.data, executable: account.executable }
    : null;
}

/** The absent account as the engine takes it: 0 lamports removes an account. */
const ABSENT: LedgerAccount = { lamports: 0n, owner: PublicKey.default, data: new Uint8Array(), executable: false };

function ledgerAccount(account: ReportedAccount | null): LedgerAccount {
  return account ? { lamports: account.lamports, owner: new PublicKey(account.owner), data: account.data, executable: account.executable } : ABSENT;
}

/** The ledger operations a replay needs (see Ledger). */
export interface ReplayTarget {
  setAccounts(writes: { address: PublicKey; account: LedgerAccount }[], options: { protectedAccounts: 'skip'; exact: true }): Promise<void>;
  forgetWrites(): void;
  restoreClock(clock: ClockMark): Promise<void>;
  restoreBlockhashes(change: { issued: [string, bigint][] } | { expired: true }): void;
}

/**
 * Redoes the ledger's reported changes on top of a restored snapshot. Account writes are gathered
 * (the last state of each account wins) and written at once, so that replaying ten thousand
 * transactions costs one write per account and one move of the clock, not one slot each.
 */
export async function replayLedgerChanges(ledger: ReplayTarget, changes: readonly unknown[]): Promise<void> {
  let writes = new Map<string, ReportedAccount | null>();
  let clock: ClockMark | null = null;
  const flush = async () => {
    if (writes.size === 0) return;
    // A write to one of the runtime's own accounts (a state saved before they were protected) is left out: it must never stop a start.
    await ledger.setAccounts(
      [...writes].map(([address, account]) => ({ address: new PublicKey(address), account: ledgerAccount(account) })),
      // As recorded: a transaction's fee is burned, and the journal's writes say so.
      { protectedAccounts: 'skip', exact: true },
    );
    writes = new Map();
  };
  for (const change of changes as LedgerChange[]) {
    if (change.op === 'write') {
      for (const [address, account] of change.accounts) writes.set(address, account);
      if (change.clock) clock = change.clock;
    } else if (change.op === 'clock') {
      clock = change.clock;
    } else if (change.op === 'issue') {
      ledger.restoreBlockhashes({ issued: [[change.blockhash, change.at]] });
    } else if (change.op === 'expire') {
      ledger.restoreBlockhashes({ expired: true });
    } else {
      await flush();
      ledger.forgetWrites();
    }
  }
  await flush();
  if (clock) await ledger.restoreClock(clock);
}
