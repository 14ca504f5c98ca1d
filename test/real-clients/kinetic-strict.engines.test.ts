import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRelayEmulator, type RelayEmulator } from '../../src/index.ts';
import { KineticSdkWire } from './kinetic/kinetic-sdk-wire.ts';
import { lamportsOf } from './kinetic/ledger-checks.ts';
import { newKeypair } from '../support/keys.ts';

const ENDPOINT = 'https://kinetic.example.test';
const FEE_PAYER = '985XyiszbSJQ5wr33reHL7oMPNtzRgQExEqix4tijVzr';

describe('Kinetic SDK 1.0.0-rc.18 against policy "strict"', () => {
  let emulator: RelayEmulator;
  let sdk: KineticSdkWire;
  beforeAll(async () => {
    emulator = await createRelayEmulator({ baseUrl: `${ENDPOINT}/api`, policy: 'strict' });
    sdk = new KineticSdkWire('1.0.0-rc.18', { endpoint: ENDPOINT, environment: 'devnet', index: 1, fetch: emulator.fetch });
    await sdk.init();
  });
  afterAll(() => emulator.close());

  it('relays its create and transfers, and refuses only senderCreate (422, the SDK throws), costing the fee payer nothing', async () => {
    const owner = newKeypair();
    expect((await sdk.createAccount({ owner })).status).toBe('Confirmed');
    await sdk.requestAirdrop({ account: owner.publicKey.toBase58(), amount: '5' });
    await emulator.settle();
    const before = await lamportsOf(emulator, FEE_PAYER);
    const submitted = emulator.transactionJournal().length;

    const refused = await sdk
      .makeTransfer({ owner, destination: newKeypair().publicKey.toBase58(), amount: '1', senderCreate: true })
      .catch((error: Error & { status?: number; body?: unknown }) => error);
    expect(refused).toMatchObject({
      status: 422,
      body: { statusCode: 422, error: 'Unprocessable Entity', message: expect.stringContaining('close authority') },
    });
    await emulator.settle();
    expect(emulator.transactionJournal()).toHaveLength(submitted);
    expect(await lamportsOf(emulator, FEE_PAYER)).toBe(before);
  });
});
