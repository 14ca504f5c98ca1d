// Hello relay, the legacy interface (Kin's Kinetic): routes under /api by environment and app index,
// no API key, an app-index memo in every transaction, and a record answered once the commitment is met.
// Run against a running emulator (`npm start`):        node examples/hello-legacy.mjs
// or let the emulator start and stop around it:          npx relay-emulator exec -- node examples/hello-legacy.mjs
import { readFileSync } from 'node:fs';
import {
  AuthorityType,
  createAssociatedTokenAccountInstruction,
  createSetAuthorityInstruction,
  createTransferCheckedInstruction,
  getAssociatedTokenAddressSync,
} from '@solana/spl-token';
import { Keypair, PublicKey, Transaction, TransactionInstruction } from '@solana/web3.js';
import bs58 from 'bs58';

// RELAY_BASE_URL ends in /api, and the legacy routes sit right under it: {base}/app/devnet/1/config.
const baseUrl = process.env.RELAY_BASE_URL ?? 'http://127.0.0.1:8787/api';
const [environment, index] = ['devnet', 1]; // the fixture app (fixtures/apps.json)
const wallets = JSON.parse(readFileSync(new URL('../fixtures/wallets.json', import.meta.url), 'utf8'));
const alice = Keypair.fromSecretKey(bs58.decode(wallets.find((w) => w.name === 'alice').secretKey));

async function call(method, path, body) {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: body ? { 'Content-Type': 'application/json' } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = await response.json();
  if (!response.ok) throw new Error(`${method} ${path} → ${response.status} ${JSON.stringify(json)}`);
  return json;
}

// 1. The app's config: its mints, each with the fee payer that sponsors it and whether to add the memo.
const app = await call('GET', `/app/${environment}/${index}/config`);
const kin = app.mints.find((m) => m.symbol === 'KIN');
const mint = new PublicKey(kin.publicKey);
const feePayer = new PublicKey(kin.feePayer);

// 2. The Kin app memo: 32 bytes, base64 text in a Memo v1 instruction placed first. Bit fields, low
//    bits first: 2 magic (1), 3 version (1), 5 transaction type (0 = none), 16 app index, and 230
//    bits of foreign key (zero here).
function appMemo(appIndex, type = 0, version = 1) {
  const bytes = new Uint8Array(32);
  bytes.set([1 | (version << 2) | ((type & 7) << 5), ((type >> 3) & 3) | ((appIndex & 0x3f) << 2), (appIndex >> 6) & 0xff, (appIndex >> 14) & 3]);
  const data = Buffer.from(Buffer.from(bytes).toString('base64'));
  return new TransactionInstruction({ programId: new PublicKey('Memo1UhkJRfHyvLMcVucJwxXeuD728EqVDDwQDxFMNo'), keys: [], data });
}

// 3. Fee payer from the config, the user's signature only, base64; with the blockhash the service gave.
async function relayBody(instructions, signers) {
  const { blockhash, lastValidBlockHeight } = await call('GET', `/transaction/latest-blockhash/${environment}/${index}`);
  const transaction = new Transaction({ feePayer, blockhash, lastValidBlockHeight }).add(...(kin.addMemo ? [appMemo(index)] : []), ...instructions);
  transaction.partialSign(...signers);
  const tx = transaction.serialize({ requireAllSignatures: false }).toString('base64');
  return { commitment: 'Confirmed', environment, index, mint: mint.toBase58(), lastValidBlockHeight, referenceId: null, referenceType: null, tx };
}

// 4. account/create: bob's KIN account, its close authority handed to the fee payer.
const bob = Keypair.generate();
const bobKin = getAssociatedTokenAddressSync(mint, bob.publicKey);
const created = await call(
  'POST',
  '/account/create',
  await relayBody(
    [
      createAssociatedTokenAccountInstruction(feePayer, bobKin, bob.publicKey, mint),
      createSetAuthorityInstruction(bobKin, bob.publicKey, AuthorityType.CloseAccount, feePayer),
    ],
    [bob],
  ),
);
console.log(`account/create         ${created.status} ${created.signature}`);

// 5. make-transfer: alice sends bob 2.5 KIN (5 decimals). The answer is the record, at the commitment asked.
const aliceKin = getAssociatedTokenAddressSync(mint, alice.publicKey);
const sent = await call(
  'POST',
  '/transaction/make-transfer',
  await relayBody([createTransferCheckedInstruction(aliceKin, mint, bobKin, alice.publicKey, 250_000n, kin.decimals)], [alice]),
);
console.log(`transaction/make-transfer ${sent.status} ${sent.amount} KIN ${sent.signature}`);

// 6. Read back: the balance and the history the legacy SDK reads.
const balance = await call('GET', `/account/balance/${environment}/${index}/${bob.publicKey.toBase58()}`);
const history = await call('GET', `/account/history/${environment}/${index}/${bob.publicKey.toBase58()}/${mint.toBase58()}`);
console.log(`bob holds ${balance.tokens.find((t) => t.mint === kin.publicKey).balance} KIN; his history lists ${history.length} token account`);
if (sent.status !== 'Confirmed') process.exit(1);
