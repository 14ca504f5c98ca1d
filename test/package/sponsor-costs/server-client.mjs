// A client that is not in process (run by `relay-emulator exec --sponsor-costs FILE`): it names its
// test with the X-Relay-Emulator-Test header on one relay, and sends another without it.
import { createTransferCheckedInstruction, getAssociatedTokenAddressSync } from '@solana/spl-token';
import { Connection, PublicKey, Transaction } from '@solana/web3.js';
import { keypairOf, loadFixtures } from 'relay-emulator';

const fixtures = loadFixtures();
const alice = keypairOf(fixtures.wallets.find((wallet) => wallet.name === 'alice'));
const usdc = new PublicKey(fixtures.mints.find((mint) => mint.symbol === 'USDC').address);
const base = process.env.RELAY_BASE_URL;
const connection = new Connection(process.env.RELAY_RPC_URL, 'confirmed');
const feePayer = new PublicKey(process.env.RELAY_FEE_PAYER);
const from = getAssociatedTokenAddressSync(usdc, alice.publicKey);
for (const test of ['login flow', null]) {
  const { blockhash } = await connection.getLatestBlockhash();
  const transaction = new Transaction({ feePayer, blockhash, lastValidBlockHeight: 0 }).add(
    createTransferCheckedInstruction(from, usdc, from, alice.publicKey, 5n, 6),
  );
  transaction.partialSign(alice);
  const headers = { 'X-API-Key': process.env.RELAY_API_KEY, 'Content-Type': 'application/json', ...(test ? { 'X-Relay-Emulator-Test': test } : {}) };
  const response = await fetch(`${base}/Transaction/send`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ signedTransaction: transaction.serialize({ requireAllSignatures: false }).toString('base64') }),
  });
  if (response.status !== 200) throw new Error(`relay refused: ${await response.text()}`);
  const { signature } = await response.json();
  for (let tries = 0; tries < 100 && !(await connection.getSignatureStatus(signature)).value; tries += 1)
    await new Promise((resolve) => setTimeout(resolve, 50));
}
console.log('relayed two transfers');
