import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRelayEmulator, type RelayEmulator } from '../src/index.ts';
import { decodeTokenAccount } from '../src/domain/ledger/token-accounts.ts';
import { assertFetchResponseMatchesSpec } from './support/openapi.ts';
import { ata, USDC } from './support/transactions.ts';
import { newKeypair } from './support/keys.ts';

let emulator: RelayEmulator;
beforeAll(async () => {
  emulator = await createRelayEmulator({ baseUrl: 'http://127.0.0.1:8787/api' });
});
afterAll(() => emulator.close());

async function faucet(body: unknown): Promise<{ status: number; body: any }> {
  const response = await emulator.fetch(
    new Request('http://127.0.0.1:8787/__emulator/faucet', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) }),
  );
  return { status: response.status, body: await assertFetchResponseMatchesSpec('POST', '/__emulator/faucet', response) };
}

describe('faucet amounts', () => {
  it('takes a JSON integer amount as well as a string', async () => {
    const owner = newKeypair().publicKey.toBase58();
    expect(await faucet({ address: owner, mint: USDC.toBase58(), amount: 1_500 })).toMatchObject({ status: 200, body: { tokenAmount: '1500' } });
    expect(await faucet({ address: owner, mint: USDC.toBase58(), amount: '500' })).toMatchObject({ status: 200, body: { tokenAmount: '2000' } });
  });

  it('takes a string past 2^53, and refuses an unsafe or fractional JSON number', async () => {
    const owner = newKeypair().publicKey.toBase58();
    expect(await faucet({ address: owner, mint: USDC.toBase58(), amount: '9007199254740993' })).toMatchObject({
      status: 200,
      body: { tokenAmount: '9007199254740993' },
    });
    expect(await faucet({ address: owner, mint: USDC.toBase58(), amount: 2 ** 53 })).toMatchObject({ status: 400, body: { code: 'VALIDATION_FAILED' } });
    expect(await faucet({ address: owner, mint: USDC.toBase58(), amount: 1.5 })).toMatchObject({ status: 400, body: { code: 'VALIDATION_FAILED' } });
    expect(await faucet({ address: owner, mint: USDC.toBase58(), amount: -1 })).toMatchObject({ status: 400, body: { code: 'VALIDATION_FAILED' } });
  });
});

describe('a mint without an amount creates the token account', () => {
  it('through the method', async () => {
    const owner = newKeypair().publicKey;
    const result = await emulator.faucet({ address: owner, mint: USDC });
    expect(result).toMatchObject({ tokenAccount: ata(owner).toBase58(), tokenAmount: 0n, lamports: 0n });
    expect(decodeTokenAccount(await emulator.services.ledger.getAccount(ata(owner)))).toMatchObject({
      owner: owner.toBase58(),
      mint: USDC.toBase58(),
      amount: 0n,
    });
  });

  it('through HTTP, and again (idempotent)', async () => {
    const owner = newKeypair().publicKey.toBase58();
    const first = await faucet({ address: owner, mint: USDC.toBase58() });
    expect(first).toMatchObject({ status: 200, body: { tokenAccount: expect.any(String), tokenAmount: '0' } });
    expect(await faucet({ address: owner, mint: USDC.toBase58() })).toMatchObject({ status: 200, body: { tokenAmount: '0' } });
  });
});
