import { describe, expect, it } from 'vitest';
import { decodeJwtPayload } from './json-web-token.ts';

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

describe('decodeJwtPayload', () => {
  it('reads the claims of a compact JWT', () => {
    const token = `${b64({ alg: 'EdDSA' })}.${b64({ exp: 1_700_000_000, sub: 'x' })}.c2ln`;
    expect(decodeJwtPayload(token)).toEqual({ exp: 1_700_000_000, sub: 'x' });
  });

  it('refuses what is not a JWT', () => {
    expect(() => decodeJwtPayload('abc')).toThrow(/3 dot-separated parts, this has 1/);
    expect(() => decodeJwtPayload(`${b64({})}.not json!.x`)).toThrow(/payload is not base64url/);
    expect(() => decodeJwtPayload(`${b64({})}.${Buffer.from('nope').toString('base64url')}.x`)).toThrow(/not JSON/);
    expect(() => decodeJwtPayload(`${b64({})}.${b64([1])}.x`)).toThrow(/not a JSON object/);
  });
});
