import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import type { ServedCore } from '../../core/served-core.ts';
import { LOOPBACK_MOUNT, type ServerMount } from '../../base/http/server-mount.ts';
import { CLIENT_TIMEOUTS, type ClientTimeouts } from './defaults.ts';
import { createNodeListener, type ServingGate } from './node-listener.ts';

export interface CoreListenerOptions {
  host: string;
  /** 0 picks a free one. */
  port: number;
  /** What to serve: until the emulator is ready, /health answers 503 `starting` and the rest waits. */
  gate: ServingGate;
  /** What the listener tells the control routes about itself (its names, allowed origins). Default: loopback only. */
  mount?: ServerMount;
  /** Let the process exit while only this listener is open (in process). Default false. */
  unref?: boolean;
  /**
   * Serve port + 1 too: `required` takes two consecutive free ports (with `port` 0) or fails;
   * `try` serves it when it is free and reports why not otherwise. Default: one port.
   */
  nextPort?: 'required' | 'try';
  /** How long a client may take to send a request (default CLIENT_TIMEOUTS; tests shorten them). */
  timeouts?: ClientTimeouts;
}

/** A gate to listen with before the emulator exists, and the function that opens it (null: it never will be). */
export function servingGate(): { gate: ServingGate; open(emulator: ServedCore | null): void } {
  let resolve: (emulator: ServedCore | null) => void = () => undefined;
  const gate: ServingGate = { emulator: null, ready: new Promise((done) => (resolve = done)) };
  return {
    gate,
    open(emulator) {
      gate.emulator = emulator;
      resolve(emulator);
    },
  };
}

export interface CoreListener {
  host: string;
  port: number;
  /**
   * The second port, `port + 1`, serving the same (web3.js derives its PubSub endpoint there, and
   * solana-test-validator pairs 8899 with 8900); null when option `nextPort` is absent or it was taken.
   */
  nextPort: number | null;
  /** Why `port + 1` is not served when it was asked for (`try`), else null. */
  nextPortError: string | null;
  /** Stops accepting connections and waits for the requests in flight (at most a second). Idempotent. */
  close(): Promise<void>;
}

/** Tries at most this many free ports before giving up on a pair (option `nextPort: 'required'`). */
const PAIR_ATTEMPTS = 32;

/**
 * A node http server mounting the emulator's one `fetch` (through src/adapters/listen/node-listener.ts), with
 * WebSocket upgrades handed to the core (the RPC's PubSub sessions, at its path or `/`) on the same port. The
 * node server (`startServer`) and the in-process loopback listener are both this. With option
 * `nextPort`, port + 1 serves the same, since that is where web3.js looks for PubSub.
 */
export async function listenCore(options: CoreListenerOptions): Promise<CoreListener> {
  // Upgraded sockets leave the http servers' bookkeeping: track them so that close() ends them too.
  const upgraded = new Set<Duplex>();
  const listener = createNodeListener(options.gate, options.mount);
  const make = () => {
    const timeouts = options.timeouts ?? CLIENT_TIMEOUTS;
    const server = createServer(
      {
        headersTimeout: timeouts.headersMs,
        requestTimeout: timeouts.requestMs,
        keepAliveTimeout: timeouts.keepAliveMs,
        connectionsCheckingInterval: timeouts.checkEveryMs,
      },
      listener,
    );
    server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => upgrade(options, upgraded, request, socket, head));
    return server;
  };
  let servers: Server[] = [];
  let nextPortError: string | null = null;
  for (let attempt = 1; ; attempt += 1) {
    const main = make();
    await listen(main, options.port, options.host);
    servers = [main];
    if (!options.nextPort) break;
    const port = (main.address() as AddressInfo).port;
    const next = make();
    try {
      await listen(next, port + 1, options.host);
      servers.push(next);
      break;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (options.nextPort === 'required' && options.port === 0 && code === 'EADDRINUSE' && attempt < PAIR_ATTEMPTS) {
        await new Promise<void>((resolve) => main.close(() => resolve()));
        continue;
      }
      if (options.nextPort === 'required') {
        await new Promise<void>((resolve) => main.close(() => resolve()));
        throw error;
      }
      nextPortError = `port ${port + 1} is ${code === 'EADDRINUSE' ? 'in use' : `not available (${code ?? (error as Error).message})`}`;
      break;
    }
  }
  if (options.unref) for (const server of servers) server.unref();
  const { port } = servers[0]!.address() as AddressInfo;
  let closing: Promise<void> | null = null;
  return {
    host: options.host,
    port,
    nextPort: servers.length > 1 ? port + 1 : null,
    nextPortError,
    close: () => (closing ??= Promise.all(servers.map((server) => stop(server, upgraded))).then(() => undefined)),
  };
}

function upgrade(options: CoreListenerOptions, upgraded: Set<Duplex>, request: IncomingMessage, socket: Duplex, head: Buffer): void {
  upgraded.add(socket);
  socket.once('close', () => upgraded.delete(socket));
  socket.on('error', () => socket.destroy());
  void options.gate.ready
    .then(async (emulator) => {
      // The interface that serves the path takes the socket (the RPC's PubSub, at its path or `/`); else 404.
      if (!emulator || !(await emulator.upgrade(request, socket, head, options.mount ?? LOOPBACK_MOUNT))) {
        socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      }
    })
    .catch(() => socket.destroy());
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

function stop(server: Server, upgraded: Set<Duplex>): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections();
    for (const socket of upgraded) socket.destroy();
    // Give in-flight requests a moment to answer, then cut what is left.
    setTimeout(() => server.closeAllConnections(), 1_000).unref();
  });
}

/** The host as it goes in a URL: wildcard binds become 127.0.0.1, IPv6 gets brackets. */
export function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '') return '127.0.0.1';
  if (host === '::' || host === '[::]') return '[::1]';
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}
