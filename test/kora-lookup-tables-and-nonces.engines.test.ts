/**
 * Issue 33 through Kora: a v0 transaction that loads accounts from a lookup table, and a
 * durable-nonce transaction with kora.toml's `allow_durable_transactions` on and off, sent with
 * signAndSendTransaction as the @solana/kora SDK sends it, the Kora signer as fee payer.
 */
import {
  AddressLookupTableProgram,
  Connection,
  Keypair,
  NONCE_ACCOUNT_LENGTH,
  NonceAccount,
  type PublicKey,
  SystemProgram,
  Transaction,
  TransactionMessage,
  VersionedTransaction,
} from '@solana/web3.js';
import { afterAll, describe, expect, it } from 'vitest';
import { createRelayEmulator, type RelayEmulator } from '../src/index.ts';
import { koraToml } from './support/kora.ts';
import { FEE_PAYER } from './support/transactions.ts';

const made: RelayEmulator[] = [];
afterAll(async () => {
  for (const emulator of made) await emulator.close();
});

async function kora(
  validation: string[],
): Promise<{ emulator: RelayEmulator; connection: Connection; call: (method: string, params: unknown) => Promise<any> }> {
  const emulator = await createRelayEmulator({ kora: { config: koraToml({ validation }) } });
  made.push(emulator);
  const call = async (method: string, params: unknown) => {
    const response = await fetch(emulator.config.koraUrl, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ id: 1, jsonrpc: '2.0', method, params }),
    });
    return response.json();
  };
  return { emulator, connection: new Connection(emulator.config.rpcUrl, 'confirmed'), call };
}

/** A user's own transaction, sent over the RPC with their own SOL. */
async function own(connection: Connection, user: Keypair, instructions: Parameters<Transaction['add']>, signers: Keypair[] = []): Promise<void> {
  const tx = new Transaction({ feePayer: user.publicKey, recentBlockhash: (await connection.getLatestBlockhash()).blockhash }).add(...instructions);
  tx.sign(user, ...signers);
  const signature = await connection.sendRawTransaction(tx.serialize());
  expect((await connection.confirmTransaction(signature, 'confirmed')).value.err).toBeNull();
}

describe('Kora with lookup tables and durable nonces', () => {
  it('signs and sends a v0 transaction whose accounts come from a lookup table', async () => {
    const { emulator, connection, call } = await kora([]);
    const user = Keypair.generate();
    await emulator.faucet({ address: user.publicKey, lamports: 1_000_000_000n });
    const holders = [Keypair.generate().publicKey, Keypair.generate().publicKey];
    const [create, table] = AddressLookupTableProgram.createLookupTable({
      authority: user.publicKey,
      payer: user.publicKey,
      recentSlot: await connection.getSlot(),
    });
    await own(connection, user, [
      create,
      AddressLookupTableProgram.extendLookupTable({ lookupTable: table, authority: user.publicKey, payer: user.publicKey, addresses: holders }),
    ]);
    await emulator.warp({ slots: 1 });
    const { value: lookup } = await connection.getAddressLookupTable(table);
    const { blockhash } = (await call('getBlockhash', {})).result;
    const message = new TransactionMessage({
      payerKey: FEE_PAYER,
      recentBlockhash: blockhash,
      instructions: holders.map((to) => SystemProgram.transfer({ fromPubkey: user.publicKey, toPubkey: to, lamports: 3_000_000 })),
    }).compileToV0Message([lookup!]);
    const tx = new VersionedTransaction(message);
    tx.sign([user]);
    const answer = await call('signAndSendTransaction', { transaction: Buffer.from(tx.serialize()).toString('base64') });
    expect(answer.error, JSON.stringify(answer)).toBeUndefined();
    await emulator.settle();
    const landed = await connection.getTransaction(answer.result.signature, { maxSupportedTransactionVersion: 0, commitment: 'confirmed' });
    expect(landed!.meta!.err).toBeNull();
    expect(landed!.meta!.loadedAddresses).toEqual({ writable: holders, readonly: [] });
    expect(landed!.transaction.message.staticAccountKeys[0]!.toBase58()).toBe(FEE_PAYER.toBase58());
    for (const holder of holders) expect(await connection.getBalance(holder)).toBe(3_000_000);
  });

  async function nonceTransaction(emulator: RelayEmulator, connection: Connection): Promise<{ transaction: string; nonce: PublicKey; to: PublicKey }> {
    const user = Keypair.generate();
    const nonce = Keypair.generate();
    await emulator.faucet({ address: user.publicKey, lamports: 1_000_000_000n });
    const lamports = await connection.getMinimumBalanceForRentExemption(NONCE_ACCOUNT_LENGTH);
    await own(
      connection,
      user,
      SystemProgram.createNonceAccount({ fromPubkey: user.publicKey, noncePubkey: nonce.publicKey, authorizedPubkey: user.publicKey, lamports }).instructions,
      [nonce],
    );
    await emulator.warp({ slots: 1 });
    const stored = NonceAccount.fromAccountData((await connection.getAccountInfo(nonce.publicKey))!.data).nonce;
    const to = Keypair.generate().publicKey;
    const tx = new Transaction({
      feePayer: FEE_PAYER,
      nonceInfo: { nonce: stored, nonceInstruction: SystemProgram.nonceAdvance({ noncePubkey: nonce.publicKey, authorizedPubkey: user.publicKey }) },
    }).add(SystemProgram.transfer({ fromPubkey: user.publicKey, toPubkey: to, lamports: 2_000_000 }));
    tx.partialSign(user);
    return { transaction: tx.serialize({ requireAllSignatures: false }).toString('base64'), nonce: nonce.publicKey, to };
  }

  it('sends a durable-nonce transaction with allow_durable_transactions = true, once', async () => {
    const { emulator, connection, call } = await kora(['allow_durable_transactions = true']);
    const { transaction, nonce, to } = await nonceTransaction(emulator, connection);
    const before = NonceAccount.fromAccountData((await connection.getAccountInfo(nonce))!.data).nonce;
    const answer = await call('signAndSendTransaction', { transaction });
    expect(answer.error, JSON.stringify(answer)).toBeUndefined();
    await emulator.settle();
    expect(await connection.getBalance(to)).toBe(2_000_000);
    expect(NonceAccount.fromAccountData((await connection.getAccountInfo(nonce))!.data).nonce).not.toBe(before);
    // Sent again, it is refused and nothing moves: on litesvm at Kora's simulation (the nonce was
    // advanced in this slot: the System Program's NonceBlockhashNotExpired); on bankrun, whose
    // simulation rebinds the blockhash, at the send's preflight (its nonce is stale).
    const again = await call('signAndSendTransaction', { transaction });
    expect([
      'Invalid transaction: Transaction simulation failed: Error processing Instruction 0: custom program error: 0x7',
      'Transaction execution failed: Transaction simulation failed: Blockhash not found',
    ]).toContain(again.error?.message);
    await emulator.settle();
    expect(await connection.getBalance(to)).toBe(2_000_000);
  });

  it('refuses a durable-nonce transaction in Kora’s words when allow_durable_transactions is off (the default)', async () => {
    const { emulator, connection, call } = await kora([]);
    const { transaction, to } = await nonceTransaction(emulator, connection);
    const answer = await call('signAndSendTransaction', { transaction });
    expect(answer.error).toMatchObject({ message: expect.stringContaining('Durable transactions (nonce-based) are not allowed') });
    await emulator.settle();
    expect(await connection.getBalance(to)).toBe(0);
  });
});
