import { describe, expect, it } from 'vitest';
import { ApiKeys, apiKeyId } from './api-keys.ts';

describe('ApiKeys', () => {
  const keys = new ApiKeys(['alpha-key', 'beta-key']);

  it('accepts every configured key and nothing else', () => {
    expect(keys.matches('alpha-key')).toBe(true);
    expect(keys.matches('beta-key')).toBe(true);
    expect(keys.matches('alpha-ke')).toBe(false);
    expect(keys.matches('ALPHA-KEY')).toBe(false);
    expect(keys.matches('')).toBe(false);
    // Longer, shorter and periodic texts that agree with a key wherever they are compared.
    expect(keys.matches('alpha-key-')).toBe(false);
    expect(keys.matches('alpha-keyalpha-key')).toBe(false);
    expect(keys.matches('beta-keyX')).toBe(false);
    expect(new ApiKeys(['aaaa']).matches('aa')).toBe(false);
    expect(new ApiKeys(['aaaa']).matches('a')).toBe(false);
    expect(new ApiKeys(['aaaa']).matches('aaaa')).toBe(true);
    expect(new ApiKeys(['clé-ключ-🔑']).matches('clé-ключ-🔑')).toBe(true);
    expect(new ApiKeys(['clé-ключ-🔑']).matches('cle-ключ-🔑')).toBe(false);
  });

  it('refuses an empty key set, and ids do not reveal the key', () => {
    expect(() => new ApiKeys([])).toThrow();
    expect(apiKeyId('alpha-key')).toMatch(/^[0-9a-f]{16}$/);
    expect(apiKeyId('alpha-key')).not.toContain('alpha');
  });
});
