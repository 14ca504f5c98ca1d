import { createHmac } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { writeFileSync } from 'node:fs';
import { SystemProgram, VersionedTransaction } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRelayEmulator, type RelayEmulator, startServer } from '../src/index.ts';
import { startHarness } from './support/harness.ts';
import { koraToml, SYSTEM_PROGRAM } from './support/kora.ts';
import { assertFetchResponseMatchesSpec } from './support/openapi.ts';
import { ALICE, ata, BOB, build, FEE_PAYER, USDC, transferInstruction } from './support/transactions.ts';

// Kora's JSON-RPC (issue 27), in Kora 2.0.5's wire format: the request bodies and headers the
// @solana/kora 0.2.1 SDK sends (KoraClient.rpcRequest: {id: 1, jsonrpc, method, params}), over
// real HTTP to the loopback listener, on the emulator's one ledger and relay.
describe('Kora JSON-RPC', () => {
  let emulator: RelayEmulator;
  let call: (method: string, params?: unknown, headers?: Record<string, string>) => Promise<{ status: number; body: any }>;

  beforeAll(async () => {
    emulator = await createRelayEmulator();
    // Bob gets a USDC account (the faucet control), so that a transfer to him needs no account creation.
    await emulator.faucet({ address: BOB.publicKey.toBase58(), mint: USDC.toBase58(), amount: 0 });
    call = async (method, params, headers = {}) => {
      const response = await fetch(emulator.config.koraUrl, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...headers },
        body: JSON.stringify({ id: 1, jsonrpc: '2.0', method, params }),
      });
      // Every answer is held to the contract's description of /kora.
      const body = await assertFetchResponseMatchesSpec('POST', '/kora', response);
      return { status: response.status, body: body === '' ? null : body };
    };
  });
  afterAll(() => emulator.close());

  const blockhash = async () => (await call('getBlockhash')).body.result.blockhash as string;

  it('answers getConfig, getPayerSigner, getSupportedTokens, getBlockhash and liveness as Kora does', async () => {
    const config = (await call('getConfig')).body.result;
    expect(config.fee_payers).toEqual([FEE_PAYER.toBase58()]);
    expect(config.validation_config).toMatchObject({ max_signatures: 10, price: { type: 'free' }, price_source: 'Mock', allow_durable_transactions: false });
    expect(config.validation_config.fee_payer_policy.system).toMatchObject({ allow_transfer: false, nonce: { allow_advance: false } });
    expect(config.enabled_methods).toMatchObject({ sign_transaction: true, get_config: true, liveness: true });
    expect((await call('getPayerSigner')).body.result).toEqual({ signer_address: FEE_PAYER.toBase58(), payment_address: FEE_PAYER.toBase58() });
    expect((await call('getSupportedTokens')).body.result.tokens).toContain(USDC.toBase58());
    expect(await blockhash()).toMatch(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/);
    const liveness = await fetch(new URL('/liveness', emulator.config.koraUrl));
    expect(await assertFetchResponseMatchesSpec('GET', '/liveness', liveness)).toMatchObject({ jsonrpc: '2.0', result: null });
  });

  it('answers the methods without params whatever params are sent (`[]` too), and reads an array by position for the others (issue 53 item 16)', async () => {
    for (const params of [[], {}, null, 'anything', [1, 2]]) {
      expect((await call('getPayerSigner', params)).body.result).toEqual({ signer_address: FEE_PAYER.toBase58(), payment_address: FEE_PAYER.toBase58() });
      expect((await call('getConfig', params)).body.result.fee_payers).toEqual([FEE_PAYER.toBase58()]);
      expect((await call('getSupportedTokens', params)).body.result.tokens).toContain(USDC.toBase58());
      expect((await call('getBlockhash', params)).body.result.blockhash).toMatch(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/);
      expect((await call('liveness', params)).body.result).toBe(null);
    }
    // signTransaction's fields in Kora's order: transaction, signer_key, sig_verify.
    const transaction = build({
      instructions: [transferInstruction(ALICE, BOB.publicKey, 1n)],
      blockhash: await blockhash(),
      signers: [ALICE],
    });
    const byPosition = (await call('signTransaction', [transaction, FEE_PAYER.toBase58(), false])).body.result;
    expect(byPosition.signer_pubkey).toBe(FEE_PAYER.toBase58());
    expect((await call('signTransaction', [transaction])).body.result.signer_pubkey).toBe(FEE_PAYER.toBase58());
    for (const params of [[transaction, null, false, 'one too many'], 'a string', 7]) {
      expect((await call('signTransaction', params)).body.error).toEqual({ code: -32602, message: 'Invalid params' });
    }
  });

  it('refuses a method Kora 2.0.5 does not register, and a body that is not JSON, with 405 and no body; JSON not sent as JSON with 415', async () => {
    expect(await call('getVersion')).toEqual({ status: 405, body: null });
    const garbage = await fetch(emulator.config.koraUrl, { method: 'POST', body: '{not json' });
    expect([garbage.status, await garbage.text()]).toEqual([405, '']);
    // JSON for an enabled method, sent as text/plain (fetch's default for a string body): jsonrpsee's 415.
    const plain = await fetch(emulator.config.koraUrl, { method: 'POST', body: JSON.stringify({ id: 1, jsonrpc: '2.0', method: 'getConfig' }) });
    expect(plain.status).toBe(415);
    expect(await assertFetchResponseMatchesSpec('POST', '/kora', plain)).toBe(
      'Supplied content type is not allowed. Content-Type: application/json is required\n',
    );
    const charset = await fetch(emulator.config.koraUrl, {
      method: 'POST',
      headers: { 'Content-Type': 'Application/JSON; charset=UTF-8' },
      body: JSON.stringify({ id: 1, jsonrpc: '2.0', method: 'getConfig' }),
    });
    expect(charset.status).toBe(200);
  });

  it('judges the JSON-RPC id by the RPC’s rule: a string, a number or null is echoed; an object, an array or a boolean is -32600 with id null', async () => {
    // Issue 45, item 10: Kora echoed any id (an object, an array, true) while /rpc answered -32600.
    const send = async (id: unknown) => {
      const response = await fetch(emulator.config.koraUrl, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ id, jsonrpc: '2.0', method: 'getBlockhash' }),
      });
      return assertFetchResponseMatchesSpec('POST', '/kora', response) as Promise<any>;
    };
    for (const id of ['abc', 7, 1.5, null]) expect((await send(id)).id).toEqual(id);
    for (const id of [{ a: 1 }, [1], true]) {
      expect(await send(id)).toEqual({ jsonrpc: '2.0', error: { code: -32600, message: 'Invalid request' }, id: null });
      const rpc = await fetch(emulator.config.rpcUrl, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ id, jsonrpc: '2.0', method: 'getLatestBlockhash' }),
      });
      expect(await rpc.json()).toEqual({ jsonrpc: '2.0', error: { code: -32600, message: 'Invalid request' }, id: null });
    }
    const journal = emulator
      .requestJournal()
      .filter((entry) => entry.operationId === 'koraJsonRpc')
      .at(-1);
    expect(journal?.problem).toMatchObject({ code: 'InvalidRequest' });
  });

  it('signs a token transfer in the fee payer’s place (signTransaction), and sends one (signAndSendTransaction) through the relay queue', async () => {
    const transaction = build({ instructions: [transferInstruction(ALICE, BOB.publicKey, 1_000n)], blockhash: await blockhash(), signers: [ALICE] });
    const signed = (await call('signTransaction', { transaction })).body.result;
    expect(signed.signer_pubkey).toBe(FEE_PAYER.toBase58());
    const tx = VersionedTransaction.deserialize(Buffer.from(signed.signed_transaction, 'base64'));
    expect(tx.signatures[0]!.some((byte) => byte !== 0)).toBe(true);

    const feePayerBefore = (await emulator.getAccount(FEE_PAYER))!.lamports;
    const sent = (await call('signAndSendTransaction', { transaction })).body.result;
    expect(sent.signature).toMatch(/^[1-9A-HJ-NP-Za-km-z]{64,88}$/);
    await emulator.settle();
    expect(emulator.services.submissions.get(sent.signature)).toMatchObject({ origin: 'kora', status: 'processed' });
    expect((await emulator.getAccount(FEE_PAYER))!.lamports).toBe(feePayerBefore - 10_000n);
    expect(Buffer.from((await emulator.getAccount(ata(BOB.publicKey)))!.data).readBigUInt64LE(64)).toBe(1_000n);
  });

  it('refuses what Kora refuses, in its words, and the fee payer pays nothing', async () => {
    const feePayerBefore = (await emulator.getAccount(FEE_PAYER))!.lamports;
    const hash = await blockhash();
    const drain = build({
      instructions: [SystemProgram.transfer({ fromPubkey: FEE_PAYER, toPubkey: BOB.publicKey, lamports: 1_000_000 })],
      blockhash: hash,
      signers: [],
    });
    expect((await call('signAndSendTransaction', { transaction: drain })).body.error).toEqual({
      code: -32000,
      message: "Invalid transaction: Fee payer cannot be used for 'System Transfer'",
    });
    const tooMuch = build({
      instructions: [SystemProgram.transfer({ fromPubkey: FEE_PAYER, toPubkey: BOB.publicKey, lamports: 2_000_000_000 })],
      blockhash: hash,
      signers: [],
    });
    expect((await call('signTransaction', { transaction: tooMuch })).body.error.message).toBe(
      'Invalid transaction: Total transfer amount 2000000000 exceeds maximum allowed 1000000000',
    );
    expect((await call('signTransaction', { transaction: 'not base64!' })).body.error.message).toMatch(
      /^Invalid transaction: Failed to decode base64 transaction/,
    );
    await emulator.settle();
    expect((await emulator.getAccount(FEE_PAYER))!.lamports).toBe(feePayerBefore);
  });

  it('reads a kora.toml: auth with an API key and an HMAC, refusing wrong ones with 401 and no body', async () => {
    const file = koraToml({ kora: ['[kora.auth]', 'api_key = "test-api-key-123"', 'hmac_secret = "test-hmac-secret-456"'], programs: [SYSTEM_PROGRAM] });
    const guarded = await createRelayEmulator({ kora: { config: file } });
    try {
      const url = guarded.config.koraUrl;
      const body = JSON.stringify({ id: 1, jsonrpc: '2.0', method: 'getConfig' });
      const post = (headers: Record<string, string>) => fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body });
      const timestamp = String(Math.floor(Date.now() / 1000));
      const signature = createHmac('sha256', 'test-hmac-secret-456')
        .update(timestamp + body)
        .digest('hex');
      const good = await post({ 'x-api-key': 'test-api-key-123', 'x-timestamp': timestamp, 'x-hmac-signature': signature });
      expect(((await good.json()) as any).result.validation_config.max_allowed_lamports).toBe(1_000_000);
      const refusals: Record<string, string>[] = [
        {},
        { 'x-api-key': 'WRONG-API-KEY', 'x-timestamp': timestamp, 'x-hmac-signature': signature },
        { 'x-api-key': 'test-api-key-123', 'x-timestamp': timestamp, 'x-hmac-signature': 'f'.repeat(64) },
        { 'x-api-key': 'test-api-key-123', 'x-timestamp': String(Number(timestamp) - 301), 'x-hmac-signature': signature },
      ];
      for (const headers of refusals) {
        const refused = await post(headers);
        expect([refused.status, await refused.text()]).toEqual([401, '']);
      }
    } finally {
      await guarded.close();
    }
    writeFileSync(file, '[kora]\nrate_limit = 1\n[validation]\nmax_allowed_lamports = 1\nmax_signatures = 1\nprice_source = "Jupiter"\n');
    await expect(createRelayEmulator({ kora: { config: file } })).rejects.toThrow(/validation\.price_source cannot be honoured/);
  });

  it('builds a transfer (transferTransaction) and estimates a fee under the free price (estimateTransactionFee)', async () => {
    const built = (
      await call('transferTransaction', { amount: 250, token: USDC.toBase58(), source: ALICE.publicKey.toBase58(), destination: BOB.publicKey.toBase58() })
    ).body.result;
    expect(built.signer_pubkey).toBe(FEE_PAYER.toBase58());
    const tx = VersionedTransaction.deserialize(Buffer.from(built.transaction, 'base64'));
    expect(tx.message.recentBlockhash).toBe(built.blockhash);
    expect(tx.message.staticAccountKeys[0]!.equals(FEE_PAYER)).toBe(true);
    expect(Buffer.from(tx.message.serialize()).toString('base64')).toBe(built.message);
    tx.sign([ALICE]);
    const sent = await emulator.fetch(
      new Request(emulator.config.rpcUrl, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'sendTransaction',
          params: [Buffer.from(tx.serialize()).toString('base64'), { encoding: 'base64' }],
        }),
      }),
    );
    expect(((await sent.json()) as { result?: string }).result).toMatch(/^[1-9A-HJ-NP-Za-km-z]{64,88}$/);
    const transaction = build({ instructions: [transferInstruction(ALICE, BOB.publicKey, 1n)], blockhash: await blockhash(), signers: [ALICE] });
    expect((await call('estimateTransactionFee', { transaction, fee_token: USDC.toBase58() })).body.result).toEqual({
      fee_in_lamports: 0,
      fee_in_token: 0,
      signer_pubkey: FEE_PAYER.toBase58(),
      payment_address: FEE_PAYER.toBase58(),
    });
  });

  it('answers in process through MSW at a koraUrl of the app’s choosing, and lists its relays as origin kora', async () => {
    const harness = await startHarness({ koraUrl: 'https://kora.example.test/rpc' });
    try {
      const response = await fetch('https://kora.example.test/rpc', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ id: 1, jsonrpc: '2.0', method: 'getPayerSigner' }),
      });
      expect(((await response.json()) as any).result.signer_address).toBe(FEE_PAYER.toBase58());
      const transaction = build({
        instructions: [transferInstruction(ALICE, ALICE.publicKey, 1n)],
        blockhash: (await harness.emulator.services.ledger.latestBlockhash()).blockhash,
        signers: [ALICE],
      });
      const sent = await fetch('https://kora.example.test/rpc', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ id: 1, jsonrpc: '2.0', method: 'signAndSendTransaction', params: { transaction } }),
      });
      const { signature } = ((await sent.json()) as any).result;
      // In process the Kora handler reads the body itself; the request journal still shows what was asked.
      const journaled = harness.emulator.requestJournal().filter((entry) => entry.operationId === 'koraJsonRpc');
      expect(journaled.map((entry) => (entry.requestBody as { method: string }).method)).toEqual(['getPayerSigner', 'signAndSendTransaction']);
      const relays = await harness.emulator.fetch(new Request(`${new URL(harness.emulator.config.baseUrl).origin}/__emulator/relays`));
      expect(((await relays.json()) as any).relays).toContainEqual(expect.objectContaining({ id: signature, operation: 'kora' }));
    } finally {
      await harness.close();
    }
  });

  it('serves Kora at the root of a second port (--kora-port), where the SDK looks by default, and the Solana RPC stays at POST / of the main one', async () => {
    const server = await startServer({ port: 0, koraPort: 0 });
    try {
      expect(server.emulator.config.koraUrl).toBe(`${server.koraOrigin}/`);
      const body = JSON.stringify({ id: 1, jsonrpc: '2.0', method: 'getPayerSigner' });
      const kora = await fetch(`${server.koraOrigin}/`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body });
      expect(((await kora.json()) as any).result.signer_address).toBe(FEE_PAYER.toBase58());
      const liveness = await fetch(`${server.koraOrigin}/liveness`);
      expect(((await liveness.json()) as any).result).toBeNull();
      const solana = await fetch(`${server.origin}/`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ id: 1, jsonrpc: '2.0', method: 'getHealth' }),
      });
      expect(((await solana.json()) as any).result).toBe('ok');
    } finally {
      await server.close();
    }
  });

  it('answers as Kora at the root of --kora-port whatever the Host: localhost (the SDK default) and a LAN name of a 0.0.0.0 bind', async () => {
    // Issue 45, item 9: only Host 127.0.0.1 reached Kora; localhost reached the Solana RPC (-32601), and a LAN name its Token check.
    const post = (port: number, host: string, method: string) =>
      new Promise<{ status: number; body: any }>((resolve, reject) => {
        const body = JSON.stringify({ id: 1, jsonrpc: '2.0', method });
        const outgoing = httpRequest(
          { host: '127.0.0.1', port, path: '/', method: 'POST', headers: { Host: `${host}:${port}`, 'Content-Type': 'application/json' } },
          (response) => {
            let text = '';
            response.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
            response.on('end', () => resolve({ status: response.statusCode!, body: JSON.parse(text) }));
          },
        );
        outgoing.on('error', reject);
        outgoing.end(body);
      });
    for (const bind of ['127.0.0.1', '0.0.0.0']) {
      const server = await startServer({ host: bind, port: 0, koraPort: 0 });
      try {
        const koraPort = Number(new URL(server.koraOrigin!).port);
        for (const host of ['127.0.0.1', 'localhost', ...(bind === '0.0.0.0' ? ['192.168.1.20', 'devbox.lan'] : [])]) {
          const kora = await post(koraPort, host, 'getPayerSigner');
          expect(kora, `${bind} ${host}`).toMatchObject({ status: 200, body: { result: { signer_address: FEE_PAYER.toBase58() } } });
        }
        // The main port's root stays the Solana RPC, whatever the Host (through a 0.0.0.0 bind, it asks for the Token).
        const solana = await post(server.port, 'localhost', 'getHealth');
        if (bind === '127.0.0.1') expect(solana.body.result).toBe('ok');
        else expect(JSON.stringify(solana.body)).toMatch(/Token/);
      } finally {
        await server.close();
      }
    }
  });
});
