// Hello relay, calling your own Anchor program: @coral-xyz/anchor builds the instructions from the
// IDL, the relay pays the fee (and the new account's rent), the queue settles, Anchor reads it back.
// The programs are anchor-bankrun's puppet pair (test/real-clients/anchor/workspace); start the
// emulator with that workspace loaded, as `relay-emulator start` inside an Anchor workspace does:
//   npm start -- --anchor test/real-clients/anchor/workspace
//   node examples/hello-anchor.mjs
import { readFileSync } from 'node:fs';
import anchor from '@coral-xyz/anchor';
import { Connection, Keypair, PublicKey, Transaction } from '@solana/web3.js';

const { BN, Program } = anchor;
const baseUrl = process.env.RELAY_BASE_URL ?? 'http://127.0.0.1:8787/api';
const apiKey = process.env.RELAY_API_KEY ?? 'relay-emulator-dev-key';
const idl = (name) => JSON.parse(readFileSync(new URL(`../test/real-clients/anchor/workspace/target/idl/${name}.json`, import.meta.url), 'utf8'));

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

// 1. The relay's fee payer and RPC; the programs as Anchor sees them (a Program needs only a connection to build instructions).
const config = await api('GET', '/Transaction/config');
const feePayer = new PublicKey(config.FeePayer);
const connection = new Connection(config.RpcUrl, { commitment: 'confirmed', httpHeaders: { Authorization: `Bearer ${config.Token}` } });
const puppet = new Program(idl('puppet'), { connection });
const puppetMaster = new Program(idl('puppet_master'), { connection });
if (!(await connection.getAccountInfo(puppet.programId))?.executable) {
  console.error(`puppet (${puppet.programId}) is not loaded: start the emulator with npm start -- --anchor test/real-clients/anchor/workspace`);
  process.exit(1);
}

// 2. One transaction, fee payer the relay: puppet's initialize creates the account (`payer = user`:
//    here the relay's fee payer, so the relay pays its rent, recorded as sponsor exposure), then
//    puppet_master's pull_strings calls puppet's set_data with 42 (a CPI).
const account = Keypair.generate();
const transaction = new Transaction({ feePayer, ...(await connection.getLatestBlockhash()) }).add(
  await puppet.methods.initialize().accounts({ puppet: account.publicKey, user: feePayer }).instruction(),
  await puppetMaster.methods.pullStrings(new BN(42)).accounts({ puppet: account.publicKey }).instruction(),
);
transaction.partialSign(account);
const sent = await api('POST', '/Transaction/send', { signedTransaction: transaction.serialize({ requireAllSignatures: false }).toString('base64') });
console.log(`Transaction/send  ${sent.status} ${sent.signature}`);

// 3. Settle the queue (a test control, loopback only), and read the account back as Anchor decodes it.
await fetch(`${new URL(baseUrl).origin}/__emulator/queue/flush`, { method: 'POST' });
const data = await puppet.account.data.fetch(account.publicKey);
console.log(`puppet ${account.publicKey.toBase58()} holds ${data.data.toString()}`);
if (data.data.toString() !== '42') process.exit(1);
