import { CheckFailure } from './check.ts';
import type { ContractValidator } from './contract-validator.ts';

/**
 * The kit's only way to the target: HTTP through a `fetch` function. Every response from the
 * target (base URL or server root) is validated against the contract and journaled with the check
 * that made it, so the contract checks can report per operation afterwards.
 */
export interface TargetClientOptions {
  baseUrl: string;
  apiKey: string;
  fetch: (request: Request) => Promise<Response>;
  /** Bound of one request. */
  timeoutMs: number;
  contract: ContractValidator;
}

export type Auth = 'api-key' | 'none' | { apiKey: string } | { bearer: string };

export interface TargetRequest {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** A path relative to `on` ('/Account/create'), or an absolute URL when on = 'absolute'. */
  path: string;
  /** Relative to the base URL (default), to the server root (origin of the base URL), or an absolute URL. */
  on?: 'base' | 'root' | 'absolute';
  query?: Record<string, string | number | undefined>;
  /** Sent as the JSON body. */
  json?: unknown;
  /** Default 'api-key': X-API-Key with the configured key. */
  auth?: Auth;
  /** More headers (Kora's x-api-key, x-timestamp and x-hmac-signature). */
  headers?: Record<string, string>;
  /** The contract path the answer is held to, when the URL's own path is not it (Kora's URL: `/kora`). */
  specPath?: string;
}

export interface TargetResponse {
  status: number;
  ok: boolean;
  headers: Headers;
  contentType: string | null;
  text: string;
  /** The parsed body, or undefined when it is not JSON. */
  json: unknown;
  /** 'POST /Account/create → 201' */
  label: string;
  /** The answer's contract violation; null when it matched; undefined when it was not validated. */
  contractError?: string | null;
}

export interface Exchange {
  checkId: string | undefined;
  method: string;
  url: string;
  /** 'POST /Account/create' (path relative to the base URL or root). */
  label: string;
  operationId?: string;
  /** Tags of the operation in the contract ('current', 'legacy', 'emulator'). */
  tags?: string[];
  status?: number;
  contentType?: string | null;
  /** Whether the body parsed as JSON. */
  json?: boolean;
  /** Network failure or timeout. */
  error?: string;
  /** Contract violation of the response; null when it matched; undefined when not validated. */
  contractError?: string | null;
  durationMs: number;
}

export class TargetClient {
  readonly exchanges: Exchange[] = [];
  /** The check now running; journaled with each exchange. */
  currentCheck: string | undefined;
  readonly baseUrl: string;
  readonly origin: string;
  private readonly basePath: string;

  constructor(private readonly options: TargetClientOptions) {
    const base = new URL(options.baseUrl);
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.origin = base.origin;
    this.basePath = base.pathname.replace(/\/+$/, '');
  }

  async request(req: TargetRequest): Promise<TargetResponse> {
    const on = req.on ?? 'base';
    const url = new URL(on === 'absolute' ? req.path : (on === 'root' ? this.origin : this.baseUrl) + req.path);
    for (const [k, v] of Object.entries(req.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
    const specPath = req.specPath ?? this.specPath(url, on);
    const label = `${req.method} ${specPath ?? url.href}`;

    const headers = new Headers({ Accept: 'application/json' });
    const auth = req.auth ?? 'api-key';
    if (auth === 'api-key') headers.set('X-API-Key', this.options.apiKey);
    else if (auth !== 'none' && 'apiKey' in auth) headers.set('X-API-Key', auth.apiKey);
    else if (auth !== 'none') headers.set('Authorization', `Bearer ${auth.bearer}`);
    for (const [name, value] of Object.entries(req.headers ?? {})) headers.set(name, value);
    let body: string | undefined;
    if (req.json !== undefined) {
      headers.set('Content-Type', 'application/json');
      body = JSON.stringify(req.json);
    }

    const exchange: Exchange = { checkId: this.currentCheck, method: req.method, url: url.href, label, durationMs: 0 };
    this.exchanges.push(exchange);
    const started = performance.now();
    let response: Response;
    let text: string;
    try {
      const signal = AbortSignal.timeout(this.options.timeoutMs);
      response = await this.options.fetch(new Request(url, { method: req.method, headers, body, signal }));
      text = await response.text();
    } catch (error) {
      exchange.durationMs = performance.now() - started;
      const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
      exchange.error = timedOut ? `no answer within ${this.options.timeoutMs} ms` : errorMessage(error);
      throw new CheckFailure(`${label}: ${exchange.error}`);
    }
    exchange.durationMs = performance.now() - started;
    exchange.status = response.status;
    const contentType = response.headers.get('content-type');
    const json = parseJson(text);
    exchange.contentType = contentType;
    exchange.json = json !== undefined;

    if (specPath !== undefined) {
      const body = contentType && /json/i.test(contentType) && text !== '' ? (json ?? text) : text;
      const { operationId, error } = this.options.contract.validateResponse({
        method: req.method,
        path: specPath,
        status: response.status,
        body,
        contentType,
      });
      exchange.operationId = operationId;
      exchange.contractError = error;
      const tags = this.options.contract.operation(req.method, specPath)?.operation.tags;
      if (Array.isArray(tags)) exchange.tags = tags as string[];
    }
    return {
      status: response.status,
      ok: response.ok,
      headers: response.headers,
      contentType,
      text,
      json,
      label: `${label} → ${response.status}`,
      ...(exchange.contractError === undefined ? {} : { contractError: exchange.contractError }),
    };
  }

  /** The path to look up in the contract, or undefined when the URL is not the target's. */
  private specPath(url: URL, on: 'base' | 'root' | 'absolute'): string | undefined {
    if (on === 'root') return url.pathname;
    if (url.origin !== this.origin) return undefined;
    if (on === 'base') return url.pathname.slice(this.basePath.length) || '/';
    // An absolute URL on the target's origin (its RpcUrl): under the base path, or at the root.
    if (this.basePath && url.pathname.startsWith(`${this.basePath}/`)) return url.pathname.slice(this.basePath.length);
    return url.pathname;
  }
}

function parseJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export function errorMessage(error: unknown): string {
  if (error instanceof Error) {
    const cause = (error as { cause?: unknown }).cause;
    return cause instanceof Error ? `${error.message} (${cause.message})` : error.message;
  }
  return String(error);
}
