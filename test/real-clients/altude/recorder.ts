/**
 * The wire as the vendor's clients put it, through `emulator.fetch`: each test sends its requests
 * with exactly the method, path, header names and body bytes the client's source builds, and the
 * recorder keeps them so that the test can show what was sent. Each answer of the relay's API is
 * validated against openapi/relay.yaml on the way back.
 */
import type { RelayEmulator } from '../../../src/index.ts';
import { assertFetchResponseMatchesSpec } from '../../support/openapi.ts';

const CURRENT_PATHS = [
  '/Transaction/config',
  '/Transaction/blockhash',
  '/Transaction/send',
  '/Transaction/sendbatch',
  '/Account/create',
  '/Account/close',
  '/Account/getaccountinfo',
  '/Account/balance',
  '/Account/gethistory',
];

export interface SentRequest {
  method: string;
  /** Path and query, as sent. */
  path: string;
  headers: Record<string, string>;
  body: string | null;
}

export interface Answer {
  status: number;
  /** The JSON body, or the text when it is not JSON. */
  body: any;
}

export class Wire {
  readonly requests: SentRequest[] = [];
  readonly #emulator: RelayEmulator;
  readonly #origin: string;

  constructor(emulator: RelayEmulator) {
    this.#emulator = emulator;
    this.#origin = new URL(emulator.config.baseUrl).origin;
  }

  /** Sends one request: `path` is under the base URL's origin (`/api/…`), or an absolute URL (the RPC's). */
  async send(method: string, path: string, headers: Record<string, string>, body: string | null = null): Promise<Answer> {
    this.requests.push({ method, path, headers, body });
    const url = /^https?:/.test(path) ? path : `${this.#origin}${path}`;
    const response = await this.#emulator.fetch(new Request(url, { method, headers, ...(body === null ? {} : { body }) }));
    // Every answer of the current interface matches the contract (the RPC has its own tests). The
    // lower-case /account/create and /account/close are the legacy operations' paths too, so the
    // answer is validated against the current operation the client called.
    const { pathname } = new URL(url);
    const current = CURRENT_PATHS.find((candidate) => `/api${candidate}`.toLowerCase() === pathname.toLowerCase());
    if (current) await assertFetchResponseMatchesSpec(method, current, response.clone());
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text === '' ? null : JSON.parse(text);
    } catch {
      // Not JSON: the text is the body.
    }
    return { status: response.status, body: parsed };
  }

  /** A JSON-RPC call to the emulator's RpcUrl with the config's Token, as @altude/core and the Android SDK send it. */
  async rpc(token: string, method: string, params: unknown[], id: number | string = 1): Promise<any> {
    const answer = await this.send(
      'POST',
      this.#emulator.config.rpcUrl,
      { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
      JSON.stringify({ jsonrpc: '2.0', id, method, params }),
    );
    if (answer.body?.error) throw new Error(`${method}: ${JSON.stringify(answer.body.error)}`);
    return answer.body.result;
  }

  last(): SentRequest {
    return this.requests.at(-1)!;
  }
}
