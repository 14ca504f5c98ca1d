import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { WebSocketServer } from 'ws';
import type { Socket } from 'node:net';
import { bearerToken } from '../../../domain/auth/bearer.ts';
import { tokenRequired } from '../../../domain/auth/rpc-auth.ts';
import { bareHost, isLoopbackName, LOOPBACK_MOUNT, type ServerMount } from '../../../base/http/server-mount.ts';
import { RelayError } from '../../../base/errors/relay-error.ts';
import { errorToResponse } from '../../../base/http/error-response.ts';
import type { RpcDeps } from '../rpc-deps.ts';
import { createPubSubSession, type PubSubOptions } from './pubsub-session.ts';

/** Largest message accepted from a client; PubSub requests are small. */
const MAX_MESSAGE_BYTES = 1 << 20;
/**
 * Most notification bytes a connection may leave unread (its socket buffers full) before it is
 * dropped, as a validator's queue bounds what it holds for its subscribers: a client that
 * stops reading cannot make the emulator hold its notifications without end.
 */
export const MAX_UNREAD_BYTES = 64 * 1024 * 1024;

/**
 * The WebSocket side of every listener (RFC 6455 by the `ws` package). No server of its own
 * (`noServer`): each listener hands it the upgrades it owns, and tracks their sockets itself.
 * No permessage-deflate, as on Solana's PubSub.
 */
/** A listener other machines reach, with nothing else known. */
const REMOTE_MOUNT: ServerMount = Object.freeze({ hostNames: new Set<string>(), controlOrigins: new Set<string>(), loopbackBind: false });

/** The one WebSocket server, made with the first upgrade (an emulator nobody subscribes to never loads `ws`). */
let websockets: Promise<WebSocketServer> | undefined;
function websocketServer(): Promise<WebSocketServer> {
  websockets ??= import('ws').then(
    ({ WebSocketServer }) => new WebSocketServer({ noServer: true, clientTracking: false, maxPayload: MAX_MESSAGE_BYTES, perMessageDeflate: false }),
  );
  return websockets;
}

export interface UpgradeOptions extends PubSubOptions {
  /** Notification bytes a connection may leave unread before it is closed. Default {@link MAX_UNREAD_BYTES}. */
  maxUnreadBytes: number;
  /**
   * The listener the upgrade came through, for `config.rpcAuth` (src/domain/auth/rpc-auth.ts). Default:
   * a loopback bind when the socket's local address is a loopback one, else a remote one.
   */
  mount: ServerMount;
}

/**
 * Upgrades `request` to a Solana PubSub connection, after the same bearer-Token rule as the
 * HTTP endpoint (the Token in `Authorization`, or in a `token` query parameter since browser and
 * web3.js WebSockets cannot set headers). For servers that share a port with the HTTP endpoint:
 * the emulator's own listeners call it, and so can any node `http.Server` that mounts the core.
 */
export async function upgradeToPubSub(
  deps: RpcDeps,
  request: IncomingMessage,
  socket: Duplex,
  head: Buffer,
  options: Partial<UpgradeOptions> = {},
): Promise<void> {
  const mode = deps.config.rpcAuth;
  const url = new URL(request.url ?? '/', 'http://pubsub.invalid');
  const token = mode === 'off' ? null : (url.searchParams.get('token') ?? bearerToken(request.headers.authorization ?? null));
  const mount = options.mount ?? (isLoopbackName(bareHost((socket as Partial<Socket>).localAddress ?? '')) ? LOOPBACK_MOUNT : REMOTE_MOUNT);
  if (token !== null || tokenRequired(mode, mount)) {
    try {
      if (token === null)
        throw new RelayError('TOKEN_MISSING', 'Send the Token from GET /Transaction/config as Authorization: Bearer <Token> or ?token=<Token>.');
      await deps.tokens.verify(token);
    } catch (error) {
      const response = errorToResponse(error, { style: 'problem', instance: url.pathname });
      const body = await response.text();
      socket.end(
        `HTTP/1.1 ${response.status} Unauthorized\r\nContent-Type: application/problem+json\r\nContent-Length: ` +
          `${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
      return;
    }
  }
  // ws answers a malformed handshake (no Sec-WebSocket-Key, another version) 400 itself.
  (await websocketServer()).handleUpgrade(request, socket, head, (peer) => {
    const { mount: _mount, maxUnreadBytes = MAX_UNREAD_BYTES, ...pubsub } = options;
    const session = createPubSubSession(
      deps,
      (text) => {
        if (peer.readyState !== peer.OPEN) return;
        if (peer.bufferedAmount + text.length > maxUnreadBytes) {
          // A close frame would wait behind what it does not read: the connection is dropped.
          session.close();
          peer.terminate();
          return;
        }
        peer.send(text);
      },
      pubsub,
    );
    peer.on('message', (data) => void session.receive(data.toString()));
    peer.on('close', () => session.close());
    peer.on('error', () => peer.terminate());
  });
}
