import { associatedTokenAddress, TOKEN_2022_PROGRAM_ID } from '../../domain/ledger/spl-token.ts';
import { PublicKey } from '@solana/web3.js';
import type { Ledger } from '../../domain/ledger/ledger.ts';
import { decodeMint, decodeTokenAccount } from '../../domain/ledger/token-accounts.ts';
import { PROGRAMS } from '../../domain/relay/programs.ts';
import type { ValidationConfig } from './kora-config.ts';
import { invalidTransaction, KoraError } from './kora-error.ts';
import { type KoraParsed, type KoraTransaction, parseForKora, splTransfers, type SplTransfer } from './kora-instructions.ts';
import { lamportsToToken, mockPrice, tokenToLamports, withMargin } from './kora-price.ts';
import { checkBlockedExtensions, transferFeeOf } from './kora-token2022.ts';
import type { TokenPayment } from '../../domain/relay/sponsor-costs.ts';

/** constant.rs. */
const LAMPORTS_PER_SIGNATURE = 5_000n;
const ESTIMATED_LAMPORTS_FOR_PAYMENT_INSTRUCTION = 50n;

/** fee.rs TotalFeeCalculation: what Kora charges, and the parts a strict fixed price is held to. */
export interface KoraFee {
  total: bigint;
  base: bigint;
  koraSignature: bigint;
  outflow: bigint;
  paymentInstruction: bigint;
  /** Token-2022 transfer fees of the payments, added as they are (token base units, as Kora adds them). */
  transferFee: bigint;
}

/** What the fee arithmetic reads: the ledger, the validation config, the signer and where payments go. */
export interface FeeScope {
  ledger: Ledger;
  validation: ValidationConfig;
  feePayer: string;
  paymentAddress: string;
}

/** A mint's decimals, or AccountNotFound as Kora's get_mint gives it. */
export async function mintDecimals(ledger: Ledger, mint: string): Promise<number> {
  const state = decodeMint(await ledger.getAccount(new PublicKey(mint)));
  if (!state) throw new KoraError('AccountNotFound', mint);
  return state.decimals;
}

/** FeeConfigUtil::estimate_kora_fee, by the configured price; `outflow` when the validation already added it up. */
export async function estimateKoraFee(scope: FeeScope, transaction: KoraTransaction, outflow?: bigint): Promise<KoraFee> {
  const price = scope.validation.price;
  if (price.type === 'free') return fixed(0n);
  if (price.type === 'fixed') {
    const lamports = tokenToLamports(BigInt(price.amount), await mintDecimals(scope.ledger, price.token), mockPrice(price.token));
    return price.strict ? { ...(await costOf(scope, transaction, outflow)), total: lamports } : fixed(lamports);
  }
  const cost = await costOf(scope, transaction, outflow);
  return { ...cost, total: withMargin(cost.total, price.margin) };
}

function fixed(total: bigint): KoraFee {
  return { total, base: 0n, koraSignature: 0n, outflow: 0n, paymentInstruction: 0n, transferFee: 0n };
}

/** FeeConfigUtil::estimate_transaction_fee: the network fee, Kora's own signature, the fee payer's outflow, the payment instruction's room. */
async function costOf(scope: FeeScope, transaction: KoraTransaction, known?: bigint): Promise<KoraFee> {
  const { tx } = transaction;
  const base = scope.ledger.feeFor(tx);
  const signers = transaction.accountKeys.slice(0, tx.message.header.numRequiredSignatures);
  const koraSignature = signers.includes(scope.feePayer) ? 0n : LAMPORTS_PER_SIGNATURE;
  const outflow = known ?? (await feePayerOutflow(scope, transaction));
  const { hasPayment, transferFee } = await payments(scope, transaction);
  const paymentInstruction = !hasPayment ? ESTIMATED_LAMPORTS_FOR_PAYMENT_INSTRUCTION : 0n;
  return { total: base + koraSignature + outflow + paymentInstruction + transferFee, base, koraSignature, outflow, paymentInstruction, transferFee };
}

/**
 * analyze_payment_instructions: whether a token transfer goes into an existing account the payment
 * address owns, and the Token-2022 transfer fees of those that name their mint.
 */
async function payments(scope: FeeScope, transaction: KoraTransaction): Promise<{ hasPayment: boolean; transferFee: bigint }> {
  let hasPayment = false;
  let transferFee = 0n;
  for (const transfer of splTransfers(transaction.instructions)) {
    const account = decodeTokenAccount(await scope.ledger.getAccount(new PublicKey(transfer.destination)));
    if (account?.owner !== scope.paymentAddress) continue;
    hasPayment = true;
    if (transfer.is2022 && transfer.mint !== null) transferFee += await transferFeeOf(scope.ledger, transfer.mint, transfer.amount);
  }
  return { hasPayment, transferFee };
}

/**
 * fee.rs calculate_fee_payer_outflow: the lamports the fee payer sends away, in its order: system
 * transfers (what comes back taken off, never below 0), the accounts it funds, its nonce
 * withdrawals; then its token transfers valued in lamports at the mock price (tokens it receives
 * taken off, never below 0).
 */
export async function feePayerOutflow(scope: FeeScope, transaction: KoraTransaction): Promise<bigint> {
  const parsed = transaction.instructions.map(parseForKora).filter((item): item is KoraParsed => item !== null);
  return solOutflow(parsed, scope.feePayer) + (await tokenOutflow(scope, splTransfers(transaction.instructions)));
}

function solOutflow(parsed: readonly KoraParsed[], feePayer: string): bigint {
  let total = 0n;
  for (const item of parsed) {
    if (item.name !== 'System Transfer') continue;
    if (item.authorities[0] === feePayer) total += item.lamports;
    if (item.receiver === feePayer) total = total > item.lamports ? total - item.lamports : 0n;
  }
  for (const name of ['System Create Account', 'System Withdraw Nonce Account']) {
    for (const item of parsed) if (item.name === name && item.authorities[0] === feePayer) total += item.lamports;
  }
  return total;
}

/** TokenUtil::calculate_spl_transfers_value_in_lamports. */
async function tokenOutflow(scope: FeeScope, transfers: readonly SplTransfer[]): Promise<bigint> {
  const byMint = new Map<string, { amount: bigint; out: boolean }[]>();
  const add = (mint: string, amount: bigint, out: boolean) => byMint.set(mint, [...(byMint.get(mint) ?? []), { amount, out }]);
  for (const transfer of transfers) {
    if (transfer.owner === scope.feePayer) {
      const mint = transfer.mint ?? decodeTokenAccount(await scope.ledger.getAccount(new PublicKey(transfer.source)))?.mint;
      if (mint === undefined) throw new KoraError('AccountNotFound', transfer.source);
      add(mint, transfer.amount, true);
    } else if (transfer.mint !== null) {
      const destination = decodeTokenAccount(await scope.ledger.getAccount(new PublicKey(transfer.destination)));
      if (destination ? destination.owner === scope.feePayer : isFeePayerAta(scope.feePayer, transfer.mint, transfer.destination))
        add(transfer.mint, transfer.amount, false);
    }
  }
  let total = 0n;
  for (const [mint, moves] of byMint) {
    const decimals = await mintDecimals(scope.ledger, mint);
    for (const { amount, out } of moves) {
      const lamports = tokenToLamports(amount, decimals, mockPrice(mint));
      total = out ? total + lamports : total > lamports ? total - lamports : 0n;
    }
  }
  return total;
}

function isFeePayerAta(feePayer: string, mint: string, destination: string): boolean {
  const owner = new PublicKey(feePayer);
  const mintKey = new PublicKey(mint);
  return [PROGRAMS.token, TOKEN_2022_PROGRAM_ID].some((program) => associatedTokenAddress(mintKey, owner, program).toBase58() === destination);
}

/** fee.rs calculate_fee_in_token: the fee in a paid token's base units, at the mock price. */
export async function feeInToken(scope: FeeScope, lamports: bigint, token: string): Promise<bigint> {
  const paid = scope.validation.allowed_spl_paid_tokens;
  if (paid !== 'All' && !paid.includes(token)) throw new KoraError('InvalidRequest', `Token ${token} is not supported`, 'validation.allowed_spl_paid_tokens');
  return lamportsToToken(lamports, await mintDecimals(scope.ledger, token), mockPrice(token));
}

/**
 * TokenUtil::verify_token_payment and validate_token_payment: the token transfers to accounts the
 * payment address owns (existing, or created by an associated-token instruction in the same
 * transaction), in paid tokens, valued at the mock price, must cover `required` lamports.
 */
export async function verifyTokenPayment(scope: FeeScope, transaction: KoraTransaction, required: bigint): Promise<TokenPayment[]> {
  let paid = 0n;
  const payments: TokenPayment[] = [];
  for (const transfer of splTransfers(transaction.instructions)) {
    const account = await scope.ledger.getAccount(new PublicKey(transfer.destination));
    let owner: string;
    let mint: string;
    const blocked = scope.validation.token_2022;
    if (account) {
      const state = decodeTokenAccount(account);
      if (!state) throw invalidTransaction('Invalid token account: the destination is not a token account');
      ({ owner, mint } = state);
      if (transfer.is2022)
        await checkBlockedExtensions(scope.ledger, blocked, { mint: transfer.mint ?? mint, source: transfer.source, destination: transfer.destination });
    } else {
      const creation = transaction.instructions.find(
        (instruction) => instruction.program === PROGRAMS.associatedToken.toBase58() && instruction.accounts[1] === transfer.destination,
      );
      if (!creation) throw new KoraError('AccountNotFound', transfer.destination);
      [owner, mint] = [creation.accounts[2] ?? '', creation.accounts[3] ?? ''];
      if (transfer.is2022) await checkBlockedExtensions(scope.ledger, blocked, { mint, source: transfer.source, destination: null });
    }
    const tokens = scope.validation.allowed_spl_paid_tokens;
    if (owner !== scope.paymentAddress || (tokens !== 'All' && !tokens.includes(mint))) continue;
    const lamports = tokenToLamports(transfer.amount, await mintDecimals(scope.ledger, mint), mockPrice(mint));
    paid += lamports;
    payments.push({ mint, amount: transfer.amount, lamports });
  }
  if (paid < required) throw invalidTransaction(`Insufficient token payment. Required ${required} lamports`, 'validation.price');
  // What the user paid, for the sponsor-cost report: the sponsor's margin is the lamports here less what the transaction cost it.
  return payments;
}

/** TransactionValidator::validate_strict_pricing_with_fee. */
export function checkStrictPrice(validation: ValidationConfig, fee: KoraFee): void {
  if (validation.price.type !== 'fixed' || !validation.price.strict) return;
  const cost = fee.base + fee.koraSignature + fee.outflow + fee.paymentInstruction + fee.transferFee;
  if (fee.total < cost) {
    throw new KoraError(
      'ValidationError',
      `Strict pricing violation: total fee (${cost} lamports) exceeds fixed price (${fee.total} lamports)`,
      'validation.price.strict',
    );
  }
}
