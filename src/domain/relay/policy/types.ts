import type { PublicKey } from '@solana/web3.js';
import type { LedgerAccount } from '../../ledger/engine.ts';
import type { PolicyOptions } from '../policy-options.ts';

import type { RelayOperation, StrictBreak } from '../../../base/words/words.ts';

export type { RelayOperation, StrictBreak } from '../../../base/words/words.ts';

/** What the policy needs to know besides the transaction. */
export interface PolicyContext {
  feePayer: PublicKey;
  operation: RelayOperation;
  options: PolicyOptions;
  /** Reads the ledger (mints, existing accounts, accounts to close). */
  getAccount(address: PublicKey): Promise<LedgerAccount | null>;
  /** Rent-exempt minimum of a token account. */
  tokenAccountRent: bigint;
  /** The app's own programs (loaded at start or deployed since: rules P1 and F3). */
  appPrograms: { has(address: string): boolean };
}

export interface CreatedAccount {
  account: string;
  owner: string;
  mint: string;
  kind: 'associated' | 'plain';
  /**
   * False for a CreateIdempotent that finds the token account on the ledger already: it costs the
   * fee payer nothing, so no close-authority hand-over is asked of it.
   */
  funded: boolean;
}

/** A transfer of SOL from a user's wallet (System Program transfer, signed by that wallet). */
export interface SolTransfer {
  source: string;
  destination: string;
  lamports: bigint;
}

export interface TokenTransfer {
  source: string;
  destination: string;
  authority: string;
  amount: bigint;
  /** Known from TransferChecked, or read from the source account. */
  mint: string | null;
  decimals: number | null;
}

/** What a transaction does, once it passed the policy. */
export interface PolicyVerdict {
  created: CreatedAccount[];
  transfers: TokenTransfer[];
  solTransfers: SolTransfer[];
  closed: string[];
  memos: string[];
  /** The app's programs this transaction calls, in order (rule P1). */
  calls: string[];
  /**
   * Indexes of the app-program instructions that list the fee payer (rule F3): the pipeline
   * simulates the transaction and weighs what the fee payer would lose. Always empty under strict,
   * which refuses them.
   */
  feePayerCalls: number[];
  /** Strict rules broken, in the order met; always empty under the strict profile. */
  strictBreaks: StrictBreak[];
  /**
   * Lamports the fee payer cannot get back beyond the fee: the exposure of each account at stake,
   * counted once per account.
   */
  sponsorExposure: bigint;
}
