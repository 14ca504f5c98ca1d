import { describe, expect, it } from 'vitest';
import { DEFAULT_POLICY, resolvePolicy } from './policy-options.ts';

describe('resolvePolicy', () => {
  it('fills the documented defaults', () => {
    expect(resolvePolicy()).toEqual(DEFAULT_POLICY);
    expect(resolvePolicy({ maxSignatures: undefined })).toEqual(DEFAULT_POLICY);
  });

  it('takes the price as a number or a bigint, and canonicalizes addresses', () => {
    const mint = 'CD1XkvuxbwTaDKr4YVNZNS7KEyEcaggNwy62ffhkYq5V';
    expect(resolvePolicy({ maxComputeUnitPrice: 5, allowedMints: [mint], extraPrograms: [mint] })).toMatchObject({
      maxComputeUnitPrice: 5n,
      allowedMints: [mint],
      extraPrograms: [mint],
    });
  });

  it('takes a profile name alone or beside the other options, faithful by default', () => {
    expect(resolvePolicy().profile).toBe('faithful');
    expect(resolvePolicy('strict')).toEqual({ ...DEFAULT_POLICY, profile: 'strict' });
    expect(resolvePolicy({ profile: 'strict', maxSignatures: 3 })).toMatchObject({
      profile: 'strict',
      maxSignatures: 3,
      maxComputeUnitLimit: DEFAULT_POLICY.maxComputeUnitLimit,
    });
    expect(resolvePolicy({ maxSignatures: 3 })).toMatchObject({ profile: 'faithful', maxSignatures: 3 });
  });

  it('refuses nonsense at start-up rather than per request', () => {
    expect(() => resolvePolicy('lenient' as never)).toThrow(/policy.profile must be one of faithful, strict/);
    expect(() => resolvePolicy({ profile: 'loose' as never })).toThrow(/policy.profile/);
    expect(() => resolvePolicy({ maxSignatures: 0 })).toThrow(/maxSignatures/);
    expect(() => resolvePolicy({ maxSignatures: 1.5 })).toThrow(/maxSignatures/);
    expect(() => resolvePolicy({ maxComputeUnitPrice: -1 })).toThrow(/maxComputeUnitPrice/);
    expect(() => resolvePolicy({ maxComputeUnitLimit: -5 })).toThrow(/maxComputeUnitLimit/);
    expect(() => resolvePolicy({ allowedMints: ['not a key'] })).toThrow(/allowedMints/);
    expect(() => resolvePolicy({ extraPrograms: ['0OIl'] })).toThrow(/extraPrograms/);
  });
});
