import { PublicKey, Transaction, type TransactionInstruction, VersionedTransaction } from '@solana/web3.js';
import { InternalError } from '../errors/internal-error.ts';
import type { Ed25519Signer } from './ed25519.ts';

/** A transaction the emulator built and signed with keys it holds. */
export interface SignedTransaction {
  tx: VersionedTransaction;
  /** Its wire bytes. */
  bytes: Uint8Array;
}

/**
 * The one way the emulator builds and signs a transaction of its own (the controls' faucet and
 * mints, the legacy server's closes and airdrops, the RPC's requestAirdrop): a legacy message,
 * `signers[0]` paying the fee. Only the signers the message needs sign: a faucet call that mints
 * nothing has no mint authority in it.
 */
export function signTransaction(options: { instructions: TransactionInstruction[]; blockhash: string; signers: Ed25519Signer[] }): SignedTransaction {
  const [payer] = options.signers;
  if (!payer) throw new InternalError('SERVER_TRANSACTION_UNPAID', {});
  const transaction = new Transaction({ feePayer: new PublicKey(payer.publicKey), blockhash: options.blockhash, lastValidBlockHeight: 0 });
  transaction.add(...options.instructions);
  const compiled = transaction.compileMessage();
  const message = compiled.serialize();
  const required = compiled.accountKeys.slice(0, compiled.header.numRequiredSignatures);
  for (const signer of options.signers) {
    const key = new PublicKey(signer.publicKey);
    if (required.some((needed) => needed.equals(key))) transaction.addSignature(key, Buffer.from(signer.sign(message)));
  }
  const bytes = new Uint8Array(transaction.serialize());
  return { tx: VersionedTransaction.deserialize(bytes), bytes };
}
