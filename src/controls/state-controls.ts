import { RelayError } from '../errors/relay-error.ts';
import type { QueueOptions } from '../relay/relay-queue.ts';
import type { EmulatorServices } from '../services.ts';
import type { EmulatorSnapshot, TestControlMethods } from './control-types.ts';

type StateControls = Pick<TestControlMethods, 'reset' | 'snapshot' | 'restore'>;

/**
 * reset, snapshot and restore over every registered stateful part, with the queue held still
 * while they run. `queue` is the queue's start-up settings, which reset brings back.
 */
export function stateControls(services: Pick<EmulatorServices, 'queue' | 'worker' | 'state' | 'fixtures'>, queueStart: Pick<QueueOptions, 'mode' | 'latencyMs'>): StateControls {
  const { queue, worker, state, fixtures } = services;

  /** Pauses the queue and waits for the transaction being submitted, if any, to be recorded. */
  const quiesce = async (): Promise<void> => {
    queue.pause();
    // settle() waits for the running job, then refuses because the queue is paused with jobs waiting.
    await queue.settle().catch(() => undefined);
  };

  const reset = async (): Promise<void> => {
    await quiesce();
    queue.clear();
    await worker.settleFinalizations();
    for (const part of state.parts()) await part.reset();
    queue.setLatency(queueStart.latencyMs);
    if (queueStart.mode === 'auto') queue.resume();
  };

  return {
    reset,

    async snapshot() {
      const queuePaused = queue.state().paused;
      await quiesce();
      try {
        const parts: Record<string, unknown> = {};
        for (const part of state.parts()) {
          const data = await part.snapshot();
          if (data !== undefined) parts[part.name] = data;
        }
        return { format: 'relay-emulator-state', version: 1, savedAt: new Date().toISOString(), feePayer: fixtures.relay.feePayer.publicKey, queuePaused, parts };
      } finally {
        if (!queuePaused) queue.resume();
      }
    },

    async restore(snapshot: EmulatorSnapshot) {
      if (snapshot.format !== 'relay-emulator-state' || snapshot.version !== 1) {
        throw new RelayError('VALIDATION_FAILED', `Not a relay-emulator state snapshot of version 1 (format ${String(snapshot.format)}, version ${String(snapshot.version)}).`);
      }
      await reset();
      queue.pause();
      for (const part of state.parts()) {
        if (part.name in snapshot.parts) await part.restore(snapshot.parts[part.name]);
      }
      if (!snapshot.queuePaused) queue.resume();
    },
  };
}
