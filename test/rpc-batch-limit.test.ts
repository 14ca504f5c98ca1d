import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRelayEmulator, type RelayEmulator } from '../src/index.ts';
import { MAX_BATCH_ANSWER_BYTES } from '../src/interfaces/rpc/create-rpc-handler.ts';

/** Issue 34, fuzz finding 1: a batch of 200 getLeaderSchedule calls used to build 580 MB and answer 500 after 15 s. */
describe('a JSON-RPC batch whose answer would be huge', () => {
  let emulator: RelayEmulator;
  beforeAll(async () => {
    emulator = await createRelayEmulator();
  });
  afterAll(() => emulator.close());

  it('answers every call in order, and those past 16 MiB of answers with an error instead of running them; the server keeps answering', async () => {
    const batch = Array.from({ length: 200 }, (_, id) => ({ jsonrpc: '2.0', id, method: 'getLeaderSchedule' }));
    const started = performance.now();
    const [response, health] = await Promise.all([
      fetch(emulator.config.rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(batch) }),
      fetch(`${new URL(emulator.config.rpcUrl).origin}/health`),
    ]);
    expect(response.status).toBe(200);
    expect(health.status).toBe(200);
    const text = await response.text();
    const answers = JSON.parse(text) as { id: number; result?: unknown; error?: { code: number; message: string } }[];
    expect(answers.map(({ id }) => id)).toEqual(batch.map(({ id }) => id));
    const answered = answers.filter((answer) => answer.result !== undefined);
    expect(answered.length).toBeGreaterThan(0);
    expect(answered.length).toBeLessThan(10);
    // Every answer after the first refused one is refused too, in one error's words.
    const firstRefused = answers.findIndex((answer) => answer.error);
    expect(answers.slice(firstRefused).every((answer) => answer.error?.code === -32603)).toBe(true);
    expect(answers[firstRefused]!.error!.message).toBe(
      `Batch answer too large: the batch's answers pass ${MAX_BATCH_ANSWER_BYTES} bytes at this call; send the calls from here in another request`,
    );
    expect(text.length).toBeLessThan(MAX_BATCH_ANSWER_BYTES + 1_000_000);
    // Bounded work (about 0.7 s here; 15 s and 2.5 GB before), logged for the reader, not asserted as time.
    console.log(`200 getLeaderSchedule calls: ${answered.length} answered, ${text.length} bytes, ${Math.round(performance.now() - started)} ms`);
  });

  it('still answers a batch of small calls whole', async () => {
    const batch = Array.from({ length: 50 }, (_, id) => ({ jsonrpc: '2.0', id, method: 'getSlot' }));
    const answers = (await (
      await fetch(emulator.config.rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(batch) })
    ).json()) as {
      result?: number;
    }[];
    expect(answers).toHaveLength(50);
    expect(answers.every((answer) => typeof answer.result === 'number')).toBe(true);
  });
});
