/**
 * docs/rpc.md and the RPC agree: every method the page lists as served is answered (not -32601),
 * every method the page lists as absent is -32601, and the page lists every method the emulator
 * answers, for JSON-RPC and PubSub alike.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRelayEmulator, type RelayEmulator } from '../src/index.ts';
import { RPC_METHOD_NAMES } from '../src/interfaces/rpc/method-table.ts';
import { createPubSubSession } from '../src/interfaces/rpc/pubsub/pubsub-session.ts';

const page = readFileSync(new URL('../docs/rpc.md', import.meta.url), 'utf8');
function section(heading: string): string {
  const start = page.indexOf(heading);
  const end = page.indexOf('\n## ', start + 1);
  return page.slice(start, end === -1 ? undefined : end);
}
/** The first cells of a section's table rows (the header and divider left out). */
const tableMethods = (text: string) => [...text.matchAll(/^\| ([a-zA-Z]+) \|/gm)].map((match) => match[1]!).filter((name) => name !== 'Method');
/** The removed methods the page lists after "answered -32601 as it answers them:". */
const absentHttp = page
  .slice(page.indexOf('answered -32601 as it answers them:'))
  .split('(removed')[0]!
  .match(/get[A-Za-z0-9]+/g)!;

describe('docs/rpc.md', () => {
  let emulator: RelayEmulator;
  beforeAll(async () => {
    emulator = await createRelayEmulator();
  });
  afterAll(() => emulator.close());

  const call = async (method: string) => {
    const response = await emulator.fetch(
      new Request(emulator.config.rpcUrl, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: [] }),
      }),
    );
    return (await response.json()) as { error?: { code: number } };
  };

  it('lists exactly the JSON-RPC methods the emulator answers, and the removed ones it does not', async () => {
    const served = tableMethods(section('## JSON-RPC (HTTP)'));
    expect(served.length).toBeGreaterThan(50);
    expect([...served].sort()).toEqual([...RPC_METHOD_NAMES]);
    for (const method of served) expect((await call(method)).error?.code, method).not.toBe(-32601);
    expect(absentHttp.length).toBe(11);
    for (const method of absentHttp) expect((await call(method)).error?.code, method).toBe(-32601);
  });

  it('lists the PubSub methods it answers, and those it does not', async () => {
    const served = tableMethods(section('## PubSub (WebSocket)'));
    expect(served).toEqual([
      'accountSubscribe',
      'logsSubscribe',
      'programSubscribe',
      'rootSubscribe',
      'signatureSubscribe',
      'slotSubscribe',
      'slotsUpdatesSubscribe',
    ]);
    const answers: { id: number; error?: { code: number } }[] = [];
    const session = createPubSubSession(emulator.services, (text) => answers.push(JSON.parse(text)));
    try {
      const names = [...served, ...served.map((name) => name.replace('Subscribe', 'Unsubscribe')), 'blockSubscribe', 'voteSubscribe'];
      for (const [id, method] of names.entries()) await session.receive(JSON.stringify({ jsonrpc: '2.0', id, method, params: [] }));
      const codeOf = (method: string) => answers.find((answer) => answer.id === names.indexOf(method))?.error?.code;
      for (const method of names.slice(0, served.length * 2)) expect(codeOf(method), method).not.toBe(-32601);
      for (const method of ['blockSubscribe', 'voteSubscribe']) expect(codeOf(method), method).toBe(-32601);
    } finally {
      session.close();
    }
  });
});
