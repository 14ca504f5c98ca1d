/**
 * Pre-built USDC transfers for the throughput figures: alice to herself (the same program work as
 * any transfer), a unique amount each, signed with Node's ed25519 before anything is timed. The
 * client signs alone for the relay; the bare engines get the fee payer's signature too.
 */
import { createTransferInstruction, getAssociatedTokenAddressSync } from '@solana/spl-token';
import { PublicKey, Transaction } from '@solana/web3.js';
import { createEd25519Signer, verifyEd25519 } from '../src/base/crypto/ed25519.ts';
import { genesisAccounts, keypairOf, loadFixtures } from '../src/domain/fixtures/load-fixtures.ts';

const fixtures = loadFixtures();
const feePayer = keypairOf(fixtures.relay.feePayer);
const alice = keypairOf({ publicKey: fixtures.wallets[0]!.publicKey, secretKey: fixtures.wallets[0]!.secretKey! });
const usdc = fixtures.mints.find((mint) => mint.symbol === 'USDC')!;
const source = getAssociatedTokenAddressSync(new PublicKey(usdc.address), alice.publicKey, true);
const aliceSigner = createEd25519Signer(alice.secretKey);
const feePayerSigner = createEd25519Signer(feePayer.secretKey);

export const genesis = genesisAccounts(fixtures);

let nextAmount = 1n;

/** The wire bytes of one transfer: signature slots [fee payer, alice], then the message. */
export function transferBytes(blockhash: string, options: { feePayerSigns: boolean }): Uint8Array {
  const tx = new Transaction({ feePayer: feePayer.publicKey, blockhash, lastValidBlockHeight: 0 });
  tx.add(createTransferInstruction(source, source, alice.publicKey, nextAmount++));
  const message = tx.compileMessage().serialize();
  const bytes = new Uint8Array(1 + 2 * 64 + message.length);
  bytes[0] = 2;
  if (options.feePayerSigns) bytes.set(feePayerSigner.sign(message), 1);
  bytes.set(aliceSigner.sign(message), 65);
  bytes.set(message, 129);
  return bytes;
}

/**
 * The relay's own ed25519 work on one of these transfers, as its accept pipeline does it
 * (src/base/crypto/ed25519.ts): verify the client's signature, then sign the message as fee payer.
 */
export function relaySignatureWork(bytes: Uint8Array): void {
  const message = bytes.subarray(129);
  if (!verifyEd25519(aliceSigner.publicKey, message, bytes.subarray(65, 129))) throw new Error('the client signature does not verify');
  feePayerSigner.sign(message);
}
