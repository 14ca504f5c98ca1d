import { describe, expect, it } from 'vitest';
import { referenceOf } from './route-kit.ts';

describe('referenceOf', () => {
  it('prefers reference, else combines the older type and id as the legacy service did', () => {
    expect(referenceOf({ reference: 'r', referenceType: 't', referenceId: 'i' })).toBe('r');
    expect(referenceOf({ referenceType: 't', referenceId: 'i' })).toBe('t|i');
    expect(referenceOf({ referenceType: 't' })).toBe('t');
    expect(referenceOf({ referenceId: 'i' })).toBe('i');
    expect(referenceOf({})).toBeNull();
  });

  it('reads null and empty as absent (Kinetic SDKs send null for "no reference")', () => {
    expect(referenceOf({ reference: null })).toBeNull();
    expect(referenceOf({ referenceId: null, referenceType: null })).toBeNull();
    expect(referenceOf({ reference: null, referenceType: 't', referenceId: null })).toBe('t');
    expect(referenceOf({ reference: '', referenceType: 't', referenceId: 'i' })).toBe('t|i');
  });
});
