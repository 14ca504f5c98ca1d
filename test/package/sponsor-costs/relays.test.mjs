// A user's suite, as it would be written: an emulator per file, relays through the current
// interface and Kora, and no word about costs: sponsorCosts() in vitest.config.mjs records them.
import {
  AuthorityType,
  createAssociatedTokenAccountInstruction,
  createSetAuthorityInstruction,
  createTransferCheckedInstruction,
  getAssociatedTokenAddressSync,
} from '@solana/spl-token';
import { Connection, Keypair, PublicKey, Transaction } from '@solana/web3.js';
import { createRelayEmulator, keypairOf, loadFixtures } from 'relay-emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const fixtures = loadFixtures();
const alice = keypairOf(fixtures.wallets.find((wallet) => wallet.name === 'alice'));
const usdc = new PublicKey(fixtures.mints.find((mint) => mint.symbol === 'USDC').address);
let emulator;
let feePayer;
let connection;

beforeAll(async () => {
  emulator = await createRelayEmulator({ kora: { config: process.env.KORA_TOML } });
  feePayer = new PublicKey(emulator.config.feePayer);
  connection = new Connection(emulator.config.rpcUrl, 'confirmed');
  // Kora's payment address (the fee payer) holds a USDC account, as a paid relay needs.
  await emulator.faucet({ address: feePayer, mint: usdc, amount: 0 });
});
afterAll(() => emulator.close());

const api = async (path, body) => {
  const response = await fetch(`${emulator.config.baseUrl}${path}`, {
    method: 'POST',
    headers: { 'X-API-Key': emulator.config.apiKey, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(200);
  return response.json();
};
const signed = async (instructions, signers) => {
  const { blockhash } = await connection.getLatestBlockhash();
  const transaction = new Transaction({ feePayer, blockhash, lastValidBlockHeight: 0 }).add(...instructions);
  transaction.partialSign(...signers);
  return transaction.serialize({ requireAllSignatures: false }).toString('base64');
};
const transfer = (to, amount) => createTransferCheckedInstruction(getAssociatedTokenAddressSync(usdc, alice.publicKey), usdc, to, alice.publicKey, amount, 6);

describe('transfers', () => {
  it('sends USDC to Bob', async () => {
    // Bob's account first (a control, which the sponsor does not pay for), then the transfers.
    const bob = new PublicKey(
      (await emulator.faucet({ address: keypairOf(fixtures.wallets.find((wallet) => wallet.name === 'bob')).publicKey, mint: usdc, amount: 0 })).tokenAccount,
    );
    const count = process.env.COSTLIER === '1' ? 3 : 2;
    for (let index = 0; index < count; index += 1)
      await api('/Transaction/send', { signedTransaction: await signed([transfer(bob, 1_000n + BigInt(index))], [alice]) });
    await emulator.settle();
  });
});

describe('accounts', () => {
  it('creates a token account, the fee payer fronting its rent', async () => {
    const owner = Keypair.generate();
    const account = getAssociatedTokenAddressSync(usdc, owner.publicKey);
    await api('/Account/create', {
      signedTransaction: await signed(
        [
          createAssociatedTokenAccountInstruction(feePayer, account, owner.publicKey, usdc),
          createSetAuthorityInstruction(account, owner.publicKey, AuthorityType.CloseAccount, feePayer),
        ],
        [owner],
      ),
    });
    await emulator.settle();
  });
});

it('relays nothing', async () => {
  expect((await connection.getSlot()) >= 0).toBe(true);
});

it('pays Kora in USDC', async () => {
  const kora = async (method, params) =>
    (
      await (
        await fetch(emulator.config.koraUrl, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
        })
      ).json()
    ).result;
  const { blockhash } = await kora('getBlockhash', {});
  const self = getAssociatedTokenAddressSync(usdc, alice.publicKey);
  const transaction = new Transaction({ feePayer, blockhash, lastValidBlockHeight: 0 }).add(
    transfer(self, 7n),
    transfer(getAssociatedTokenAddressSync(usdc, feePayer), 150_000n),
  );
  transaction.partialSign(alice);
  const sent = await kora('signAndSendTransaction', { transaction: transaction.serialize({ requireAllSignatures: false }).toString('base64') });
  expect(sent.signature).toBeTruthy();
  await emulator.settle();
});

// Two tests at once, their relays interleaved: each is charged its own (issue 53, item 13).
const sendToSelf = async (amounts) => {
  const self = getAssociatedTokenAddressSync(usdc, alice.publicKey);
  for (const amount of amounts) {
    await api('/Transaction/send', { signedTransaction: await signed([transfer(self, amount)], [alice]) });
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};

describe.concurrent('at once', () => {
  it('sends three', () => sendToSelf([2_001n, 2_002n, 2_003n]));
  it('sends one', () => sendToSelf([3_001n]));
});

// Two tests of one name: two rows, numbered.
describe('twice', () => {
  it('has one name', () => sendToSelf([4_001n]));
  // biome-ignore lint/suspicious/noIdenticalTestTitle: two tests of one name, as a user's suite may have them.
  it('has one name', () => sendToSelf([5_001n, 5_002n]));
});
