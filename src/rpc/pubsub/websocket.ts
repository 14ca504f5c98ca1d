import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';

const GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';
/** Largest message accepted from a client; PubSub requests are small. */
const MAX_MESSAGE_BYTES = 1 << 20;

const OPCODE = { continuation: 0x0, text: 0x1, binary: 0x2, close: 0x8, ping: 0x9, pong: 0xa } as const;

/** A server-side WebSocket (RFC 6455) over an upgraded socket: text messages in and out. */
export interface WebSocketPeer {
  send(text: string): void;
  close(code?: number): void;
  onMessage(listener: (text: string) => void): void;
  onClose(listener: () => void): void;
}

/**
 * Completes the opening handshake of an `upgrade` request, or answers 400 and returns null.
 * No extensions are negotiated (permessage-deflate offers are declined by omission).
 */
export function acceptWebSocket(request: IncomingMessage, socket: Duplex, head: Buffer): WebSocketPeer | null {
  const key = request.headers['sec-websocket-key'];
  const upgrade = request.headers.upgrade?.toLowerCase();
  if (upgrade !== 'websocket' || typeof key !== 'string' || request.headers['sec-websocket-version'] !== '13') {
    socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
    return null;
  }
  const accept = createHash('sha1').update(key + GUID).digest('base64');
  socket.write(`HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`);
  return new Peer(socket, head);
}

class Peer implements WebSocketPeer {
  readonly #socket: Duplex;
  readonly #messageListeners: ((text: string) => void)[] = [];
  readonly #closeListeners: (() => void)[] = [];
  #buffer: Buffer = Buffer.alloc(0);
  #fragments: Buffer[] = [];
  #closed = false;

  constructor(socket: Duplex, head: Buffer) {
    this.#socket = socket;
    socket.on('data', (chunk: Buffer) => this.#receive(chunk));
    socket.on('close', () => this.#finish());
    socket.on('error', () => this.#finish());
    if (head.length > 0) this.#receive(head);
  }

  send(text: string): void {
    if (!this.#closed) this.#socket.write(frame(OPCODE.text, Buffer.from(text, 'utf8')));
  }

  close(code = 1000): void {
    if (this.#closed) return;
    const payload = Buffer.alloc(2);
    payload.writeUInt16BE(code);
    this.#socket.end(frame(OPCODE.close, payload));
    this.#finish();
  }

  onMessage(listener: (text: string) => void): void {
    this.#messageListeners.push(listener);
  }

  onClose(listener: () => void): void {
    this.#closeListeners.push(listener);
  }

  #finish(): void {
    if (this.#closed) return;
    this.#closed = true;
    for (const listener of this.#closeListeners) listener();
  }

  #receive(chunk: Buffer): void {
    this.#buffer = this.#buffer.length === 0 ? chunk : Buffer.concat([this.#buffer, chunk]);
    for (;;) {
      const parsed = parseFrame(this.#buffer);
      if (parsed === null) return;
      if (parsed === 'too-large') return this.close(1009);
      this.#buffer = this.#buffer.subarray(parsed.length);
      this.#handle(parsed.fin, parsed.opcode, parsed.payload);
      if (this.#closed) return;
    }
  }

  #handle(fin: boolean, opcode: number, payload: Buffer): void {
    switch (opcode) {
      case OPCODE.ping:
        this.#socket.write(frame(OPCODE.pong, payload));
        return;
      case OPCODE.pong:
        return;
      case OPCODE.close:
        this.close(payload.length >= 2 ? payload.readUInt16BE(0) : 1000);
        return;
      case OPCODE.text:
      case OPCODE.binary:
      case OPCODE.continuation: {
        this.#fragments.push(payload);
        if (!fin) return;
        const message = Buffer.concat(this.#fragments).toString('utf8');
        this.#fragments = [];
        for (const listener of this.#messageListeners) listener(message);
        return;
      }
      default:
        this.close(1002);
    }
  }
}

function parseFrame(buffer: Buffer): { fin: boolean; opcode: number; payload: Buffer; length: number } | 'too-large' | null {
  if (buffer.length < 2) return null;
  const fin = (buffer[0]! & 0x80) !== 0;
  const opcode = buffer[0]! & 0x0f;
  const masked = (buffer[1]! & 0x80) !== 0;
  let length = buffer[1]! & 0x7f;
  let offset = 2;
  if (length === 126) {
    if (buffer.length < 4) return null;
    length = buffer.readUInt16BE(2);
    offset = 4;
  } else if (length === 127) {
    if (buffer.length < 10) return null;
    const big = buffer.readBigUInt64BE(2);
    if (big > BigInt(MAX_MESSAGE_BYTES)) return 'too-large';
    length = Number(big);
    offset = 10;
  }
  if (length > MAX_MESSAGE_BYTES) return 'too-large';
  const maskOffset = offset;
  if (masked) offset += 4;
  if (buffer.length < offset + length) return null;
  const payload = Buffer.from(buffer.subarray(offset, offset + length));
  if (masked) {
    for (let index = 0; index < payload.length; index += 1) payload[index] = payload[index]! ^ buffer[maskOffset + (index % 4)]!;
  }
  return { fin, opcode, payload, length: offset + length };
}

function frame(opcode: number, payload: Buffer): Buffer {
  const length = payload.length;
  const header = length < 126 ? Buffer.alloc(2) : length < 65536 ? Buffer.alloc(4) : Buffer.alloc(10);
  header[0] = 0x80 | opcode;
  if (length < 126) {
    header[1] = length;
  } else if (length < 65536) {
    header[1] = 126;
    header.writeUInt16BE(length, 2);
  } else {
    header[1] = 127;
    header.writeBigUInt64BE(BigInt(length), 2);
  }
  return Buffer.concat([header, payload]);
}
