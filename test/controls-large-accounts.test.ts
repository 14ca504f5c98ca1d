/**
 * Issue 43, item 4: PUT /__emulator/accounts/{address} takes an account as large as Solana's (10 MiB
 * of data) when the request declares its length, as the program deploy route does; Light Protocol's
 * address tree (2.2 MB) was refused with 413. Past 10 MiB of data it is 413, and without a length
 * the usual body limit holds.
 */
import { Keypair } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRelayEmulator, type RelayEmulator } from '../src/index.ts';

describe('a large account written through the controls', () => {
  let emulator: RelayEmulator;
  let origin: string;
  beforeAll(async () => {
    emulator = await createRelayEmulator();
    origin = emulator.loopbackOrigin!;
  });
  afterAll(() => emulator.close());

  const put = (address: string, bytes: number, init: RequestInit = {}) =>
    fetch(`${origin}/__emulator/accounts/${address}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        lamports: 73_000_000_000,
        owner: '11111111111111111111111111111111',
        data: Buffer.alloc(bytes, 7).toString('base64'),
        executable: false,
      }),
      ...init,
    });

  it('takes 2.2 MB and 10 MiB of data with a Content-Length, byte for byte', async () => {
    for (const bytes of [2_200_000, 10 * 1024 * 1024]) {
      const address = Keypair.generate().publicKey.toBase58();
      const response = await put(address, bytes);
      expect(response.status, await response.clone().text()).toBe(200);
      const stored = await emulator.getAccount(address);
      expect(stored!.data.length).toBe(bytes);
      expect(stored!.data.every((byte) => byte === 7)).toBe(true);
    }
  });

  it('refuses data past 10 MiB, and a body with no length past the usual limit', async () => {
    const over = await put(Keypair.generate().publicKey.toBase58(), 10 * 1024 * 1024 + 1);
    expect(over.status).toBe(413);
    expect(((await over.json()) as { detail: string }).detail).toBe("The account's data holds 10485761 bytes, more than an account holds (10485760).");
    const body = JSON.stringify({
      lamports: 1,
      owner: '11111111111111111111111111111111',
      data: Buffer.alloc(200_000).toString('base64'),
      executable: false,
    });
    const stream = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(body));
        controller.close();
      },
    });
    const chunked = await fetch(`${origin}/__emulator/accounts/${Keypair.generate().publicKey.toBase58()}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(chunked.status).toBe(413);
  });
});
