import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { RunningServer } from '../server/start-server.ts';

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
  /** PubSub (WebSocket) on the same port; add `?token=<Token>` unless RPC authentication is off. */
  pubsubUrl: string;
  docsUrl: string;
  apiKey: string;
  feePayer: string;
  rpcAuth: boolean;
  /** X-Admin-Token of the /__emulator routes, or null when they are open (loopback bind). */
  adminToken: string | null;
  /** The emulator's process id. */
  pid: number;
}

export function readyFacts(server: RunningServer): ReadyFacts {
  const { config } = server.emulator;
  return {
    origin: server.origin,
    baseUrl: config.baseUrl,
    rpcUrl: config.rpcUrl,
    pubsubUrl: config.rpcUrl.replace(/^http/, 'ws'),
    docsUrl: `${server.origin}/docs`,
    apiKey: config.apiKey,
    feePayer: config.feePayer,
    rpcAuth: config.rpcAuth,
    adminToken: server.adminToken,
    pid: process.pid,
  };
}

/**
 * `--ready-file PATH`: {@link ReadyFacts} as JSON, written once the emulator answers. Written to a
 * temporary name and renamed, so that a runner polling for PATH never reads half a file; removed on
 * shutdown, and before start-up so that a stale one never announces this run.
 */
export class ReadyFile {
  constructor(readonly path: string) {}

  write(facts: ReadyFacts): void {
    mkdirSync(dirname(this.path), { recursive: true });
    const temporary = `${this.path}.${process.pid}.tmp`;
    writeFileSync(temporary, `${JSON.stringify(facts, null, 2)}\n`);
    renameSync(temporary, this.path);
  }

  remove(): void {
    rmSync(this.path, { force: true });
  }
}
