import type { AccountState } from '../../../domain/ledger/account-state.ts';
import type { SupplyOverride } from '../../rpc/rpc-deps.ts';
import type { TestControlMethods } from '../control-types.ts';
import type { AdminGuard } from '../admin-guard.ts';
import type { RpcContext } from '../../rpc/context.ts';

/** A runbook as `surfnet_getSurfnetInfo` reports it (Surfpool's `RunbookExecution`, camelCase; times in unix seconds). */
export interface RunbookExecution {
  startedAt: number;
  completedAt: number | null;
  runbookId: string;
  errors: string[] | null;
}

/** A transaction profile kept for surfnet_getTransactionProfile and surfnet_getProfileResultsByTag, by its key (a UUID or the signature). */
export type KeyedProfile = Record<string, unknown> & { key: string; slot: number };

/** What the cheatcodes need beside the controls. */
export interface CheatcodeParts {
  controls: Pick<TestControlMethods, 'getAccount' | 'setAccount' | 'warp' | 'reset' | 'deployProgram' | 'transactionJournal' | 'accountDumps'>;
  guard: AdminGuard;
  /** The account genesis put at `address` (fixtures, dumps, clones from the cache), or null. */
  genesisAccount(address: string): AccountState | null;
  /** Stops and restarts wall-clock mode's slots (no-ops when slots move only with transactions). */
  clock: { pause(): void; resume(): void };
  rentExempt(dataLength: number): Promise<bigint>;
  slot(): number;
  /** The runbooks this start stands for (Anchor 1.x waits until each has completed). */
  runbookExecutions(): RunbookExecution[];
  /** Where surfnet_setSupply leaves the figures getSupply answers. */
  supply: { current: SupplyOverride | null };
  /** The loaded IDL of a program (its workspace's), and a new one for the UI, journal and errors. */
  idls: { loaded(programId: string): Record<string, unknown> | null; register(programId: string, idl: Record<string, unknown>): void };
}

/** A cheatcode: its work, and whether it changes anything (then only a caller the controls admit may call it). */
export interface Cheatcode {
  writes: boolean;
  run(params: unknown[], context: RpcContext): unknown;
}

/**
 * What the cheatcodes remember between calls, as Surfpool's SVM keeps it: the methods disabled
 * (and whether for good), IDL versions by slot, profiles by key and tag, streamed and offline accounts.
 */
export class CheatcodeState {
  readonly disabled = new Set<string>();
  /** `surfnet_disableCheatcode("all", {lockout: true})`: every cheatcode off for the process's life. */
  lockedOut = false;
  readonly idls = new Map<string, { slot: number; idl: Record<string, unknown> }[]>();
  readonly profiles = new Map<string, KeyedProfile>();
  readonly tags = new Map<string, string[]>();
  /** Each tagged profile's tag, so that an evicted profile leaves its tag. */
  readonly tagOf = new Map<string, string>();
  readonly streamed = new Map<string, boolean>();
  readonly offline = new Set<string>();

  /** What surfnet_resetNetwork forgets (Surfpool clears its offline accounts and keeps the rest). */
  resetNetwork(): void {
    this.offline.clear();
  }
}
