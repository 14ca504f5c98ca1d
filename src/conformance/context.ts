import type { Keypair, PublicKey } from '@solana/web3.js';
import { CheckFailure, SkipCheck, fail, show } from './check.ts';
import type { ContractValidator } from './contract-validator.ts';
import { describeResponse } from './describe-response.ts';
import { detectEmulatorControls, type ControlsDetection } from './emulator-controls.ts';
import { TargetClient, errorMessage, type TargetResponse } from './target-client.ts';
import { resolveFunding, type Funding } from './funding.ts';
import { legacyClusterEndpoint } from './legacy-cluster-endpoint.ts';
import { toPublicKey, type RecentBlockhash } from './transactions.ts';
import type { KoraTarget, LegacyTarget } from './types.ts';

export type { Funding } from './funding.ts';
import { waitFor, type WaitResult } from './wait-for.ts';

export interface ResolvedOptions {
  baseUrl: string;
  apiKey: string;
  rpcUrl?: string;
  ownerKeypair?: Keypair;
  mint?: string;
  legacy?: LegacyTarget;
  /** False when the run checks the legacy interface only: the current routes are not there to ask. */
  current: boolean;
  /** Kora's JSON-RPC, when the run checks it. */
  kora?: KoraTarget;
  timeoutMs: number;
}

export type AccountState = { exists: true; owner: string; lamports: number } | { exists: false } | { exists: undefined; note: string };

export interface TokenAmount {
  /** Null when the account is not among the owner's token accounts; undefined when it could not be read. */
  amount: bigint | null | undefined;
  note: string;
}

export interface HistoryEntrySeen {
  signature: string;
  slot: number;
  blockTime: number;
}

export interface HistoryQuery {
  PageNumber?: number;
  PageSize?: number;
  MintAddress?: string;
  Limit?: number;
}

/**
 * Shared state of one run: the client, and memoised steps (the configuration record, funding,
 * the relay scenario's requests) so that every check can ask for what it needs in any order and
 * each request is made once.
 */
export class ConformanceContext {
  readonly client: TargetClient;
  private readonly steps = new Map<string, Promise<unknown>>();
  private blockhashRoute: boolean | undefined;

  constructor(
    readonly options: ResolvedOptions,
    fetchFn: (request: Request) => Promise<Response>,
    contract: ContractValidator,
  ) {
    this.client = new TargetClient({ baseUrl: options.baseUrl, apiKey: options.apiKey, fetch: fetchFn, timeoutMs: options.timeoutMs, contract });
  }

  /** Runs `run` once per key; later callers get the same outcome (value or error). */
  step<T>(key: string, run: () => Promise<T>): Promise<T> {
    let promise = this.steps.get(key) as Promise<T> | undefined;
    if (!promise) {
      promise = run();
      promise.catch(() => undefined);
      this.steps.set(key, promise);
    }
    return promise;
  }

  /** Awaits a prerequisite; if it failed or was skipped, the current check is skipped, saying why. */
  async need<T>(prerequisite: Promise<T>, what: string): Promise<T> {
    try {
      return await prerequisite;
    } catch (error) {
      const reason = error instanceof SkipCheck || error instanceof CheckFailure ? error.message : errorMessage(error);
      throw new SkipCheck(`needs ${what}, which is unavailable: ${reason}`);
    }
  }

  wait<T>(probe: () => Promise<T>, done: (value: T) => boolean): Promise<WaitResult<T>> {
    return waitFor(probe, done, { timeoutMs: this.options.timeoutMs });
  }

  // ------------------------------------------------------------ configuration

  /** GET /Transaction/config with the API key; fails unless it answers 2xx with a JSON object. */
  config(): Promise<{ response: TargetResponse; record: Record<string, unknown> }> {
    return this.step('config', async () => {
      const response = await this.client.request({ method: 'GET', path: '/Transaction/config' });
      if (!response.ok) fail(`the configuration read was refused: ${describeResponse(response)}`);
      const record = response.json;
      if (typeof record !== 'object' || record === null || Array.isArray(record)) {
        fail(`the configuration record is not a JSON object: ${describeResponse(response)}`);
      }
      return { response, record: record as Record<string, unknown> };
    });
  }

  feePayer(): Promise<PublicKey> {
    return this.step('fee-payer', async () => {
      const { record } = await this.config();
      const key = typeof record.FeePayer === 'string' ? toPublicKey(record.FeePayer) : undefined;
      if (!key) fail(`the configuration record has no usable FeePayer (FeePayer: ${show(record.FeePayer)})`);
      return key;
    });
  }

  async token(): Promise<string | undefined> {
    const { record } = await this.config();
    return typeof record.Token === 'string' ? record.Token : undefined;
  }

  async rpcUrl(): Promise<string> {
    if (this.options.rpcUrl) return this.options.rpcUrl;
    if (!this.options.current) return this.step('legacy-cluster-endpoint', () => legacyClusterEndpoint(this.client, this.options.legacy));
    const { record } = await this.config();
    if (typeof record.RpcUrl !== 'string') fail(`the configuration record has no RpcUrl (RpcUrl: ${show(record.RpcUrl)})`);
    return record.RpcUrl;
  }

  /** A JSON-RPC call at the RPC URL, with `Authorization: Bearer <Token>` when the config gave a Token. */
  async rpc(method: string, params: unknown[]): Promise<unknown> {
    const url = await this.rpcUrl();
    const token = await this.token();
    const res = await this.client.request({
      method: 'POST',
      path: url,
      on: 'absolute',
      auth: token ? { bearer: token } : 'none',
      json: { jsonrpc: '2.0', id: 1, method, params },
    });
    const body = res.json as { result?: unknown; error?: { message?: unknown } } | undefined;
    if (!res.ok || body === undefined) fail(`RPC ${method}: ${describeResponse(res)}`);
    if (body.error !== undefined) fail(`RPC ${method}: ${show(body.error)}`);
    if (!('result' in body)) fail(`RPC ${method}: no result in ${show(body)}`);
    return body.result;
  }

  /** A recent blockhash: GET /Transaction/blockhash when the target has it, else the RPC's getLatestBlockhash. */
  async recentBlockhash(): Promise<RecentBlockhash> {
    let routeAnswer = '';
    if (this.blockhashRoute !== false) {
      const res = await this.client.request({ method: 'GET', path: '/Transaction/blockhash' });
      const body = res.json as { Blockhash?: unknown; LastValidBlockHeight?: unknown } | undefined;
      if (res.ok && typeof body?.Blockhash === 'string' && typeof body.LastValidBlockHeight === 'number') {
        this.blockhashRoute = true;
        return { blockhash: body.Blockhash, lastValidBlockHeight: body.LastValidBlockHeight };
      }
      this.blockhashRoute = false;
      routeAnswer = describeResponse(res);
    }
    try {
      const result = (await this.rpc('getLatestBlockhash', [{ commitment: 'confirmed' }])) as {
        value?: { blockhash?: unknown; lastValidBlockHeight?: unknown };
      };
      const value = result?.value;
      if (typeof value?.blockhash !== 'string' || typeof value.lastValidBlockHeight !== 'number') {
        fail(`getLatestBlockhash answered ${show(result)}`);
      }
      return { blockhash: value.blockhash, lastValidBlockHeight: value.lastValidBlockHeight };
    } catch (error) {
      const via = routeAnswer ? `GET /Transaction/blockhash answered ${routeAnswer}; ` : '';
      fail(`no recent blockhash: ${via}${errorMessage(error)}`);
    }
  }

  // ------------------------------------------------------------ emulator controls and funding

  controls(): Promise<ControlsDetection> {
    return this.step('controls', () => detectEmulatorControls(this.client));
  }

  /** The owner and mint of the relay scenarios, from the options or the target's /__emulator routes; skips when neither has them. */
  funding(): Promise<Funding> {
    return this.step('funding', () => resolveFunding(this));
  }

  /** Decimals of a mint, as a balance read reported them. */
  decimalsOf(mint: string): number | undefined {
    return this.decimalsSeen.get(mint);
  }

  private readonly decimalsSeen = new Map<string, number>();

  // ------------------------------------------------------------ observations

  /** POST /Account/getaccountinfo: exists (200 with accountInfo), gone (404, or 200 with null), or unknown. */
  async accountState(address: string): Promise<AccountState> {
    const res = await this.client.request({ method: 'POST', path: '/Account/getaccountinfo', json: { accountAddress: address } });
    const info = (res.json as { accountInfo?: { owner?: unknown; lamports?: unknown } | null } | undefined)?.accountInfo;
    if (res.ok && info && typeof info === 'object') {
      return { exists: true, owner: String(info.owner), lamports: Number(info.lamports) };
    }
    if (res.status === 404 || (res.ok && info === null)) return { exists: false };
    return { exists: undefined, note: describeResponse(res) };
  }

  /**
   * The amount of a token account: POST /Account/balance (the owner's tokens of the mint), else
   * the RPC's getTokenAccountBalance.
   */
  async tokenAmount(owner: string, mint: string, account: string): Promise<TokenAmount> {
    const res = await this.client.request({ method: 'POST', path: '/Account/balance', json: { accountAddress: owner, mintAddress: mint } });
    const tokens = (res.json as { tokens?: unknown } | undefined)?.tokens;
    if (res.ok && Array.isArray(tokens)) {
      const entry = tokens.find((t) => (t as { tokenAccount?: unknown })?.tokenAccount === account) as { amount?: unknown; decimals?: unknown } | undefined;
      if (!entry) return { amount: null, note: `${account} is not among the owner's token accounts` };
      if (typeof entry.decimals === 'number') this.decimalsSeen.set(mint, entry.decimals);
      if (typeof entry.amount === 'string' && /^\d+$/.test(entry.amount)) return { amount: BigInt(entry.amount), note: 'balance' };
    }
    const viaBalance = describeResponse(res);
    try {
      const result = (await this.rpc('getTokenAccountBalance', [account])) as { value?: { amount?: unknown } };
      const amount = result?.value?.amount;
      if (typeof amount === 'string' && /^\d+$/.test(amount)) return { amount: BigInt(amount), note: 'rpc' };
      return { amount: undefined, note: `balance: ${viaBalance}; rpc: ${show(result)}` };
    } catch (error) {
      const message = errorMessage(error);
      if (/could not find account|not found|invalid param/i.test(message)) return { amount: null, note: message };
      return { amount: undefined, note: `balance: ${viaBalance}; rpc: ${message}` };
    }
  }

  /** POST /Account/gethistory with the query (no body); fails unless 2xx with a `transactions` array. */
  async history(wallet: string, query: HistoryQuery = {}): Promise<HistoryEntrySeen[]> {
    const res = await this.client.request({ method: 'POST', path: '/Account/gethistory', query: { WalletAddress: wallet, ...query } });
    const transactions = (res.json as { transactions?: unknown } | undefined)?.transactions;
    if (!res.ok || !Array.isArray(transactions)) fail(`the history read failed: ${describeResponse(res)}`);
    return transactions as HistoryEntrySeen[];
  }
}
