import { associatedTokenAddress, createAssociatedTokenAccount, transferChecked } from '../../domain/ledger/spl-token.ts';
import { PublicKey, SystemProgram, type TransactionInstruction, TransactionMessage, VersionedTransaction } from '@solana/web3.js';
import { decodeMint } from '../../domain/ledger/token-accounts.ts';
import { invalidTransaction, KoraError } from './kora-error.ts';
import { feeScope, type KoraContext } from './kora-context.ts';
import { resolveInstructions } from './kora-transaction.ts';
import { validateForKora } from './kora-validation.ts';

/** Kora's name for SOL in a transfer request (constant.rs NATIVE_SOL). */
const NATIVE_SOL = '11111111111111111111111111111111';

/**
 * transferTransaction (deprecated upstream, still in the SDK): Kora builds the transfer itself, with
 * its signer paying the fee (and the destination's associated token account when it is missing),
 * validates it as it would a client's, signs its own place and hands it back for the source to sign.
 */
export async function transferTransaction(params: Record<string, unknown>, context: KoraContext) {
  const { ledger } = context.deps;
  const signer = context.signers.pick(typeof params.signer_key === 'string' ? params.signer_key : null);
  const feePayer = new PublicKey(signer.signer.publicKey);
  const source = addressParam(params, 'source');
  const destination = addressParam(params, 'destination');
  const token = addressParam(params, 'token');
  const amount = params.amount;
  if (typeof amount !== 'number' || !Number.isSafeInteger(amount) || amount < 0) throw new KoraError('InvalidRequest', 'invalid value for field `amount`');
  const disallowed = context.config.validation.disallowed_accounts;
  if (disallowed.includes(source.toBase58())) throw invalidTransaction(`Source account ${source.toBase58()} is disallowed`, 'validation.disallowed_accounts');
  if (disallowed.includes(destination.toBase58()))
    throw invalidTransaction(`Destination account ${destination.toBase58()} is disallowed`, 'validation.disallowed_accounts');
  const instructions: TransactionInstruction[] = [];
  if (token.toBase58() === NATIVE_SOL) {
    instructions.push(SystemProgram.transfer({ fromPubkey: source, toPubkey: destination, lamports: amount }));
  } else {
    if (!context.config.validation.allowed_tokens.includes(token.toBase58()))
      throw invalidTransaction(`Mint ${token.toBase58()} is not a valid token mint`, 'validation.allowed_tokens');
    const mintAccount = await ledger.getAccount(token);
    const mint = decodeMint(mintAccount);
    if (!mintAccount || !mint) throw new KoraError('AccountNotFound', token.toBase58());
    const program = mintAccount.owner;
    const sourceAta = associatedTokenAddress(token, source, program);
    const destinationAta = associatedTokenAddress(token, destination, program);
    if (!(await ledger.getAccount(sourceAta))) throw new KoraError('AccountNotFound', sourceAta.toBase58());
    if (!(await ledger.getAccount(destinationAta))) {
      instructions.push(createAssociatedTokenAccount(feePayer, destinationAta, destination, token, { programId: program }));
    }
    instructions.push(transferChecked(sourceAta, token, destinationAta, source, BigInt(amount), mint.decimals, program));
  }
  const { blockhash } = await ledger.latestBlockhash();
  const message = new TransactionMessage({ payerKey: feePayer, recentBlockhash: blockhash, instructions }).compileToLegacyMessage();
  const tx = new VersionedTransaction(message);
  const accountKeys = message.staticAccountKeys.map((key) => key.toBase58());
  // Kora validates what it built itself without a simulation (from_kora_built_transaction: outer instructions only).
  await validateForKora({ tx, accountKeys, instructions: resolveInstructions(message.compiledInstructions, accountKeys) }, feeScope(context, signer.address));
  tx.signatures[0] = signer.signer.sign(message.serialize());
  return {
    transaction: Buffer.from(tx.serialize()).toString('base64'),
    message: Buffer.from(message.serialize()).toString('base64'),
    blockhash,
    signer_pubkey: feePayer.toBase58(),
  };
}

function addressParam(params: Record<string, unknown>, name: 'source' | 'destination' | 'token'): PublicKey {
  const value = params[name];
  if (typeof value !== 'string') throw new KoraError('InvalidRequest', `missing field \`${name}\``);
  try {
    return new PublicKey(value);
  } catch (error) {
    throw new KoraError('ValidationError', `Invalid ${name} address: ${(error as Error).message}`);
  }
}
