import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRelayEmulator, type RelayEmulator } from '../src/index.ts';
import { DEFAULT_RENT, minimumBalance } from '../src/domain/ledger/rent.ts';

/** Issue 34, fuzz finding 2: getMinimumBalanceForRentExemption for any usize, from the Rent sysvar, as the validator answers. */
describe('getMinimumBalanceForRentExemption', () => {
  let emulator: RelayEmulator;
  const call = async (length: string) => {
    const response = await fetch(emulator.config.rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: `{"jsonrpc":"2.0","id":1,"method":"getMinimumBalanceForRentExemption","params":[${length}]}`,
    });
    return (await response.json()) as { result?: number; error?: { code: number; message: string } };
  };
  beforeAll(async () => {
    emulator = await createRelayEmulator();
  });
  afterAll(() => emulator.close());

  it('answers the runtime’s minimum, past 10 MiB too, where the engines used to wrap or saturate', async () => {
    expect((await call('0')).result).toBe(890_880);
    expect((await call('165')).result).toBe(2_039_280);
    expect((await call('10485760')).result).toBe(72_981_780_480);
    expect((await call('10485761')).result).toBe(72_981_787_440);
  });

  it('refuses a length that is no usize with -32602, as serde words it, and logs no stack', async () => {
    expect((await call('18446744073709551616')).error).toEqual({
      code: -32602,
      message: 'Invalid params: invalid type: floating point `18446744073709552000.0`, expected usize.',
    });
    expect((await call('-1')).error?.code).toBe(-32602);
    expect((await call('1.5')).error?.code).toBe(-32602);
  });

  it('wraps the product at 2^64 as a release build does, and saturates the float cast', () => {
    expect(minimumBalance(DEFAULT_RENT, 0n)).toBe(890_880n);
    expect(minimumBalance({ lamportsPerByteYear: 6960n, exemptionThreshold: 1 }, 165n)).toBe(2_039_280n);
    // (128 + 2^62) × 3,480 = 2^64 × 870 + 445,440: it wraps to 445,440, twice that is 890,880.
    expect(minimumBalance(DEFAULT_RENT, 2n ** 62n)).toBe(890_880n);
    expect(minimumBalance({ lamportsPerByteYear: 3480n, exemptionThreshold: 2 }, 10n ** 19n)).toBe(2n ** 64n - 1n);
  });
});
