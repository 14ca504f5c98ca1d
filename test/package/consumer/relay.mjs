// A consumer's plain Node ESM script: no MSW, no test runner, no TypeScript. It makes an emulator,
// which answers real HTTP on its loopback port, and relays a transfer as a client of the relay does
// (spec 4.2): GET /Transaction/config, create the recipient's account, send a transfer, read the
// balance over the RPC. Copied into a scratch project by test/package/package.test.ts.
import {
  AuthorityType,
  createAssociatedTokenAccountInstruction,
  createSetAuthorityInstruction,
  createTransferCheckedInstruction,
  getAssociatedTokenAddressSync,
} from '@solana/spl-token';
import { Connection, Keypair, PublicKey, Transaction } from '@solana/web3.js';
import { createRelayEmulator, keypairOf, loadFixtures } from 'relay-emulator';

const emulator = await createRelayEmulator();
try {
  const fixtures = loadFixtures();
  const alice = keypairOf(fixtures.wallets.find((wallet) => wallet.name === 'alice'));
  const usdc = new PublicKey(fixtures.mints.find((mint) => mint.symbol === 'USDC').address);

  const api = async (method, path, body) => {
    const response = await fetch(`${emulator.config.baseUrl}${path}`, {
      method,
      headers: { 'X-API-Key': emulator.config.apiKey, ...(body ? { 'Content-Type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const json = await response.json();
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
    return json;
  };
  const config = await api('GET', '/Transaction/config');
  const feePayer = new PublicKey(config.FeePayer);
  const connection = new Connection(config.RpcUrl, { commitment: 'confirmed', httpHeaders: { Authorization: `Bearer ${config.Token}` } });
  const signed = async (instructions, signers) => {
    const { blockhash } = await connection.getLatestBlockhash();
    const transaction = new Transaction({ feePayer, blockhash, lastValidBlockHeight: 0 }).add(...instructions);
    transaction.partialSign(...signers);
    return transaction.serialize({ requireAllSignatures: false }).toString('base64');
  };

  const owner = Keypair.generate();
  const account = getAssociatedTokenAddressSync(usdc, owner.publicKey);
  await api('POST', '/Account/create', {
    signedTransaction: await signed(
      [
        createAssociatedTokenAccountInstruction(feePayer, account, owner.publicKey, usdc),
        createSetAuthorityInstruction(account, owner.publicKey, AuthorityType.CloseAccount, feePayer),
      ],
      [owner],
    ),
  });
  await emulator.settle();
  const receipt = await api('POST', '/Transaction/send', {
    signedTransaction: await signed(
      [createTransferCheckedInstruction(getAssociatedTokenAddressSync(usdc, alice.publicKey), usdc, account, alice.publicKey, 1_500_000n, 6)],
      [alice],
    ),
  });
  await emulator.settle();
  const { value } = await connection.getTokenAccountBalance(account);
  if (receipt.status !== 'Queued' || value.amount !== '1500000') throw new Error(`unexpected: ${JSON.stringify({ receipt, value })}`);
  console.log(`relayed ${receipt.signature}: ${value.uiAmountString} USDC to ${owner.publicKey.toBase58()}`);
} finally {
  await emulator.close();
}
