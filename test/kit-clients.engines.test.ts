/**
 * @solana/kit 8, used as its docs show with nothing configured but the URLs (`createSolanaRpc`,
 * `createSolanaRpcSubscriptions`): airdrops, sendAndConfirmTransaction over PubSub, compute-unit
 * estimates, getProgramAccounts with filters, logs and program notifications, and a relayed
 * transfer built with kit (a NoopSigner fee payer) confirmed by signatureNotifications. Real HTTP
 * and WebSockets to the in-process emulator's loopback listener, on both engines.
 */
import { estimateComputeUnitLimitFactory } from '@solana-program/compute-budget';
import { getCreateAccountInstruction } from '@solana-program/system';
import {
  findAssociatedTokenPda,
  getCreateAssociatedTokenIdempotentInstructionAsync,
  getInitializeMint2Instruction,
  getMintSize,
  getMintToCheckedInstruction,
  getTransferCheckedInstruction,
  TOKEN_PROGRAM_ADDRESS,
} from '@solana-program/token';
import {
  address,
  airdropFactory,
  appendTransactionMessageInstructions,
  assertIsSendableTransaction,
  assertIsTransactionWithBlockhashLifetime,
  createKeyPairSignerFromBytes,
  createNoopSigner,
  createSolanaRpc,
  createSolanaRpcSubscriptions,
  createTransactionMessage,
  devnet,
  generateKeyPairSigner,
  getBase64EncodedWireTransaction,
  getSignatureFromTransaction,
  lamports,
  partiallySignTransactionMessageWithSigners,
  pipe,
  sendAndConfirmTransactionFactory,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  type Instruction,
  type KeyPairSigner,
  type RpcDevnet,
  type RpcSubscriptionsDevnet,
  type SolanaRpcApiDevnet,
  type SolanaRpcSubscriptionsApi,
  type TransactionSigner,
} from '@solana/kit';
import bs58 from 'bs58';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRelayEmulator, type RelayEmulator } from '../src/index.ts';
import { ALICE, BOB, USDC } from './support/transactions.ts';

describe('@solana/kit 8, nothing configured but the URLs', () => {
  let emulator: RelayEmulator;
  let rpc: RpcDevnet<SolanaRpcApiDevnet>;
  let rpcSubscriptions: RpcSubscriptionsDevnet<SolanaRpcSubscriptionsApi>;
  let payer: KeyPairSigner;
  const mint = generateKeyPairSigner();

  /** A transaction message paid and signed by `feePayer`, on the latest blockhash. */
  async function message(feePayer: TransactionSigner, instructions: Instruction[]) {
    const { value: latestBlockhash } = await rpc.getLatestBlockhash().send();
    return pipe(
      createTransactionMessage({ version: 0 }),
      (m) => setTransactionMessageFeePayerSigner(feePayer, m),
      (m) => setTransactionMessageLifetimeUsingBlockhash(latestBlockhash, m),
      (m) => appendTransactionMessageInstructions(instructions, m),
    );
  }

  /** Signed by the message's signers and checked as kit's docs do before sendAndConfirm. */
  async function signed(transactionMessage: Awaited<ReturnType<typeof message>>) {
    const transaction = await signTransactionMessageWithSigners(transactionMessage);
    assertIsSendableTransaction(transaction);
    assertIsTransactionWithBlockhashLifetime(transaction);
    return transaction;
  }

  beforeAll(async () => {
    emulator = await createRelayEmulator();
    // devnet() only types the URL as a test cluster's (where airdrops exist), as kit's docs do.
    rpc = createSolanaRpc(devnet(emulator.config.rpcUrl));
    rpcSubscriptions = createSolanaRpcSubscriptions(devnet(emulator.config.pubsubUrl!));
    payer = await generateKeyPairSigner();
  });
  afterAll(() => emulator.close());

  it('airdrops with airdropFactory, confirmed over PubSub', async () => {
    const airdrop = airdropFactory({ rpc, rpcSubscriptions });
    const signature = await airdrop({ recipientAddress: payer.address, lamports: lamports(5_000_000_000n), commitment: 'confirmed' });
    expect(typeof signature).toBe('string');
    expect((await rpc.getBalance(payer.address).send()).value).toBe(5_000_000_000n);
  });

  it('makes a mint, an account and a MintToChecked with sendAndConfirmTransactionFactory', async () => {
    const sendAndConfirm = sendAndConfirmTransactionFactory({ rpc, rpcSubscriptions });
    const mintSigner = await mint;
    const space = BigInt(getMintSize());
    const rent = await rpc.getMinimumBalanceForRentExemption(space).send();
    const createMint = await message(payer, [
      getCreateAccountInstruction({ payer, newAccount: mintSigner, lamports: rent, space, programAddress: TOKEN_PROGRAM_ADDRESS }),
      getInitializeMint2Instruction({ mint: mintSigner.address, decimals: 6, mintAuthority: payer.address }),
    ]);
    await sendAndConfirm(await signed(createMint), { commitment: 'confirmed' });
    const [account] = await findAssociatedTokenPda({ mint: mintSigner.address, owner: payer.address, tokenProgram: TOKEN_PROGRAM_ADDRESS });
    const createAccount = await message(payer, [
      await getCreateAssociatedTokenIdempotentInstructionAsync({ payer, mint: mintSigner.address, owner: payer.address }),
    ]);
    await sendAndConfirm(await signed(createAccount), { commitment: 'confirmed' });
    const mintTo = await message(payer, [
      getMintToCheckedInstruction({ mint: mintSigner.address, token: account, mintAuthority: payer, amount: 7_000_000n, decimals: 6 }),
    ]);
    const transaction = await signed(mintTo);
    await sendAndConfirm(transaction, { commitment: 'confirmed' });
    expect((await rpc.getTokenAccountBalance(account).send()).value).toMatchObject({ amount: '7000000', decimals: 6 });
    // p-token on the default engine: MintToChecked well under a thousand units (SIMD-0266 publishes 169).
    const landed = await rpc
      .getTransaction(getSignatureFromTransaction(transaction), { maxSupportedTransactionVersion: 0, commitment: 'confirmed', encoding: 'json' })
      .send();
    expect(landed!.meta!.err).toBeNull();
    if (emulator.config.engine === 'litesvm') expect(Number(landed!.meta!.computeUnitsConsumed)).toBeLessThan(1_000);
  });

  it('estimates compute units with estimateComputeUnitLimitFactory (simulateTransaction)', async () => {
    const estimate = estimateComputeUnitLimitFactory({ rpc });
    const mintSigner = await mint;
    const [account] = await findAssociatedTokenPda({ mint: mintSigner.address, owner: payer.address, tokenProgram: TOKEN_PROGRAM_ADDRESS });
    const units = await estimate(
      await message(payer, [getMintToCheckedInstruction({ mint: mintSigner.address, token: account, mintAuthority: payer, amount: 1n, decimals: 6 })]),
    );
    expect(units).toBeGreaterThan(0);
    expect(units).toBeLessThan(emulator.config.engine === 'litesvm' ? 1_000 : 10_000);
  });

  it('reads getProgramAccounts with dataSize and memcmp filters', async () => {
    const mintSigner = await mint;
    const accounts = await rpc
      .getProgramAccounts(TOKEN_PROGRAM_ADDRESS, {
        encoding: 'base64',
        filters: [{ dataSize: 165n }, { memcmp: { offset: 0n, bytes: mintSigner.address as unknown as never, encoding: 'base58' } }],
      })
      .send();
    const [account] = await findAssociatedTokenPda({ mint: mintSigner.address, owner: payer.address, tokenProgram: TOKEN_PROGRAM_ADDRESS });
    expect(accounts.map((each) => each.pubkey)).toEqual([account]);
  });

  it('hears logsNotifications and programNotifications for a transaction', async () => {
    const abort = new AbortController();
    try {
      const logs = await rpcSubscriptions
        .logsNotifications({ mentions: [payer.address] }, { commitment: 'confirmed' })
        .subscribe({ abortSignal: abort.signal });
      const program = await rpcSubscriptions
        .programNotifications(TOKEN_PROGRAM_ADDRESS, { commitment: 'confirmed', encoding: 'base64' })
        .subscribe({ abortSignal: abort.signal });
      const mintSigner = await mint;
      const [account] = await findAssociatedTokenPda({ mint: mintSigner.address, owner: payer.address, tokenProgram: TOKEN_PROGRAM_ADDRESS });
      // Listen first, as `for await` over a subscription does: kit hands an iterator only what arrives once it waits.
      const nextLog = logs[Symbol.asyncIterator]().next();
      const iterator = program[Symbol.asyncIterator]();
      const changed = (async () => {
        const seen = new Set<string>();
        // The mint and the account change; each is told once.
        while (seen.size < 2) seen.add((await iterator.next()).value!.value.pubkey);
        return seen;
      })();
      const signed = await signTransactionMessageWithSigners(
        await message(payer, [getMintToCheckedInstruction({ mint: mintSigner.address, token: account, mintAuthority: payer, amount: 1_000n, decimals: 6 })]),
      );
      await rpc.sendTransaction(getBase64EncodedWireTransaction(signed), { encoding: 'base64' }).send();
      const heard = (await nextLog).value!;
      expect(heard.value).toMatchObject({ signature: getSignatureFromTransaction(signed), err: null });
      expect(heard.value.logs).toContain(`Program ${TOKEN_PROGRAM_ADDRESS} success`);
      expect(await changed).toEqual(new Set([mintSigner.address, account]));
    } finally {
      abort.abort();
    }
  });

  it('relays a transfer built with kit: a NoopSigner fee payer, partially signed, confirmed by signatureNotifications', async () => {
    const response = await fetch(`${emulator.config.baseUrl}/Transaction/config`, { headers: { 'X-API-Key': emulator.config.apiKey } });
    const config = (await response.json()) as { FeePayer: string };
    const feePayer = createNoopSigner(address(config.FeePayer));
    const alice = await createKeyPairSignerFromBytes(ALICE.secretKey);
    const usdc = address(USDC.toBase58());
    const [source] = await findAssociatedTokenPda({ mint: usdc, owner: alice.address, tokenProgram: TOKEN_PROGRAM_ADDRESS });
    const [destination] = await findAssociatedTokenPda({ mint: usdc, owner: address(BOB.publicKey.toBase58()), tokenProgram: TOKEN_PROGRAM_ADDRESS });
    const transfer = await message(feePayer, [
      await getCreateAssociatedTokenIdempotentInstructionAsync({ payer: feePayer, mint: usdc, owner: address(BOB.publicKey.toBase58()) }),
      getTransferCheckedInstruction({ source, mint: usdc, destination, authority: alice, amount: 1_500_000n, decimals: 6 }),
    ]);
    const signed = await partiallySignTransactionMessageWithSigners(transfer);
    // The fee payer's slot is empty: the relay fills it, and its signature is the transaction's.
    expect(signed.signatures[config.FeePayer as never]).toBeNull();
    // Held in the queue until the client listens, so that the notification is one of a change it waits for.
    emulator.pauseQueue();
    const relayed = await fetch(`${emulator.config.baseUrl}/Transaction/send`, {
      method: 'POST',
      headers: { 'X-API-Key': emulator.config.apiKey, 'Content-Type': 'application/json' },
      body: JSON.stringify({ signedTransaction: getBase64EncodedWireTransaction(signed) }),
    });
    const receipt = (await relayed.json()) as { status: string; signature: string };
    expect(receipt.status).toBe('Queued');
    expect(bs58.decode(receipt.signature)).toHaveLength(64);
    const abort = new AbortController();
    try {
      const notifications = await rpcSubscriptions
        .signatureNotifications(receipt.signature as never, { commitment: 'confirmed' })
        .subscribe({ abortSignal: abort.signal });
      const notification = notifications[Symbol.asyncIterator]().next();
      emulator.resumeQueue();
      expect((await notification).value!.value).toEqual({ err: null });
    } finally {
      abort.abort();
    }
    expect((await rpc.getTokenAccountBalance(destination).send()).value.amount).toBe('1500000');
  });
});
