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

  it('queues an id once while it waits or runs, and again once it is done', async () => {
    const done: string[] = [];
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const queue = new RelayQueue(
      async (job: { id: string }) => {
        if (job.id === 'a' && done.length === 0) await gate;
        done.push(job.id);
      },
      { mode: 'auto', latencyMs: 0, maxPending: 10 },
    );
    queue.enqueue({ id: 'a' });
    queue.enqueue({ id: 'a' });
    await new Promise((resolve) => setTimeout(resolve, 5));
    // 'a' runs now: queuing it again is still a no-op.
    queue.enqueue({ id: 'a' });
    queue.enqueue({ id: 'b' });
    queue.enqueue({ id: 'b' });
    expect(queue.state().pending).toBe(1);
    release();
    await queue.settle();
    expect(done).toEqual(['a', 'b']);
    queue.enqueue({ id: 'a' });
    await queue.settle();
    expect(done).toEqual(['a', 'b', 'a']);
  });

  it('holds without touching the paused setting, which alone is reported', async () => {
    const { done, worker } = recorder();
    const reported: unknown[] = [];
    const queue = new RelayQueue(worker, { mode: 'auto', latencyMs: 0, maxPending: 10 }, (change) => reported.push(change));
    queue.hold();
    queue.hold();
    queue.enqueue({ id: 'a' });
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(done).toEqual([]);
    expect(queue.state().paused).toBe(false);
    const settled = queue.settle();
    queue.release();
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(done).toEqual([]);
    queue.release();
    await settled;
    expect(done).toEqual(['a']);
    expect(reported).toEqual([]);
    queue.pause();
    queue.setLatency(7);
    queue.resume();
    expect(reported).toEqual([
      { paused: true, latencyMs: 0 },
      { paused: true, latencyMs: 7 },
      { paused: false, latencyMs: 7 },
    ]);
  });
});
