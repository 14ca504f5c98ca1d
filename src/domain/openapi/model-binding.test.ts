import { describe, expect, it } from 'vitest';
import { bindBodyNames, bodyBindingOf, clampMinimumOf, coerce, queryNamesOf } from './model-binding.ts';

describe('model binding keywords', () => {
  const binding = bodyBindingOf([
    ['signedTransaction', { type: 'string', 'x-aliases': ['transaction'] }],
    ['mintAddress', { type: 'string', 'x-empty-as-absent': true }],
  ]);

  it('binds names case-insensitively and through x-aliases; the exact name wins over another case, which wins over an alias', () => {
    expect(bindBodyNames({ SIGNEDTRANSACTION: 'a' }, binding)).toEqual({ signedTransaction: 'a' });
    expect(bindBodyNames({ transaction: 'alias', SignedTransaction: 'case' }, binding)).toEqual({ signedTransaction: 'case' });
    expect(bindBodyNames({ signedTransaction: 'exact', SignedTransaction: 'case', transaction: 'alias' }, binding)).toEqual({ signedTransaction: 'exact' });
    expect(bindBodyNames({ unknown: 1 }, binding)).toEqual({ unknown: 1 });
  });

  it('binds "" as absent only where x-empty-as-absent says so', () => {
    expect(bindBodyNames({ mintAddress: '' }, binding)).toEqual({});
    expect(bindBodyNames({ signedTransaction: '' }, binding)).toEqual({ signedTransaction: '' });
  });

  it('reads a parameter’s names and x-clamp minimum', () => {
    expect(queryNamesOf({ name: 'PageNumber', in: 'query', 'x-aliases': ['Page'] })).toEqual(new Set(['pagenumber', 'page']));
    expect(clampMinimumOf({ name: 'PageNumber', in: 'query', 'x-clamp': { minimum: 1 } } as never)).toBe(1);
    expect(clampMinimumOf({ name: 'PageNumber', in: 'query' })).toBeNull();
  });

  it('coerces query text to the schema’s type, and leaves text that is not one for validation to refuse', () => {
    expect(coerce('12', { type: 'integer' })).toBe(12);
    expect(coerce('9007199254740993', { type: 'integer' })).toBe('9007199254740993');
    expect(coerce('1.5', { type: 'number' })).toBe(1.5);
    expect(coerce('true', { type: 'boolean' })).toBe(true);
    expect(coerce('yes', { type: 'boolean' })).toBe('yes');
  });
});
