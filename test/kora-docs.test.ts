/** The contract's /kora description and docs/kora.md name every method Kora's JSON-RPC serves, and what 2.0.4 does not. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { KORA_METHOD_KEYS } from '../src/interfaces/kora/kora-config.ts';
import { getOperation } from './support/openapi.ts';

const page = readFileSync(new URL('../docs/kora.md', import.meta.url), 'utf8');

describe("Kora's methods, documented", () => {
  const description = getOperation('POST', '/kora').operation.description as string;
  const tableMethods = [...page.matchAll(/^\| `([a-zA-Z]+)`/gm)].map((match) => match[1]);

  it.each(Object.keys(KORA_METHOD_KEYS))('%s is in the contract and in docs/kora.md', (method) => {
    expect(description).toContain(`- \`${method}\``);
    expect(tableMethods).toContain(method);
  });

  it('says what Kora 2.0.5 does not register', () => {
    expect(description).toMatch(/getVersion is not registered by Kora 2\.0\.5/);
    expect(tableMethods).toEqual(expect.arrayContaining(['getVersion']));
  });
});
