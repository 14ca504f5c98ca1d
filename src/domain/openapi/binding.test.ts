import { describe, expect, it } from 'vitest';
import { RelayError } from '../../base/errors/relay-error.ts';
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
    expect(() => binder.query('getHistory', new URLSearchParams({ WalletAddress: WALLET }), { defaulted: ['MintAddress'] })).toThrow(
      /MintAddress has no default/,
    );
  });

  it('refuses what the schema does not allow, as VALIDATION_FAILED or INVALID_QUERY', () => {
    expect(() => binder.body('getBalance', {})).toThrow(RelayError);
    expect(() => binder.query('getHistory', new URLSearchParams({ WalletAddress: WALLET, PageNumber: 'zero' }))).toThrow(
      expect.objectContaining({ code: 'INVALID_QUERY' }),
    );
  });
});

const USDC_MINT = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';

function refusal(run: () => unknown): { code: string; errors: unknown } | null {
  try {
    run();
    return null;
  } catch (error) {
    expect(error).toBeInstanceOf(RelayError);
    return { code: (error as RelayError).code, errors: (error as RelayError).context.errors };
  }
}

describe('the request binder: the forms real clients send, declared in openapi/relay.yaml', () => {
  const binder = requestBinder();

  it('binds body names in any case, and the x-aliases of a property', () => {
    expect(binder.body('getBalance', { AccountAddress: WALLET, MintAddress: USDC_MINT })).toEqual({ accountAddress: WALLET, mintAddress: USDC_MINT });
    expect(binder.body('getBalance', { address: WALLET, mint: USDC_MINT })).toEqual({ accountAddress: WALLET, mintAddress: USDC_MINT });
    expect(binder.body('sendTransaction', { transaction: 'AQ==', commitment: 'confirmed' })).toMatchObject({ signedTransaction: 'AQ==' });
    expect(binder.body('createAccount', { SignedTransaction: 'AQ==' })).toEqual({ signedTransaction: 'AQ==' });
  });

  it('prefers the name in its exact case, then the name in another case, then an alias, whatever the key order', () => {
    // Three base64 values (the contract's pattern): 'AQ==' by the alias, 'Ag==' in another case, 'Aw==' exact.
    expect(binder.body('sendTransaction', { transaction: 'AQ==', SignedTransaction: 'Ag==', signedTransaction: 'Aw==' })).toMatchObject({
      signedTransaction: 'Aw==',
    });
    expect(binder.body('sendTransaction', { signedTransaction: 'Aw==', transaction: 'AQ==' })).toMatchObject({ signedTransaction: 'Aw==' });
    expect(binder.body('sendTransaction', { SIGNEDTRANSACTION: 'Ag==', transaction: 'AQ==' })).toMatchObject({ signedTransaction: 'Ag==' });
    expect(binder.body('getBalance', { address: 'z', accountAddress: WALLET })).toEqual({ accountAddress: WALLET });
  });

  it('binds an empty string as absent only where x-empty-as-absent says so', () => {
    expect(binder.body('getBalance', { accountAddress: WALLET, mintAddress: '' })).toEqual({ accountAddress: WALLET });
    expect(binder.body('getBalance', { AccountAddress: WALLET, MintAddress: '' })).toEqual({ accountAddress: WALLET });
    expect(refusal(() => binder.body('getBalance', { accountAddress: '', mintAddress: USDC_MINT }))).toMatchObject({ code: 'VALIDATION_FAILED' });
    // Bound, not dropped: '' is then refused as not base64 (rule W1), not as missing.
    expect(refusal(() => binder.body('sendTransaction', { signedTransaction: '' }))).toMatchObject({
      code: 'INVALID_BASE64',
      errors: [{ path: 'signedTransaction' }],
    });
    expect(refusal(() => binder.body('getBalance', { accountAddress: WALLET, mintAddress: ' ' }))).toMatchObject({ code: 'VALIDATION_FAILED' });
  });

  it('still refuses a body without the required name under any of its spellings', () => {
    expect(refusal(() => binder.body('sendTransaction', { tx: 'AQ==' }))).toMatchObject({
      code: 'VALIDATION_FAILED',
      errors: [{ path: 'signedTransaction', message: expect.stringContaining('required') }],
    });
    expect(refusal(() => binder.body('getBlockhashByPost', []))).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(binder.body('getBlockhashByPost', {})).toEqual({});
  });

  it('clamps Page=0 to the first page (x-clamp), binds Page and walletAddress, and refuses a negative page', () => {
    const query = (text: string) => binder.query('getHistory', new URLSearchParams(text));
    expect(query(`Page=0&PageSize=10&walletAddress=${WALLET}`)).toEqual({ WalletAddress: WALLET, PageNumber: 1, PageSize: 10 });
    expect(query(`PageNumber=3&WalletAddress=${WALLET}`)).toMatchObject({ PageNumber: 3, PageSize: 20 });
    expect(refusal(() => query(`Page=-1&walletAddress=${WALLET}`))).toMatchObject({ code: 'INVALID_QUERY' });
  });
});
