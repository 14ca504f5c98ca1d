import type { Keypair, TransactionInstruction } from '@solana/web3.js';
import { createEd25519Signer } from '../../base/crypto/ed25519.ts';
import { signTransaction } from '../../base/crypto/sign-transaction.ts';
import { RelayError } from '../../base/errors/relay-error.ts';
import type { Ledger, LedgerTransaction } from '../../domain/ledger/ledger.ts';

/**
 * Runs a control's own transaction (faucet tokens, new mints) straight on the ledger, signed by
 * fixture keys and paid by `payer`. It is not relayed: it skips the queue (so it works while the
 * queue is paused), is not recorded, and is not filed in anyone's history.
 */
export async function runControlTransaction(
  ledger: Ledger,
  options: {
    payer: Keypair;
    signers: Keypair[];
    instructions: TransactionInstruction[];
    purpose: string;
    /** Files what the transaction made, when it succeeded, in the ledger's commit: readers see both at once. */
    onLanded?: (result: LedgerTransaction) => void;
  },
): Promise<LedgerTransaction> {
  const { blockhash } = await ledger.latestBlockhash();
  const signers = [options.payer, ...options.signers.filter((signer) => !signer.publicKey.equals(options.payer.publicKey))];
  const { tx } = signTransaction({ instructions: options.instructions, blockhash, signers: signers.map((signer) => createEd25519Signer(signer.secretKey)) });
  const result = await ledger.process(tx, (landed) => {
    if (landed.err === null) options.onLanded?.(landed);
  });
  if (result.err !== null) {
    throw new RelayError('VALIDATION_FAILED', `The ledger refused the ${options.purpose} transaction: ${JSON.stringify(result.err)}.`, { logs: result.logs });
  }
  return result;
}
