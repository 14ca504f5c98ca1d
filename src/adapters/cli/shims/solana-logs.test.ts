/**
 * `solana logs` against a PubSub server that misbehaves (issue 53): what is not JSON, a
 * notification without logs, an upgrade or a subscription never answered, and a stdout that stops
 * taking output. Each ends in one `Error:` line, or is printed as far as it goes; none crashes,
 * hangs, or piles up notifications in memory.
 */
import { createServer, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocketServer, type WebSocket } from 'ws';
import type { SolanaIo, SolanaTarget } from './solana-target.ts';
import { streamLogs } from './solana-logs.ts';

const SIGNATURE = '5'.repeat(87);
const notification = (value: unknown) =>
  JSON.stringify({ jsonrpc: '2.0', method: 'logsNotification', params: { result: { context: { slot: 7 }, value }, subscription: 0 } });

describe('solana logs against a misbehaving server', () => {
  const closers: (() => void)[] = [];
  afterEach(() => {
    for (const close of closers.splice(0)) close();
  });

  /** A WebSocket server on 127.0.0.1 that answers the subscription, then does what `then` says. */
  async function pubsub(then: (peer: WebSocket) => void, answer = true): Promise<string> {
    const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await new Promise((resolve) => server.once('listening', resolve));
    server.on('connection', (peer) =>
      peer.once('message', () => {
        if (answer) peer.send(JSON.stringify({ jsonrpc: '2.0', result: 0, id: 1 }));
        then(peer);
      }),
    );
    closers.push(() => server.close());
    return `ws://127.0.0.1:${(server.address() as { port: number }).port}`;
  }

  const run = (wsUrl: string, io: Partial<SolanaIo> = {}, answerMs = 300) => {
    const out = { stdout: '', stderr: '' };
    const target = { rpcUrl: 'http://127.0.0.1:1', wsUrl, keypairPath: '', commitment: 'confirmed', output: 'display' } as SolanaTarget;
    const done = streamLogs(
      { address: null, includeVotes: false },
      target,
      {
        stdout: (text) => {
          out.stdout += text;
        },
        stderr: (text) => {
          out.stderr += text;
        },
        env: {},
        ...io,
      },
      answerMs,
    );
    return { out, done };
  };

  it('prints a notification whose logs are null with no log lines, and stops at one that is not JSON', async () => {
    const url = await pubsub((peer) => {
      peer.send(notification({ signature: SIGNATURE, err: null, logs: null }));
      peer.send('{not json');
    });
    const { out, done } = run(url);
    expect(await done).toBe(1);
    expect(out.stdout).toBe(
      `Streaming transaction logs. Confirmed commitment\nTransaction executed in slot 7:\n  Signature: ${SIGNATURE}\n  Status: Ok\n  Log Messages:\n`,
    );
    expect(out.stderr).toBe(`Error: ${url}: a message that is not JSON\n`);
  });

  it('gives up on a subscription never answered, and on an upgrade never answered, in one line', async () => {
    const silent = await pubsub(() => undefined, false);
    const quiet = run(silent);
    expect(await quiet.done).toBe(1);
    expect(quiet.out.stderr).toBe(`Error: ${silent}: no answer to logsSubscribe in 0.3 s\n`);
    // A TCP server that takes the connection and says nothing: the WebSocket handshake never completes.
    const mute: Server = createServer(() => undefined);
    await new Promise<void>((resolve) => mute.listen(0, '127.0.0.1', resolve));
    closers.push(() => mute.close());
    const hung = run(`ws://127.0.0.1:${(mute.address() as { port: number }).port}`);
    expect(await hung.done).toBe(1);
    expect(hung.out.stderr).toMatch(/^Error: .*(handshake has timed out|no answer to logsSubscribe)/);
    expect(hung.out.stderr.split('\n')).toHaveLength(2);
  });

  it('reads no more while stdout is full, and goes on once it drains', async () => {
    let sent = 0;
    const url = await pubsub((peer) => {
      for (; sent < 2_000; sent += 1) peer.send(notification({ signature: SIGNATURE, err: null, logs: ['x'.repeat(1_000)] }));
      peer.close();
    });
    let drain: () => void = () => undefined;
    let printed = 0;
    const { out, done } = run(url, {
      // A pipe that is full after the banner and one notification, until it is drained.
      stdout: (text) => {
        out.stdout += text;
        printed += 1;
        return printed < 2;
      },
      whenDrained: () => new Promise<void>((resolve) => (drain = resolve)),
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    // Paused once it filled: what the socket had already read is printed (ws finishes its chunk), the
    // rest waits in the kernel's socket buffers and the server, not in this process.
    const paused = printed;
    expect(paused).toBeLessThan(200);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(printed).toBe(paused);
    for (let round = 0; round < 5_000 && printed < 2_002; round += 1) {
      drain();
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(await done).toBe(0);
    expect(printed).toBe(2_002);
  });
});
