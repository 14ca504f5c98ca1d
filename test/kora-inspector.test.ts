import { SystemProgram } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRelayEmulator, type RelayEmulator } from '../src/index.ts';
import { type KoraAnswer, koraCaller, koraToml } from './support/kora.ts';
import { assertFetchResponseMatchesSpec } from './support/openapi.ts';
import { ALICE, BOB, build, FEE_PAYER, transferInstruction, USDC } from './support/transactions.ts';

// Kora's requests beside the relay's (issue 27): its refusals in the request journal and the web
// UI's relay list with the kora.toml key that refused them, and what it sends with its sponsor
// exposure (the fee payer's outflow beyond the fee), as the relay's are.
describe('Kora in the journals and the web UI', () => {
  let emulator: RelayEmulator;
  let call: (method: string, params?: unknown, headers?: Record<string, string>) => Promise<KoraAnswer>;

  beforeAll(async () => {
    const config = koraToml({ kora: ['[kora.auth]', 'api_key = "key"'], tables: ['[validation.fee_payer_policy.system]', 'allow_transfer = true'] });
    emulator = await createRelayEmulator({ kora: { config } });
    await emulator.faucet({ address: BOB.publicKey.toBase58(), mint: USDC.toBase58(), amount: 0 });
    const caller = koraCaller(emulator.config.koraUrl);
    call = (method, params, headers = { 'x-api-key': 'key' }) => caller(method, params, headers);
  });
  afterAll(() => emulator.close());

  const relays = async () => {
    const response = await emulator.fetch(new Request(`${emulator.loopbackOrigin}/__emulator/relays?operation=kora`));
    return ((await assertFetchResponseMatchesSpec('GET', '/__emulator/relays', response)) as { relays: any[] }).relays;
  };

  it('lists a refusal with the kora.toml key that refused it, and journals it with Kora’s error kind', async () => {
    const { blockhash } = (await call('getBlockhash')).result;
    const tooMuch = build({
      instructions: [SystemProgram.transfer({ fromPubkey: FEE_PAYER, toPubkey: BOB.publicKey, lamports: 2_000_000 })],
      blockhash,
      signers: [],
    });
    const { error } = await call('signAndSendTransaction', { transaction: tooMuch });
    expect(error?.message).toBe('Invalid transaction: Total transfer amount 2000000 exceeds maximum allowed 1000000');
    const [row] = await relays();
    expect(row).toMatchObject({
      source: 'refused',
      operation: 'kora',
      operationId: 'koraJsonRpc',
      status: 'Refused',
      httpStatus: 200,
      policy: { profile: null, verdict: 'refused', code: null, rule: 'validation.max_allowed_lamports' },
      error: error!.message,
    });
    const journaled = emulator.requestJournal({ path: '/kora' }).at(-1)!;
    expect(journaled.problem).toEqual({ code: 'InvalidTransaction', rule: 'validation.max_allowed_lamports' });
    // The same record over HTTP, held to the contract (its problem field included).
    const served = await emulator.fetch(new Request(`${emulator.loopbackOrigin}/__emulator/journal/requests?path=/kora&limit=1`));
    const { requests } = (await assertFetchResponseMatchesSpec('GET', '/__emulator/journal/requests', served)) as { requests: { problem: unknown }[] };
    expect(requests.map((record) => record.problem)).toEqual([{ code: 'InvalidTransaction', rule: 'validation.max_allowed_lamports' }]);
  });

  it('lists a wrong API key as a refusal by kora.auth', async () => {
    expect(await call('getConfig', undefined, { 'x-api-key': 'wrong' })).toEqual({ status: 401 });
    const [row] = await relays();
    expect(row).toMatchObject({ operation: 'kora', status: 'Refused', httpStatus: 401, policy: { rule: 'kora.auth' } });
  });

  it('lists what it sent as passed, with the fee and the lamports the fee payer gave away as sponsor exposure', async () => {
    const { blockhash } = (await call('getBlockhash')).result;
    const transaction = build({
      instructions: [
        transferInstruction(ALICE, BOB.publicKey, 1n),
        SystemProgram.transfer({ fromPubkey: FEE_PAYER, toPubkey: BOB.publicKey, lamports: 900_000 }),
      ],
      blockhash,
      signers: [ALICE],
    });
    const { result, error } = await call('signAndSendTransaction', { transaction });
    expect(error).toBeUndefined();
    await emulator.settle();
    const [row] = await relays();
    expect(row).toMatchObject({
      source: 'transaction',
      operation: 'kora',
      operationId: 'koraJsonRpc',
      signature: result.signature,
      policy: { profile: null, verdict: 'passed', rule: null },
      fee: 10_000,
      sponsorExposure: 900_000,
    });
    expect(emulator.transactionJournal().find((entry) => entry.signature === result.signature)).toMatchObject({ operation: 'kora', sponsorExposure: 900_000 });
    // The same ledger and history: the current interface's history and the RPC list it for Bob.
    const history = await emulator.fetch(
      new Request(`${emulator.config.baseUrl}/Account/gethistory?WalletAddress=${BOB.publicKey.toBase58()}&PageSize=100`, {
        method: 'POST',
        headers: { 'X-API-Key': emulator.config.apiKey },
      }),
    );
    expect(((await history.json()) as { transactions: { signature: string }[] }).transactions.map((entry) => entry.signature)).toContain(result.signature);
    const rpc = await emulator.fetch(
      new Request(emulator.config.rpcUrl, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'getSignaturesForAddress', params: [BOB.publicKey.toBase58()] }),
      }),
    );
    expect(((await rpc.json()) as { result: { signature: string }[] }).result.map((entry) => entry.signature)).toContain(result.signature);
  });
});
