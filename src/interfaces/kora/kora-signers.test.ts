import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Keypair } from '@solana/web3.js';
import bs58 from 'bs58';
import { describe, expect, it } from 'vitest';
import { readKoraSigners } from './kora-signers.ts';

const dir = mkdtempSync(join(tmpdir(), 'relay-emulator-kora-signers-'));
const keys = [Keypair.generate(), Keypair.generate(), Keypair.generate()];
const keyFile = join(dir, 'key.json');
writeFileSync(keyFile, JSON.stringify(Array.from(keys[2]!.secretKey)));
const env = {
  BASE58: bs58.encode(keys[0]!.secretKey),
  BYTES: `[${Array.from(keys[1]!.secretKey).join(', ')}]`,
  FILE: keyFile,
  SHORT: bs58.encode(new Uint8Array(32)),
};

function file(...lines: string[]): string {
  const path = join(dir, `signers-${Math.random().toString(36).slice(2)}.toml`);
  writeFileSync(path, lines.join('\n'));
  return path;
}
const memory = (name: string, variable: string, weight?: number) => [
  '[[signers]]',
  `name = "${name}"`,
  'type = "memory"',
  `private_key_env = "${variable}"`,
  ...(weight === undefined ? [] : [`weight = ${weight}`]),
];
const refusal = (path: string) => {
  try {
    readKoraSigners(path, env);
    return null;
  } catch (error) {
    return (error as Error).message;
  }
};

describe('readKoraSigners (Kora 2.0.5 signer/config.rs, pool.rs, keypair_util.rs)', () => {
  it('reads memory signers from a base58 key, a byte list and a keypair file, and takes turns', () => {
    const pool = readKoraSigners(file(...memory('a', 'BASE58'), ...memory('b', 'BYTES'), ...memory('c', 'FILE')), env);
    expect(pool.addresses()).toEqual(keys.map((key) => key.publicKey.toBase58()));
    expect([pool.next(), pool.next(), pool.next(), pool.next()].map((signer) => signer.name)).toEqual(['a', 'b', 'c', 'a']);
    expect(pool.pick(keys[2]!.publicKey.toBase58()).name).toBe('c');
    expect(() => pool.pick('nope')).toThrow('Validation error: Invalid signer signer key pubkey: nope');
  });

  it('weights a weighted pool over a fixed cycle', () => {
    const pool = readKoraSigners(file('[signer_pool]', 'strategy = "weighted"', ...memory('a', 'BASE58', 2), ...memory('b', 'BYTES', 1)), env);
    expect([pool.next(), pool.next(), pool.next(), pool.next()].map((signer) => signer.name)).toEqual(['a', 'a', 'b', 'a']);
  });

  it('refuses, in Kora’s words, what Kora refuses and what cannot be honoured offline', () => {
    expect(refusal(file('[signer_pool]', 'strategy = "round_robin"'))).toMatch(/At least one signer must be configured/);
    expect(refusal(file(...memory('a', 'BASE58'), ...memory('a', 'BYTES')))).toMatch(/Duplicate signer name: a/);
    expect(refusal(file(...memory('a', 'MISSING')))).toMatch(/Environment variable 'MISSING' required for signer 'a' is not set/);
    expect(refusal(file(...memory('a', 'SHORT')))).toMatch(/Invalid private key length: expected 64 bytes, got 32/);
    expect(refusal(file('[signer_pool]', 'strategy = "weighted"', ...memory('a', 'BASE58', 0)))).toMatch(/Signer 'a' has weight of 0 in weighted strategy/);
    expect(refusal(file('[[signers]]', 'name = "t"', 'type = "turnkey"'))).toMatch(/signer 't' of type "turnkey" cannot be honoured offline/);
    expect(refusal(file('not toml ='))).toMatch(/Failed to parse signers config TOML/);
  });
});
