import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { http, passthrough, type HttpHandler } from 'msw';
import { bearerToken } from '../../auth/authenticate.ts';
import { RelayError } from '../../errors/relay-error.ts';
import { errorToResponse } from '../../errors/to-response.ts';
import type { EmulatorServices } from '../../services.ts';
import { createPubSubSession, type PubSubOptions } from './pubsub-session.ts';
import { acceptWebSocket } from './websocket.ts';

export interface RpcPubSubServerOptions extends PubSubOptions {
  /** Interface to bind. Default `127.0.0.1`. */
  host: string;
  /** Port; 0 picks a free one. Default 0. */
  port: number;
}

export interface RpcPubSubServer {
  /** The WebSocket URL to give clients (web3.js: `new Connection(rpcUrl, { wsEndpoint: url })`). */
  url: string;
  /**
   * MSW handlers that let the WebSocket handshake through to this server: MSW intercepts every
   * `http.request`, and the `ws` client that web3.js uses opens its connection with one.
   */
  handlers: HttpHandler[];
  close(): Promise<void>;
}

/**
 * Upgrades `request` to a Solana PubSub connection, after the same bearer-Token check as the
 * HTTP endpoint (the Token in `Authorization`, or in a `token` query parameter since browser and
 * web3.js WebSockets cannot set headers). For servers that share a port with the HTTP endpoint.
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
  const peer = acceptWebSocket(request, socket, head);
  if (!peer) return;
  const session = createPubSubSession(services, (text) => peer.send(text), options);
  peer.onMessage((text) => void session.receive(text));
  peer.onClose(() => session.close());
}

/** Serves Solana PubSub on its own port (loopback by default). */
export async function startRpcPubSub(services: EmulatorServices, options: Partial<RpcPubSubServerOptions> = {}): Promise<RpcPubSubServer> {
  const host = options.host ?? '127.0.0.1';
  const sockets = new Set<Duplex>();
  const server = createServer((_request, response) => {
    response.writeHead(426, { Upgrade: 'websocket', 'Content-Type': 'text/plain' }).end('Solana PubSub: connect with a WebSocket.');
  });
  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    void upgradeToPubSub(services, request, socket, head, options);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const authority = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  const escaped = authority.replace(/[.[\]]/g, '\\$&');
  return {
    url: `ws://${authority}`,
    handlers: [http.all(new RegExp(`^(http|ws)://${escaped}(/|$)`), () => passthrough())],
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
