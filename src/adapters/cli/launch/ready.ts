import type { RpcAuthMode } from '../../../domain/auth/rpc-auth.ts';
import type { RunningServer } from '../../server/start-server.ts';

/** What starts the machine-readable line: the prefix, one space, then {@link ReadyFacts} as JSON. */
export const READY_LINE_PREFIX = 'relay-emulator ready';

/** Where a running emulator answers and with what: the ready line's JSON and the ready file's content. */
export interface ReadyFacts {
  /** e.g. `http://127.0.0.1:8787` */
  origin: string;
  /** The relay's base URL, `<origin>/api`. */
  baseUrl: string;
  /** The JSON-RPC endpoint, `<origin>/rpc`. */
  rpcUrl: string;
  /**
   * PubSub (WebSocket): the RPC's port + 1, where web3.js and gill look by themselves, or the RPC's
   * own port when that one is taken (`warnings` says so). Add `?token=<Token>` where `rpcAuth` asks for it.
   */
  pubsubUrl: string;
  docsUrl: string;
  /** Kora's JSON-RPC: the `--kora-port` root when given, else `<origin>/kora`. */
  koraUrl: string;
  apiKey: string;
  feePayer: string;
  /** When the RPC and PubSub need the Token: `remote` (only through a non-loopback bind), `always` or `off`. */
  rpcAuth: RpcAuthMode;
  /** X-Admin-Token of the /__emulator routes, or null when they are open (loopback bind). */
  adminToken: string | null;
  /** The emulator's process id. */
  pid: number;
  /** What the banner warned of (port + 1 taken, …); empty when nothing. */
  warnings: string[];
}

export function readyFacts(server: RunningServer): ReadyFacts {
  const { config } = server.emulator;
  return {
    origin: server.origin,
    baseUrl: config.baseUrl,
    rpcUrl: config.rpcUrl,
    pubsubUrl: config.pubsubUrl ?? config.rpcUrl.replace(/^http/, 'ws'),
    docsUrl: `${server.origin}/docs`,
    koraUrl: config.koraUrl,
    apiKey: config.apiKey,
    feePayer: config.feePayer,
    rpcAuth: config.rpcAuth,
    adminToken: server.adminToken,
    pid: process.pid,
    warnings: serverWarnings(server),
  };
}

/** What a user should know about how the server came up: the banner prints these and the ready line lists them. */
export function serverWarnings(server: RunningServer): string[] {
  if (server.pubsubPortError === null) return [];
  const same = server.emulator.config.rpcUrl.replace(/^http/, 'ws');
  return [
    `PubSub is not served on port ${server.port + 1} (${server.pubsubPortError}), where web3.js and gill look for it by themselves: give them ` +
      `wsEndpoint ${same}, or free port ${server.port + 1}.`,
  ];
}
