/**
 * Unmodified @solana/web3.js 1.x and @solana/spl-token against the emulator's RPC, with MSW
 * listening for the relay API.
 *
 * web3.js 1.x keeps the `globalThis.fetch` it finds when it is first evaluated; here it is imported
 * statically, before MSW patches `fetch`, as in most apps' tests. It reaches the emulator anyway:
 * RpcUrl names the emulator's loopback listener (127.0.0.1, an ephemeral port), which serves the
 * same core over real HTTP, and PubSub (what `confirmTransaction` waits on) on the same port.
 * test/loopback.test.ts covers the other import orders and clients.
 */
import * as splToken from '@solana/spl-token';
import { Connection, LAMPORTS_PER_SOL, SendTransactionError, Transaction } from '@solana/web3.js';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRelayEmulator, type RelayEmulator } from '../src/index.ts';
import { assertFetchResponseMatchesSpec } from './support/openapi.ts';
import { ALICE, BOB, KIN, USDC, ata, build, createAtaInstructions, memoInstruction, transferInstruction } from './support/transactions.ts';
import { newKeypair } from './support/keys.ts';

const server = setupServer();
server.listen({ onUnhandledRequest: 'error' });

type Emulator = RelayEmulator;

describe('@solana/web3.js and @solana/spl-token against RpcUrl', () => {
  let emulator: Emulator;
  let config: { RpcUrl: string; Token: string; FeePayer: string };
  let connection: InstanceType<typeof Connection>;
  const specChecks: Promise<unknown>[] = [];

  /** The relay API as a client calls it (X-API-Key), each answer checked against the spec. */
  async function api(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
    const response = await fetch(`${emulator.config.baseUrl}${path}`, {
      method,
      headers: { 'X-API-Key': emulator.config.apiKey, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: await assertFetchResponseMatchesSpec(method, path.split('?')[0]!, response) };
  }

  beforeAll(async () => {
    emulator = await createRelayEmulator({ baseUrl: 'https://relay.example.test/api' });
    server.resetHandlers(...emulator.handlers);
    // Every answer of the RPC endpoint, whatever the library asked, must match the spec.
    emulator.observe(({ api: mount, response }) => {
      if (mount === 'rpc') specChecks.push(assertFetchResponseMatchesSpec('post', '/rpc', response.clone()));
    });
    config = (await api('GET', '/Transaction/config')).body;
    connection = new Connection(config.RpcUrl, {
      commitment: 'confirmed',
      httpHeaders: { Authorization: `Bearer ${config.Token}` },
      wsEndpoint: `${config.RpcUrl.replace(/^http/, 'ws')}?token=${config.Token}`,
    });
  });

  afterAll(async () => {
    await Promise.all(specChecks);
    server.close();
    await emulator.close();
  });

  it('gets the latest blockhash, valid on the ledger until lastValidBlockHeight', async () => {
    const { blockhash, lastValidBlockHeight } = await connection.getLatestBlockhash();
    expect(emulator.services.ledger.isBlockhashValid(blockhash)).toBe(true);
    expect(lastValidBlockHeight).toBe(Number(emulator.services.ledger.clock().blockHeight) + 150);
    expect(await connection.isBlockhashValid(blockhash)).toMatchObject({ value: true });
  });

  it('lists parsed token accounts by owner, with uiTokenAmount, and filters by mint', async () => {
    const { value, context } = await connection.getParsedTokenAccountsByOwner(ALICE.publicKey, { programId: splToken.TOKEN_PROGRAM_ID });
    expect(context.slot).toBe(Number(emulator.services.ledger.clock().slot));
    const byMint = Object.fromEntries(value.map(({ pubkey, account }) => [account.data.parsed.info.mint, { pubkey, account }]));
    expect(byMint[USDC.toBase58()]!.pubkey.toBase58()).toBe(ata(ALICE.publicKey).toBase58());
    expect(byMint[USDC.toBase58()]!.account.data).toEqual({
      program: 'spl-token',
      parsed: {
        info: {
          isNative: false,
          mint: USDC.toBase58(),
          owner: ALICE.publicKey.toBase58(),
          state: 'initialized',
          tokenAmount: { amount: '1000000000', decimals: 6, uiAmount: 1000, uiAmountString: '1000' },
        },
        type: 'account',
      },
      space: 165,
    });
    expect(byMint[KIN.toBase58()]!.account.data.parsed.info.tokenAmount).toEqual({ amount: '10000000', decimals: 5, uiAmount: 100, uiAmountString: '100' });
    const kinOnly = await connection.getParsedTokenAccountsByOwner(ALICE.publicKey, { mint: KIN });
    expect(kinOnly.value.map(({ pubkey }) => pubkey.toBase58())).toEqual([ata(ALICE.publicKey, KIN).toBase58()]);
  });

  it('runs the spec 4.2 flow: config → RpcUrl blockhash → build → relay → confirmTransaction → getParsedTransaction', async () => {
    const owner = newKeypair();
    const recipient = owner.publicKey;
    const { blockhash, lastValidBlockHeight } = await connection.getLatestBlockhash();
    const created = await api('POST', '/Account/create', {
      signedTransaction: build({ instructions: createAtaInstructions(recipient), blockhash, signers: [owner] }),
    });
    expect(created.body).toMatchObject({ status: 'Queued' });
    const createConfirmation = await connection.confirmTransaction({ signature: created.body.signature, blockhash, lastValidBlockHeight });
    expect(createConfirmation.value.err).toBeNull();

    const sent = await api('POST', '/Transaction/send', {
      signedTransaction: build({
        instructions: [transferInstruction(ALICE, recipient, 2_500_000n, { checked: true }), memoInstruction('rpc flow')],
        blockhash,
        signers: [ALICE],
      }),
    });
    expect(sent.status).toBe(200);
    const { signature } = sent.body;
    const confirmation = await connection.confirmTransaction({ signature, blockhash, lastValidBlockHeight }, 'confirmed');
    expect(confirmation.value.err).toBeNull();
    const status = (await connection.getSignatureStatus(signature)).value!;
    expect(['confirmed', 'finalized']).toContain(status.confirmationStatus);

    const parsed = (await connection.getParsedTransaction(signature, { maxSupportedTransactionVersion: 0 }))!;
    const record = emulator.services.submissions.get(signature)!;
    expect(parsed.slot).toBe(Number(record.ledger!.slot));
    expect(parsed.blockTime).toBe(record.ledger!.blockTime);
    expect(parsed.version).toBe('legacy');
    expect(parsed.meta!.err).toBeNull();
    expect(parsed.meta!.fee).toBe(10_000);
    expect(parsed.meta!.computeUnitsConsumed).toBeGreaterThan(0);
    // The Token program ran and succeeded (what it logs besides differs by engine: bankrun's logs the instruction name).
    const token = splToken.TOKEN_PROGRAM_ID.toBase58();
    expect(parsed.meta!.logMessages!).toEqual(expect.arrayContaining([`Program ${token} invoke [1]`, `Program ${token} success`]));
    const post = parsed.meta!.postTokenBalances!.find((balance) => balance.owner === recipient.toBase58())!;
    expect(post.uiTokenAmount).toEqual({ amount: '2500000', decimals: 6, uiAmount: 2.5, uiAmountString: '2.5' });
    const pre = parsed.meta!.preTokenBalances!.find((balance) => balance.owner === ALICE.publicKey.toBase58())!;
    expect(BigInt(pre.uiTokenAmount.amount) - 2_500_000n).toBe(
      BigInt(parsed.meta!.postTokenBalances!.find((balance) => balance.owner === ALICE.publicKey.toBase58())!.uiTokenAmount.amount),
    );
    const feePayerIndex = parsed.transaction.message.accountKeys.findIndex((key) => key.pubkey.toBase58() === config.FeePayer);
    expect(feePayerIndex).toBe(0);
    expect(parsed.meta!.preBalances[0]! - parsed.meta!.postBalances[0]!).toBe(10_000);
    const [transfer, memo] = parsed.transaction.message.instructions as any[];
    expect(transfer).toMatchObject({
      program: 'spl-token',
      parsed: { type: 'transferChecked', info: { authority: ALICE.publicKey.toBase58(), tokenAmount: { amount: '2500000' } } },
    });
    expect(memo).toMatchObject({ program: 'spl-memo', parsed: 'rpc flow' });
  });

  it('agrees with POST /Account/gethistory in getSignaturesForAddress, newest first, with before/until/limit', async () => {
    const signatures = await connection.getSignaturesForAddress(ALICE.publicKey);
    const history = await api('POST', `/Account/gethistory?WalletAddress=${ALICE.publicKey.toBase58()}&PageNumber=1&PageSize=100`);
    expect(history.status).toBe(200);
    expect(signatures.length).toBeGreaterThan(0);
    expect(signatures.map(({ signature, slot, err, memo, blockTime }) => ({ signature, slot, err, memo, blockTime }))).toEqual(history.body.transactions);
    expect(signatures[0]).toMatchObject({ memo: '[8] rpc flow', err: null });
    expect(['confirmed', 'finalized']).toContain(signatures[0]!.confirmationStatus);

    const owner = newKeypair().publicKey;
    const hashes: string[] = [];
    for (let index = 0; index < 3; index += 1) hashes.push(await connection.requestAirdrop(owner, LAMPORTS_PER_SOL));
    await emulator.settle();
    const all = await connection.getSignaturesForAddress(owner);
    expect(all.map(({ signature }) => signature)).toEqual([...hashes].reverse());
    expect((await connection.getSignaturesForAddress(owner, { limit: 1 })).map(({ signature }) => signature)).toEqual([hashes[2]]);
    expect((await connection.getSignaturesForAddress(owner, { before: hashes[2] })).map(({ signature }) => signature)).toEqual([hashes[1], hashes[0]]);
    expect((await connection.getSignaturesForAddress(owner, { until: hashes[0] })).map(({ signature }) => signature)).toEqual([hashes[2], hashes[1]]);
    expect(await connection.getBalance(owner)).toBe(3 * LAMPORTS_PER_SOL);
  });

  it('serves spl-token getAccount and getMint, and getOrCreateAssociatedTokenAccount sends its own transaction', async () => {
    const account = await splToken.getAccount(connection, ata(ALICE.publicKey));
    expect(account.mint.toBase58()).toBe(USDC.toBase58());
    expect(account.owner.toBase58()).toBe(ALICE.publicKey.toBase58());
    const mint = await splToken.getMint(connection, USDC);
    expect(mint.decimals).toBe(6);
    expect(mint.supply).toBeGreaterThan(0n);

    const payer = newKeypair();
    const airdrop = await connection.requestAirdrop(payer.publicKey, LAMPORTS_PER_SOL);
    const latest = await connection.getLatestBlockhash();
    await connection.confirmTransaction({ signature: airdrop, ...latest });
    const created = await splToken.getOrCreateAssociatedTokenAccount(connection, payer, USDC, BOB.publicKey);
    expect(created.address.toBase58()).toBe(ata(BOB.publicKey).toBase58());
    expect(created.amount).toBe(0n);
    const onLedger = await emulator.services.ledger.getAccount(ata(BOB.publicKey));
    expect(onLedger?.owner.toBase58()).toBe(splToken.TOKEN_PROGRAM_ID.toBase58());
    const sent = emulator.services.submissions
      .all()
      .filter((record) => record.origin === 'rpc' && record.ledger?.accountKeys[0] === payer.publicKey.toBase58());
    expect(sent).toHaveLength(1);
    expect(sent[0]!.status).toBe('processed');
    // Found this time, nothing sent.
    expect((await splToken.getOrCreateAssociatedTokenAccount(connection, payer, USDC, BOB.publicKey)).address.toBase58()).toBe(created.address.toBase58());
  });

  it('rejects a failing sendTransaction with the preflight logs web3.js surfaces', async () => {
    const payer = newKeypair();
    const airdrop = await connection.requestAirdrop(payer.publicKey, LAMPORTS_PER_SOL);
    await connection.confirmTransaction({ signature: airdrop, ...(await connection.getLatestBlockhash()) });
    const { blockhash } = await connection.getLatestBlockhash();
    // Bob holds no KIN account: the transfer fails in the Token program.
    const tx = new Transaction({ feePayer: payer.publicKey, blockhash, lastValidBlockHeight: 0 });
    tx.add(splToken.createTransferInstruction(ata(payer.publicKey), ata(BOB.publicKey), payer.publicKey, 1n));
    tx.sign(payer);
    const error = await connection.sendRawTransaction(tx.serialize()).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SendTransactionError);
    const sendError = error as InstanceType<typeof SendTransactionError>;
    expect(sendError.message).toMatch(/Transaction simulation failed: /);
    expect(sendError.logs?.length).toBeGreaterThan(0);
  });
});
