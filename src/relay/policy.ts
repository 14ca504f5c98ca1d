import { ACCOUNT_SIZE, getAssociatedTokenAddressSync } from '@solana/spl-token';
import { PublicKey, TransactionMessage, type TransactionInstruction, type VersionedTransaction } from '@solana/web3.js';
import { RelayError } from '../errors/relay-error.ts';
import { decodeComputeBudget } from '../ledger/compute-budget.ts';
import type { LedgerAccount } from '../ledger/engine.ts';
import { decodeTokenAccount } from '../ledger/token-accounts.ts';
import type { PolicyOptions } from './policy-options.ts';
import { AUTHORITY_TYPE_CLOSE_ACCOUNT, PROGRAMS, SYSTEM_INSTRUCTION, TOKEN_INSTRUCTION } from './programs.ts';

export type RelayOperation = 'create' | 'close' | 'send' | 'sendbatch';

export interface PolicyContext {
  feePayer: PublicKey;
  operation: RelayOperation;
  options: PolicyOptions;
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

/**
 * Decides whether the relay sponsors a transaction for an operation. The rules:
 *
 * 1. Programs: System, SPL Token, Associated Token Account, Compute Budget and Memo (v1, v2), plus
 *    `extraPrograms`. Token-2022 is refused (TOKEN_2022_UNSUPPORTED): its extensions (transfer
 *    hooks, transfer fees, confidential transfers) can move value in ways this policy cannot see.
 * 2. The fee payer may be a signer or writable account only as: the payer of an associated token
 *    account creation; the funder of `SystemProgram.createAccount` of a 165-byte SPL Token account
 *    funded with exactly its rent-exempt minimum; the destination and authority of `CloseAccount`.
 *    Anywhere else: FEE_PAYER_MISUSE.
 * 3. Every token account the fee payer funds must, in the same transaction, get the fee payer as its
 *    close authority (`SetAuthority(CloseAccount)` signed by the owner), so its rent can come back:
 *    otherwise CLOSE_AUTHORITY_NOT_FEE_PAYER.
 * 4. `CloseAccount` sends the rent to the fee payer (CLOSE_DESTINATION_NOT_FEE_PAYER), is authorised
 *    by the fee payer, and closes an account whose on-ledger close authority is the fee payer.
 * 5. Token transfers (`Transfer`, `TransferChecked`) are never authorised by the fee payer.
 * 6. Compute budget: each kind at most once (DUPLICATE_INSTRUCTION), well-formed
 *    (COMPUTE_BUDGET_INVALID), price at most `maxComputeUnitPrice` (COMPUTE_PRICE_TOO_HIGH).
 * 7. Durable nonces are refused (DURABLE_NONCE_NOT_ALLOWED); other System and Token instructions
 *    are refused (INSTRUCTION_NOT_ALLOWED).
 * 8. Operations: create = account creations only; close = closes only; send and sendbatch =
 *    one or more transfers, optionally after creations. Memos and compute budget go with any.
 *    Anything else: OPERATION_MISMATCH, or NO_OPERATION for a transaction with no operation.
 */
export async function checkPolicy(tx: VersionedTransaction, context: PolicyContext): Promise<PolicyVerdict> {
  if (tx.message.version !== 'legacy' && tx.message.addressTableLookups.length > 0) {
    throw new RelayError('VERSIONED_TRANSACTION_UNSUPPORTED', 'Address lookup tables are not accepted: the relay must see every account the fee payer signs for.');
  }
  const instructions = TransactionMessage.decompile(tx.message).instructions;
  const walk = new PolicyWalk(context);
  for (const [index, instruction] of instructions.entries()) {
    await walk.visit(instruction, index);
  }
  return walk.finish();
}

class PolicyWalk {
  readonly #context: PolicyContext;
  readonly #fp: PublicKey;
  readonly #created = new Map<string, CreatedAccount & { closeAuthoritySet: boolean }>();
  readonly #pendingPlain = new Set<string>();
  readonly #budgetKinds = new Set<string>();
  readonly #seen = new Set<string>();
  readonly #transfers: TokenTransfer[] = [];
  readonly #closed: string[] = [];
  readonly #memos: string[] = [];

  constructor(context: PolicyContext) {
    this.#context = context;
    this.#fp = context.feePayer;
  }

  async visit(ix: TransactionInstruction, index: number): Promise<void> {
    const fingerprint = `${ix.programId.toBase58()}:${Buffer.from(ix.data).toString('base64')}:${ix.keys.map((key) => key.pubkey.toBase58()).join(',')}`;
    if (this.#seen.has(fingerprint)) {
      throw new RelayError('DUPLICATE_INSTRUCTION', `Instruction ${index} repeats an earlier instruction.`);
    }
    this.#seen.add(fingerprint);

    const program = ix.programId;
    if (program.equals(PROGRAMS.computeBudget)) return this.#computeBudget(ix, index);
    if (program.equals(PROGRAMS.memo) || program.equals(PROGRAMS.memoV1)) return this.#memo(ix, index);
    if (program.equals(PROGRAMS.associatedToken)) return this.#associatedToken(ix, index);
    if (program.equals(PROGRAMS.system)) return this.#system(ix, index);
    if (program.equals(PROGRAMS.token)) return this.#token(ix, index);
    if (program.equals(PROGRAMS.token2022)) {
      throw new RelayError('TOKEN_2022_UNSUPPORTED', `Instruction ${index} calls Token-2022, which the relay does not sponsor.`);
    }
    if (this.#context.options.extraPrograms.includes(program.toBase58())) {
      this.#feePayerOnlyIn(ix, index, []);
      return;
    }
    throw new RelayError('PROGRAM_NOT_ALLOWED', `Instruction ${index} calls ${program.toBase58()}, which the relay does not sponsor.`);
  }

  finish(): PolicyVerdict {
    for (const account of this.#pendingPlain) {
      throw new RelayError('INSTRUCTION_NOT_ALLOWED', `Account ${account} is funded by the fee payer but never initialized as a token account.`);
    }
    for (const created of this.#created.values()) {
      if (!created.closeAuthoritySet) {
        throw new RelayError('CLOSE_AUTHORITY_NOT_FEE_PAYER', `Token account ${created.account} is funded by the fee payer but its close authority is not set to the fee payer.`);
      }
    }
    const created = [...this.#created.values()].map(({ closeAuthoritySet: _, ...account }) => account);
    const counts = { create: created.length, transfer: this.#transfers.length, close: this.#closed.length };
    const { operation } = this.#context;
    const shape: Record<RelayOperation, { required: keyof typeof counts; forbidden: (keyof typeof counts)[] }> = {
      create: { required: 'create', forbidden: ['transfer', 'close'] },
      close: { required: 'close', forbidden: ['create', 'transfer'] },
      send: { required: 'transfer', forbidden: ['close'] },
      sendbatch: { required: 'transfer', forbidden: ['close'] },
    };
    const { required, forbidden } = shape[operation];
    const stray = forbidden.find((kind) => counts[kind] > 0);
    if (stray) {
      throw new RelayError('OPERATION_MISMATCH', `A ${operation} transaction may not ${stray === 'create' ? 'create accounts' : stray === 'close' ? 'close accounts' : 'transfer tokens'}.`);
    }
    if (counts[required] === 0) {
      const anything = counts.create + counts.transfer + counts.close > 0;
      throw new RelayError(anything ? 'OPERATION_MISMATCH' : 'NO_OPERATION', `A ${operation} transaction must ${required === 'create' ? 'create a token account' : required === 'close' ? 'close a token account' : 'transfer tokens'}.`);
    }
    return { created, transfers: this.#transfers, closed: this.#closed, memos: this.#memos };
  }

  /** The fee payer may be a signer or writable only at the given key positions. */
  #feePayerOnlyIn(ix: TransactionInstruction, index: number, allowed: number[]): void {
    ix.keys.forEach((key, position) => {
      if (key.pubkey.equals(this.#fp) && (key.isSigner || key.isWritable) && !allowed.includes(position)) {
        throw new RelayError('FEE_PAYER_MISUSE', `Instruction ${index} uses the fee payer as a ${key.isSigner ? 'signer' : 'writable account'} (account ${position}), which the relay does not allow.`);
      }
    });
  }

  #computeBudget(ix: TransactionInstruction, index: number): void {
    const decoded = decodeComputeBudget(ix.data);
    if (!decoded) throw new RelayError('COMPUTE_BUDGET_INVALID', `Instruction ${index} is not a valid compute-budget instruction.`);
    if (this.#budgetKinds.has(decoded.kind)) throw new RelayError('DUPLICATE_INSTRUCTION', `Instruction ${index} repeats ${decoded.kind}.`);
    this.#budgetKinds.add(decoded.kind);
    if (decoded.kind === 'SetComputeUnitPrice' && decoded.microLamports > this.#context.options.maxComputeUnitPrice) {
      throw new RelayError('COMPUTE_PRICE_TOO_HIGH', `The compute-unit price ${decoded.microLamports} µlamports is above the cap of ${this.#context.options.maxComputeUnitPrice}.`);
    }
    this.#feePayerOnlyIn(ix, index, []);
  }

  #memo(ix: TransactionInstruction, index: number): void {
    this.#feePayerOnlyIn(ix, index, []);
    this.#memos.push(Buffer.from(ix.data).toString('utf8'));
  }

  #associatedToken(ix: TransactionInstruction, index: number): void {
    const kind = ix.data.length === 0 ? 0 : ix.data[0];
    if ((kind !== 0 && kind !== 1) || ix.data.length > 1) {
      throw new RelayError('INSTRUCTION_NOT_ALLOWED', `Instruction ${index} is an associated-token instruction other than Create or CreateIdempotent.`);
    }
    const [payer, ata, owner, mint, , tokenProgram] = ix.keys.map((key) => key.pubkey);
    if (!payer || !ata || !owner || !mint || !tokenProgram) {
      throw new RelayError('INSTRUCTION_NOT_ALLOWED', `Instruction ${index} has too few accounts for an associated token account creation.`);
    }
    if (tokenProgram.equals(PROGRAMS.token2022)) {
      throw new RelayError('TOKEN_2022_UNSUPPORTED', `Instruction ${index} creates a Token-2022 account, which the relay does not sponsor.`);
    }
    if (!tokenProgram.equals(PROGRAMS.token)) {
      throw new RelayError('PROGRAM_NOT_ALLOWED', `Instruction ${index} names ${tokenProgram.toBase58()} as the token program.`);
    }
    if (!payer.equals(this.#fp)) {
      throw new RelayError('INSTRUCTION_NOT_ALLOWED', `Instruction ${index} must be paid by the fee payer.`);
    }
    if (owner.equals(this.#fp)) {
      throw new RelayError('FEE_PAYER_MISUSE', `Instruction ${index} creates a token account owned by the fee payer.`);
    }
    if (!getAssociatedTokenAddressSync(mint, owner, true, tokenProgram).equals(ata)) {
      throw new RelayError('INSTRUCTION_NOT_ALLOWED', `Instruction ${index}: ${ata.toBase58()} is not the associated token account of ${owner.toBase58()} for ${mint.toBase58()}.`);
    }
    this.#checkMint(mint.toBase58(), index);
    this.#feePayerOnlyIn(ix, index, [0]);
    this.#created.set(ata.toBase58(), { account: ata.toBase58(), owner: owner.toBase58(), mint: mint.toBase58(), kind: 'associated', closeAuthoritySet: false });
  }

  #system(ix: TransactionInstruction, index: number): void {
    const data = Buffer.from(ix.data);
    const tag = data.length >= 4 ? data.readUInt32LE(0) : -1;
    const nonce: number[] = [SYSTEM_INSTRUCTION.AdvanceNonceAccount, SYSTEM_INSTRUCTION.WithdrawNonceAccount, SYSTEM_INSTRUCTION.InitializeNonceAccount, SYSTEM_INSTRUCTION.AuthorizeNonceAccount, SYSTEM_INSTRUCTION.UpgradeNonceAccount];
    if (nonce.includes(tag)) {
      throw new RelayError('DURABLE_NONCE_NOT_ALLOWED', `Instruction ${index} is a durable-nonce instruction.`);
    }
    const [from, created] = ix.keys.map((key) => key.pubkey);
    if (tag === SYSTEM_INSTRUCTION.CreateAccount && data.length === 52 && from?.equals(this.#fp) && created) {
      const lamports = data.readBigUInt64LE(4);
      const space = data.readBigUInt64LE(12);
      const owner = new PublicKey(data.subarray(20, 52));
      if (owner.equals(PROGRAMS.token2022)) {
        throw new RelayError('TOKEN_2022_UNSUPPORTED', `Instruction ${index} funds a Token-2022 account, which the relay does not sponsor.`);
      }
      if (!owner.equals(PROGRAMS.token) || space !== BigInt(ACCOUNT_SIZE) || lamports > this.#context.tokenAccountRent) {
        throw new RelayError('FEE_PAYER_MISUSE', `Instruction ${index} makes the fee payer fund an account that is not a ${ACCOUNT_SIZE}-byte SPL Token account at its rent-exempt minimum (${this.#context.tokenAccountRent} lamports).`);
      }
      if (created.equals(this.#fp)) throw new RelayError('FEE_PAYER_MISUSE', `Instruction ${index} creates the fee payer itself.`);
      this.#feePayerOnlyIn(ix, index, [0]);
      this.#pendingPlain.add(created.toBase58());
      return;
    }
    this.#feePayerOnlyIn(ix, index, []);
    throw new RelayError('INSTRUCTION_NOT_ALLOWED', `Instruction ${index} is a System Program instruction the relay does not sponsor.`);
  }

  async #token(ix: TransactionInstruction, index: number): Promise<void> {
    const data = Buffer.from(ix.data);
    const keys = ix.keys.map((key) => key.pubkey);
    switch (data[0]) {
      case TOKEN_INSTRUCTION.InitializeAccount:
      case TOKEN_INSTRUCTION.InitializeAccount2:
      case TOKEN_INSTRUCTION.InitializeAccount3:
        return this.#initializeAccount(ix, index, data, keys);
      case TOKEN_INSTRUCTION.SetAuthority:
        return this.#setAuthority(ix, index, data, keys);
      case TOKEN_INSTRUCTION.Transfer:
      case TOKEN_INSTRUCTION.TransferChecked:
        return this.#transfer(ix, index, data, keys);
      case TOKEN_INSTRUCTION.CloseAccount:
        return this.#close(ix, index, keys);
      default:
        this.#feePayerOnlyIn(ix, index, []);
        throw new RelayError('INSTRUCTION_NOT_ALLOWED', `Instruction ${index} is an SPL Token instruction (tag ${data[0]}) the relay does not sponsor.`);
    }
  }

  #initializeAccount(ix: TransactionInstruction, index: number, data: Buffer, keys: PublicKey[]): void {
    const [account, mint] = keys;
    const owner = data[0] === TOKEN_INSTRUCTION.InitializeAccount ? keys[2] : data.length === 33 ? new PublicKey(data.subarray(1, 33)) : undefined;
    if (!account || !mint || !owner) throw new RelayError('INSTRUCTION_NOT_ALLOWED', `Instruction ${index} is a malformed InitializeAccount.`);
    if (!this.#pendingPlain.delete(account.toBase58())) {
      throw new RelayError('INSTRUCTION_NOT_ALLOWED', `Instruction ${index} initializes ${account.toBase58()}, which this transaction did not create.`);
    }
    if (owner.equals(this.#fp)) throw new RelayError('FEE_PAYER_MISUSE', `Instruction ${index} makes the fee payer own a token account.`);
    this.#checkMint(mint.toBase58(), index);
    this.#feePayerOnlyIn(ix, index, []);
    this.#created.set(account.toBase58(), { account: account.toBase58(), owner: owner.toBase58(), mint: mint.toBase58(), kind: 'plain', closeAuthoritySet: false });
  }

  #setAuthority(ix: TransactionInstruction, index: number, data: Buffer, keys: PublicKey[]): void {
    const [account, currentAuthority] = keys;
    if (currentAuthority?.equals(this.#fp)) {
      throw new RelayError('FEE_PAYER_MISUSE', `Instruction ${index} uses the fee payer as the current authority of SetAuthority.`);
    }
    const created = account ? this.#created.get(account.toBase58()) : undefined;
    const newAuthority = data.length === 35 && data[2] === 1 ? new PublicKey(data.subarray(3, 35)) : null;
    if (!created || data[1] !== AUTHORITY_TYPE_CLOSE_ACCOUNT || !newAuthority?.equals(this.#fp) || currentAuthority?.toBase58() !== created.owner) {
      throw new RelayError('INSTRUCTION_NOT_ALLOWED', `Instruction ${index}: the only SetAuthority sponsored sets the close authority of an account created in this transaction to the fee payer, signed by its owner.`);
    }
    this.#feePayerOnlyIn(ix, index, []);
    created.closeAuthoritySet = true;
  }

  async #transfer(ix: TransactionInstruction, index: number, data: Buffer, keys: PublicKey[]): Promise<void> {
    const checked = data[0] === TOKEN_INSTRUCTION.TransferChecked;
    const [source, second, third, fourth] = keys;
    const destination = checked ? third : second;
    const authority = checked ? fourth : third;
    if (!source || !destination || !authority || data.length !== (checked ? 10 : 9)) {
      throw new RelayError('INSTRUCTION_NOT_ALLOWED', `Instruction ${index} is a malformed token transfer.`);
    }
    if (authority.equals(this.#fp)) {
      throw new RelayError('FEE_PAYER_MISUSE', `Instruction ${index} transfers tokens with the fee payer as authority.`);
    }
    this.#feePayerOnlyIn(ix, index, []);
    let mint = checked ? second!.toBase58() : null;
    if (mint === null) mint = decodeTokenAccount(await this.#context.getAccount(source))?.mint ?? null;
    if (mint !== null) this.#checkMint(mint, index);
    this.#transfers.push({
      source: source.toBase58(),
      destination: destination.toBase58(),
      authority: authority.toBase58(),
      amount: data.readBigUInt64LE(1),
      mint,
      decimals: checked ? data[9]! : null,
    });
  }

  async #close(ix: TransactionInstruction, index: number, keys: PublicKey[]): Promise<void> {
    const [account, destination, authority] = keys;
    if (!account || !destination || !authority) throw new RelayError('INSTRUCTION_NOT_ALLOWED', `Instruction ${index} is a malformed CloseAccount.`);
    if (!destination.equals(this.#fp)) {
      throw new RelayError('CLOSE_DESTINATION_NOT_FEE_PAYER', `Instruction ${index} sends the rent of ${account.toBase58()} to ${destination.toBase58()}, not the fee payer.`);
    }
    if (!authority.equals(this.#fp)) {
      throw new RelayError('CLOSE_AUTHORITY_NOT_FEE_PAYER', `Instruction ${index} closes ${account.toBase58()} with an authority other than the fee payer.`);
    }
    const state = decodeTokenAccount(await this.#context.getAccount(account));
    if (!state || state.programId !== PROGRAMS.token.toBase58()) {
      throw new RelayError('ACCOUNT_NOT_CLOSABLE', `Instruction ${index}: ${account.toBase58()} is not an SPL Token account on the ledger.`);
    }
    if (state.closeAuthority !== this.#fp.toBase58()) {
      throw new RelayError('CLOSE_AUTHORITY_NOT_FEE_PAYER', `The close authority of ${account.toBase58()} is ${state.closeAuthority ?? 'its owner'}, not the fee payer.`);
    }
    this.#feePayerOnlyIn(ix, index, [1, 2]);
    this.#closed.push(account.toBase58());
  }

  #checkMint(mint: string, index: number): void {
    const allowed = this.#context.options.allowedMints;
    if (allowed && !allowed.includes(mint)) {
      throw new RelayError('MINT_NOT_ALLOWED', `Instruction ${index} uses mint ${mint}, which the relay does not sponsor.`);
    }
  }
}
