import { Keypair, PublicKey } from '@solana/web3.js';
import { ACCOUNT_SIZE, AccountLayout, MINT_SIZE, MintLayout, TOKEN_PROGRAM_ID } from '@solana/spl-token';
import fc from 'fast-check';
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

  it("reads every field at the offsets of spl-token's layouts, whatever the bytes", () => {
    const keyOrNull = (option: number, key: PublicKey) => (option !== 0 ? key.toBase58() : null);
    fc.assert(
      fc.property(fc.uint8Array({ minLength: ACCOUNT_SIZE, maxLength: ACCOUNT_SIZE }), fc.constantFrom(0, 1, 2), (bytes, state) => {
        bytes[108] = state;
        const raw = AccountLayout.decode(bytes);
        const decoded = decodeTokenAccount({ lamports: 1n, owner: TOKEN_PROGRAM_ID, data: bytes, executable: false });
        if (state === 0) {
          expect(decoded).toBeNull();
          return;
        }
        expect(decoded).toEqual({
          mint: raw.mint.toBase58(),
          owner: raw.owner.toBase58(),
          amount: raw.amount,
          closeAuthority: keyOrNull(raw.closeAuthorityOption, raw.closeAuthority),
          delegate: keyOrNull(raw.delegateOption, raw.delegate),
          delegatedAmount: raw.delegatedAmount,
          state: state === 1 ? 'initialized' : 'frozen',
          isNative: raw.isNativeOption ? raw.isNative : null,
          programId: TOKEN_PROGRAM_ID.toBase58(),
        });
      }),
    );
    fc.assert(
      fc.property(fc.uint8Array({ minLength: MINT_SIZE, maxLength: MINT_SIZE }), (bytes) => {
        const raw = MintLayout.decode(bytes);
        const decoded = decodeMint({ lamports: 1n, owner: TOKEN_PROGRAM_ID, data: bytes, executable: false });
        if (!raw.isInitialized) {
          expect(decoded).toBeNull();
          return;
        }
        expect(decoded).toEqual({
          decimals: raw.decimals,
          supply: raw.supply,
          mintAuthority: keyOrNull(raw.mintAuthorityOption, raw.mintAuthority),
          freezeAuthority: keyOrNull(raw.freezeAuthorityOption, raw.freezeAuthority),
          isInitialized: true,
          programId: TOKEN_PROGRAM_ID.toBase58(),
        });
      }),
    );
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
