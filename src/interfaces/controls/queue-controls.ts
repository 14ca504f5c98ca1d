import { RelayError } from '../../base/errors/relay-error.ts';
import { MAX_QUEUE_LATENCY_MS, type RelayQueue } from '../../domain/relay/relay-queue.ts';
import type { SubmissionJob } from '../../domain/relay/submission-worker.ts';
import type { TestControlMethods } from './control-types.ts';

type QueueControls = Pick<TestControlMethods, 'queueState' | 'pauseQueue' | 'resumeQueue' | 'stepQueue' | 'flushQueue' | 'setQueueLatency'>;

/** The relay queue, paused, stepped, flushed and slowed by tests; each answers the queue's state. */
export function queueControls(queue: RelayQueue<SubmissionJob>): QueueControls {
  const queueState = () => queue.state();
  return {
    queueState,
    pauseQueue() {
      queue.pause();
      return queueState();
    },
    resumeQueue() {
      queue.resume();
      return queueState();
    },
    stepQueue: () => queue.step(),
    async flushQueue() {
      await queue.flush();
      return queueState();
    },
    setQueueLatency(latencyMs) {
      if (!Number.isSafeInteger(latencyMs) || latencyMs < 0 || latencyMs > MAX_QUEUE_LATENCY_MS) {
        throw new RelayError(
          'VALIDATION_FAILED',
          `latencyMs must be an integer from 0 to ${MAX_QUEUE_LATENCY_MS} (about 24.8 days, the longest delay a Node timer keeps).`,
        );
      }
      queue.setLatency(latencyMs);
      return queueState();
    },
  };
}
