import type { components } from '../../../generated/relay.ts';
import { cutText } from '../../../base/words/cut-text.ts';

export type WalletLogEntry = components['schemas']['EmulatorWalletRequest'];

/** A test wallet's record of one request (relay-emulator/wallet's WalletRequest has this shape, and more). */
export interface WalletLogInput {
  method: WalletLogEntry['method'];
  origin: string;
  legacy: boolean;
  outcome: WalletLogEntry['outcome'];
  reason?: string;
  transaction?: NonNullable<WalletLogEntry['transaction']>;
  message?: string;
  signature?: string;
}

/** How many requests the log keeps: the newest. */
export const MAX_WALLET_LOG = 1000;
/**
 * How many of them may be refusals (a page of an origin the test did not allow, an iframe): past it
 * the oldest refusal goes, so a page that floods the wallet cannot push the test's own requests out.
 */
export const MAX_REFUSED = 100;
/** How many of a transaction's signers and programs an entry names: the first. */
export const MAX_KEYS = 16;
/** How much of a message (or an origin, a reason) is kept: the UI shows a line of it. */
const MAX_TEXT = 2048;

const WALLET_METHODS: ReadonlySet<string> = new Set<WalletLogEntry['method']>([
  'connect',
  'disconnect',
  'signTransaction',
  'signAndSendTransaction',
  'signMessage',
  'signIn',
]);

const bounded = (text: string) => cutText(text, MAX_TEXT);

/**
 * What dapps asked of the test wallets of this emulator's tests (relay-emulator/playwright hands
 * each of its wallet's requests here under the test's label), for the web UI to list beside the
 * test's relays: the newest {@link MAX_WALLET_LOG}, of which at most {@link MAX_REFUSED} refusals,
 * forgotten on reset (and restore) as the relays are.
 */
export class WalletLog {
  readonly #entries: WalletLogEntry[] = [];
  readonly #now: () => Date;
  #next = 1;
  #refused = 0;

  constructor(now: () => Date = () => new Date()) {
    this.#now = now;
  }

  /** Keeps a request of a method a wallet has; null for any other (a page may ask for anything). */
  record(input: WalletLogInput, test: string | null = null): WalletLogEntry | null {
    if (!WALLET_METHODS.has(input.method)) return null;
    const { transaction } = input;
    const entry: WalletLogEntry = {
      id: this.#next++,
      time: this.#now().toISOString(),
      test: test === null ? null : bounded(test),
      method: input.method,
      origin: bounded(input.origin),
      legacy: input.legacy,
      outcome: input.outcome,
      reason: input.reason === undefined ? null : bounded(input.reason),
      // The summary only: what the user was asked, not the transaction's bytes.
      transaction: transaction
        ? {
            version: transaction.version,
            feePayer: transaction.feePayer,
            signers: transaction.signers.slice(0, MAX_KEYS),
            programs: transaction.programs.slice(0, MAX_KEYS),
            walletPaysFee: transaction.walletPaysFee,
          }
        : null,
      message: input.message === undefined ? null : bounded(input.message),
      signature: input.signature ?? null,
    };
    this.#entries.push(entry);
    if (entry.outcome === 'refused' && ++this.#refused > MAX_REFUSED) {
      this.#entries.splice(
        this.#entries.findIndex((kept) => kept.outcome === 'refused'),
        1,
      );
      this.#refused -= 1;
    }
    if (this.#entries.length > MAX_WALLET_LOG) {
      const dropped = this.#entries.splice(0, this.#entries.length - MAX_WALLET_LOG);
      this.#refused -= dropped.filter((kept) => kept.outcome === 'refused').length;
    }
    return entry;
  }

  /** Newest first. */
  list(): WalletLogEntry[] {
    return [...this.#entries].reverse();
  }

  clear(): void {
    this.#entries.length = 0;
    this.#refused = 0;
  }
}
