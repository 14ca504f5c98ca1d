import WebSocket from 'ws';
import { transactionErrorText } from '../../../interfaces/rpc/transaction-error-text.ts';
import type { TransactionErrorJson } from '../../../domain/ledger/transaction-error.ts';
import type { SolanaIo, SolanaTarget } from './solana-target.ts';

/** How long the WebSocket handshake, and then the subscription's answer, may take. */
const ANSWER_MS = 10_000;

/**
 * `solana logs [ADDRESS] [--include-votes]`: a `logsSubscribe` over PubSub (mentioning ADDRESS,
 * else all), each notification printed as the CLI prints it, until the process is stopped (anchor
 * test kills it) or the connection drops ("Disconnected: …", exit 0, as the CLI returns). A server
 * that never answers the upgrade or the subscription, or sends what is not JSON, is one `Error:`
 * line; while stdout is full (a paused pipe) it reads no more notifications, so nothing piles up.
 */
export function streamLogs(
  what: { address: string | null; includeVotes: boolean },
  target: SolanaTarget,
  io: SolanaIo,
  answerMs: number = ANSWER_MS,
): Promise<number> {
  const filter = what.address !== null ? { mentions: [what.address] } : what.includeVotes ? 'allWithVotes' : 'all';
  const mentioning = what.address !== null ? ` mentioning ${what.address}` : what.includeVotes ? ' (including votes)' : '';
  const level = target.commitment.charAt(0).toUpperCase() + target.commitment.slice(1);
  return new Promise((resolve) => {
    const socket = new WebSocket(target.wsUrl, { handshakeTimeout: answerMs });
    let subscribed = false;
    let finished = false;
    const done = (code: number, error?: string) => {
      if (finished) return;
      finished = true;
      clearTimeout(unanswered);
      if (error !== undefined) io.stderr(`Error: ${error}\n`);
      socket.terminate();
      resolve(code);
    };
    const unanswered = setTimeout(() => done(1, `${target.wsUrl}: no answer to logsSubscribe in ${answerMs / 1000} s`), answerMs);
    socket.once('open', () => {
      socket.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'logsSubscribe', params: [filter, { commitment: target.commitment }] }));
    });
    socket.on('message', (data) => {
      let message: { result?: unknown; error?: { message: string }; params?: { result?: LogsNotification } };
      try {
        message = JSON.parse(String(data)) as typeof message;
      } catch {
        return done(1, `${target.wsUrl}: a message that is not JSON`);
      }
      if (!subscribed) {
        if (typeof message?.result !== 'number') return done(1, `UnexpectedSubscriptionResponse("msg=${String(data).slice(0, 500)}")`);
        subscribed = true;
        clearTimeout(unanswered);
        io.stdout(`Streaming transaction logs${mentioning}. ${level} commitment\n`);
        return;
      }
      const text = notificationText(message?.params?.result);
      if (text === null) return;
      // A full stdout (a paused pipe): read nothing more until it drains.
      if (io.stdout(text) === false && io.whenDrained) {
        socket.pause();
        void io.whenDrained().then(() => socket.resume());
      }
    });
    socket.once('error', (error) => done(1, error.message));
    socket.once('close', () => {
      if (subscribed && !finished) io.stdout('Disconnected: the connection closed\n');
      done(0);
    });
  });
}

/** A notification as the CLI prints it, or null for one without a transaction's logs (skipped). */
function notificationText(notification: LogsNotification | undefined): string | null {
  const value = notification?.value;
  if (!value || typeof value.signature !== 'string') return null;
  const logs = Array.isArray(value.logs) ? value.logs : [];
  return (
    `Transaction executed in slot ${notification!.context?.slot}:\n  Signature: ${value.signature}\n` +
    `  Status: ${value.err === null || value.err === undefined ? 'Ok' : transactionErrorText(value.err)}\n` +
    `  Log Messages:\n${logs.map((line) => `    ${String(line)}\n`).join('')}`
  );
}

interface LogsNotification {
  context: { slot: number };
  value: { signature: string; err: TransactionErrorJson | null; logs: string[] };
}
