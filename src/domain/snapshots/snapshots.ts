import { RelayError } from '../../base/errors/relay-error.ts';
import type { QueueOptions } from '../relay/relay-queue.ts';
import type { EmulatorSnapshot } from '../state/snapshot.ts';
import { requeueAcknowledged, type CoreParts } from './core-parts.ts';
import { checksumProblem, sealSnapshot } from '../state/snapshot-seal.ts';

/** reset, snapshot and restore: the test controls of the same names call these. */
export interface StateControls {
  reset(): Promise<void>;
  snapshot(): Promise<EmulatorSnapshot>;
  restore(snapshot: EmulatorSnapshot): Promise<void>;
}
type StateServices = Pick<CoreParts, 'queue' | 'worker' | 'state' | 'fixtures' | 'submissions'>;

/**
 * Every part's snapshot. Every part's snapshot() is called in the same tick, so that the parts held
 * in memory are captured at one point; then the asynchronous ones (the ledger's accounts) are
 * awaited. The queue is not held: the state file takes this while relays go on, and its journal
 * redoes whatever an asynchronous part saw change. Not sealed: the caller seals it (snapshot()),
 * or sums it as it writes it (the state file: sealedChunks).
 */
export async function takeSnapshot(deps: Pick<CoreParts, 'queue' | 'state' | 'fixtures'>): Promise<EmulatorSnapshot> {
  const queuePaused = deps.queue.state().paused;
  const savedAt = new Date().toISOString();
  const taken = deps.state.parts().map((part) => [part.name, part.snapshot()] as const);
  const parts: Record<string, unknown> = {};
  for (const [name, data] of taken) {
    const value = await data;
    if (value !== undefined) parts[name] = value;
  }
  return { format: 'relay-emulator-state', version: 2, savedAt, feePayer: deps.fixtures.relay.feePayer.publicKey, queuePaused, parts };
}

/**
 * Refuses anything that is not a snapshot this version reads, one whose checksum does not hold
 * (snapshot-seal.ts: damage, or a change not sealed again), and a snapshot of an emulator with
 * another fee payer (other fixtures): its transactions and history would be served under this
 * one's key, while every relay built for the old one is refused WRONG_FEE_PAYER.
 */
export function checkSnapshot(snapshot: EmulatorSnapshot, deps: Pick<CoreParts, 'fixtures'>): void {
  if (snapshot.format !== 'relay-emulator-state' || (snapshot.version !== 1 && snapshot.version !== 2)) {
    throw new RelayError(
      'SNAPSHOT_REFUSED',
      `Not a relay-emulator state snapshot of version 1 or 2 (format ${String(snapshot.format)}, version ${String(snapshot.version)}).`,
    );
  }
  const problem = checksumProblem(snapshot);
  if (problem)
    throw new RelayError(
      'SNAPSHOT_REFUSED',
      `This snapshot cannot be restored: ${problem}. Nothing was changed. A snapshot changed on purpose is sealed again with sealSnapshot().`,
    );
  const feePayer = deps.fixtures.relay.feePayer.publicKey;
  if (typeof snapshot.feePayer === 'string' && snapshot.feePayer !== feePayer) {
    throw new RelayError(
      'SNAPSHOT_REFUSED',
      `This state was saved by an emulator whose fee payer is ${snapshot.feePayer}; this one's is ${feePayer}. Restore it with the fixtures it was saved with.`,
    );
  }
}

/**
 * Loads a snapshot's parts into an emulator at its fixtures (fresh or reset), and its queue
 * setting. Queues nothing: the caller queues the acknowledged transactions once it is done
 * (after a journal replay, for the state file).
 */
export async function restoreParts(deps: Pick<CoreParts, 'queue' | 'state' | 'fixtures'>, snapshot: EmulatorSnapshot): Promise<void> {
  checkSnapshot(snapshot, deps);
  for (const part of deps.state.parts()) {
    const key = [part.name, ...(part.formerNames ?? [])].find((name) => name in snapshot.parts);
    if (key !== undefined) await part.restore(snapshot.parts[key]);
  }
  if (snapshot.queuePaused) deps.queue.pause();
  else deps.queue.resume();
}

/**
 * reset, snapshot and restore over every registered stateful part, with the queue held still
 * while they run (holding is not pausing: the queue's paused setting is left as it is). `queue`
 * is the queue's start-up settings, which reset brings back.
 */
export function stateControls(deps: StateServices, queueStart: Pick<QueueOptions, 'mode' | 'latencyMs'>): StateControls {
  const { queue, worker, state } = deps;

  /** Holds the queue, once the transaction being submitted (if any) is recorded, while `work` runs. */
  const held = <T>(work: () => Promise<T>): Promise<T> => queue.whileHeld(work);

  const resetParts = async (): Promise<void> => {
    queue.clear();
    await worker.settleFinalizations();
    for (const part of state.parts()) await part.reset();
    queue.setLatency(queueStart.latencyMs);
    if (queueStart.mode === 'auto') queue.resume();
  };

  return {
    reset: () => held(resetParts),

    snapshot: () => held(async () => sealSnapshot(await takeSnapshot(deps))),

    async restore(snapshot: EmulatorSnapshot) {
      checkSnapshot(snapshot, deps);
      await held(async () => {
        await resetParts();
        await restoreParts(deps, snapshot);
        // Acknowledged but not yet submitted when the snapshot was taken: queued again, in order.
        requeueAcknowledged(deps);
      });
    },
  };
}
