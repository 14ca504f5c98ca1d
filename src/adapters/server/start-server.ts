import { randomBytes } from 'node:crypto';
import { isLoopbackHost } from '../../interfaces/controls/admin-guard.ts';
import { createRelayEmulator, type RelayEmulator } from '../../assembly/emulator.ts';
import type { RelayEmulatorOptions } from '../../assembly/options.ts';
import { serverMount } from '../../base/http/server-mount.ts';
import { listenCore, servingGate, urlHost } from '../listen/core-listener.ts';
import { CLIENT_TIMEOUTS, DEFAULT_HOST, DEFAULT_PORT, type ClientTimeouts } from '../listen/defaults.ts';
import { readStateFile } from './snapshot-file.ts';
import { StateFile, type OpenedState, type StateFileOptions } from './state-file.ts';

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
  /**
   * Origins (scheme://host[:port]) whose pages may call the /__emulator routes from a browser,
   * besides the emulator's own pages and the public URL's. Default none: any other page is refused
   * (403 ORIGIN_NOT_ALLOWED, preflights included), whatever the bind.
   */
  controlOrigins?: string[];
  /**
   * A second port that serves the same core with Kora's JSON-RPC at its root, where the
   * @solana/kora SDK's default `rpcUrl` (`http://localhost:8080/`) looks: POST / there is Kora, not
   * the Solana RPC. 0 picks a free one. Default none (Kora answers at `<origin>/kora`).
   */
  koraPort?: number;
  /**
   * A port of its own for PubSub (Surfpool's `--ws-port`, 8900 by default whatever `--port`):
   * it serves the same core, and clients told the emulator's WebSocket URL are told this port.
   * Refused, in Surfpool's words, when it is taken. Default none (port + 1 and the port itself).
   */
  pubsubPort?: number;
  /** Everything else of the emulator; `baseUrl` and `rpcUrl` come from the server's address. */
  emulator?: Omit<RelayEmulatorOptions, 'baseUrl' | 'rpcUrl' | 'loopback'>;
  /**
   * A state file (snapshot + write-ahead journal): restored before anything is served, journaled
   * while serving, snapshotted on close. Default none.
   */
  stateFile?: Omit<StateFileOptions, 'emulator'>;
  /**
   * A state to start from, as `relay-emulator export` (GET /__emulator/state) writes it: checked
   * and restored before anything is served (StateRestoreError when it cannot be). Not with `stateFile`.
   */
  importFile?: string;
  /**
   * How long a client may take to send a request: its headers (20 s, counted from the connection
   * or the previous response: a connection that sends nothing is answered 408 and closed), the
   * whole request (120 s), an idle keep-alive connection (5 s); checked every 2 s. Answers take
   * as long as they take. Default CLIENT_TIMEOUTS.
   */
  clientTimeouts?: Partial<ClientTimeouts>;
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
  /** The Kora port's origin (`koraPort`), whose root is Kora's JSON-RPC, or null. */
  koraOrigin: string | null;
  /** Why port + 1 (PubSub where web3.js and gill look) is not served, or null when it is. */
  pubsubPortError: string | null;
  /** True when only this machine reaches the server (a loopback bind, no public URL): the RPC then needs no Token by default. */
  loopbackBind: boolean;
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
 * the node adapter (src/adapters/listen/core-listener.ts). WebSocket upgrades at the RPC path (or `/`)
 * become Solana PubSub sessions on the same port.
 *
 * The port opens first (its number makes the base URL); until the emulator is created and its
 * state file restored, /health answers 503 `starting` and other requests wait.
 */
export async function startServer(options: ServerOptions = {}): Promise<RunningServer> {
  const host = options.host ?? DEFAULT_HOST;
  const { gate, open } = servingGate();
  const mount = serverMount({ host, publicUrl: options.publicUrl ?? null, controlOrigins: options.controlOrigins ?? [] });
  const requested = options.port ?? DEFAULT_PORT;
  // Port + 1 serves the same (PubSub where web3.js and gill look): two free ports for --port 0, else when it is free.
  const timeouts = { ...CLIENT_TIMEOUTS, ...options.clientTimeouts };
  const listener = await listenCore({ host, port: requested, gate, mount, timeouts, nextPort: requested === 0 ? 'required' : 'try' });
  const { port } = listener;

  const origin = (options.publicUrl ?? `http://${urlHost(host)}:${port}`).replace(/\/+$/, '');
  // What a client derives from the RPC URL by itself (web3.js: the port + 1), when that port is served; else the same port.
  let pubsubUrl = listener.nextPort === null ? `${origin.replace(/^http/, 'ws')}/rpc` : nextPortUrl(`${origin}/rpc`);
  let koraListener: Awaited<ReturnType<typeof listenCore>> | null = null;
  let pubsubListener: Awaited<ReturnType<typeof listenCore>> | null = null;
  let emulator: RelayEmulator | null = null;
  let stateFile: StateFile | null = null;
  let restored: OpenedState | null = null;
  try {
    if (options.koraPort !== undefined) koraListener = await listenCore({ host, port: options.koraPort, gate, mount: { ...mount, ownedBy: 'kora' }, timeouts });
    if (options.pubsubPort !== undefined && options.pubsubPort !== listener.nextPort) {
      pubsubListener = await listenPubsub({ host, port: options.pubsubPort, gate, mount, timeouts });
      pubsubUrl = `ws://${urlHost(host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host)}:${pubsubListener.port}`;
    }
    const koraUrl = koraListener ? { koraUrl: `http://${urlHost(host)}:${koraListener.port}/` } : {};
    // This port serves the RPC and PubSub already: no second, loopback listener.
    emulator = await createRelayEmulator({ ...options.emulator, ...koraUrl, baseUrl: `${origin}/api`, loopback: false, pubsubUrl });
    if (options.importFile) await importState(emulator, options.importFile);
    if (options.stateFile) {
      stateFile = new StateFile({ ...options.stateFile, emulator });
      try {
        restored = await stateFile.open();
      } catch (error) {
        throw new StateRestoreError(`cannot restore ${options.stateFile.path}: ${(error as Error).message}`, { cause: error });
      }
    }
  } catch (error) {
    open(null);
    await listener.close();
    await koraListener?.close();
    await pubsubListener?.close();
    await emulator?.close();
    throw error;
  }
  const adminToken = isLoopbackHost(host) ? null : (options.adminToken ?? randomBytes(18).toString('base64url'));
  emulator.admin.requireToken(adminToken);
  // Ready: requests that waited are served now.
  open(emulator);

  const running = emulator;
  const file = stateFile;
  let closing: Promise<void> | null = null;
  const kora = koraListener;
  const pubsub = pubsubListener;
  const stopAccepting = async () => {
    await Promise.all([listener.close(), kora?.close(), pubsub?.close()]);
  };
  return {
    emulator: running,
    origin,
    host,
    port,
    adminToken,
    koraOrigin: kora ? `http://${urlHost(host)}:${kora.port}` : null,
    pubsubPortError: listener.nextPortError,
    loopbackBind: mount.loopbackBind,
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

/** The PubSub port of its own: taken, it is refused as Surfpool refuses it (an EADDRINUSE error, one line). */
async function listenPubsub(options: Parameters<typeof listenCore>[0]): Promise<Awaited<ReturnType<typeof listenCore>>> {
  try {
    return await listenCore(options);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    throw Object.assign(new Error(`WebSocket port ${options.port} is already in use. Try --port or --ws-port to use a different port.`), {
      code: 'EADDRINUSE',
    });
  }
}

/** The WebSocket URL web3.js derives from an RPC URL: ws(s), and an explicit port + 1. */
function nextPortUrl(rpcUrl: string): string {
  const url = new URL(rpcUrl);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  if (url.port !== '') url.port = String(Number(url.port) + 1);
  return url.href;
}

/** Restores an exported state into a fresh emulator; StateRestoreError names the file and why. */
async function importState(emulator: RelayEmulator, path: string): Promise<void> {
  let content: Awaited<ReturnType<typeof readStateFile>>;
  try {
    content = await readStateFile(path);
  } catch (error) {
    throw new StateRestoreError(`cannot import ${path}: ${(error as Error).message}`, { cause: error });
  }
  if (content === null) throw new StateRestoreError(`cannot import ${path}: no such file`);
  try {
    await emulator.restore(content);
  } catch (error) {
    throw new StateRestoreError(`cannot import ${path}: ${(error as Error).message}`, { cause: error });
  }
}
