/**
 * What Kinetic SDK 1.0.0-rc.1 and 1.0.0-rc.18 put on the wire, request by request, from the facts
 * of kin-labs/kinetic at those tags (libs/sdk/src/lib/kinetic-sdk-internal.ts, the generated axios
 * client libs/sdk/src/generated/api.ts and common.ts, libs/sdk/src/version.ts), with the brand word
 * of paths and headers replaced by `legacy` (service spec 2.5, 4.3), or kept (`brand: 'kinetic'`:
 * exactly what the SDK sends, which the emulator serves too). Not the SDK's code: its
 * requests, rebuilt in its order with its body key order, nulls and headers, sent through a
 * `fetch` and recorded so tests can assert them.
 *
 * Where the versions differ on the wire:
 * - headers: both send `kinetic-environment`, `kinetic-index`, `kinetic-user-agent` (here
 *   `legacy-*`), set once in the constructor; rc.1 reads the first two from an app config it does
 *   not have yet, so they are the text `undefined`. Axios 0.27 in Node adds
 *   `Accept: application/json, text/plain, *\/*` and `User-Agent: axios/0.27.2`.
 * - bodies: rc.1 sends `referenceId: null, referenceType: null` when the caller gives none; rc.18
 *   sends `reference: null`. rc.18 adds account/close.
 * - reads: rc.18 adds `?commitment=` (default Confirmed) to every read and finds token accounts
 *   through account/info; rc.1 lists token accounts. rc.18 lists records by
 *   `?reference=&signature=` (the one not asked for empty).
 * - paths: rc.1 takes environment and index from the app config, rc.18 from its own config.
 */
import type { Keypair } from '@solana/web3.js';
import { assertFetchResponseMatchesSpec } from '../../support/openapi.ts';
import { createAccountTransaction, makeTransferBatchTransaction, makeTransferTransaction, tokenAddress, TransactionType } from './kinetic-transactions.ts';

export type KineticVersion = '1.0.0-rc.1' | '1.0.0-rc.18';

export interface WireRequest {
  method: 'GET' | 'POST';
  /** Path and query after the endpoint, e.g. `/api/account/balance/devnet/1/<id>?commitment=Confirmed`. */
  path: string;
  headers: Record<string, string>;
  /** The JSON text sent, exactly. */
  body?: string;
}

type Json = Record<string, any>;
type Mint = { publicKey: string; decimals: number; feePayer: string; addMemo: boolean };

export class KineticSdkWire {
  readonly requests: WireRequest[] = [];
  appConfig: Json | undefined;
  readonly #headers: Record<string, string>;

  constructor(
    readonly version: KineticVersion,
    readonly config: {
      endpoint: string;
      environment: string;
      index: number;
      fetch: (request: Request) => Promise<Response>;
      /** Runs before each POST leaves (a test's chance to expire a blockhash, say). */
      beforePost?: (request: WireRequest) => Promise<void>;
      /** The brand word in headers and paths: `legacy` (the service spec's, default) or `kinetic` (the SDK's own). */
      brand?: 'legacy' | 'kinetic';
    },
  ) {
    const rc1 = version === '1.0.0-rc.1';
    const brand = config.brand ?? 'legacy';
    this.#headers = {
      Accept: 'application/json, text/plain, */*',
      [`${brand}-environment`]: rc1 ? 'undefined' : config.environment,
      [`${brand}-index`]: rc1 ? 'undefined' : String(config.index),
      [`${brand}-user-agent`]: `@kin-kinetic/sdk@${version}`,
      'User-Agent': 'axios/0.27.2',
    };
  }

  get rc1(): boolean {
    return this.version === '1.0.0-rc.1';
  }

  /** `KineticSdk.setup()`: reads the app config. */
  async init(): Promise<Json> {
    this.appConfig = await this.#get(`/api/app/${this.config.environment}/${this.config.index}/config`);
    return this.appConfig;
  }

  async createAccount(options: { owner: Keypair; mint?: string; reference?: string }): Promise<Json> {
    const mint = this.#mint(options.mint);
    const commitment = 'Confirmed';
    if (!this.rc1 && (await this.findTokenAccount(options.owner.publicKey.toBase58(), mint.publicKey))) {
      throw new Error(`Owner ${options.owner.publicKey.toBase58()} already has an account for mint ${mint.publicKey}.`);
    }
    const { blockhash, lastValidBlockHeight } = await this.#get(`/api/transaction/latest-blockhash/${this.#env()}/${this.#index()}`);
    const reference = this.rc1 ? null : (options.reference ?? null);
    const tx = createAccountTransaction({ ...this.#common(mint, options.owner, blockhash, lastValidBlockHeight), reference });
    const head = { commitment, environment: this.#env(), index: this.#index(), lastValidBlockHeight, mint: mint.publicKey };
    return this.#post('/api/account/create', this.rc1 ? { ...head, referenceId: null, referenceType: null, tx } : { ...head, reference, tx });
  }

  async makeTransfer(options: {
    owner: Keypair;
    destination: string;
    amount: string;
    senderCreate?: boolean;
    reference?: string;
    type?: number;
  }): Promise<Json> {
    const mint = this.#mint();
    const owner = options.owner.publicKey.toBase58();
    const senderCreate = options.senderCreate ?? false;
    const blockhashPath = `/api/transaction/latest-blockhash/${this.#env()}/${this.#index()}`;
    let latest: { blockhash: string; lastValidBlockHeight: number };
    let ownerTokenAccount: string;
    let destinationTokenAccount: string;
    let existing: string | undefined;
    if (this.rc1) {
      // rc.1: blockhash, then the destination's token accounts; both token accounts are the ATAs.
      if ((this.appConfig!.mints as Mint[]).some((m) => m.publicKey === options.destination)) throw new Error('Transfers to a mint are not allowed.');
      latest = (await this.#get(blockhashPath)) as typeof latest;
      existing = ((await this.getTokenAccounts(options.destination)) as unknown as string[])[0];
      if (!existing && !senderCreate) throw new Error("Destination account doesn't exist.");
      ownerTokenAccount = tokenAddress(owner, mint.publicKey).toBase58();
      destinationTokenAccount = tokenAddress(options.destination, mint.publicKey).toBase58();
    } else {
      // rc.13+: the owner's and the destination's token accounts from account info, then the blockhash.
      const found = await this.findTokenAccount(owner, mint.publicKey);
      if (!found) throw new Error(`Owner account doesn't exist for mint ${mint.publicKey}.`);
      ownerTokenAccount = found;
      existing = await this.findTokenAccount(options.destination, mint.publicKey);
      if (!existing && !senderCreate) throw new Error(`Destination account doesn't exist for mint ${mint.publicKey}.`);
      destinationTokenAccount = existing ?? tokenAddress(options.destination, mint.publicKey).toBase58();
      latest = (await this.#get(blockhashPath)) as typeof latest;
    }
    const reference = this.rc1 ? null : (options.reference ?? null);
    const tx = makeTransferTransaction({
      ...this.#common(mint, options.owner, latest.blockhash, latest.lastValidBlockHeight),
      amount: options.amount,
      mintDecimals: mint.decimals,
      destination: options.destination,
      destinationTokenAccount,
      ownerTokenAccount,
      senderCreate: senderCreate && !existing,
      type: options.type ?? TransactionType.None,
      reference,
    });
    return this.#post('/api/transaction/make-transfer', this.#relayBody(latest.lastValidBlockHeight, mint, reference, tx));
  }

  async makeTransferBatch(options: { owner: Keypair; destinations: { destination: string; amount: string }[]; type?: number }): Promise<Json> {
    const mint = this.#mint();
    const owner = options.owner.publicKey.toBase58();
    let ownerTokenAccount = tokenAddress(owner, mint.publicKey).toBase58();
    let destinations = options.destinations.map(({ destination, amount }) => ({ amount, destination: tokenAddress(destination, mint.publicKey).toBase58() }));
    if (!this.rc1) {
      const found = await this.findTokenAccount(owner, mint.publicKey);
      if (!found) throw new Error(`Owner account doesn't exist for mint ${mint.publicKey}.`);
      ownerTokenAccount = found;
      destinations = [];
      for (const item of options.destinations) {
        const account = await this.findTokenAccount(item.destination, mint.publicKey);
        if (!account) throw new Error(`Destination accounts ${item.destination} have no token account for mint ${mint.publicKey}.`);
        destinations.push({ amount: item.amount, destination: account });
      }
    }
    const { blockhash, lastValidBlockHeight } = await this.#get(`/api/transaction/latest-blockhash/${this.#env()}/${this.#index()}`);
    const tx = makeTransferBatchTransaction({
      ...this.#common(mint, options.owner, blockhash, lastValidBlockHeight),
      mintDecimals: mint.decimals,
      ownerTokenAccount,
      destinations,
      type: options.type ?? TransactionType.None,
    });
    return this.#post('/api/transaction/make-transfer', this.#relayBody(lastValidBlockHeight, mint, null, tx));
  }

  /** rc.18 only: the server builds, signs and relays the close. */
  closeAccount(options: { account: string; reference?: string }): Promise<Json> {
    if (this.rc1) throw new Error('closeAccount arrived in rc.10');
    const mint = this.#mint();
    return this.#post('/api/account/close', {
      account: options.account,
      commitment: 'Confirmed',
      environment: this.#env(),
      index: this.#index(),
      mint: mint.publicKey,
      reference: options.reference || null,
    });
  }

  /** Airdrop of the default mint; rc.1 waits for Finalized by default, rc.18 for its Confirmed default. */
  requestAirdrop(options: { account: string; amount?: string }): Promise<Json> {
    const commitment = this.rc1 ? 'Finalized' : 'Confirmed';
    return this.#post('/api/airdrop', {
      account: options.account,
      amount: options.amount,
      commitment,
      environment: this.#env(),
      index: this.#index(),
      mint: this.#mint().publicKey,
    });
  }

  getBalance(account: string): Promise<Json> {
    return this.#get(`/api/account/balance/${this.#env()}/${this.#index()}/${account}${this.#commitment()}`);
  }

  getHistory(account: string): Promise<Json> {
    return this.#get(`/api/account/history/${this.#env()}/${this.#index()}/${account}/${this.#mint().publicKey}${this.#commitment()}`);
  }

  getTokenAccounts(account: string): Promise<Json> {
    return this.#get(`/api/account/token-accounts/${this.#env()}/${this.#index()}/${account}/${this.#mint().publicKey}${this.#commitment()}`);
  }

  getTransaction(signature: string): Promise<Json> {
    return this.#get(`/api/transaction/transaction/${this.#env()}/${this.#index()}/${signature}${this.#commitment()}`);
  }

  /** rc.15+: both names always sent, the one not asked for empty. */
  getKineticTransaction(options: { reference?: string; signature?: string }): Promise<Json> {
    const query = new URLSearchParams({ reference: options.reference ?? '', signature: options.signature ?? '' });
    return this.#get(`/api/transaction/${this.config.brand ?? 'legacy'}-transaction/${this.#env()}/${this.#index()}?${query}`);
  }

  /** rc.13+ finds token accounts through account info: the first token account of the mint. */
  async findTokenAccount(account: string, mint: string): Promise<string | undefined> {
    const info = await this.#get(`/api/account/info/${this.#env()}/${this.#index()}/${account}/${mint}${this.#commitment()}`);
    if (info.isMint) throw new Error('Account is a mint account.');
    return info.tokens?.find((token: { mint: string }) => token.mint === mint)?.account;
  }

  #relayBody(lastValidBlockHeight: number, mint: Mint, reference: string | null, tx: string) {
    const head = { commitment: 'Confirmed', environment: this.#env(), index: this.#index(), lastValidBlockHeight, mint: mint.publicKey };
    return this.rc1 ? { ...head, referenceId: null, referenceType: null, tx } : { ...head, reference, tx };
  }

  #common(mint: Mint, owner: Keypair, blockhash: string, lastValidBlockHeight: number) {
    // rc.1 reads addMemo from the app's default mint whatever the mint.
    const addMemo = this.rc1 ? (this.appConfig!.mint as Mint).addMemo : mint.addMemo;
    return { addMemo, index: this.#index(), blockhash, lastValidBlockHeight, mintFeePayer: mint.feePayer, mintPublicKey: mint.publicKey, owner };
  }

  #mint(publicKey?: string): Mint {
    if (!this.appConfig) throw new Error('AppConfig not initialized');
    const found = (this.appConfig.mints as Mint[]).find((mint) => mint.publicKey === (publicKey ?? this.appConfig!.mint.publicKey));
    if (!found) throw new Error('Mint not found');
    return found;
  }

  #env(): string {
    return this.rc1 ? this.appConfig!.environment.name : this.config.environment;
  }

  #index(): number {
    return this.rc1 ? this.appConfig!.app.index : this.config.index;
  }

  #commitment(): string {
    return this.rc1 ? '' : '?commitment=Confirmed';
  }

  #get(path: string): Promise<Json> {
    return this.#send({ method: 'GET', path, headers: { ...this.#headers } });
  }

  #post(path: string, body: object): Promise<Json> {
    return this.#send({ method: 'POST', path, headers: { ...this.#headers, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  }

  /** Sends like axios: a non-2xx answer throws the server's message, as the SDK rethrows it. */
  async #send(request: WireRequest): Promise<Json> {
    this.requests.push(request);
    if (request.method === 'POST') await this.config.beforePost?.(request);
    const response = await this.config.fetch(
      new Request(`${this.config.endpoint}${request.path}`, { method: request.method, headers: request.headers, body: request.body }),
    );
    const route = request.path.replace(/^\/api/, '').split('?')[0]!;
    const body = (await assertFetchResponseMatchesSpec(request.method, route, response)) as Json;
    if (!response.ok) throw Object.assign(new Error(body?.message ?? 'Unknown error'), { status: response.status, body });
    return body;
  }
}
