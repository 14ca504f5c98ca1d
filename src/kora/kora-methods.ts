import { PublicKey, VersionedTransaction } from '@solana/web3.js';
import { encodeBase58 } from '../crypto/base58.ts';
import { decodeMint } from '../ledger/token-accounts.ts';
import type { KoraMethodName } from './kora-config.ts';
import type { KoraContext } from './kora-context.ts';
import { transferTransaction } from './kora-transfer.ts';
import { invalidTransaction, KoraError } from './kora-error.ts';
import { decodeKoraTransaction, resolveKoraTransaction, signerPosition } from './kora-transaction.ts';
import { validateForKora } from './kora-validation.ts';

/** How long signAndSendTransaction waits for its transaction to be confirmed. */
const SEND_TIMEOUT_MS = 60_000;

type Params = Record<string, unknown>;
export type KoraMethod = (params: Params, context: KoraContext) => Promise<unknown>;

/** Kora 2.0.4's methods (crates/lib/src/rpc_server/method/), answered from the emulator's ledger and relay. */
export const KORA_METHODS: Record<KoraMethodName, KoraMethod> = {
  async liveness() {
    return null;
  },
  async getConfig(_params, { config, signer }) {
    return { fee_payers: [encodeBase58(signer.publicKey)], validation_config: config.validation, enabled_methods: config.kora.enabled_methods };
  },
  async getPayerSigner(_params, { config, signer }) {
    const address = encodeBase58(signer.publicKey);
    return { signer_address: address, payment_address: config.kora.payment_address ?? address };
  },
  async getSupportedTokens(_params, { config }) {
    if (config.validation.allowed_tokens.length === 0) throw new KoraError('InternalServerError', 'No tokens provided');
    return { tokens: config.validation.allowed_tokens };
  },
  async getBlockhash(_params, { services }) {
    return { blockhash: (await services.ledger.latestBlockhash()).blockhash };
  },
  async estimateTransactionFee(params, context) {
    const tx = decodeKoraTransaction(stringParam(params, 'transaction'));
    const address = encodeBase58(context.signer.publicKey);
    await resolveKoraTransaction(context.services.ledger, tx, booleanParam(params, 'sig_verify'));
    // The `free` price charges nothing (FeeConfigUtil::estimate_kora_fee); the only price served so far.
    const feeToken = optionalString(params, 'fee_token');
    let feeInToken: number | null = null;
    if (feeToken !== null) {
      if (!isAddress(feeToken)) throw invalidTransaction('Invalid fee token mint address');
      const paid = context.config.validation.allowed_spl_paid_tokens;
      if (paid !== 'All' && !paid.includes(feeToken)) throw new KoraError('InvalidRequest', `Token ${feeToken} is not supported`);
      if (!decodeMint(await context.services.ledger.getAccount(new PublicKey(feeToken)))) throw new KoraError('AccountNotFound', feeToken);
      feeInToken = 0;
    }
    return { fee_in_lamports: 0, fee_in_token: feeInToken, signer_pubkey: address, payment_address: context.config.kora.payment_address ?? address };
  },
  async signTransaction(params, context) {
    const signed = await signForKora(params, context);
    return { signed_transaction: signed.encoded, signer_pubkey: encodeBase58(context.signer.publicKey) };
  },
  async signAndSendTransaction(params, context) {
    const signed = await signForKora(params, context);
    const signature = await context.services.relay.submitSigned(signed.tx, signed.bytes, 'kora');
    const landed = await context.services.worker.waitFor(signature, 'confirmed', SEND_TIMEOUT_MS);
    if (landed?.status === 'failed') throw new KoraError('TransactionExecutionFailed', landed.message);
    return { signature, signed_transaction: signed.encoded, signer_pubkey: encodeBase58(context.signer.publicKey) };
  },
  transferTransaction,
};

/** VersionedTransactionOps::sign_transaction: validate, check the fee against the cap, sign in the fee payer's place. */
async function signForKora(params: Params, context: KoraContext): Promise<{ tx: VersionedTransaction; bytes: Uint8Array; encoded: string }> {
  const tx = decodeKoraTransaction(stringParam(params, 'transaction'));
  const { ledger } = context.services;
  const resolved = await resolveKoraTransaction(ledger, tx, booleanParam(params, 'sig_verify'));
  const feePayer = new PublicKey(context.signer.publicKey);
  validateForKora(resolved, context.config.validation, feePayer.toBase58());
  const fee = ledger.feeFor(tx);
  if (fee > BigInt(context.config.validation.max_allowed_lamports)) {
    throw invalidTransaction(`Fee ${fee} exceeds maximum allowed ${context.config.validation.max_allowed_lamports}`);
  }
  const position = signerPosition(tx, feePayer);
  const signedTx = VersionedTransaction.deserialize(tx.serialize());
  signedTx.signatures[position] = context.signer.sign(signedTx.message.serialize());
  const bytes = signedTx.serialize();
  return { tx: signedTx, bytes, encoded: Buffer.from(bytes).toString('base64') };
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

function isAddress(text: string): boolean {
  try {
    return new PublicKey(text).toBase58() === text;
  } catch {
    return false;
  }
}
