import { Keypair, SystemProgram } from '@solana/web3.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { uiAssetsRead } from '../src/interfaces/ui/ui-assets.ts';
import { startHarness, type Harness } from './support/harness.ts';
import { assertFetchResponseMatchesSpec } from './support/openapi.ts';
import { ALICE, BOB, build, FEE_PAYER, transferInstruction, USDC } from './support/transactions.ts';

// What the web UI reads, in process through the one core (real ledger, real records and journal),
// each response checked against the contract; the page and its files; the admin guard on all of it.
describe('web UI routes', () => {
  let h: Harness;
  let origin: string;

  beforeAll(async () => {
    h = await startHarness();
    origin = new URL(h.emulator.config.baseUrl).origin;
  });
  afterAll(() => h.close());
  beforeEach(() => h.emulator.admin.requireToken(null));

  /** Through emulator.fetch: MSW mounts the same core, but not the page's paths (they are for browsers on a port). */
  async function get(path: string, headers: Record<string, string> = {}) {
    const response = await h.emulator.fetch(new Request(`${origin}${path}`, { headers }));
    const body = (await assertFetchResponseMatchesSpec('GET', path.split('?')[0]!, response)) as any;
    return { status: response.status, body, headers: response.headers };
  }
  const transfer = async (amount: bigint) =>
    (
      await h.call('POST', '/Transaction/send', {
        body: {
          signedTransaction: build({
            instructions: [transferInstruction(ALICE, BOB.publicKey, amount, { checked: true })],
            blockhash: await h.blockhash(),
            signers: [ALICE],
          }),
        },
      })
    ).body.signature as string;

  it('reads no UI file until the page is first asked for, then serves it with its base and its files', async () => {
    // Other tests of this process may have opened it already; an emulator alone never does.
    const before = uiAssetsRead();
    await h.emulator.reset();
    expect(uiAssetsRead()).toBe(before);
    const page = await get('/');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(page.body).toContain('<base href="./" />');
    expect((await get('/tx/abc')).body).toContain('<base href="../" />');
    expect((await get('/address/abc')).body).toContain('<base href="../" />');
    for (const file of ['app.js', 'style.css', 'icon.svg', 'panel-relays.js']) expect((await get(`/ui/${file}`)).status, file).toBe(200);
    expect(uiAssetsRead()).toBeGreaterThan(0);
    expect((await get('/ui/..%2Fpackage.json')).status).toBe(404);
    expect((await get('/ui/index.html')).status).toBe(404);
    expect((await get('/ui/nothing-here.js')).status).toBe(404);
  });

  it('lists accepted and refused relays newest first, filters them, and details each', async () => {
    await h.emulator.faucet({ address: BOB.publicKey, mint: USDC, amount: 1n });
    const signature = await transfer(1_000n);
    await h.emulator.settle();
    const drain = build({
      instructions: [SystemProgram.transfer({ fromPubkey: FEE_PAYER, toPubkey: BOB.publicKey, lamports: 5 })],
      blockhash: await h.blockhash(),
      signers: [],
    });
    const refused = await h.call('POST', '/Transaction/send', { body: { signedTransaction: drain } });
    expect(refused.body).toMatchObject({ code: 'FEE_PAYER_MISUSE', rule: 'F1' });

    const { body } = await get('/__emulator/relays');
    const rows = body.relays as any[];
    expect(rows.map((row) => row.time)).toEqual([...rows.map((row) => row.time)].sort().reverse());
    const accepted = rows.find((row) => row.id === signature);
    expect(accepted).toMatchObject({ source: 'transaction', operation: 'send', status: 'Finalized', policy: { verdict: 'passed', rule: null }, error: null });
    expect(accepted.fee).toBeGreaterThan(0);
    const refusal = rows.find((row) => row.source === 'refused' && row.policy.code === 'FEE_PAYER_MISUSE');
    expect(refusal).toMatchObject({
      status: 'Refused',
      httpStatus: 422,
      operation: 'send',
      operationId: 'sendTransaction',
      policy: { verdict: 'refused', rule: 'F1' },
    });

    expect((await get('/__emulator/relays?status=Refused')).body.relays.every((row: any) => row.status === 'Refused')).toBe(true);
    expect((await get('/__emulator/relays?operation=send&status=Finalized')).body.relays.map((row: any) => row.id)).toContain(signature);
    expect((await get(`/__emulator/relays?wallet=${BOB.publicKey.toBase58()}`)).body.relays.map((row: any) => row.id)).toEqual(
      expect.arrayContaining([signature, refusal.id]),
    );
    expect((await get(`/__emulator/relays?wallet=${Keypair.generate().publicKey.toBase58()}`)).body.relays).toEqual([]);
    expect((await get(`/__emulator/relays?mint=${USDC.toBase58()}`)).body.relays.map((row: any) => row.id)).toEqual([signature]);
    expect((await get('/__emulator/relays?limit=1')).body.relays).toHaveLength(1);
    expect((await get('/__emulator/relays?status=Lost')).status).toBe(400);
    expect((await get('/__emulator/relays?wallet=not-an-address')).status).toBe(400);

    const detail = (await get(`/__emulator/relays/${signature}`)).body;
    expect(detail.transaction.message.instructions[0]).toMatchObject({ program: 'spl-token', parsed: { type: 'transferChecked' } });
    expect(detail.meta.logMessages.join('\n')).toContain('Program TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA success');
    expect(detail.request).toMatchObject({ method: 'POST', path: '/api/Transaction/send', status: 200 });
    // The transaction journal links each entry to this detail view.
    expect(h.emulator.transactionJournal({ signature })[0]!.explorerUrl).toBe(`${h.emulator.config.uiUrl}tx/${signature}`);
    const refusedDetail = (await get(`/__emulator/relays/${refusal.id}`)).body;
    expect(refusedDetail.problem).toMatchObject({ code: 'FEE_PAYER_MISUSE', rule: 'F1' });
    expect(refusedDetail.transaction.message.instructions[0]).toMatchObject({ program: 'system', parsed: { type: 'transfer' } });
    expect((await get('/__emulator/relays/nothing-by-this-id')).status).toBe(404);
  });

  it('shows a wallet as the API serves it', async () => {
    const { body } = await get(`/__emulator/wallets/${ALICE.publicKey.toBase58()}`);
    const balance = (await h.call('POST', '/Account/balance', { body: { accountAddress: ALICE.publicKey.toBase58() } })).body;
    expect(String(body.lamports)).toBe(balance.sol.amount);
    expect(body.tokens).toEqual(balance.tokens);
    const history = (await h.call('POST', `/Account/gethistory?WalletAddress=${ALICE.publicKey.toBase58()}&PageNumber=1&PageSize=50`)).body.transactions;
    // As Account/gethistory lists them, each with its error in words beside (null: it succeeded).
    expect(body.history.map(({ errorText: _text, ...entry }: { errorText: unknown }) => entry)).toEqual(history);
    for (const entry of body.history) expect(entry.errorText).toBe(entry.err === null ? null : expect.any(String));
    expect((await get('/__emulator/wallets/xyz')).status).toBe(400);
  });

  it('keeps the overview, relays, details, wallets and events behind the admin guard', async () => {
    h.emulator.admin.requireToken('secret');
    for (const path of [
      '/__emulator/overview',
      '/__emulator/relays',
      '/__emulator/relays/x',
      `/__emulator/wallets/${ALICE.publicKey.toBase58()}`,
      '/__emulator/events',
    ]) {
      expect((await get(path)).body.code, path).toBe('ADMIN_TOKEN_REQUIRED');
      expect((await get(path, { 'X-Admin-Token': 'wrong' })).body.code, path).toBe('ADMIN_FORBIDDEN');
    }
    expect((await get('/__emulator/overview', { 'X-Admin-Token': 'secret' })).status).toBe(200);
    // The page itself holds nothing and stays open, like /docs.
    expect((await get('/')).status).toBe(200);
  });

  it('streams a hello, then one change event for a burst of relays', async () => {
    const response = await h.emulator.fetch(new Request(`${origin}/__emulator/events`));
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    const next = async () => (await reader.read()).value ?? '';
    expect(await next()).toMatch(/^retry: \d+\nevent: hello\ndata: \{"at":"[^"]+"\}\n\n$/);
    await Promise.all([transfer(2n), transfer(3n)]);
    expect(await next()).toMatch(/^event: change\ndata: \{"at":"[^"]+"\}\n\n$/);
    await reader.cancel();
  });
});
