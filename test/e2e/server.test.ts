import { TOKEN_PROGRAM_ID } from '@solana/spl-token';
import { Connection, PublicKey } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultEngineName } from '../../src/domain/ledger/engines.ts';
import { startCli, type CliProcess } from '../support/cli-process.ts';
import { assertFetchResponseMatchesSpec } from '../support/openapi.ts';
import { ALICE, ata, build, createAtaInstructions, FEE_PAYER, KIN, transferInstruction, USDC } from '../support/transactions.ts';
import { newKeypair } from '../support/keys.ts';

// The emulator as CI and non-JS clients run it: `relay-emulator start` in a child process, driven
// over real HTTP with fetch and a web3.js Connection. Every response is checked against the spec.
describe('relay-emulator start (server mode)', () => {
  let cli: CliProcess;
  // A PubSub subscription left open: shutting down must not wait for its client.
  let openSubscription: (() => Promise<void>) | null = null;
  beforeAll(async () => {
    cli = await startCli(['--log-level', 'info']);
  }, 90_000);
  afterAll(async () => {
    const code = await cli?.stop('SIGTERM');
    await openSubscription?.().catch(() => undefined);
    expect(code).toBe(0);
  });

  async function call(method: string, path: string, options: { body?: unknown; headers?: Record<string, string>; api?: boolean } = {}) {
    const headers: Record<string, string> = { ...(options.api ? { 'X-API-Key': cli.apiKey } : {}), ...options.headers };
    if (options.body !== undefined) headers['Content-Type'] = 'application/json';
    const url = `${options.api ? cli.baseUrl : cli.origin}${path}`;
    const response = await fetch(url, { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) });
    const body = (await assertFetchResponseMatchesSpec(method, path.split('?')[0]!, response)) as any;
    return { status: response.status, body, headers: response.headers };
  }
  const blockhash = async () => (await call('GET', '/Transaction/blockhash', { api: true })).body.Blockhash as string;
  const relay = async (path: string, signedTransaction: string) => call('POST', path, { api: true, body: { signedTransaction } });

  it('prints a banner with the base URL, RPC URL, fee payer, API key and docs URL', () => {
    expect(cli.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api$/);
    expect(cli.rpcUrl).toBe(`${cli.origin}/rpc`);
    expect(cli.apiKey).toBe('relay-emulator-dev-key');
    expect(cli.output()).toContain(`Fee payer  ${FEE_PAYER.toBase58()}`);
    expect(cli.output()).toContain(`Docs       ${cli.origin}/docs`);
    expect(cli.output()).toContain(`Web UI     ${cli.origin}/`);
    // The child inherits RELAY_EMULATOR_ENGINE, the --engine flag's twin.
    expect(cli.output()).toContain(`Engine     ${defaultEngineName()}`);
    expect(cli.output()).toContain('(open: loopback bind)');
    expect(cli.adminToken).toBeNull();
  });

  it('serves the web UI at / with its files, from the command as installed', async () => {
    const page = await fetch(`${cli.origin}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await page.text()).toContain('<script type="module" src="ui/app.js"></script>');
    const script = await fetch(`${cli.origin}/ui/app.js`);
    expect(script.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(await script.text()).toContain("from './live.js'");
  });

  it('serves /health, /openapi.yaml and /docs with its own Redoc bundle', async () => {
    expect((await call('GET', '/health')).body).toMatchObject({ status: 'ok', engine: defaultEngineName() });
    expect((await call('GET', '/openapi.yaml')).body).toContain('openapi: 3.1.0');
    const docs = await call('GET', '/docs');
    expect(docs.headers.get('content-type')).toMatch(/^text\/html/);
    const script = await fetch(new URL('docs/redoc.standalone.js', `${cli.origin}/docs`));
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(await script.text()).toContain('Redoc');
  });

  it('answers CORS preflights with X-API-Key and Authorization allowed, and exposes Retry-After', async () => {
    const preflight = await fetch(`${cli.baseUrl}/Account/create`, {
      method: 'OPTIONS',
      headers: {
        Origin: 'http://localhost:5173',
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'content-type,x-api-key,authorization',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    const allowed = preflight.headers.get('access-control-allow-headers')!.toLowerCase().split(/,\s*/);
    expect(allowed).toEqual(expect.arrayContaining(['x-api-key', 'authorization', 'content-type']));
    const config = await call('GET', '/Transaction/config', { api: true, headers: { Origin: 'http://localhost:5173' } });
    expect(config.headers.get('access-control-allow-origin')).toBe('*');
    expect(config.headers.get('access-control-expose-headers')).toContain('Retry-After');
  });

  it('logs one line per request (method, path, status, ms) and journals the client address', async () => {
    await call('GET', '/health', { headers: { 'X-Forwarded-For': '203.0.113.9' } });
    await cli.waitForOutput(/^GET \/health 200 \d+\.\dms$/m);
    expect(cli.output()).toMatch(/^OPTIONS \/api\/Account\/create 204 \d+\.\dms$/m);
    const { requests } = (await call('GET', '/__emulator/journal/requests?path=/health&limit=1')).body;
    // The server sets X-Forwarded-For from the socket; what a client claims is not believed.
    expect(requests[0].clientIp).toBe('127.0.0.1');
  });

  it('drives the controls over HTTP: mint, faucet, accounts, clock, blockhash, queue, faults, journals, reset', async () => {
    const owner = newKeypair();
    const { mint } = (await call('POST', '/__emulator/mints', { body: { decimals: 3, symbol: 'GEM' } })).body;
    const funded = (await call('POST', '/__emulator/faucet', { body: { address: owner.publicKey.toBase58(), lamports: 2_000_000, mint, amount: '9000' } }))
      .body;
    expect(funded).toMatchObject({ lamports: '2000000', tokenAmount: '9000' });
    expect((await call('GET', `/__emulator/accounts/${funded.tokenAccount}`)).body.owner).toBe(TOKEN_PROGRAM_ID.toBase58());
    const slot = (await call('GET', '/__emulator/clock')).body.slot;
    expect((await call('POST', '/__emulator/clock', { body: { warpSlots: 10 } })).body.slot).toBe(slot + 10);

    const someone = newKeypair();
    const stale = build({ instructions: createAtaInstructions(someone.publicKey), blockhash: await blockhash(), signers: [someone] });
    await call('POST', '/__emulator/blockhash/expire');
    expect((await relay('/Account/create', stale)).body.code).toBe('BLOCKHASH_NOT_FOUND');

    // Queue: a paused relay is acknowledged, then stepped onto the ledger.
    await call('POST', '/__emulator/queue/pause');
    const receiver = newKeypair();
    const receipt = await relay(
      '/Account/create',
      build({ instructions: createAtaInstructions(receiver.publicKey), blockhash: await blockhash(), signers: [receiver] }),
    );
    expect((await call('GET', '/__emulator/queue')).body.pending).toBe(1);
    expect((await call('POST', '/__emulator/queue/step')).body.processed).toEqual([receipt.body.signature]);
    await call('POST', '/__emulator/queue/resume');

    // Faults: a problem, then a failed submission, both seen in the journals.
    await call('POST', '/__emulator/faults', { body: { operation: 'send', kind: 'problem', code: 'QUEUE_FULL' } });
    const transfer = async (amount: bigint) =>
      build({ instructions: [transferInstruction(ALICE, receiver.publicKey, amount)], blockhash: await blockhash(), signers: [ALICE] });
    const refused = await relay('/Transaction/send', await transfer(5n));
    expect(refused).toMatchObject({ status: 503, body: { code: 'QUEUE_FULL' } });
    expect(refused.headers.get('retry-after')).toBe('1');
    await call('POST', '/__emulator/faults', { body: { operation: 'any', kind: 'ledger', ledgerError: 'node is behind' } });
    const failed = await relay('/Transaction/send', await transfer(6n));
    await expect
      .poll(async () => (await call('GET', `/__emulator/journal/transactions?signature=${failed.body.signature}`)).body.transactions[0]?.status)
      .toBe('failed');
    const landed = await relay('/Transaction/send', await transfer(7n));
    await expect
      .poll(async () =>
        (await call('GET', `/__emulator/journal/transactions?status=processed&operation=send`)).body.transactions.map((entry: any) => entry.signature),
      )
      .toEqual([landed.body.signature]);
    expect((await call('GET', '/__emulator/journal/requests?status=503')).body.requests).toHaveLength(1);

    await call('POST', '/__emulator/reset');
    expect((await call('GET', `/__emulator/accounts/${mint}`)).status).toBe(404);
    expect((await call('GET', '/__emulator/journal/transactions')).body.transactions).toEqual([]);
  });

  it('builds the legacy explorer links from the port it really serves on, to its own web UI', async () => {
    // `--port 0`: the port is only known once bound, and the explorer must name it, not 8787.
    expect(cli.origin).not.toContain(':8787');
    const config = (await call('GET', '/api/app/devnet/1/config')).body;
    expect(config.environment.explorer).toBe(`${cli.origin}/{path}`);
    const { blockhash, lastValidBlockHeight } = (await call('GET', '/api/transaction/latest-blockhash/devnet/1')).body;
    const tx = build({
      instructions: [transferInstruction(ALICE, ALICE.publicKey, 1n, { checked: true, mint: KIN, decimals: 5 })],
      blockhash,
      signers: [ALICE],
    });
    const record = (
      await call('POST', '/api/transaction/make-transfer', {
        body: { commitment: 'Confirmed', environment: 'devnet', index: 1, lastValidBlockHeight, mint: KIN.toBase58(), reference: null, tx },
      })
    ).body;
    expect(record.status).toBe('Confirmed');
    expect(record.explorerUrl).toBe(`${cli.origin}/tx/${record.signature}`);
    // Kinetic's SDKs fill {path} with tx/…, account/… or address/…: each leads to the web UI.
    for (const url of [
      record.explorerUrl,
      config.environment.explorer.replace('{path}', `account/${ALICE.publicKey.toBase58()}`),
      config.environment.explorer.replace('{path}', `address/${ALICE.publicKey.toBase58()}`),
    ]) {
      const page = await fetch(url);
      expect([page.status, page.headers.get('content-type')], url).toEqual([200, 'text/html; charset=utf-8']);
    }
  });

  it('serves the JSON-RPC to an unmodified web3.js Connection, PubSub included', async () => {
    const config = (await call('GET', '/Transaction/config', { api: true })).body;
    const connection = new Connection(config.RpcUrl, {
      commitment: 'confirmed',
      httpHeaders: { Authorization: `Bearer ${config.Token}` },
      wsEndpoint: `${config.RpcUrl.replace(/^http/, 'ws')}?token=${config.Token}`,
    });
    expect(await connection.getBalance(new PublicKey(config.FeePayer))).toBeGreaterThan(0);
    const owner = newKeypair();
    await call('POST', '/__emulator/faucet', { body: { address: owner.publicKey.toBase58(), lamports: 1_000_000_000 } });
    expect(await connection.getBalance(owner.publicKey)).toBe(1_000_000_000);

    // A relayed transfer, built on the Connection's blockhash and confirmed over PubSub.
    const latest = await connection.getLatestBlockhash();
    const tx = build({
      instructions: [...createAtaInstructions(owner.publicKey), transferInstruction(ALICE, owner.publicKey, 123n)],
      blockhash: latest.blockhash,
      signers: [ALICE, owner],
    });
    const { signature } = (await relay('/Transaction/send', tx)).body;
    const confirmation = await connection.confirmTransaction({ signature, ...latest }, 'confirmed');
    expect(confirmation.value.err).toBeNull();
    expect((await connection.getTokenAccountBalance(ata(owner.publicKey))).value.amount).toBe('123');
    expect((await connection.getSignaturesForAddress(owner.publicKey)).map((entry) => entry.signature)).toEqual([signature]);
    const fetched = await connection.getTransaction(signature, { maxSupportedTransactionVersion: 0 });
    expect(fetched?.meta?.fee).toBe(15_000); // three signatures: fee payer, Alice, the owner
    const parsed = (await connection.getParsedAccountInfo(ata(owner.publicKey))).value?.data as { parsed: { info: { mint: string } } };
    expect(parsed.parsed.info.mint).toBe(USDC.toBase58());
    // A live subscription (its first notification arrived), left open for the shutdown.
    let id = 0;
    const notified = new Promise<number>((resolve) => {
      id = connection.onAccountChange(owner.publicKey, (account) => resolve(account.lamports), { commitment: 'confirmed' });
    });
    openSubscription = () => connection.removeAccountChangeListener(id);
    await expect
      .poll(async () => {
        await call('POST', '/__emulator/faucet', { body: { address: owner.publicKey.toBase58(), lamports: 1 } });
        return Promise.race([notified, new Promise((resolve) => setTimeout(resolve, 200, null))]);
      })
      .toBeGreaterThan(1_000_000_000);
  });
});
