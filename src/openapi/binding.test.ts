import { describe, expect, it } from 'vitest';
import { RelayError } from '../errors/relay-error.ts';
import { requestBinder } from './binding.ts';

const WALLET = '985XyiszbSJQ5wr33reHL7oMPNtzRgQExEqix4tijVzr';
const MINT = 'So11111111111111111111111111111111111111112';

describe('requestBinder', () => {
  const binder = requestBinder();

  it('binds body names case-insensitively to the contract names, typed by the generated types', () => {
    const body = binder.body('getBalance', { AccountAddress: WALLET, mintaddress: MINT });
    const names: { accountAddress: string; mintAddress?: string } = body;
    expect(names).toEqual({ accountAddress: WALLET, mintAddress: MINT });
  });

  it('applies query defaults, so parameters declared `defaulted` are present', () => {
    const query = binder.query('getHistory', new URLSearchParams({ walletaddress: WALLET }), { defaulted: ['PageNumber', 'PageSize'] });
    const page: number = query.PageNumber + query.PageSize;
    expect(page).toBeGreaterThan(1);
    expect(query.WalletAddress).toBe(WALLET);
  });

  it('refuses to promise a default the contract does not give', () => {
    expect(() => binder.query('getHistory', new URLSearchParams({ WalletAddress: WALLET }), { defaulted: ['MintAddress'] })).toThrow(/MintAddress has no default/);
  });

  it('refuses what the schema does not allow, as VALIDATION_FAILED or INVALID_QUERY', () => {
    expect(() => binder.body('getBalance', {})).toThrow(RelayError);
    expect(() => binder.query('getHistory', new URLSearchParams({ WalletAddress: WALLET, PageNumber: 'zero' }))).toThrow(expect.objectContaining({ code: 'INVALID_QUERY' }));
  });
});
