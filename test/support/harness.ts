import { setupServer, type SetupServer } from 'msw/node';
import { createRelayEmulator, type RelayEmulator } from '../../src/index.ts';
import type { RelayEmulatorOptions } from '../../src/assembly/options.ts';
import { assertFetchResponseMatchesSpec } from './openapi.ts';

export interface Harness {
  emulator: RelayEmulator;
  server: SetupServer;
  /** Calls the API under the base URL through MSW and validates the response against the spec. */
  call(method: string, path: string, options?: CallOptions): Promise<{ status: number; body: any; headers: Headers }>;
  blockhash(): Promise<string>;
  close(): Promise<void>;
}

export interface CallOptions {
  body?: unknown;
  /** Sent verbatim instead of JSON-encoding `body`. */
  rawBody?: BodyInit;
  headers?: Record<string, string>;
  /** Omit the API key header. */
  anonymous?: boolean;
}

/** An emulator at a production-looking base URL, mounted in MSW, as an app's test suite would use it. */
export async function startHarness(options: RelayEmulatorOptions = {}): Promise<Harness> {
  const emulator = await createRelayEmulator({ baseUrl: 'https://relay.example.test/api', ...options });
  const server = setupServer(...emulator.handlers);
  server.listen({ onUnhandledRequest: 'error' });

  const call: Harness['call'] = async (method, path, callOptions = {}) => {
    const headers: Record<string, string> = { ...(callOptions.anonymous ? {} : { 'X-API-Key': emulator.config.apiKey }), ...callOptions.headers };
    let body: BodyInit | undefined = callOptions.rawBody;
    if (body === undefined && callOptions.body !== undefined) {
      body = JSON.stringify(callOptions.body);
      headers['Content-Type'] ??= 'application/json';
    }
    const response = await fetch(`${emulator.config.baseUrl}${path}`, { method, headers, body });
    const responseHeaders = response.headers;
    const parsed = await assertFetchResponseMatchesSpec(method, path.split('?')[0]!, response);
    return { status: response.status, body: parsed, headers: responseHeaders };
  };

  return {
    emulator,
    server,
    call,
    async blockhash() {
      const { body } = await call('GET', '/Transaction/blockhash');
      return body.Blockhash as string;
    },
    async close() {
      server.close();
      await emulator.close();
    },
  };
}
