import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import { bearerToken } from '../../auth/authenticate.ts';
import { RelayError } from '../../errors/relay-error.ts';
import { errorToResponse } from '../../errors/to-response.ts';
import type { EmulatorServices } from '../../services.ts';
import { createPubSubSession, type PubSubOptions } from './pubsub-session.ts';

/** Largest message accepted from a client; PubSub requests are small. */
const MAX_MESSAGE_BYTES = 1 << 20;

/**
 * The WebSocket side of every listener (RFC 6455 by the `ws` package). No server of its own
 * (`noServer`): each listener hands it the upgrades it owns, and tracks their sockets itself.
 * No permessage-deflate, as on Solana's PubSub.
 */
const websockets = new WebSocketServer({ noServer: true, clientTracking: false, maxPayload: MAX_MESSAGE_BYTES, perMessageDeflate: false });

/**
 * Upgrades `request` to a Solana PubSub connection, after the same bearer-Token check as the
 * HTTP endpoint (the Token in `Authorization`, or in a `token` query parameter since browser and
 * web3.js WebSockets cannot set headers). For servers that share a port with the HTTP endpoint:
 * the emulator's own listeners call it, and so can any node `http.Server` that mounts the core.
 */
export async function upgradeToPubSub(services: EmulatorServices, request: IncomingMessage, socket: Duplex, head: Buffer, options: Partial<PubSubOptions> = {}): Promise<void> {
  if (services.config.rpcAuth) {
    const url = new URL(request.url ?? '/', 'http://pubsub.invalid');
    const token = url.searchParams.get('token') ?? bearerToken(new Request(url, { headers: { authorization: request.headers.authorization ?? '' } }));
    try {
      if (token === null) throw new RelayError('TOKEN_INVALID', 'Send the Token from GET /Transaction/config as Authorization: Bearer <Token> or ?token=<Token>.');
      await services.tokens.verify(token);
    } catch (error) {
      const response = errorToResponse(error, { style: 'problem', instance: url.pathname });
      const body = await response.text();
      socket.end(`HTTP/1.1 ${response.status} Unauthorized\r\nContent-Type: application/problem+json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
      return;
    }
  }
  // ws answers a malformed handshake (no Sec-WebSocket-Key, another version) 400 itself.
  websockets.handleUpgrade(request, socket, head, (peer) => {
    const session = createPubSubSession(services, (text) => peer.send(text), options);
    peer.on('message', (data) => void session.receive(data.toString()));
    peer.on('close', () => session.close());
    peer.on('error', () => peer.terminate());
  });
}
