/**
 * Issue 33: address lookup tables and durable nonces over the RPC, as web3.js 1.98's docs make and
 * send them, on both engines; and the SlotHashes sysvar the lookup table program reads. Through a
 * restart on a state file: test/e2e/lookup-tables-restart.engines.test.ts.
 */
import {
  type AddressLookupTableAccount,
  AddressLookupTableProgram,
  Connection,
  Keypair,
  NONCE_ACCOUNT_LENGTH,
  NonceAccount,
  PublicKey,
  SystemProgram,
  Transaction,
  type TransactionInstruction,
  TransactionMessage,
  VersionedTransaction,
} from '@solana/web3.js';
import { createAssociatedTokenAccountIdempotentInstruction, createTransferCheckedInstruction } from '@solana/spl-token';
import { once } from 'node:events';
import { WebSocket } from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRelayEmulator, type RelayEmulator } from '../src/index.ts';
import { slotHashes } from './support/slot-hashes.ts';
import { ALICE, ata, USDC } from './support/transactions.ts';
import { type Rpc, rpcAt } from './support/json-rpc.ts';

/** Agave's Display of the two errors, as sendTransaction's preflight message says them. */
const TEXT = {
  AddressLookupTableNotFound: "Transaction loads an address table account that doesn't exist",
  InvalidAddressLookupTableIndex: 'Transaction address table lookup uses an invalid index',
};

describe('lookup tables, durable nonces and SlotHashes over the RPC (web3.js)', () => {
  let emulator: RelayEmulator;
  let connection: Connection;
  let rpc: Rpc;
  const payer = Keypair.generate();

  beforeAll(async () => {
    emulator = await createRelayEmulator();
    connection = new Connection(emulator.config.rpcUrl, 'confirmed');
    rpc = rpcAt(emulator.config.rpcUrl);
    await emulator.faucet({ address: payer.publicKey, lamports: 100_000_000_000n });
  });
  afterAll(async () => {
    await emulator?.close();
  });

  async function v0(instructions: TransactionInstruction[], tables: AddressLookupTableAccount[] = [], signers: Keypair[] = []): Promise<VersionedTransaction> {
    const { blockhash } = await connection.getLatestBlockhash();
    const message = new TransactionMessage({ payerKey: payer.publicKey, recentBlockhash: blockhash, instructions }).compileToV0Message(tables);
    const tx = new VersionedTransaction(message);
    tx.sign([payer, ...signers]);
    return tx;
  }

  async function sent(tx: VersionedTransaction | Transaction): Promise<string> {
    const signature = await connection.sendRawTransaction(tx.serialize());
    const { value } = await connection.confirmTransaction(signature, 'confirmed');
    expect(value.err).toBeNull();
    return signature;
  }

  it('keeps SlotHashes moving with the ledger: every slot up to the current one, at most 512, a warp’s too', async () => {
    const slot = BigInt(await connection.getSlot('finalized'));
    let entries = await slotHashes(connection);
    expect(entries[0]).toBe(slot);
    expect(entries).toContain(BigInt(await connection.getSlot('processed')));
    await emulator.warp({ slots: 600 });
    const now = BigInt(await connection.getSlot());
    entries = await slotHashes(connection);
    expect(entries).toHaveLength(512);
    expect(entries[0]).toBe(now);
    expect(entries.at(-1)).toBe(now - 511n);
    expect(entries.every((entry, index) => index === 0 || entry === entries[index - 1]! - 1n)).toBe(true);
  });

  it('creates, extends, uses, freezes, deactivates and closes a table as web3.js does, with the runtime’s warm-up and cool-down', async () => {
    const recentSlot = await connection.getSlot('finalized');
    const [create, table] = AddressLookupTableProgram.createLookupTable({ authority: payer.publicKey, payer: payer.publicKey, recentSlot });
    const holders = Array.from({ length: 3 }, () => Keypair.generate().publicKey);
    const readOnly = SystemProgram.programId;
    const extend = AddressLookupTableProgram.extendLookupTable({
      lookupTable: table,
      authority: payer.publicKey,
      payer: payer.publicKey,
      addresses: [...holders, readOnly],
    });
    await sent(await v0([create, extend]));
    const { value: lookup } = await connection.getAddressLookupTable(table);
    expect(lookup!.state.addresses.map(String)).toEqual([...holders, readOnly].map(String));
    expect(lookup!.isActive()).toBe(true);
    const extendedIn = BigInt(lookup!.state.lastExtendedSlot);

    // jsonParsed as Agave parses a table.
    const parsed = await rpc('getAccountInfo', [table.toBase58(), { encoding: 'jsonParsed' }]);
    expect(parsed.value.data).toEqual({
      program: 'address-lookup-table',
      parsed: {
        type: 'lookupTable',
        info: {
          deactivationSlot: '18446744073709551615',
          lastExtendedSlot: String(extendedIn),
          lastExtendedSlotStartIndex: 0,
          authority: payer.publicKey.toBase58(),
          addresses: [...holders, readOnly].map(String),
        },
      },
      space: 56 + 4 * 32,
    });

    const transfers = holders
      .slice(0, 2)
      .map((to, index) => SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: to, lamports: 1_000_000 * (index + 1) }));
    // Addresses extended in this slot serve from the next one: until then the index is past the table's active end.
    // (The ledger opens a new slot only when one is full, 64 transactions, or on a warp.)
    expect(BigInt(await connection.getSlot())).toBe(extendedIn);
    const early = await connection.simulateTransaction(await v0(transfers, [lookup!]), { sigVerify: false });
    expect(early.value.err).toBe('InvalidAddressLookupTableIndex');
    await emulator.warp({ slots: 1 });
    const tx = await v0(transfers, [lookup!]);
    expect(tx.message.addressTableLookups).toHaveLength(1);
    const signature = await sent(tx);

    const json = await rpc('getTransaction', [signature, { encoding: 'json', maxSupportedTransactionVersion: 0 }]);
    expect(json.version).toBe(0);
    expect(json.transaction.message.accountKeys).toEqual([payer.publicKey.toBase58(), SystemProgram.programId.toBase58()]);
    expect(json.transaction.message.addressTableLookups).toEqual([{ accountKey: table.toBase58(), writableIndexes: [0, 1], readonlyIndexes: [] }]);
    expect(json.meta.loadedAddresses).toEqual({ writable: holders.slice(0, 2).map(String), readonly: [] });
    expect(json.meta.preBalances).toEqual([expect.any(Number), 1, 0, 0]);
    expect(json.meta.postBalances.slice(2)).toEqual([1_000_000, 2_000_000]);

    const jsonParsed = await rpc('getTransaction', [signature, { encoding: 'jsonParsed', maxSupportedTransactionVersion: 0 }]);
    expect(jsonParsed.transaction.message.accountKeys).toEqual([
      { pubkey: payer.publicKey.toBase58(), signer: true, source: 'transaction', writable: true },
      { pubkey: SystemProgram.programId.toBase58(), signer: false, source: 'transaction', writable: false },
      { pubkey: holders[0]!.toBase58(), signer: false, source: 'lookupTable', writable: true },
      { pubkey: holders[1]!.toBase58(), signer: false, source: 'lookupTable', writable: true },
    ]);
    expect(jsonParsed.transaction.message.instructions[1].parsed.info).toEqual({
      source: payer.publicKey.toBase58(),
      destination: holders[1]!.toBase58(),
      lamports: 2_000_000,
    });
    expect(jsonParsed.meta.loadedAddresses).toBeUndefined();
    const base64 = await rpc('getTransaction', [signature, { encoding: 'base64', maxSupportedTransactionVersion: 0 }]);
    expect(base64.transaction[0]).toBe(Buffer.from(tx.serialize()).toString('base64'));
    expect(base64.meta.loadedAddresses).toEqual(json.meta.loadedAddresses);

    // The relay's own interface still refuses lookup tables (rule W4), and says which table.
    const relayed = new VersionedTransaction(
      new TransactionMessage({
        payerKey: new PublicKey(emulator.config.feePayer),
        recentBlockhash: tx.message.recentBlockhash,
        instructions: transfers,
      }).compileToV0Message([lookup!]),
    );
    const refused = await emulator.fetch(
      new Request(`${emulator.config.baseUrl}/Transaction/send`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'X-API-Key': emulator.config.apiKey },
        body: JSON.stringify({ signedTransaction: Buffer.from(relayed.serialize()).toString('base64') }),
      }),
    );
    expect(await refused.json()).toMatchObject({
      code: 'VERSIONED_TRANSACTION_UNSUPPORTED',
      rule: 'W4',
      detail: expect.stringContaining(`names ${table.toBase58()}`),
    });

    // A loaded address has the transaction in its history, as a static one does.
    const history = await connection.getSignaturesForAddress(holders[1]!);
    expect(history.map((entry) => entry.signature)).toContain(signature);

    // Freeze, deactivate; closing waits until the deactivation slot leaves SlotHashes (513 slots).
    await sent(await v0([AddressLookupTableProgram.freezeLookupTable({ lookupTable: table, authority: payer.publicKey })]));
    const frozen = await rpc('getAccountInfo', [table.toBase58(), { encoding: 'jsonParsed' }]);
    expect(frozen.value.data.parsed.info.authority).toBeUndefined();
    const [createOther, other] = AddressLookupTableProgram.createLookupTable({
      authority: payer.publicKey,
      payer: payer.publicKey,
      recentSlot: await connection.getSlot(),
    });
    await sent(await v0([createOther]));
    await sent(await v0([AddressLookupTableProgram.deactivateLookupTable({ lookupTable: other, authority: payer.publicKey })]));
    const close = () => AddressLookupTableProgram.closeLookupTable({ lookupTable: other, authority: payer.publicKey, recipient: payer.publicKey });
    const tooSoon = await connection.simulateTransaction(await v0([close()]));
    expect(tooSoon.value.err).toEqual({ InstructionError: [0, 'InvalidArgument'] });
    await emulator.warp({ slots: 513 });
    await sent(await v0([close()]));
    expect(await connection.getAccountInfo(other)).toBeNull();
  });

  it('feeds what loaded accounts become to PubSub, token balances and the owner index: a new owner’s token account made through a table', async () => {
    const carol = Keypair.generate().publicKey;
    const carolAta = ata(carol);
    const [create, table] = AddressLookupTableProgram.createLookupTable({
      authority: payer.publicKey,
      payer: payer.publicKey,
      recentSlot: await connection.getSlot(),
    });
    await sent(
      await v0([
        create,
        AddressLookupTableProgram.extendLookupTable({ lookupTable: table, authority: payer.publicKey, payer: payer.publicKey, addresses: [carolAta, carol] }),
      ]),
    );
    await emulator.warp({ slots: 1 });
    const { value: lookup } = await connection.getAddressLookupTable(table);
    // accountSubscribe on the loaded account, answered before anything is sent.
    const socket = new WebSocket(emulator.config.pubsubUrl!);
    const messages: any[] = [];
    socket.on('message', (data) => messages.push(JSON.parse(String(data))));
    await once(socket, 'open');
    socket.send(
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'accountSubscribe', params: [carolAta.toBase58(), { encoding: 'jsonParsed', commitment: 'confirmed' }] }),
    );
    try {
      await expect.poll(() => messages.find((message) => message.id === 1)?.result, { timeout: 10_000 }).toEqual(expect.any(Number));
      const tx = await v0(
        [
          createAssociatedTokenAccountIdempotentInstruction(payer.publicKey, carolAta, carol, USDC),
          createTransferCheckedInstruction(ata(ALICE.publicKey), USDC, carolAta, ALICE.publicKey, 250_000n, 6),
        ],
        [lookup!],
        [ALICE],
      );
      expect(tx.message.addressTableLookups).toEqual([{ accountKey: table, writableIndexes: [0], readonlyIndexes: [1] }]);
      const signature = await sent(tx);
      const json = await rpc('getTransaction', [signature, { encoding: 'json', maxSupportedTransactionVersion: 0 }]);
      const carolIndex = json.transaction.message.accountKeys.length;
      expect(json.meta.loadedAddresses).toEqual({ writable: [carolAta.toBase58()], readonly: [carol.toBase58()] });
      expect(json.meta.postTokenBalances).toContainEqual(
        expect.objectContaining({
          accountIndex: carolIndex,
          mint: USDC.toBase58(),
          owner: carol.toBase58(),
          uiTokenAmount: expect.objectContaining({ amount: '250000' }),
        }),
      );
      expect(json.meta.preTokenBalances.some((balance: { accountIndex: number }) => balance.accountIndex === carolIndex)).toBe(false);
      const owned = await connection.getTokenAccountsByOwner(carol, { mint: USDC });
      expect(owned.value.map(({ pubkey }) => pubkey.toBase58())).toEqual([carolAta.toBase58()]);
      const heard = () => messages.find((message) => message.method === 'accountNotification');
      await expect.poll(heard, { timeout: 10_000 }).toBeDefined();
      expect(heard().params.result.value.data.parsed.info).toMatchObject({
        owner: carol.toBase58(),
        tokenAmount: expect.objectContaining({ amount: '250000' }),
      });
    } finally {
      socket.close();
    }
  });

  it('refuses a table that does not exist and an index past a table’s end with the runtime’s errors, and never lands them', async () => {
    const [create, table] = AddressLookupTableProgram.createLookupTable({
      authority: payer.publicKey,
      payer: payer.publicKey,
      recentSlot: await connection.getSlot(),
    });
    const holder = Keypair.generate().publicKey;
    await sent(
      await v0([
        create,
        AddressLookupTableProgram.extendLookupTable({ lookupTable: table, authority: payer.publicKey, payer: payer.publicKey, addresses: [holder] }),
      ]),
    );
    await emulator.warp({ slots: 1 });
    const { value: lookup } = await connection.getAddressLookupTable(table);
    const transfer = SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: holder, lamports: 5_000 });
    const missing = { ...lookup!, key: Keypair.generate().publicKey, isActive: () => true } as AddressLookupTableAccount;
    const pastEnd = { ...lookup!, state: { ...lookup!.state, addresses: [PublicKey.default, holder] }, isActive: () => true } as AddressLookupTableAccount;
    for (const [tables, error] of [
      [[missing], 'AddressLookupTableNotFound'],
      [[pastEnd], 'InvalidAddressLookupTableIndex'],
    ] as const) {
      const tx = await v0([transfer], [...tables]);
      const simulated = await connection.simulateTransaction(tx);
      expect(simulated.value.err).toBe(error);
      await expect(connection.sendRawTransaction(tx.serialize())).rejects.toThrow(`Transaction simulation failed: ${TEXT[error]}`);
      // Without preflight it is taken and never lands: no fee, no transaction; its status keeps the
      // error (the emulator's documented choice for what never reached a block, so that a confirm ends).
      const before = await connection.getBalance(payer.publicKey);
      const signature = await connection.sendRawTransaction(tx.serialize(), { skipPreflight: true });
      await emulator.settle();
      expect((await connection.getSignatureStatuses([signature])).value[0]?.err).toBe(error);
      expect(await connection.getTransaction(signature, { maxSupportedTransactionVersion: 0, commitment: 'confirmed' })).toBeNull();
      expect(await connection.getBalance(payer.publicKey)).toBe(before);
      // Never committed, so no status cache holds it: simulated or sent again it fails the same way, not AlreadyProcessed (issue 45, item 12).
      expect((await connection.simulateTransaction(tx)).value.err).toBe(error);
      await expect(connection.sendRawTransaction(tx.serialize())).rejects.toThrow(`Transaction simulation failed: ${TEXT[error]}`);
      expect(await connection.sendRawTransaction(tx.serialize(), { skipPreflight: true })).toBe(signature);
      await emulator.settle();
      expect((await connection.getSignatureStatuses([signature])).value[0]?.err).toBe(error);
      expect(await connection.getBalance(payer.publicKey)).toBe(before);
    }
  });

  async function nonceAccount(): Promise<{ nonce: Keypair; value: () => Promise<string> }> {
    const nonce = Keypair.generate();
    const lamports = await connection.getMinimumBalanceForRentExemption(NONCE_ACCOUNT_LENGTH);
    const { blockhash } = await connection.getLatestBlockhash();
    const create = new Transaction({ feePayer: payer.publicKey, recentBlockhash: blockhash }).add(
      SystemProgram.createNonceAccount({ fromPubkey: payer.publicKey, noncePubkey: nonce.publicKey, authorizedPubkey: payer.publicKey, lamports }),
    );
    create.sign(payer, nonce);
    await sent(create);
    // A nonce stored in this slot cannot be advanced in it (NonceBlockhashNotExpired): the next slot.
    await emulator.warp({ slots: 1 });
    return { nonce, value: async () => NonceAccount.fromAccountData((await connection.getAccountInfo(nonce.publicKey))!.data).nonce };
  }

  function durable(nonce: PublicKey, value: string, to: PublicKey, lamports: number): Transaction {
    const tx = new Transaction({
      feePayer: payer.publicKey,
      nonceInfo: { nonce: value, nonceInstruction: SystemProgram.nonceAdvance({ noncePubkey: nonce, authorizedPubkey: payer.publicKey }) },
    });
    tx.add(SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: to, lamports }));
    tx.sign(payer);
    return tx;
  }

  it('lands a durable-nonce transaction once, with and without preflight, and refuses its replay as a validator does', async () => {
    const { nonce, value } = await nonceAccount();
    const stored = await value();
    const parsed = await rpc('getAccountInfo', [nonce.publicKey.toBase58(), { encoding: 'jsonParsed' }]);
    expect(parsed.value.data).toEqual({
      program: 'nonce',
      parsed: { type: 'initialized', info: { authority: payer.publicKey.toBase58(), blockhash: stored, feeCalculator: { lamportsPerSignature: '5000' } } },
      space: 80,
    });
    const to = Keypair.generate().publicKey;
    const tx = durable(nonce.publicKey, stored, to, 1_000_000);
    // The nonce is no blockhash: isBlockhashValid says so, as a validator does; the transaction is valid all the same.
    expect((await connection.isBlockhashValid(stored)).value).toBe(false);
    expect((await connection.simulateTransaction(tx)).value.err).toBeNull();
    expect((await rpc('simulateTransaction', [tx.serialize().toString('base64'), { encoding: 'base64', replaceRecentBlockhash: true }])).value.err).toBeNull();
    const fee = await connection.getFeeForMessage(tx.compileMessage());
    expect(fee.value).toBe(5_000);
    const signature = await connection.sendRawTransaction(tx.serialize());
    // confirmTransaction's nonce strategy, as web3.js documents it.
    const confirmed = await connection.confirmTransaction(
      { signature, nonceAccountPubkey: nonce.publicKey, nonceValue: stored, minContextSlot: 0 },
      'confirmed',
    );
    expect(confirmed.value.err).toBeNull();
    expect(await connection.getBalance(to)).toBe(1_000_000);
    expect(await value()).not.toBe(stored);
    // The replay: its nonce is stale now.
    await expect(connection.sendRawTransaction(tx.serialize())).rejects.toThrow('Transaction simulation failed: Blockhash not found');
    expect((await connection.simulateTransaction(tx)).value.err).toBe('BlockhashNotFound');
    expect(await connection.sendRawTransaction(tx.serialize(), { skipPreflight: true })).toBe(signature);
    await emulator.settle();
    expect(await connection.getBalance(to)).toBe(1_000_000);

    // Sent without preflight, a fresh one lands once too; a stale one (its nonce already moved) never does.
    await emulator.warp({ slots: 1 });
    const next = durable(nonce.publicKey, await value(), to, 2_000_000);
    const stale = durable(nonce.publicKey, stored, to, 4_000_000);
    const nextSignature = await connection.sendRawTransaction(next.serialize(), { skipPreflight: true });
    const staleSignature = await connection.sendRawTransaction(stale.serialize(), { skipPreflight: true });
    await emulator.settle();
    expect((await connection.getSignatureStatus(nextSignature)).value?.err).toBeNull();
    expect((await connection.getSignatureStatus(staleSignature)).value).toBeNull();
    expect(await connection.getBalance(to)).toBe(3_000_000);
  });

  it('advances a nonce in the slot after it was stored, whatever blockhash the transaction reuses (web3.js caches one 30 s)', async () => {
    // The nonce stores the bank's blockhash, not the transaction's: one blockhash for both, as web3.js sends them.
    const { blockhash } = await connection.getLatestBlockhash();
    const nonce = Keypair.generate();
    const lamports = await connection.getMinimumBalanceForRentExemption(NONCE_ACCOUNT_LENGTH);
    const create = new Transaction({ feePayer: payer.publicKey, recentBlockhash: blockhash }).add(
      SystemProgram.createNonceAccount({ fromPubkey: payer.publicKey, noncePubkey: nonce.publicKey, authorizedPubkey: payer.publicKey, lamports }),
    );
    create.sign(payer, nonce);
    await sent(create);
    const advance = () => {
      const tx = new Transaction({ feePayer: payer.publicKey, recentBlockhash: blockhash }).add(
        SystemProgram.nonceAdvance({ noncePubkey: nonce.publicKey, authorizedPubkey: payer.publicKey }),
      );
      tx.sign(payer);
      return tx;
    };
    // In the slot it was stored: the system program's refusal, as on a validator (bankrun's own
    // blockhash moves with wall time, so there it may already advance: the README's engine table).
    if (emulator.config.engine === 'litesvm')
      expect((await connection.simulateTransaction(advance())).value.logs).toContain('Advance nonce account: nonce can only advance once per slot');
    await emulator.warp({ slots: 1 });
    const before = NonceAccount.fromAccountData((await connection.getAccountInfo(nonce.publicKey))!.data).nonce;
    await sent(advance());
    expect(NonceAccount.fromAccountData((await connection.getAccountInfo(nonce.publicKey))!.data).nonce).not.toBe(before);
  });

  it('makes a nonce account for a test (POST /__emulator/nonce, createNonceAccount), usable at once, and refuses a bad authority', async () => {
    const origin = new URL(emulator.config.rpcUrl).origin;
    const response = await fetch(`${origin}/__emulator/nonce`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ authority: payer.publicKey.toBase58() }),
    });
    expect(response.status).toBe(200);
    const made = (await response.json()) as { address: string; authority: string; nonce: string; lamports: string };
    expect(made).toEqual({
      address: expect.any(String),
      authority: payer.publicKey.toBase58(),
      nonce: NonceAccount.fromAccountData((await connection.getAccountInfo(new PublicKey(made.address)))!.data).nonce,
      lamports: String(await connection.getMinimumBalanceForRentExemption(NONCE_ACCOUNT_LENGTH)),
    });
    const to = Keypair.generate().publicKey;
    await sent(durable(new PublicKey(made.address), made.nonce, to, 1_500_000));
    expect(await connection.getBalance(to)).toBe(1_500_000);
    // In process, the same; the next account has its own address.
    const second = await emulator.createNonceAccount({ authority: payer.publicKey });
    expect(second.address).not.toBe(made.address);
    await sent(durable(new PublicKey(second.address), second.nonce, to, 500_000));
    expect(await connection.getBalance(to)).toBe(2_000_000);
    const bad = await fetch(`${origin}/__emulator/nonce`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ authority: 'nope' }),
    });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { code: string }).code).toBe('VALIDATION_FAILED');
  });
});
