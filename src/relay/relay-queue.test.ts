import { describe, expect, it } from 'vitest';
import { RelayQueue } from './relay-queue.ts';

function recorder() {
  const done: string[] = [];
  return { done, worker: async (job: { id: string }) => void done.push(job.id) };
}

describe('RelayQueue', () => {
  it('processes in order in the background and settles', async () => {
    const { done, worker } = recorder();
    const queue = new RelayQueue(worker, { mode: 'auto', latencyMs: 5, maxPending: 10 });
    for (const id of ['a', 'b', 'c']) queue.enqueue({ id });
    expect(done).toEqual([]);
    await queue.settle();
    expect(done).toEqual(['a', 'b', 'c']);
  });

  it('holds jobs in manual mode until step or flush, and refuses to settle while paused', async () => {
    const { done, worker } = recorder();
    const queue = new RelayQueue(worker, { mode: 'manual', latencyMs: 0, maxPending: 10 });
    queue.enqueue({ id: 'a' });
    queue.enqueue({ id: 'b' });
    queue.enqueue({ id: 'c' });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(done).toEqual([]);
    await expect(queue.settle()).rejects.toThrow(/paused with 3/);
    expect(await queue.step()).toEqual(['a']);
    expect(queue.state()).toEqual({ paused: true, pending: 2, latencyMs: 0 });
    expect(await queue.flush()).toEqual(['b', 'c']);
    await queue.settle();
  });

  it('answers QUEUE_FULL past maxPending and drops nothing it accepted', async () => {
    const { done, worker } = recorder();
    const queue = new RelayQueue(worker, { mode: 'manual', latencyMs: 0, maxPending: 2 });
    queue.enqueue({ id: 'a' });
    queue.enqueue({ id: 'b' });
    expect(() => queue.enqueue({ id: 'c' })).toThrowError(expect.objectContaining({ code: 'QUEUE_FULL' }));
    queue.resume();
    await queue.settle();
    expect(done).toEqual(['a', 'b']);
  });
});
