// Over 250 lines: one class, the wallet's state and its answer to each of the page's six requests (the page's script and the request record are apart).
import { Keypair, type PublicKey, type VersionedTransaction } from '@solana/web3.js';
import { createEd25519Signer } from '../base/crypto/ed25519.ts';
import { encodeBase58 } from '../base/crypto/base58.ts';
import { ACCOUNTS_CHANGED, walletScript } from './wallet-script.ts';
import { checkSignIn, signInMessage } from './sign-in-message.ts';
import { describeTransaction, deserialize, textOf, type WalletDecision, WalletError, type WalletRequest } from './wallet-requests.ts';

export { WalletError, type WalletDecision, type WalletRequest } from './wallet-requests.ts';

export interface TestWalletOptions {
  /** The key the wallet holds: a Keypair, or a 64-byte secret key. Default: a fresh key (fund it with the emulator's faucet). */
  keypair?: Keypair | Uint8Array;
  /** The RPC signAndSendTransaction sends to (the emulator's `rpcUrl`). */
  rpcUrl: string;
  /** The relay's fee payer (base58): a key the wallet refuses to hold, so it can never sign as the relay. */
  feePayer?: string;
  /** Origins whose pages may use the wallet. Default: the origin of the first page that connects, and only it. */
  origins?: string[];
  /** Phantom's `window.solana` and `window.phantom.solana` too. Default false. */
  legacy?: boolean;
  /** The wallet's name in wallet pickers. Default `Relay Emulator`. */
  name?: string;
  /** Headers the wallet's own requests to the emulator carry (the fixture names the test: X-Relay-Emulator-Test). */
  headers?: Record<string, string>;
  /** Called with each request once it is answered (relay-emulator/playwright hands them to the emulator's web UI). */
  onRequest?: (request: WalletRequest) => void;
}

const ICON =
  'data:image/svg+xml;base64,' +
  Buffer.from(
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#14f195"/>' +
      '<path d="M8 22h16M8 16h16M8 10h16" stroke="#000" stroke-width="3"/></svg>',
  ).toString('base64');
/** The largest transaction the network carries (web3.js's PACKET_DATA_SIZE). */
const PACKET_DATA_SIZE = 1232;
const CHAINS = ['solana:localnet', 'solana:devnet', 'solana:testnet', 'solana:mainnet'];
const BINDING = '__relayEmulatorWallet__';
/** How many requests the record keeps (a dapp that loops is not kept for ever). */
const MAX_RECORD = 10_000;

/** The frame a request came from: its URL, and its parent (null for the page's own, top frame). */
export interface WalletFrame {
  url(): string;
  parentFrame(): unknown;
}

/** A page as the wallet needs it: Playwright's Page (or any driver with the same three methods). */
export interface WalletPage {
  exposeBinding(name: string, callback: (source: { frame: WalletFrame }, payload: string) => Promise<string>): Promise<unknown>;
  addInitScript(script: { content: string }): Promise<unknown>;
  evaluate<R, A>(fn: (arg: A) => R, arg: A): Promise<R>;
}

/**
 * A test wallet: a key held in the test's process, a Wallet Standard wallet in the page that asks
 * it for everything (src/wallet/wallet-script.ts), and the user's choices, scripted. Every request is
 * recorded with what it asked to sign. It signs only its own key's slot (the relay's fee-payer slot is
 * left empty, as the relay flow needs) and refuses to hold the relay's fee payer; a page of an origin
 * the test did not allow is refused (4100), whatever the choices.
 */
export class TestWallet {
  readonly #keypair: Keypair;
  readonly #options: TestWalletOptions;
  readonly #decisions: WalletDecision[] = [];
  readonly #pages = new Set<WalletPage>();
  #default: WalletDecision = 'approve';
  #origins: Set<string> | null;
  #connected = false;
  /** The key switched to (switchAccount), else the one given. */
  #current: Keypair | null = null;
  readonly requests: WalletRequest[] = [];

  constructor(options: TestWalletOptions) {
    this.#options = options;
    const given = options.keypair;
    this.#keypair = given === undefined ? Keypair.generate() : given instanceof Keypair ? given : Keypair.fromSecretKey(given);
    this.#refuseRelayKey(this.#keypair);
    this.#origins = options.origins ? new Set(options.origins.map((origin) => new URL(origin).origin)) : null;
  }

  get publicKey(): PublicKey {
    return this.#key().publicKey;
  }

  get address(): string {
    return this.#key().publicKey.toBase58();
  }

  /** The script a driver injects before the page's own. */
  initScript(): string {
    return walletScript({ binding: BINDING, name: this.#options.name ?? 'Relay Emulator', icon: ICON, chains: CHAINS, legacy: this.#options.legacy === true });
  }

  /** Puts the wallet in every page and frame `page` loads from now on. */
  async install(page: WalletPage): Promise<void> {
    await page.exposeBinding(BINDING, (source, payload) => this.answer(source.frame.url(), payload, source.frame.parentFrame() === null));
    await page.addInitScript({ content: this.initScript() });
    this.#pages.add(page);
  }

  /** The next requests' outcomes, in order; past them, the default (approve unless `setDefault` changed it). */
  decide(...decisions: WalletDecision[]): this {
    this.#decisions.push(...decisions);
    return this;
  }

  /** What the user does when no decision is queued. */
  setDefault(decision: WalletDecision): this {
    this.#default = decision;
    return this;
  }

  /** The user switches to another key: the pages hear `change` (and `accountChanged`). */
  async switchAccount(keypair: Keypair): Promise<void> {
    this.#refuseRelayKey(keypair);
    this.#current = keypair;
    await this.#tell(this.#connected ? [this.#accountJson()] : []);
  }

  /** The user disconnects from the wallet's side: the pages hear `change` with no accounts (and `disconnect`). */
  async disconnect(): Promise<void> {
    this.#connected = false;
    await this.#tell([]);
  }

  /** A user's wallet never holds the relay's fee payer: it could then sign as the relay. */
  #refuseRelayKey(keypair: Keypair): void {
    if (this.#options.feePayer !== undefined && keypair.publicKey.toBase58() === this.#options.feePayer) {
      throw new Error("relay-emulator wallet: that key is the relay's fee payer; a user's wallet never holds it");
    }
  }

  #key(): Keypair {
    return this.#current ?? this.#keypair;
  }

  #accountJson() {
    return { address: this.#key().publicKey.toBase58(), publicKey: [...this.#key().publicKey.toBytes()] };
  }

  async #tell(accounts: { address: string; publicKey: number[] }[]): Promise<void> {
    for (const page of this.#pages) {
      await page
        .evaluate(
          ({ name, next }) => {
            const changed = (window as unknown as Record<string, ((accounts: unknown[]) => void) | undefined>)[name];
            changed?.(next);
          },
          { name: ACCOUNTS_CHANGED, next: accounts },
        )
        .catch(() => undefined);
    }
  }

  /** One request from a page (the binding's payload), answered as JSON `{result}` or `{error}`; `top`: from the page's own frame, not an iframe. */
  async answer(frameUrl: string, payload: string, top = true): Promise<string> {
    const origin = URL.canParse(frameUrl) ? new URL(frameUrl).origin : 'null';
    let request: { method?: unknown; params?: unknown } | null;
    try {
      request = JSON.parse(payload) as typeof request;
    } catch {
      return JSON.stringify({ error: { code: -32700, name: 'WalletError', message: 'The request is not JSON.' } });
    }
    // A page may send anything: a request is an object, its method a string, its params an object.
    if (request === null || typeof request !== 'object' || typeof request.method !== 'string') {
      return JSON.stringify({ error: { code: -32600, name: 'WalletError', message: 'The request names no method.' } });
    }
    const params = (request.params !== null && typeof request.params === 'object' ? request.params : {}) as Record<string, unknown>;
    const record: WalletRequest = {
      id: this.requests.length + 1,
      method: request.method as WalletRequest['method'],
      origin,
      legacy: params.legacy === true,
      outcome: 'approved',
    };
    if (this.requests.length < MAX_RECORD) this.requests.push(record);
    try {
      const result = await this.#handle(record, params, top);
      return JSON.stringify({ result });
    } catch (error) {
      const failure = error instanceof WalletError ? error : new WalletError(-32603, (error as Error).message);
      if (record.outcome === 'approved') record.outcome = 'refused';
      record.reason = failure.message;
      return JSON.stringify({ error: { code: failure.code, name: failure.name, message: failure.message } });
    } finally {
      this.#report(record);
    }
  }

  /** Hands a request, answered, to `onRequest`; what it throws is the test's and never reaches the page. */
  #report(record: WalletRequest): void {
    try {
      this.#options.onRequest?.(record);
    } catch (error) {
      console.error('relay-emulator/wallet: onRequest threw', error);
    }
  }

  async #handle(record: WalletRequest, params: Record<string, unknown>, top: boolean): Promise<unknown> {
    // The page's origin: the test's, or refused whatever the user's choices (another origin cannot make the wallet sign).
    // With none given, the first page that connects names it: a page's own frame, never an iframe (a third party's
    // embed) nor an opaque origin (about:blank, data:).
    if (this.#origins === null && record.method === 'connect' && top && record.origin !== 'null') this.#origins = new Set([record.origin]);
    if (this.#origins === null || !this.#origins.has(record.origin)) {
      throw new WalletError(
        4100,
        `The requested method and/or account has not been authorized by the user (origin ${record.origin}).`,
        'WalletNotAuthorizedError',
      );
    }
    const bytes = (name: string) => Buffer.from(String(params[name] ?? ''), 'base64');
    if (typeof params.transaction === 'string') {
      const transaction = bytes('transaction');
      // As a wallet and the network refuse one: a transaction fits a packet.
      if (transaction.length > PACKET_DATA_SIZE) {
        throw new WalletError(-32602, `The transaction is ${transaction.length} bytes; one is at most ${PACKET_DATA_SIZE}.`, 'WalletSignTransactionError');
      }
      record.transaction = describeTransaction(transaction, this.#key().publicKey.toBase58());
    }
    if (typeof params.message === 'string') record.message = textOf(bytes('message'));
    // A wallet signs for a dapp it is connected to (signIn connects), as a real one answers 4100 otherwise.
    if (!this.#connected && record.method !== 'connect' && record.method !== 'signIn' && record.method !== 'disconnect') {
      throw new WalletError(4100, 'The wallet is not connected to this dapp: connect first.', 'WalletNotConnectedError');
    }
    if (record.method === 'signIn') checkSignIn((params.input ?? {}) as Record<string, unknown>, record.origin, this.#key().publicKey.toBase58());
    if (record.method !== 'disconnect') await this.#decideFor(record);
    switch (record.method) {
      case 'connect':
        this.#connected = true;
        return { accounts: [this.#accountJson()] };
      case 'disconnect':
        this.#connected = false;
        return null;
      case 'signTransaction':
        return { transaction: Buffer.from(this.#sign(bytes('transaction')).serialize()).toString('base64') };
      case 'signAndSendTransaction': {
        const signed = this.#sign(bytes('transaction'));
        const signature = await this.#send(signed);
        record.signature = signature;
        return { signature: Buffer.from(signed.signatures[0]!).toString('base64'), signatureBase58: signature };
      }
      case 'signMessage':
        return { signature: Buffer.from(this.#signBytes(bytes('message'))).toString('base64') };
      case 'signIn': {
        this.#connected = true;
        const message = signInMessage((params.input ?? {}) as Record<string, unknown>, this.#key().publicKey.toBase58(), record.origin);
        record.message = message;
        const encoded = Buffer.from(message, 'utf8');
        return {
          accounts: [this.#accountJson()],
          address: this.#key().publicKey.toBase58(),
          message: encoded.toString('base64'),
          signature: Buffer.from(this.#signBytes(encoded)).toString('base64'),
        };
      }
      default:
        throw new WalletError(-32601, `The wallet has no method ${String(record.method).slice(0, 40)}.`);
    }
  }

  async #decideFor(record: WalletRequest): Promise<void> {
    const decision = this.#decisions.shift() ?? this.#default;
    let choice: 'approve' | 'reject';
    if (typeof decision === 'object') {
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, decision.delayMs)));
      choice = decision.then ?? 'approve';
    } else choice = decision;
    if (choice === 'reject') {
      record.outcome = 'rejected';
      throw new WalletError(4001, 'User rejected the request.', 'WalletSignTransactionError');
    }
  }

  /** The wallet's own signature slot filled, every other left as it came (the relay's fee-payer slot stays empty). */
  #sign(bytes: Uint8Array): VersionedTransaction {
    const tx = deserialize(bytes);
    const signers = tx.message.staticAccountKeys.slice(0, tx.message.header.numRequiredSignatures);
    const index = signers.findIndex((key) => key.equals(this.#key().publicKey));
    if (index < 0) throw new WalletError(-32602, `The transaction does not ask ${this.#key().publicKey.toBase58()} to sign it.`, 'WalletSignTransactionError');
    tx.signatures[index] = this.#signBytes(tx.message.serialize());
    return tx;
  }

  #signBytes(message: Uint8Array): Uint8Array {
    return createEd25519Signer(this.#key().secretKey).sign(message);
  }

  async #send(tx: VersionedTransaction): Promise<string> {
    const response = await fetch(this.#options.rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...this.#options.headers },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'sendTransaction',
        params: [Buffer.from(tx.serialize()).toString('base64'), { encoding: 'base64' }],
      }),
    });
    const answer = (await response.json()) as { result?: string; error?: { code: number; message: string } };
    if (answer.error) throw new WalletError(answer.error.code, answer.error.message, 'WalletSendTransactionError');
    return answer.result ?? encodeBase58(tx.signatures[0]!);
  }
}
