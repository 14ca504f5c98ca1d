import type { PublicKey, TransactionInstruction } from '@solana/web3.js';
import type { ProblemCode } from '../../../base/errors/problem-codes.ts';
import type { RuleId } from '../../../base/errors/rule-ids.ts';
import { RelayError } from '../../../base/errors/relay-error.ts';
import type { CreatedAccount, PolicyContext, SolTransfer, StrictBreak, TokenTransfer } from './types.ts';

/** A token account this transaction creates, and whether its close authority went to the fee payer. */
export interface CreatedEntry extends CreatedAccount {
  closeAuthoritySet: boolean;
}

/** What the policy has learnt so far while walking a transaction's instructions in order. */
export class WalkState {
  readonly context: PolicyContext;
  readonly feePayer: PublicKey;
  /** Token accounts created (and initialized) by this transaction, by address. */
  readonly created = new Map<string, CreatedEntry>();
  /** Accounts funded by `createAccount` and not initialized yet. */
  readonly pendingPlain = new Set<string>();
  /** Compute-budget kinds seen. */
  readonly budgetKinds = new Set<string>();
  /** The instructions seen so far (rule F2 compares each new one with them). */
  readonly seen: TransactionInstruction[] = [];
  readonly transfers: TokenTransfer[] = [];
  readonly solTransfers: SolTransfer[] = [];
  readonly closed: string[] = [];
  readonly memos: string[] = [];
  readonly calls: string[] = [];
  readonly feePayerCalls: number[] = [];
  readonly strictBreaks: StrictBreak[] = [];

  constructor(context: PolicyContext) {
    this.context = context;
    this.feePayer = context.feePayer;
  }

  /**
   * A rule only the strict profile enforces. Under `strict` it refuses, as any rule; under
   * `faithful` the transaction goes on, and the break is recorded with what it exposes.
   */
  strictOnly(code: ProblemCode, rule: RuleId, detail: string, stake: { account: string | null; exposure: bigint }): void {
    if (this.context.options.profile === 'strict') throw new RelayError(code, detail, { rule });
    this.strictBreaks.push({ rule, code, detail, account: stake.account, exposure: stake.exposure });
  }

  /** True when this transaction already creates `account`, initialized or not. */
  creates(account: string): boolean {
    return this.created.has(account) || this.pendingPlain.has(account);
  }
}
