import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { isLoopbackHost } from '../controls/admin-guard.ts';
import { createRelayEmulator, type RelayEmulator } from '../emulator.ts';
import type { RelayEmulatorOptions } from '../options.ts';
import { upgradeToPubSub } from '../rpc/pubsub/pubsub-server.ts';
import { withoutTrailingSlashes } from '../http/request-url.ts';
import { serverMount } from '../http/server-mount.ts';
import { createNodeListener, type ServingGate } from './node-listener.ts';
import { StateFile, type OpenedState, type StateFileOptions } from './state-file.ts';

export const DEFAULT_PORT = 8787;
export const DEFAULT_HOST = '127.0.0.1';

export interface ServerOptions {
  /** TCP port; 0 picks a free one. Default 8787. */
  port?: number;
  /** Address to bind. Default 127.0.0.1 (loopback: the /__emulator routes need no token). */
  host?: string;
  /**
   * The origin clients use, when it differs from the bind (a container, a phone on the LAN, the
   * Android emulator's 10.0.2.2). It makes the base URL and the config's RpcUrl. Default
   * `http://<host>:<port>`, with 127.0.0.1 for a wildcard bind.
   */
  publicUrl?: string;
  /**
   * X-Admin-Token for the /__emulator routes on a non-loopback bind. Default: a random token
   * (printed in the banner). Ignored on loopback binds, where the routes are open.
   */
  adminToken?: string;
  /**
   * Origins (scheme://host[:port]) whose pages may call the /__emulator routes from a browser,
   * besides the emulator's own pages and the public URL's. Default none: any other page is refused
   * (403 ORIGIN_NOT_ALLOWED, preflights included), whatever the bind.
   */
  controlOrigins?: string[];
  /** Everything else of the emulator; `baseUrl` and `rpcUrl` come from the server's address. */
  emulator?: Omit<RelayEmulatorOptions, 'baseUrl' | 'rpcUrl'>;
  /**
   * A state file (snapshot + write-ahead journal): restored before anything is served, journaled
   * while serving, snapshotted on close. Default none.
   */
  stateFile?: Omit<StateFileOptions, 'emulator'>;
}

/** The state file could not be restored; `cause` says why. */
export class StateRestoreError extends Error {
  override readonly name = 'StateRestoreError';
}

export interface RunningServer {
  emulator: RelayEmulator;
  /** The origin, e.g. http://127.0.0.1:8787. */
  origin: string;
  host: string;
  port: number;
  /** The token the /__emulator routes require, or null when they are open (loopback bind). */
  adminToken: string | null;
  /** The state file, when one was given, and what its restore found. */
  stateFile: StateFile | null;
  restored: OpenedState | null;
  /** Stops accepting connections and waits for the requests in flight (at most a second), keeping the emulator open. */
  stopAccepting(): Promise<void>;
  /** stopAccepting(), then a last snapshot into the state file (if any), then closes the emulator. */
  close(): Promise<void>;
}

/**
 * Serves an emulator on a port: the same `fetch` as the MSW mount, on node's http server through
 * the node adapter (src/server/node-listener.ts). WebSocket upgrades at the RPC path (or `/`)
 * become Solana PubSub sessions on the same port.
 *
 * The port opens first (its number makes the base URL); until the emulator is created and its
 * state file restored, /health answers 503 `starting` and other requests wait.
 */
export async function startServer(options: ServerOptions = {}): Promise<RunningServer> {
  const host = options.host ?? DEFAULT_HOST;
  let becomeReady: (emulator: RelayEmulator | null) => void = () => undefined;
  const gate: ServingGate = { emulator: null, ready: new Promise((resolve) => (becomeReady = resolve)) };
  const mount = serverMount({ host, publicUrl: options.publicUrl ?? null, controlOrigins: options.controlOrigins ?? [] });
  const listener = createNodeListener(gate, mount);
  const server = createServer(listener);
  // Upgraded sockets leave the http server's bookkeeping: track them so that close() ends them too.
  const upgraded = new Set<Duplex>();
  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    upgraded.add(socket);
    socket.once('close', () => upgraded.delete(socket));
    // The same rule as the core's RPC route (trailing slashes ignored), with `/` accepted too.
    const path = withoutTrailingSlashes(new URL(request.url ?? '/', 'http://upgrade.invalid').pathname);
    void gate.ready.then((emulator) => {
      if (!emulator || (path !== '/' && path !== withoutTrailingSlashes(new URL(emulator.config.rpcUrl).pathname))) {
        socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
        return;
      }
      return upgradeToPubSub(emulator.services, request, socket, head);
    }).catch(() => socket.destroy());
  });
  await listen(server, options.port ?? DEFAULT_PORT, host);
  const { port } = server.address() as AddressInfo;

  const origin = (options.publicUrl ?? `http://${urlHost(host)}:${port}`).replace(/\/+$/, '');
  let emulator: RelayEmulator | null = null;
  let stateFile: StateFile | null = null;
  let restored: OpenedState | null = null;
  try {
    emulator = await createRelayEmulator({ ...options.emulator, baseUrl: `${origin}/api` });
    if (options.stateFile) {
      stateFile = new StateFile({ ...options.stateFile, emulator });
      try {
        restored = await stateFile.open();
      } catch (error) {
        throw new StateRestoreError(`cannot restore ${options.stateFile.path}: ${(error as Error).message}`, { cause: error });
      }
    }
  } catch (error) {
    becomeReady(null);
    await stop(server, upgraded);
    await emulator?.close();
    throw error;
  }
  const adminToken = isLoopbackHost(host) ? null : (options.adminToken ?? randomBytes(18).toString('base64url'));
  emulator.admin.requireToken(adminToken);
  // Ready: requests that waited are served now.
  gate.emulator = emulator;
  becomeReady(emulator);

  const running = emulator;
  const file = stateFile;
  let stopping: Promise<void> | null = null;
  let closing: Promise<void> | null = null;
  const stopAccepting = () => (stopping ??= stop(server, upgraded));
  return {
    emulator: running,
    origin,
    host,
    port,
    adminToken,
    stateFile: file,
    restored,
    stopAccepting,
    close() {
      closing ??= (async () => {
        await stopAccepting();
        await file?.close();
        await running.close();
      })();
      return closing;
    },
  };
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
function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '' ) return '127.0.0.1';
  if (host === '::' || host === '[::]') return '[::1]';
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}
