import type { PublicKey } from '@solana/web3.js';
import type { LedgerAccount } from '../../ledger/engine.ts';
import type { PolicyOptions } from '../policy-options.ts';

export type RelayOperation = 'create' | 'close' | 'send' | 'sendbatch';

/** What the policy needs to know besides the transaction. */
export interface PolicyContext {
  feePayer: PublicKey;
  operation: RelayOperation;
  options: PolicyOptions;
  /** Reads the ledger (mints, existing accounts, accounts to close). */
  getAccount(address: PublicKey): Promise<LedgerAccount | null>;
  /** Rent-exempt minimum of a token account. */
  tokenAccountRent: bigint;
}

export interface CreatedAccount {
  account: string;
  owner: string;
  mint: string;
  kind: 'associated' | 'plain';
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
  closed: string[];
  memos: string[];
}
