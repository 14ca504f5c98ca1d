/**
 * Issue 53, a documented path no test held: `relay-emulator exec` in an Anchor workspace gives its
 * command what `anchor test` gives its script (ANCHOR_PROVIDER_URL, ANCHOR_WALLET: `[provider] wallet`
 * with `~` expanded) and funds that wallet with 500,000,000 SOL, as anchor test's `--mint` does.
 */
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Keypair } from '@solana/web3.js';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI_ARGS } from '../support/cli-process.ts';

const WORKSPACE = fileURLToPath(new URL('../real-clients/anchor/workspace/', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'relay-emulator-exec-anchor-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('relay-emulator exec in an Anchor workspace', () => {
  it('gives the command ANCHOR_PROVIDER_URL and ANCHOR_WALLET, the wallet funded as anchor test funds it', async () => {
    const project = join(root, 'workspace');
    const home = join(root, 'home');
    cpSync(WORKSPACE, project, { recursive: true });
    const wallet = Keypair.generate();
    mkdirSync(join(home, '.config/solana'), { recursive: true });
    writeFileSync(join(home, '.config/solana/id.json'), JSON.stringify([...wallet.secretKey]));
    const script = `
      const { ANCHOR_PROVIDER_URL, ANCHOR_WALLET, RELAY_RPC_URL } = process.env;
      const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'getBalance', params: [${JSON.stringify(wallet.publicKey.toBase58())}] });
      const balance = await (await fetch(ANCHOR_PROVIDER_URL, { method: 'POST', headers: { 'content-type': 'application/json' }, body })).json();
      console.log(JSON.stringify({ ANCHOR_PROVIDER_URL, ANCHOR_WALLET, RELAY_RPC_URL, lamports: balance.result.value }));`;
    const output = await new Promise<{ code: number | null; text: string }>((resolve) => {
      const child = spawn(process.execPath, [...CLI_ARGS, 'exec', '--', process.execPath, '-e', script], {
        cwd: project,
        env: { ...process.env, HOME: home, RELAY_EMULATOR_PORT: '0' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let text = '';
      child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (text += chunk.toString()));
      child.once('close', (code) => resolve({ code, text }));
    });
    expect(output.code, output.text).toBe(0);
    const seen = JSON.parse(output.text.match(/^\{.*\}$/m)![0]) as Record<string, string | number>;
    expect(seen.ANCHOR_PROVIDER_URL).toBe(seen.RELAY_RPC_URL);
    expect(seen.ANCHOR_WALLET).toBe(join(home, '.config/solana/id.json'));
    expect(seen.lamports).toBe(500_000_000 * 1e9);
  }, 120_000);
});
