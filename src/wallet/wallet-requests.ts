import { VersionedTransaction } from '@solana/web3.js';
import { cutText } from '../base/words/cut-text.ts';

/** What the dapp asked of the wallet, as the test reads it back: the decoded transaction, the message, and what the user did. */
export interface WalletRequest {
  /** 1, 2, …: in the order the dapp made them. */
  id: number;
  method: 'connect' | 'disconnect' | 'signTransaction' | 'signAndSendTransaction' | 'signMessage' | 'signIn';
  /** The origin of the page (frame) that asked. */
  origin: string;
  /** Through `window.solana` (Phantom's API) rather than the Wallet Standard. */
  legacy: boolean;
  /** A transaction to sign: its fee payer, signers, instructions' programs, and whether it asks this wallet to pay the fee. */
  transaction?: {
    version: 'legacy' | 0;
    feePayer: string;
    signers: string[];
    programs: string[];
    /** True when the wallet's own key pays the fee: the user pays, not the relay. */
    walletPaysFee: boolean;
    base64: string;
  };
  /** A message to sign, as text (UTF-8) or, when it is not text, base64: its first 65,536 characters. */
  message?: string;
  /** approved, rejected (by the test's choice), or refused (an origin the test did not allow, a key the wallet does not hold). */
  outcome: 'approved' | 'rejected' | 'refused';
  /** Why it was rejected or refused. */
  reason?: string;
  /** signAndSendTransaction's signature. */
  signature?: string;
}

/** What the test decides for a request: approve (default), reject as the user would, or wait first. */
export type WalletDecision = 'approve' | 'reject' | { delayMs: number; then?: 'approve' | 'reject' };

/** The JSON-RPC-like error the page's promise rejects with: 4001 is the user's rejection (EIP-1193's, as Phantom uses it). */
export class WalletError extends Error {
  constructor(
    readonly code: number,
    message: string,
    override readonly name = 'WalletError',
  ) {
    super(message);
  }
}

export function deserialize(bytes: Uint8Array): VersionedTransaction {
  try {
    return VersionedTransaction.deserialize(bytes);
  } catch (error) {
    throw new WalletError(-32602, `The transaction cannot be read: ${(error as Error).message}`, 'WalletSignTransactionError');
  }
}

/** How much of a message the record keeps (the wallet signs all of it). */
export const MAX_MESSAGE_TEXT = 65_536;

/** A message as text when it is UTF-8 without control characters, else its base64; its first {@link MAX_MESSAGE_TEXT} characters. */
export function textOf(bytes: Uint8Array): string {
  const text = Buffer.from(bytes).toString('utf8');
  return cutText(
    Buffer.from(text, 'utf8').equals(Buffer.from(bytes)) && !/[\u0000-\u0008\u000e-\u001f]/.test(text) ? text : Buffer.from(bytes).toString('base64'),
    MAX_MESSAGE_TEXT,
  );
}

/** What a transaction asks the user: its version, fee payer, signers and programs, and whether `wallet` pays the fee. */
export function describeTransaction(bytes: Uint8Array, wallet: string): NonNullable<WalletRequest['transaction']> {
  const tx = deserialize(bytes);
  const keys = tx.message.staticAccountKeys.map((key) => key.toBase58());
  return {
    version: tx.version === 'legacy' ? 'legacy' : 0,
    feePayer: keys[0] ?? '',
    signers: keys.slice(0, tx.message.header.numRequiredSignatures),
    programs: [...new Set(tx.message.compiledInstructions.map((instruction) => keys[instruction.programIdIndex] ?? '(a lookup table’s)'))],
    walletPaysFee: keys[0] === wallet,
    base64: Buffer.from(bytes).toString('base64'),
  };
}
