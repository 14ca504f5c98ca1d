/**
 * The web UI explains what happened (issue 25.11-25.13), as its routes serve it: refused requests of
 * every route are listed, a ledger failure is named (instruction, program, error) with the raw error
 * beside it, a legacy relay names its route. Real ledger, in process through the one core.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './support/harness.ts';
import { assertFetchResponseMatchesSpec } from './support/openapi.ts';
import { legacyTransfer } from './support/legacy-transactions.ts';
import { ALICE, build, transferInstruction } from './support/transactions.ts';

describe('the web UI explains what happened', () => {
  let h: Harness;
  let origin: string;
  beforeAll(async () => {
    h = await startHarness({ skipPreflight: true });
    origin = new URL(h.emulator.config.baseUrl).origin;
  });
  afterAll(() => h.close());

  async function relays(query = '') {
    const response = await h.emulator.fetch(new Request(`${origin}/__emulator/relays${query}`));
    return ((await assertFetchResponseMatchesSpec('GET', '/__emulator/relays', response)) as { relays: any[] }).relays;
  }

  it('lists a refused request of any route: a config read with a wrong key, an unknown path', async () => {
    const refused = await h.emulator.fetch(new Request(`${h.emulator.config.baseUrl}/Transaction/config`, { headers: { 'X-API-Key': 'wrong' } }));
    expect(refused.status).toBe(401);
    await h.emulator.fetch(new Request(`${h.emulator.config.baseUrl}/No/such/route`));
    const rows = await relays('?operation=request');
    expect(rows.find((row) => row.operationId === 'getConfig')).toMatchObject({
      source: 'refused',
      status: 'Refused',
      httpStatus: 401,
      operation: 'request',
      error: expect.stringMatching(/API key/i),
      policy: { profile: null, verdict: 'refused', code: 'API_KEY_INVALID' },
    });
    expect(rows.find((row) => row.operationId === null && row.httpStatus === 404)).toMatchObject({ operation: 'request', status: 'Refused' });
    // Its detail page has the request and the problem.
    const id = rows.find((row) => row.operationId === 'getConfig').id;
    const detail = await h.emulator.fetch(new Request(`${origin}/__emulator/relays/${id}`));
    expect(await detail.json()).toMatchObject({ row: { id }, problem: { code: 'API_KEY_INVALID' }, request: { method: 'GET', status: 401 } });
  });

  it('names a ledger failure by its instruction, program and error, with the raw error beside it, in the list and the wallet history', async () => {
    // More than alice holds: SPL Token's InsufficientFunds (custom error 1) on the ledger (preflight skipped, so it lands and fails).
    const signature = (
      await h.call('POST', '/Transaction/send', {
        body: {
          signedTransaction: build({
            instructions: [transferInstruction(ALICE, ALICE.publicKey, 10n ** 15n, { checked: true })],
            blockhash: await h.blockhash(),
            signers: [ALICE],
          }),
        },
      })
    ).body.signature as string;
    await h.emulator.settle();
    const row = (await relays()).find((candidate) => candidate.id === signature);
    expect(row).toMatchObject({
      status: 'Failed',
      error: 'instruction 1 (spl-token transferChecked): InsufficientFunds',
      errorRaw: { InstructionError: [0, { Custom: 1 }] },
    });
    const wallet = await h.emulator.fetch(new Request(`${origin}/__emulator/wallets/${ALICE.publicKey.toBase58()}`));
    const entry = ((await assertFetchResponseMatchesSpec('GET', '/__emulator/wallets/{address}', wallet)) as { history: any[] }).history.find(
      (e) => e.signature === signature,
    );
    expect(entry).toMatchObject({ err: { InstructionError: [0, { Custom: 1 }] }, errorText: 'instruction 1 (spl-token transferChecked): InsufficientFunds' });
  });

  it('names the legacy route a legacy relay came through', async () => {
    const { blockhash, lastValidBlockHeight } = (await h.call('GET', '/transaction/latest-blockhash/devnet/1', { anonymous: true })).body;
    const tx = legacyTransfer({ blockhash, memoIndex: 1, transfers: [{ from: ALICE, to: ALICE.publicKey, amount: 1n }] });
    const made = await h.call('POST', '/transaction/make-transfer', {
      anonymous: true,
      body: { commitment: 'Confirmed', environment: 'devnet', index: 1, mint: 'kinXdEcpDQeHPEuQnqmUgtYykqKGVFq6CeVX5iAHJq6', lastValidBlockHeight, tx },
    });
    expect(made.status).toBe(201);
    const row = (await relays('?operation=legacy')).find((candidate) => candidate.legacyId === made.body.id);
    expect(row).toMatchObject({ operation: 'legacy', operationId: 'legacyMakeTransfer', errorRaw: null });
    // Its Kin app memo, decoded (the 32-byte memo the legacy SDK sends, as base64 text).
    const detail = await h.emulator.fetch(new Request(`${origin}/__emulator/relays/${row.id}`));
    const body = (await assertFetchResponseMatchesSpec('GET', '/__emulator/relays/{id}', detail)) as { appMemos: unknown[] };
    expect(body.appMemos).toEqual([{ instruction: 1, appIndex: 1, type: 0, typeName: 'none', version: 1, foreignKey: '0'.repeat(58) }]);
  });

  it('names the programs, the fixture mints and keys in the overview the page reads', async () => {
    const response = await h.emulator.fetch(new Request(`${origin}/__emulator/overview`));
    const { names } = (await assertFetchResponseMatchesSpec('GET', '/__emulator/overview', response)) as { names: Record<string, string> };
    expect(names).toMatchObject({
      TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA: 'SPL Token',
      '11111111111111111111111111111111': 'System Program',
      kinXdEcpDQeHPEuQnqmUgtYykqKGVFq6CeVX5iAHJq6: 'KIN',
      [ALICE.publicKey.toBase58()]: 'alice',
      [h.emulator.config.feePayer]: 'fee payer',
    });
  });
});
