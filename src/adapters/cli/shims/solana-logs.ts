import WebSocket from 'ws';
import { transactionErrorText } from '../../../interfaces/rpc/transaction-error-text.ts';
import type { TransactionErrorJson } from '../../../domain/ledger/transaction-error.ts';
import type { SolanaIo, SolanaTarget } from './solana-target.ts';

/**
 * `solana logs [ADDRESS] [--include-votes]`: a `logsSubscribe` over PubSub (mentioning ADDRESS,
 * else all), each notification printed as the CLI prints it, until the process is stopped (anchor
 * test kills it) or the connection drops ("Disconnected: …", exit 0, as the CLI returns).
 */
export function streamLogs(what: { address: string | null; includeVotes: boolean }, target: SolanaTarget, io: SolanaIo): Promise<number> {
  const filter = what.address !== null ? { mentions: [what.address] } : what.includeVotes ? 'allWithVotes' : 'all';
  const mentioning = what.address !== null ? ` mentioning ${what.address}` : what.includeVotes ? ' (including votes)' : '';
  const level = target.commitment.charAt(0).toUpperCase() + target.commitment.slice(1);
  return new Promise((done) => {
    const socket = new WebSocket(target.wsUrl);
    let subscribed = false;
    socket.once('open', () => {
      socket.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'logsSubscribe', params: [filter, { commitment: target.commitment }] }));
    });
    socket.on('message', (data) => {
      const message = JSON.parse(String(data)) as { result?: unknown; error?: { message: string }; params?: { result?: LogsNotification } };
      if (!subscribed) {
        if (typeof message.result !== 'number') {
          io.stderr(`Error: UnexpectedSubscriptionResponse("msg=${String(data)}")\n`);
          socket.close();
          return done(1);
        }
        subscribed = true;
        io.stdout(`Streaming transaction logs${mentioning}. ${level} commitment\n`);
        return;
      }
      const notification = message.params?.result;
      if (!notification) return;
      const { signature, err, logs } = notification.value;
      io.stdout(
        `Transaction executed in slot ${notification.context.slot}:\n  Signature: ${signature}\n` +
          `  Status: ${err === null ? 'Ok' : transactionErrorText(err)}\n` +
          `  Log Messages:\n${logs.map((line) => `    ${line}\n`).join('')}`,
      );
    });
    socket.once('error', (error) => {
      io.stderr(`Error: ${error.message}\n`);
      done(1);
    });
    socket.once('close', () => {
      if (subscribed) io.stdout('Disconnected: the connection closed\n');
      done(0);
    });
  });
}

interface LogsNotification {
  context: { slot: number };
  value: { signature: string; err: TransactionErrorJson | null; logs: string[] };
}
