// Hello relay, with @solana/kit 8 and @solana-program/token: the current interface (X-API-Key).
// The fee payer is a NoopSigner: kit leaves its signature slot empty, and the relay fills it.
// Run against a running emulator (`npm start`):        node examples/hello-kit.mjs
// or let the emulator start and stop around it:          npx relay-emulator exec -- node examples/hello-kit.mjs
import { readFileSync } from 'node:fs';
import {
  findAssociatedTokenPda,
  getCreateAssociatedTokenIdempotentInstructionAsync,
  getTransferCheckedInstruction,
  TOKEN_PROGRAM_ADDRESS,
} from '@solana-program/token';
import {
  address,
  appendTransactionMessageInstructions,
  createKeyPairSignerFromBytes,
  createNoopSigner,
  createSolanaRpc,
  createTransactionMessage,
  generateKeyPairSigner,
  getBase58Encoder,
  getBase64EncodedWireTransaction,
  partiallySignTransactionMessageWithSigners,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
} from '@solana/kit';

const baseUrl = process.env.RELAY_BASE_URL ?? 'http://127.0.0.1:8787/api';
const apiKey = process.env.RELAY_API_KEY ?? 'relay-emulator-dev-key';
// alice's secret key (fixtures/wallets.json) and the emulated USDC mint (fixtures/mints.json): public test keys.
const fixture = (name) => JSON.parse(readFileSync(new URL(`../fixtures/${name}`, import.meta.url), 'utf8'));
const alice = await createKeyPairSignerFromBytes(getBase58Encoder().encode(fixture('wallets.json').find((w) => w.name === 'alice').secretKey));
const usdc = address(fixture('mints.json').find((m) => m.symbol === 'USDC').address);

async function api(method, path, body) {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { 'X-API-Key': apiKey, ...(body ? { 'Content-Type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = await response.json();
  if (!response.ok) throw new Error(`${method} ${path} → ${response.status} ${JSON.stringify(json)}`);
  return json;
}

// 1. The relay's configuration: its fee payer, and the RPC to take a blockhash from.
const config = await api('GET', '/Transaction/config');
const feePayer = createNoopSigner(address(config.FeePayer));
const rpc = createSolanaRpc(config.RpcUrl);

// 2. alice sends 1.5 USDC to a new wallet; the relay pays for the recipient's account (CreateIdempotent).
const recipient = await generateKeyPairSigner();
const [source] = await findAssociatedTokenPda({ mint: usdc, owner: alice.address, tokenProgram: TOKEN_PROGRAM_ADDRESS });
const [destination] = await findAssociatedTokenPda({ mint: usdc, owner: recipient.address, tokenProgram: TOKEN_PROGRAM_ADDRESS });
const createRecipientAccount = await getCreateAssociatedTokenIdempotentInstructionAsync({ payer: feePayer, mint: usdc, owner: recipient.address });
const { value: latestBlockhash } = await rpc.getLatestBlockhash().send();
const transfer = pipe(
  createTransactionMessage({ version: 0 }),
  (m) => setTransactionMessageFeePayerSigner(feePayer, m),
  (m) => setTransactionMessageLifetimeUsingBlockhash(latestBlockhash, m),
  (m) =>
    appendTransactionMessageInstructions(
      [
        // Resolved before the pipe: kit's ATA builder is async (it derives the address).
        createRecipientAccount,
        getTransferCheckedInstruction({ source, mint: usdc, destination, authority: alice, amount: 1_500_000n, decimals: 6 }),
      ],
      m,
    ),
);

// 3. Partially signed (alice only), posted as base64.
const signed = await partiallySignTransactionMessageWithSigners(transfer);
const sent = await api('POST', '/Transaction/send', { signedTransaction: getBase64EncodedWireTransaction(signed) });
console.log(`Transaction/send  ${sent.status} ${sent.signature}`);

// 4. Settle: the emulator's queue submits everything pending now (a test control, loopback only).
await fetch(`${new URL(baseUrl).origin}/__emulator/queue/flush`, { method: 'POST' });

// 5. Read back: the RPC's balance and the relay's own balance route.
const { value } = await rpc.getTokenAccountBalance(destination).send();
const balance = await api('POST', '/Account/balance', { accountAddress: recipient.address, mintAddress: usdc });
console.log(`the recipient holds ${value.uiAmountString} USDC (Account/balance lists ${balance.tokens.length} token account)`);
if (value.amount !== '1500000') process.exit(1);
