import { describe, expect, it } from 'vitest';
import { MAX_KEYS, MAX_REFUSED, MAX_WALLET_LOG, WalletLog, type WalletLogInput } from './wallet-log.ts';

const connect: WalletLogInput = { method: 'connect', origin: 'http://127.0.0.1:4173', legacy: false, outcome: 'approved' };

describe('WalletLog', () => {
  it('keeps each request with its test, newest first, the transaction summed up without its bytes', () => {
    const log = new WalletLog(() => new Date('2026-01-01T00:00:00Z'));
    log.record(connect, 'a.spec > one');
    const transaction = { version: 0 as const, feePayer: 'F', signers: ['F', 'U'], programs: ['T'], walletPaysFee: false, base64: 'AAAA' };
    log.record({ ...connect, method: 'signTransaction', outcome: 'rejected', reason: 'User rejected the request.', transaction } as WalletLogInput);
    expect(log.list()).toEqual([
      {
        id: 2,
        time: '2026-01-01T00:00:00.000Z',
        test: null,
        method: 'signTransaction',
        origin: 'http://127.0.0.1:4173',
        legacy: false,
        outcome: 'rejected',
        reason: 'User rejected the request.',
        transaction: { version: 0, feePayer: 'F', signers: ['F', 'U'], programs: ['T'], walletPaysFee: false },
        message: null,
        signature: null,
      },
      expect.objectContaining({ id: 1, test: 'a.spec > one', method: 'connect', transaction: null }),
    ]);
  });

  it('keeps no method a wallet does not have, cuts long texts, holds the newest 1000, and forgets all on clear', () => {
    const log = new WalletLog();
    expect(log.record({ ...connect, method: 'eth_sign' as WalletLogInput['method'] })).toBeNull();
    const long = 'x'.repeat(100_000);
    const kept = log.record({ ...connect, method: 'signMessage', message: long, origin: long }, long)!;
    expect([kept.message!.length, kept.origin.length, kept.test!.length]).toEqual([2048, 2048, 2048]);
    for (let index = 0; index < MAX_WALLET_LOG + 5; index += 1) log.record(connect);
    const listed = log.list();
    expect(listed).toHaveLength(MAX_WALLET_LOG);
    expect(listed[0]!.id).toBe(MAX_WALLET_LOG + 6);
    expect(listed.at(-1)!.id).toBe(7);
    log.clear();
    expect(log.list()).toEqual([]);
  });

  it('keeps the test’s own requests when a page floods the wallet with refused ones, names 16 keys at most, and cuts no emoji in half', () => {
    const log = new WalletLog();
    log.record(connect, 'the test');
    for (let index = 0; index < 5000; index += 1) log.record({ ...connect, origin: 'https://evil.example', outcome: 'refused' }, 'the test');
    const listed = log.list();
    expect(listed).toHaveLength(1 + MAX_REFUSED);
    expect(listed.at(-1)).toMatchObject({ id: 1, outcome: 'approved' });
    const keys = Array.from({ length: 200 }, (_, index) => `K${index}`);
    const transaction = { version: 0 as const, feePayer: 'K0', signers: keys, programs: keys, walletPaysFee: false };
    expect(log.record({ ...connect, method: 'signTransaction', transaction })!.transaction).toMatchObject({
      signers: keys.slice(0, MAX_KEYS),
      programs: keys.slice(0, MAX_KEYS),
    });
    const message = `${'a'.repeat(2047)}😀`;
    expect(log.record({ ...connect, method: 'signMessage', message })!.message).toBe('a'.repeat(2047));
  });
});
