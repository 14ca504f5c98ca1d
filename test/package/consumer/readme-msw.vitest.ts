// A consumer's vitest file. test/package/package.test.ts puts the README's MSW snippet, exactly as written,
// where the marker line is. @solana/web3.js is imported statically (above the snippet, so before MSW
// patches fetch): its Connection keeps the fetch it found, and reaches the emulator on its loopback
// port anyway, PubSub included (on the port + 1, where web3.js looks by itself), which
// confirmTransaction waits on. The Connection is the plainest an app writes: nothing but the URL.
import { AuthorityType, createAssociatedTokenAccountInstruction, createSetAuthorityInstruction, getAssociatedTokenAddressSync } from '@solana/spl-token';
import { Connection, Keypair, PublicKey, Transaction } from '@solana/web3.js';
import { afterAll, expect, it } from 'vitest';

// README SNIPPET

afterAll(async () => {
  server.close();
  await emulator.close();
});

it('runs the app flow through MSW and confirms the relayed transaction with a Connection', async () => {
  // The app's own calls, at its production base URL: MSW answers them.
  const config = await (await fetch('https://relay.example.com/api/Transaction/config', { headers: { 'X-API-Key': emulator.config.apiKey } })).json();
  const feePayer = new PublicKey(config.FeePayer);
  const connection = new Connection(config.RpcUrl, 'confirmed');
  const { blockhash, lastValidBlockHeight } = await connection.getLatestBlockhash();
  const owner = Keypair.generate();
  const usdc = new PublicKey(emulator.services.fixtures.mints.find((mint) => mint.symbol === 'USDC')!.address);
  const account = getAssociatedTokenAddressSync(usdc, owner.publicKey);
  const transaction = new Transaction({ feePayer, blockhash, lastValidBlockHeight }).add(
    createAssociatedTokenAccountInstruction(feePayer, account, owner.publicKey, usdc),
    createSetAuthorityInstruction(account, owner.publicKey, AuthorityType.CloseAccount, feePayer),
  );
  transaction.partialSign(owner);
  const response = await fetch('https://relay.example.com/api/Account/create', {
    method: 'POST',
    headers: { 'X-API-Key': emulator.config.apiKey, 'Content-Type': 'application/json' },
    body: JSON.stringify({ signedTransaction: transaction.serialize({ requireAllSignatures: false }).toString('base64') }),
  });
  const receipt = await response.json();
  expect(receipt).toMatchObject({ status: 'Queued' });

  const confirmation = await connection.confirmTransaction({ signature: receipt.signature, blockhash, lastValidBlockHeight });
  expect(confirmation.value.err).toBeNull();
  expect((await connection.getTokenAccountBalance(account)).value.amount).toBe('0');
});
