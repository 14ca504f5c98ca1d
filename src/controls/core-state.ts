import { PublicKey, VersionedTransaction } from '@solana/web3.js';
import type { GenesisAccount, LedgerAccount } from '../ledger/engine.ts';
import { decodeTokenAccount } from '../ledger/token-accounts.ts';
import type { EmulatorServices } from '../services.ts';
import type { HistoryEntry } from '../store/history-index.ts';
import type { TokenAccountIndex } from '../store/token-account-index.ts';
import { parseSubmission } from '../store/submissions.ts';
import { ABSENT_ACCOUNT, isBuiltinAccount, toAccountState, toLedgerAccount, type AccountState } from './account-state.ts';

export interface CoreStateOptions {
  services: EmulatorServices;
  /** The accounts the ledger started with. */
  genesis: GenesisAccount[];
  /** Unix time of slot 0 and the time a slot represents, to bring the clock back on reset. */
  genesisTime: Date;
  slotMs: number;
}

interface LedgerSnapshot {
  slot: bigint;
  unixTimestamp: bigint;
  /** Every account written since genesis with its current state; null when it no longer exists. */
  accounts: { address: string; account: AccountState | null }[];
}

interface QueueSnapshot {
  latencyMs: number;
}

/** Files the genesis token accounts under their owners (at start and on reset). */
export function fileGenesisTokenAccounts(genesis: GenesisAccount[], tokenAccounts: TokenAccountIndex): void {
  for (const { address, account } of genesis) {
    const token = decodeTokenAccount(account);
    if (token) tokenAccounts.add(token.owner, address.toBase58());
  }
}

/**
 * Registers the core's stateful parts in the state registry, in the order restore needs: the
 * ledger's accounts and clock, the submissions, history, the token-account index, and the
 * queue (whose waiting jobs are the submissions still `queued`; whether it was paused is saved by
 * the controls, which pause it while they snapshot).
 *
 * Reset relies on one fact: right after genesis or a reset, the ledger holds exactly the genesis
 * accounts plus the runtime's builtins. So an account written since then goes back to its genesis
 * state, or vanishes when it has none; builtins (programs, sysvars) are never touched.
 */
export function registerCoreState(options: CoreStateOptions): void {
  const { services, genesis } = options;
  const { ledger, submissions, history, tokenAccounts, queue } = services;
  const genesisByAddress = new Map(genesis.map(({ address, account }) => [address.toBase58(), account]));

  services.state.register({
    name: 'ledger',
    async snapshot(): Promise<LedgerSnapshot> {
      const accounts: LedgerSnapshot['accounts'] = [];
      for (const address of ledger.writtenAccounts()) {
        const account = await ledger.getAccount(new PublicKey(address));
        if (!isBuiltinAccount(account)) accounts.push({ address, account: account && toAccountState(account) });
      }
      const clock = ledger.clock();
      return { slot: clock.slot, unixTimestamp: clock.unixTimestamp, accounts };
    },
    async restore(data) {
      const snapshot = data as LedgerSnapshot;
      await ledger.setAccounts(snapshot.accounts.map(({ address, account }) => ({ address: new PublicKey(address), account: account ? toLedgerAccount(account) : ABSENT_ACCOUNT })));
      // Resume at the saved slot, so every new transaction lands after the restored history.
      if (snapshot.slot > ledger.clock().slot) await ledger.warp({ slot: snapshot.slot, unixTimestamp: snapshot.unixTimestamp });
    },
    async reset() {
      const writes: { address: PublicKey; account: LedgerAccount }[] = [];
      for (const address of ledger.writtenAccounts()) {
        const key = new PublicKey(address);
        const original = genesisByAddress.get(address);
        if (original) writes.push({ address: key, account: original });
        else if (!isBuiltinAccount(await ledger.getAccount(key))) writes.push({ address: key, account: ABSENT_ACCOUNT });
      }
      // The reservoir (the faucet key) absorbs the difference: it ends up short by the fees burned since genesis.
      await ledger.setAccounts(writes);
      ledger.forgetWrites();
      // Slots only move forward; the clock goes back to its natural time for the current slot.
      const { slot } = ledger.clock();
      const genesisSeconds = BigInt(Math.floor(options.genesisTime.getTime() / 1000));
      await ledger.warp({ unixTimestamp: genesisSeconds + (slot * BigInt(options.slotMs)) / 1000n });
    },
  });

  services.state.register({
    // The state file's key for the submissions (named before they were: files keep it).
    name: 'records',
    snapshot: () => submissions.all(),
    restore(data) {
      for (const record of (data as unknown[]).map(parseSubmission)) {
        // Finalization timers do not survive a restart; a processed transaction comes back finalized.
        const commitment = record.status === 'processed' && record.commitment !== null ? 'finalized' : record.commitment;
        submissions.insert({ ...record, commitment });
      }
    },
    reset: () => submissions.clear(),
  });

  services.state.register({
    name: 'history',
    snapshot: () => history.dump(),
    restore(data) {
      for (const { entry, keys } of data as { entry: HistoryEntry; keys: string[] }[]) history.add(entry, keys);
    },
    reset: () => history.clear(),
  });

  services.state.register({
    name: 'tokenAccounts',
    snapshot: () => tokenAccounts.entries(),
    restore(data) {
      for (const [owner, accounts] of data as [string, string[]][]) for (const account of accounts) tokenAccounts.add(owner, account);
    },
    reset() {
      tokenAccounts.clear();
      fileGenesisTokenAccounts(genesis, tokenAccounts);
    },
  });

  services.state.register({
    name: 'queue',
    snapshot: (): QueueSnapshot => ({ latencyMs: queue.state().latencyMs }),
    restore(data) {
      // Acknowledged but not yet submitted when the state was saved: queue them again, in order.
      queue.setLatency((data as QueueSnapshot).latencyMs);
      for (const record of submissions.all()) {
        if (record.status === 'queued') {
          queue.enqueue({ id: record.signature, tx: VersionedTransaction.deserialize(Buffer.from(record.wire, 'base64')) });
        }
      }
    },
    reset: () => queue.clear(),
  });
}
