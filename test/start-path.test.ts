import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'relay-emulator-start-path-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * What a fresh process loads of zod and of @noble/curves' key derivation while it makes its first
 * emulator, then while it does `then` (issue 46: both were ~170 ms of a 720 ms cold start on Node
 * 20). ES modules are seen by a resolve hook, CommonJS ones in require's cache.
 */
function loads(then: string): { zod: boolean; nobleDerivations: number } {
  const trace = join(dir, `trace-${Math.random().toString(36).slice(2)}.txt`);
  writeFileSync(trace, '');
  const hooks = `import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  if (resolved.url.includes('/node_modules/zod/')) appendFileSync(${JSON.stringify(trace)}, resolved.url + '\\n');
  return resolved;
}`;
  const script = `
import { register, createRequire } from 'node:module';
register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(hooks)}));
const require = createRequire(${JSON.stringify(`${ROOT}package.json`)});
const curves = require('@noble/curves/ed25519');
let derivations = 0;
const getPublicKey = curves.ed25519.getPublicKey;
curves.ed25519.getPublicKey = (...args) => { derivations += 1; return getPublicKey(...args); };
const { createRelayEmulator } = await import(${JSON.stringify(`${ROOT}src/index.ts`)});
const emulator = await createRelayEmulator();
${then}
await emulator.close();
const zodRequired = Object.keys(require.cache).some((path) => path.includes('/node_modules/zod/'));
console.log(JSON.stringify({ zodRequired, derivations }));
`;
  const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8' });
  const { zodRequired, derivations } = JSON.parse(out.trim().split('\n').at(-1)!) as { zodRequired: boolean; derivations: number };
  return { zod: zodRequired || readFileSync(trace, 'utf8').length > 0, nobleDerivations: derivations };
}

describe('the start path', () => {
  it('makes an emulator without loading zod or deriving a key in JavaScript; restoring a state loads zod', () => {
    expect(loads('')).toEqual({ zod: false, nobleDerivations: 0 });
    // The controls: the same probe sees zod when a state is restored (its records are checked with it), and a derivation by web3.js.
    expect(loads('await emulator.restore(await emulator.snapshot());').zod).toBe(true);
    expect(loads("(await import('@solana/web3.js')).Keypair.fromSeed(new Uint8Array(32));").nobleDerivations).toBe(1);
  });
});
