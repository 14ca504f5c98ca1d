import { PublicKey, VersionedTransaction } from '@solana/web3.js';
import type { KoraMethodName } from './kora-config.ts';
import { feeScope, type KoraContext } from './kora-context.ts';
import { isAddress } from './kora-instructions.ts';
import { checkStrictPrice, estimateKoraFee, feeInToken, verifyTokenPayment } from './kora-fee.ts';
import { transferTransaction } from './kora-transfer.ts';
import { invalidTransaction, KoraError } from './kora-error.ts';
import { decodeKoraTransaction, resolveKoraTransaction, signerPosition } from './kora-transaction.ts';
import { validateForKora } from './kora-validation.ts';
import { signaturesVerify } from '../rpc/decode-transaction.ts';
import type { TokenPayment } from '../../domain/relay/sponsor-costs.ts';

/** How long signAndSendTransaction waits for its transaction to be confirmed. */
const SEND_TIMEOUT_MS = 60_000;

type Params = Record<string, unknown>;
export type KoraMethod = (params: Params, context: KoraContext) => Promise<unknown>;

/** Kora 2.0.5's methods (crates/lib/src/rpc_server/method/), answered from the emulator's ledger and relay. */
export const KORA_METHODS: Record<KoraMethodName, KoraMethod> = {
  async liveness() {
    return null;
  },
  async getConfig(_params, { config, signers }) {
    return { fee_payers: signers.addresses(), validation_config: config.validation, enabled_methods: config.kora.enabled_methods };
  },
  async getPayerSigner(_params, { config, signers }) {
    const { address } = signers.next();
    return { signer_address: address, payment_address: config.kora.payment_address ?? address };
  },
  async getSupportedTokens(_params, { config }) {
    if (config.validation.allowed_tokens.length === 0) throw new KoraError('InternalServerError', 'No tokens provided');
    return { tokens: config.validation.allowed_tokens };
  },
  async getBlockhash(_params, { deps }) {
    return { blockhash: (await deps.ledger.latestBlockhash()).blockhash };
  },
  async estimateTransactionFee(params, context) {
    const tx = decodeKoraTransaction(stringParam(params, 'transaction'));
    const { address } = context.signers.pick(optionalString(params, 'signer_key'));
    const scope = feeScope(context, address);
    const resolved = await resolveKoraTransaction(context.deps.ledger, tx, booleanParam(params, 'sig_verify'));
    const fee = await estimateKoraFee(scope, resolved);
    const feeToken = optionalString(params, 'fee_token');
    if (feeToken !== null && !isAddress(feeToken)) throw invalidTransaction('Invalid fee token mint address');
    const inToken = feeToken === null ? null : Number(await feeInToken(scope, fee.total, feeToken));
    return { fee_in_lamports: Number(fee.total), fee_in_token: inToken, signer_pubkey: address, payment_address: scope.paymentAddress };
  },
  async signTransaction(params, context) {
    const signed = await signForKora(params, context);
    return { signed_transaction: signed.encoded, signer_pubkey: signed.signer };
  },
  async signAndSendTransaction(params, context) {
    const signed = await signForKora(params, context);
    // Kora sends with the RPC's preflight, which refuses a transaction whose blockhash (or durable
    // nonce) is no longer valid; the emulator's queue would take it and drop it unseen.
    if (!(await context.deps.ledger.isTransactionRecent(signed.tx.message))) {
      throw new KoraError('TransactionExecutionFailed', 'Transaction simulation failed: Blockhash not found');
    }
    // And it verifies every signature, as the validator does before anything runs: the engine does
    // not verify again what reaches it (the relay and the RPC verify first), so a forged client
    // signature must stop here (test/forged-signatures.engines.test.ts).
    if (!signaturesVerify(signed.tx)) throw new KoraError('TransactionExecutionFailed', 'Transaction signature verification failure', 'simulation');
    const signature = await context.deps.relay.submitSigned(signed.tx, signed.bytes, 'kora', signed.exposure, signed.payments);
    const landed = await context.deps.worker.waitFor(signature, 'confirmed', SEND_TIMEOUT_MS);
    if (landed?.status === 'failed') throw new KoraError('TransactionExecutionFailed', landed.message);
    return { signature, signed_transaction: signed.encoded, signer_pubkey: signed.signer };
  },
  transferTransaction,
};

/**
 * VersionedTransactionOps::sign_transaction: validate, price it and check the token payment when the
 * price asks for one (and a strict fixed price), check the fee against the cap, sign in the signer's place.
 */
async function signForKora(
  params: Params,
  context: KoraContext,
): Promise<{ tx: VersionedTransaction; bytes: Uint8Array; encoded: string; signer: string; exposure: bigint; payments: TokenPayment[] }> {
  const tx = decodeKoraTransaction(stringParam(params, 'transaction'));
  context.usage.check(tx, context.signers.addresses());
  const signer = context.signers.pick(optionalString(params, 'signer_key'));
  const { ledger } = context.deps;
  const resolved = await resolveKoraTransaction(ledger, tx, booleanParam(params, 'sig_verify'));
  const scope = feeScope(context, signer.address);
  // The fee payer's outflow, added up once: checked against the cap, charged, and reported as sponsor exposure.
  const outflow = await validateForKora(resolved, scope);
  const fee = await estimateKoraFee(scope, resolved, outflow);
  let payments: TokenPayment[] = [];
  if (fee.total > 0n) {
    payments = await verifyTokenPayment(scope, resolved, fee.total);
    checkStrictPrice(scope.validation, fee);
  }
  const networkFee = ledger.feeFor(tx);
  if (networkFee > BigInt(scope.validation.max_allowed_lamports)) {
    throw invalidTransaction(`Fee ${networkFee} exceeds maximum allowed ${scope.validation.max_allowed_lamports}`, 'validation.max_allowed_lamports');
  }
  const position = signerPosition(tx, new PublicKey(signer.address));
  const signedTx = VersionedTransaction.deserialize(tx.serialize());
  signedTx.signatures[position] = signer.signer.sign(signedTx.message.serialize());
  const bytes = signedTx.serialize();
  return { tx: signedTx, bytes, encoded: Buffer.from(bytes).toString('base64'), signer: signer.address, exposure: outflow, payments };
}

function stringParam(params: Params, name: string): string {
  const value = params[name];
  if (typeof value !== 'string') throw new KoraError('InvalidRequest', `missing field \`${name}\``);
  return value;
}

function optionalString(params: Params, name: string): string | null {
  const value = params[name];
  return typeof value === 'string' ? value : null;
}

function booleanParam(params: Params, name: string): boolean {
  return params[name] === true;
}
