import { PublicKey, VersionedTransaction } from '@solana/web3.js';
import type { GenesisAccount, LedgerAccount } from '../ledger/engine.ts';
import { replayLedgerChanges } from '../ledger/ledger-changes.ts';
import { decodeTokenAccount } from '../ledger/token-accounts.ts';
import type { Fixtures } from '../fixtures/load-fixtures.ts';
import type { Ledger } from '../ledger/ledger.ts';
import type { RelayQueue } from '../relay/relay-queue.ts';
import type { SubmissionJob, SubmissionWorker } from '../relay/submission-worker.ts';
import type { StateRegistry } from '../state/state-registry.ts';
import type { HistoryIndex } from '../store/history-index.ts';
import type { HistoryEntry } from '../store/history-index.ts';

/** The core's stateful parts, and the registry they are registered in. */
export interface CoreParts {
  fixtures: Fixtures;
  ledger: Ledger;
  submissions: Submissions;
  history: HistoryIndex;
  tokenAccounts: TokenAccountIndex;
  queue: RelayQueue<SubmissionJob>;
  worker: SubmissionWorker;
  state: StateRegistry;
}

import type { TokenAccountIndex } from '../store/token-account-index.ts';
import { parseSubmission, type Submissions } from '../store/submissions.ts';
import { ABSENT_ACCOUNT, isBuiltinAccount, toAccountState, toLedgerAccount, type AccountState } from '../ledger/account-state.ts';

export interface CoreStateOptions {
  deps: CoreParts;
  /** The accounts the ledger started with. */
  genesis: GenesisAccount[];
  /** Unix time of slot 0 and the time a slot represents, to bring the clock back on reset. */
  genesisTime: Date;
  slotMs: number;
}

interface LedgerSnapshot {
  slot: bigint;
  unixTimestamp: bigint;
  /** Absent from snapshots of earlier versions (then it follows the slot). */
  blockHeight?: bigint;
  /** Blockhashes handed out and still valid, with the block height of each; absent from earlier versions. */
  blockhashes?: [string, bigint][];
  /** Every account written since genesis with its current state; null when it no longer exists. */
  accounts: { address: string; account: AccountState | null }[];
}

/** Accounts read per turn of the ledger's lock while snapshotting, so that the queue never waits long. */
const SNAPSHOT_READ_CHUNK = 32;

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
 * Queues again, once and in the order they were accepted, the transactions that were acknowledged
 * but had not reached the ledger (restore, state file). The queue ignores an id it holds already,
 * and the worker skips a submission that is no longer `queued`, so that nothing runs twice.
 */
export function requeueAcknowledged(deps: Pick<CoreParts, 'submissions' | 'queue'>): number {
  let queued = 0;
  for (const record of deps.submissions.all()) {
    if (record.status !== 'queued') continue;
    const bytes = new Uint8Array(Buffer.from(record.wire, 'base64'));
    deps.queue.enqueue({ id: record.signature, tx: VersionedTransaction.deserialize(bytes), bytes });
    queued += 1;
  }
  return queued;
}

/** Finalization timers do not survive a restart: a transaction processed before it comes back finalized. */
function finalizeRestored(submissions: Submissions): void {
  for (const record of submissions.all()) {
    if (record.status === 'processed' && record.commitment !== null && record.commitment !== 'finalized')
      submissions.update(record.signature, { commitment: 'finalized' });
  }
}

/**
 * Registers the core's stateful parts in the state registry, in the order restore needs: the
 * ledger's accounts and clock, the submissions, history, the token-account index, and the
 * queue's settings (its waiting jobs are the submissions still `queued`: see requeueAcknowledged;
 * whether it was paused is saved at the snapshot's top level).
 *
 * Reset relies on one fact: right after genesis or a reset, the ledger holds exactly the genesis
 * accounts plus the runtime's builtins. So an account written since then goes back to its genesis
 * state, or vanishes when it has none; builtins (programs, sysvars) are never touched.
 */
export function registerCoreState(options: CoreStateOptions): void {
  const { deps, genesis } = options;
  const { ledger, submissions, history, tokenAccounts, queue } = deps;
  const genesisByAddress = new Map(genesis.map(({ address, account }) => [address.toBase58(), account]));

  deps.state.register({
    name: 'ledger',
    async snapshot(): Promise<LedgerSnapshot> {
      // The clock, the blockhashes and the list of accounts are taken at once; the accounts are read
      // between transactions, a chunk per turn of the ledger's lock (whatever ran meanwhile is in the journal).
      const clock = ledger.clock();
      const blockhashes = ledger.issuedBlockhashes();
      // The reservoir always: a reset hands it what the ledger lost since genesis (fees burned) without counting it as written.
      const addresses = [...new Set([...ledger.writtenAccounts(), deps.fixtures.relay.faucet.publicKey])];
      const accounts: LedgerSnapshot['accounts'] = [];
      for (let start = 0; start < addresses.length; start += SNAPSHOT_READ_CHUNK) {
        const chunk = addresses.slice(start, start + SNAPSHOT_READ_CHUNK);
        const read = await ledger.readAccounts(chunk.map((address) => new PublicKey(address)));
        for (const [index, account] of read.entries()) {
          if (!isBuiltinAccount(account)) accounts.push({ address: chunk[index]!, account: account && toAccountState(account) });
        }
      }
      return { slot: clock.slot, unixTimestamp: clock.unixTimestamp, blockHeight: clock.blockHeight, blockhashes, accounts };
    },
    async restore(data) {
      const snapshot = data as LedgerSnapshot;
      await ledger.setAccounts(
        snapshot.accounts.map(({ address, account }) => ({ address: new PublicKey(address), account: account ? toLedgerAccount(account) : ABSENT_ACCOUNT })),
        // The snapshot's accounts as they were, the reservoir's among them: the fees burned stay burned.
        { protectedAccounts: 'skip', exact: true },
      );
      // Resume at the saved slot, so every new transaction lands after the restored history.
      await ledger.restoreClock({ slot: snapshot.slot, blockHeight: snapshot.blockHeight ?? snapshot.slot, unixTimestamp: snapshot.unixTimestamp });
      if (snapshot.blockhashes) ledger.restoreBlockhashes({ issued: snapshot.blockhashes });
    },
    replay: (changes) => replayLedgerChanges(ledger, changes),
    async reset() {
      const writes: { address: PublicKey; account: LedgerAccount }[] = [];
      for (const address of ledger.writtenAccounts()) {
        const key = new PublicKey(address);
        const original = genesisByAddress.get(address);
        if (original) writes.push({ address: key, account: original });
        else if (!isBuiltinAccount(await ledger.getAccount(key))) writes.push({ address: key, account: ABSENT_ACCOUNT });
      }
      // The reservoir (the faucet key) absorbs the difference: it ends up short by the fees burned since genesis.
      await ledger.setAccounts(writes, { protectedAccounts: 'skip' });
      ledger.forgetWrites();
      // Slots only move forward; the clock goes back to its natural time for the current slot.
      const { slot } = ledger.clock();
      const genesisSeconds = BigInt(Math.floor(options.genesisTime.getTime() / 1000));
      await ledger.warp({ unixTimestamp: genesisSeconds + (slot * BigInt(options.slotMs)) / 1000n });
    },
  });

  deps.state.register({
    name: 'submissions',
    formerNames: ['records'],
    snapshot: () => submissions.all(),
    restore(data) {
      for (const record of (data as unknown[]).map(parseSubmission)) submissions.insert(record);
      finalizeRestored(submissions);
    },
    reset() {
      submissions.clear();
      // Requests waiting for a transaction learn that it is gone (EMULATOR_RESET), not at their timeout.
      deps.worker.wake();
    },
    replay(changes) {
      submissions.replay(changes);
      finalizeRestored(submissions);
    },
  });

  deps.state.register({
    name: 'history',
    snapshot: () => history.dump(),
    restore(data) {
      for (const { entry, keys } of data as { entry: HistoryEntry; keys: string[] }[]) history.add(entry, keys);
    },
    reset: () => history.clear(),
    replay: (changes) => history.replay(changes),
  });

  deps.state.register({
    name: 'tokenAccounts',
    snapshot: () => tokenAccounts.entries(),
    restore(data) {
      for (const [owner, accounts] of data as [string, string[]][]) for (const account of accounts) tokenAccounts.add(owner, account);
    },
    reset() {
      tokenAccounts.clear();
      fileGenesisTokenAccounts(genesis, tokenAccounts);
    },
    replay: (changes) => tokenAccounts.replay(changes),
  });

  deps.state.register({
    name: 'queue',
    snapshot: (): QueueSnapshot => ({ latencyMs: queue.state().latencyMs }),
    restore(data) {
      queue.setLatency((data as QueueSnapshot).latencyMs);
    },
    reset: () => queue.clear(),
    replay: (changes) => queue.replay(changes),
  });
}
