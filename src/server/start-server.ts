import { randomBytes } from 'node:crypto';
import { isLoopbackHost } from '../controls/admin-guard.ts';
import { createRelayEmulator, type RelayEmulator } from '../emulator.ts';
import type { RelayEmulatorOptions } from '../options.ts';
import { listenCore, urlHost } from './core-listener.ts';
import { DEFAULT_HOST, DEFAULT_PORT } from './defaults.ts';

export { DEFAULT_HOST, DEFAULT_PORT };

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
  /** Everything else of the emulator; `baseUrl` and `rpcUrl` come from the server's address. */
  emulator?: Omit<RelayEmulatorOptions, 'baseUrl' | 'rpcUrl' | 'loopback'>;
}

export interface RunningServer {
  emulator: RelayEmulator;
  /** The origin, e.g. http://127.0.0.1:8787. */
  origin: string;
  host: string;
  port: number;
  /** The token the /__emulator routes require, or null when they are open (loopback bind). */
  adminToken: string | null;
  /** Stops accepting connections and waits for the requests in flight (at most a second), keeping the emulator open. */
  stopAccepting(): Promise<void>;
  /** stopAccepting(), then closes the emulator. */
  close(): Promise<void>;
}

/**
 * Serves an emulator on a port: the same `fetch` as the MSW mount, on node's http server through
 * the node adapter (src/server/core-listener.ts). WebSocket upgrades at the RPC path (or `/`)
 * become Solana PubSub sessions on the same port.
 */
export async function startServer(options: ServerOptions = {}): Promise<RunningServer> {
  const host = options.host ?? DEFAULT_HOST;
  let emulator: RelayEmulator | null = null;
  const listener = await listenCore({ host, port: options.port ?? DEFAULT_PORT, emulatorOf: () => emulator });
  const { port } = listener;

  const origin = (options.publicUrl ?? `http://${urlHost(host)}:${port}`).replace(/\/+$/, '');
  try {
    // This port serves the RPC and PubSub already: no second, loopback listener.
    emulator = await createRelayEmulator({ ...options.emulator, baseUrl: `${origin}/api`, loopback: false });
  } catch (error) {
    await listener.close();
    throw error;
  }
  const adminToken = isLoopbackHost(host) ? null : (options.adminToken ?? randomBytes(18).toString('base64url'));
  emulator.admin.requireToken(adminToken);

  const running = emulator;
  let closing: Promise<void> | null = null;
  return {
    emulator: running,
    origin,
    host,
    port,
    adminToken,
    stopAccepting: () => listener.close(),
    close() {
      closing ??= (async () => {
        await listener.close();
        await running.close();
      })();
      return closing;
    },
  };
}
