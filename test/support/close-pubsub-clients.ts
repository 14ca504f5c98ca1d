import { Connection } from '@solana/web3.js';
import { afterAll } from 'vitest';

/**
 * Setup file of the fast project: after each test file, the web3.js Connections it subscribed with
 * stop their PubSub sockets. A Connection has no close(): once its emulator has closed, its
 * rpc-websockets client reconnects for ever (`ws error: connect ECONNREFUSED`), and with `isolate:
 * false` (npm run test:node-lines) it lives on into the next file of its worker, where that file's
 * MSW server refuses its reconnects as unhandled requests (decision 0006). Isolated runs lose
 * nothing by it: the file's process ends anyway.
 */
interface PubSubClient {
  setAutoReconnect(reconnect: boolean): void;
  reconnect_timer_id?: ReturnType<typeof setTimeout>;
  close(code?: number): void;
}
interface ConnectionInternals {
  _rpcWebSocket: PubSubClient;
  _subscriptionsByHash: Record<string, unknown>;
  _subscriptionCallbacksByServerSubscriptionId: Record<string, unknown>;
  _subscriptionDisposeFunctionsByClientSubscriptionId: Record<string, unknown>;
  _subscriptionHashByClientSubscriptionId: Record<string, unknown>;
  _subscriptionStateChangeCallbacksByHash: Record<string, unknown>;
  _updateSubscriptions(): Promise<void>;
}

const state = globalThis as { relayEmulatorPubSubClients?: Set<ConnectionInternals> };
const subscribed = (state.relayEmulatorPubSubClients ??= new Set());
const prototype = Connection.prototype as unknown as ConnectionInternals & { relayEmulatorTracked?: true };
if (!prototype.relayEmulatorTracked) {
  prototype.relayEmulatorTracked = true;
  const update = prototype._updateSubscriptions;
  prototype._updateSubscriptions = function (this: ConnectionInternals) {
    subscribed.add(this);
    return update.call(this);
  };
}

afterAll(() => {
  for (const connection of subscribed) {
    const socket = connection._rpcWebSocket;
    socket.setAutoReconnect(false);
    clearTimeout(socket.reconnect_timer_id);
    // No subscription left to renew, then a normal close: web3.js reconnects for neither.
    connection._subscriptionsByHash = {};
    connection._subscriptionCallbacksByServerSubscriptionId = {};
    connection._subscriptionDisposeFunctionsByClientSubscriptionId = {};
    connection._subscriptionHashByClientSubscriptionId = {};
    connection._subscriptionStateChangeCallbacksByHash = {};
    try {
      socket.close(1000);
    } catch {
      // Not open: nothing to close.
    }
  }
  subscribed.clear();
});
