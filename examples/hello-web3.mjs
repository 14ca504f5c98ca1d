// Hello relay, with @solana/web3.js 1.x and @solana/spl-token: the current interface (X-API-Key).
// Run against a running emulator (`npm start`):        node examples/hello-web3.mjs
// or let the emulator start and stop around it:          npx relay-emulator exec -- node examples/hello-web3.mjs
import { readFileSync } from 'node:fs';
import {
  AuthorityType,
  createAssociatedTokenAccountInstruction,
  createSetAuthorityInstruction,
  createTransferCheckedInstruction,
  getAssociatedTokenAddressSync,
} from '@solana/spl-token';
import { Connection, Keypair, PublicKey, Transaction } from '@solana/web3.js';
import bs58 from 'bs58';

const baseUrl = process.env.RELAY_BASE_URL ?? 'http://127.0.0.1:8787/api';
const apiKey = process.env.RELAY_API_KEY ?? 'relay-emulator-dev-key';
// The fixture wallet alice holds USDC; her secret key is in fixtures/wallets.json (public test keys),
// and the emulated USDC mint in fixtures/mints.json.
const fixture = (name) => JSON.parse(readFileSync(new URL(`../fixtures/${name}`, import.meta.url), 'utf8'));
const alice = Keypair.fromSecretKey(bs58.decode(fixture('wallets.json').find((w) => w.name === 'alice').secretKey));
const USDC = new PublicKey(fixture('mints.json').find((m) => m.symbol === 'USDC').address);

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

// 1. The relay's configuration: its fee payer, and the RPC to take blockhashes from.
const config = await api('GET', '/Transaction/config');
const feePayer = new PublicKey(config.FeePayer);
const connection = new Connection(config.RpcUrl, { commitment: 'confirmed', httpHeaders: { Authorization: `Bearer ${config.Token}` } });

// 2. A transaction whose fee payer is the relay, partially signed by the user, as base64.
async function partiallySigned(instructions, signers) {
  const { blockhash, lastValidBlockHeight } = await connection.getLatestBlockhash();
  const transaction = new Transaction({ feePayer, blockhash, lastValidBlockHeight }).add(...instructions);
  transaction.partialSign(...signers);
  return transaction.serialize({ requireAllSignatures: false }).toString('base64');
}

// 3. Account/create: the new owner signs, and hands the account's close authority to the fee payer
//    (the relay pays the rent, and gets it back on Account/close).
const bob = Keypair.generate();
const bobUsdc = getAssociatedTokenAddressSync(USDC, bob.publicKey);
const created = await api('POST', '/Account/create', {
  signedTransaction: await partiallySigned(
    [
      createAssociatedTokenAccountInstruction(feePayer, bobUsdc, bob.publicKey, USDC),
      createSetAuthorityInstruction(bobUsdc, bob.publicKey, AuthorityType.CloseAccount, feePayer),
    ],
    [bob],
  ),
});
console.log(`Account/create    ${created.status} ${created.signature}`);

// 4. Transaction/send: alice sends bob 1.5 USDC; the relay adds its signature and queues it.
const aliceUsdc = getAssociatedTokenAddressSync(USDC, alice.publicKey);
const sent = await api('POST', '/Transaction/send', {
  signedTransaction: await partiallySigned([createTransferCheckedInstruction(aliceUsdc, USDC, bobUsdc, alice.publicKey, 1_500_000n, 6)], [alice]),
});
console.log(`Transaction/send  ${sent.status} ${sent.signature}`);

// 5. Settle: the emulator's queue submits everything pending now (a test control, loopback only).
await fetch(`${new URL(baseUrl).origin}/__emulator/queue/flush`, { method: 'POST' });

// 6. Read back, through the RPC and through the relay.
const { value } = await connection.getTokenAccountBalance(bobUsdc);
const history = await api('POST', `/Account/gethistory?WalletAddress=${bob.publicKey.toBase58()}`);
console.log(`bob holds ${value.uiAmountString} USDC; his history lists ${history.transactions.length} transactions`);
if (value.amount !== '1500000') process.exit(1);
