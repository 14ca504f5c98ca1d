/**
 * innerInstructions through the RPC, read by unmodified @solana/web3.js 1.x (whose schemas accept
 * an array or null): getTransaction, getParsedTransaction and simulateTransaction with
 * `innerInstructions: true`, on both engines. LiteSVM records the CPIs of an ATA creation (the ATA
 * program invokes the Token and System programs); bankrun records none and says null.
 */
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const server = setupServer();
server.listen({ onUnhandledRequest: 'error' });

const { Connection, Keypair, VersionedTransaction } = await import('@solana/web3.js');
const { createRelayEmulator } = await import('../src/index.ts');
const { ENGINE_NAMES } = await import('../src/domain/ledger/engines.ts');
const { FEE_PAYER, USDC, ata, build, createAtaInstructions } = await import('./support/transactions.ts');

const ATA_PROGRAM = 'ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL';
const SYSTEM = '11111111111111111111111111111111';
const TOKEN = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA';

afterAll(() => server.close());

describe.each(ENGINE_NAMES)('innerInstructions over the RPC on %s', (engine) => {
  let emulator: Awaited<ReturnType<typeof createRelayEmulator>>;
  let connection: InstanceType<typeof Connection>;
  let signature: string;
  const owner = Keypair.generate();

  beforeAll(async () => {
    emulator = await createRelayEmulator({ engine, baseUrl: 'https://relay.example.test/api', rpcAuth: false });
    server.resetHandlers(...emulator.handlers);
    connection = new Connection(emulator.config.rpcUrl, 'confirmed');
    const { blockhash } = await connection.getLatestBlockhash();
    const response = await fetch(`${emulator.config.baseUrl}/Account/create`, {
      method: 'POST',
      headers: { 'X-API-Key': emulator.config.apiKey, 'Content-Type': 'application/json' },
      body: JSON.stringify({ signedTransaction: build({ instructions: createAtaInstructions(owner.publicKey), blockhash, signers: [owner] }) }),
    });
    // What the relay said, whole, if it did not relay it: every test below reads this transaction.
    const body = await response.text();
    expect(response.status, body).toBe(200);
    signature = (JSON.parse(body) as { signature: string }).signature;
    await emulator.settle();
  });
  afterAll(() => emulator.close());

  it('getTransaction (json) lists the compiled CPIs of the ATA creation', async () => {
    const tx = (await connection.getTransaction(signature, { maxSupportedTransactionVersion: 0 }))!;
    expect(tx.meta!.err).toBeNull();
    if (engine === 'bankrun') {
      expect(tx.meta!.innerInstructions).toBeNull();
      return;
    }
    const keys = tx.transaction.message.staticAccountKeys.map((key) => key.toBase58());
    const groups = tx.meta!.innerInstructions!;
    expect(groups).toHaveLength(1);
    expect(keys[tx.transaction.message.compiledInstructions[groups[0]!.index]!.programIdIndex]).toBe(ATA_PROGRAM);
    const invoked = groups[0]!.instructions.map((ix) => keys[ix.programIdIndex]);
    expect(invoked).toContain(SYSTEM);
    expect(invoked).toContain(TOKEN);
  });

  it('getParsedTransaction parses them: createAccount by the System program, initializeAccount3 by the Token program', async () => {
    const tx = (await connection.getParsedTransaction(signature, { maxSupportedTransactionVersion: 0 }))!;
    if (engine === 'bankrun') {
      expect(tx.meta!.innerInstructions).toBeNull();
      return;
    }
    const instructions = tx.meta!.innerInstructions![0]!.instructions as {
      program?: string;
      parsed?: { type: string; info: Record<string, string> };
      stackHeight?: number;
    }[];
    const create = instructions.find((ix) => ix.program === 'system' && ix.parsed?.type === 'createAccount')!;
    expect(create.parsed!.info).toMatchObject({ source: FEE_PAYER.toBase58(), newAccount: ata(owner.publicKey).toBase58(), owner: TOKEN, space: 165 });
    const init = instructions.find((ix) => ix.program === 'spl-token' && ix.parsed?.type === 'initializeAccount3')!;
    expect(init.parsed!.info).toEqual({ account: ata(owner.publicKey).toBase58(), mint: USDC.toBase58(), owner: owner.publicKey.toBase58() });
  });

  it('base64 getTransaction carries the same meta as json', async () => {
    const call = async (encoding: string) => {
      const response = await fetch(emulator.config.rpcUrl, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'getTransaction', params: [signature, { encoding, commitment: 'confirmed' }] }),
      });
      return ((await response.json()) as { result: { meta: { innerInstructions: unknown } } }).result.meta.innerInstructions;
    };
    const [json, base64] = [await call('json'), await call('base64')];
    expect(base64).toEqual(json);
    if (engine === 'litesvm') expect((json as unknown[]).length).toBe(1);
  });

  it('simulateTransaction answers them only when asked, parsed as the validator answers them', async () => {
    const other = Keypair.generate();
    const { blockhash } = await connection.getLatestBlockhash();
    const tx = VersionedTransaction.deserialize(
      Buffer.from(build({ instructions: createAtaInstructions(other.publicKey), blockhash, signers: [other] }), 'base64'),
    );
    const plain = await connection.simulateTransaction(tx, { sigVerify: false });
    expect(plain.value.err).toBeNull();
    expect(plain.value.innerInstructions ?? null).toBeNull();
    const asked = await connection.simulateTransaction(tx, { sigVerify: false, innerInstructions: true });
    expect(asked.value.err).toBeNull();
    if (engine === 'bankrun') {
      expect(asked.value.innerInstructions).toBeNull();
      return;
    }
    const [group] = asked.value.innerInstructions!;
    expect(group!.index).toBe(0);
    const types = group!.instructions.map((ix) => ('parsed' in ix ? `${ix.program}:${(ix.parsed as { type: string }).type}` : ix.programId.toBase58()));
    expect(types).toContain('system:createAccount');
    expect(types).toContain('spl-token:initializeAccount3');
    // Nothing was committed.
    expect(await emulator.services.ledger.getAccount(ata(other.publicKey))).toBeNull();
  });
});
