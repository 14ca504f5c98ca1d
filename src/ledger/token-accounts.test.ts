import { Keypair, PublicKey } from '@solana/web3.js';
import { TOKEN_PROGRAM_ID } from '@solana/spl-token';
import { describe, expect, it } from 'vitest';
import { decodeMint, decodeTokenAccount, encodeMint, encodeTokenAccount, toUiAmountString } from './token-accounts.ts';

describe('token accounts', () => {
  it('round-trips a token account and a mint', () => {
    const mint = Keypair.generate().publicKey;
    const owner = Keypair.generate().publicKey;
    const close = Keypair.generate().publicKey;
    const data = encodeTokenAccount({ mint, owner, amount: 42n, closeAuthority: close });
    const decoded = decodeTokenAccount({ lamports: 1n, owner: TOKEN_PROGRAM_ID, data, executable: false });
    expect(decoded).toMatchObject({ mint: mint.toBase58(), owner: owner.toBase58(), amount: 42n, closeAuthority: close.toBase58() });
    const mintData = encodeMint({ decimals: 6, supply: 10n, mintAuthority: owner });
    expect(decodeMint({ lamports: 1n, owner: TOKEN_PROGRAM_ID, data: mintData, executable: false })).toMatchObject({ decimals: 6, supply: 10n });
  });

  it('returns null for accounts of other programs', () => {
    expect(decodeTokenAccount({ lamports: 1n, owner: PublicKey.default, data: new Uint8Array(165), executable: false })).toBeNull();
    expect(decodeTokenAccount(null)).toBeNull();
  });

  it.each([
    [0n, 6, '0'],
    [1n, 6, '0.000001'],
    [1_500_000n, 6, '1.5'],
    [1_000_000n, 6, '1'],
    [123n, 0, '123'],
  ])('formats %s with %s decimals as %s', (amount, decimals, expected) => {
    expect(toUiAmountString(amount, decimals)).toBe(expected);
  });
});
