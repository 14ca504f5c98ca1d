import { Keypair } from '@solana/web3.js';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeState } from '../controls/state-codec.ts';
import { createRelayEmulator } from '../emulator.ts';
import { StateFile } from './state-file.ts';

describe('StateFile', () => {
  const directory = mkdtempSync(join(tmpdir(), 'relay-emulator-state-file-'));
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  it('saves periodically once requests came in, atomically, and loads into another emulator', async () => {
    const path = join(directory, 'periodic.json');
    const emulator = await createRelayEmulator();
    const file = new StateFile({ path, emulator, intervalMs: 20 });
    try {
      expect(await file.load()).toEqual({ loaded: false });
      file.start();
      const wallet = Keypair.generate().publicKey;
      await emulator.faucet({ address: wallet, lamports: 777n });
      // In-process control calls are not requests; a request marks the state as changed.
      await emulator.fetch(new Request('http://127.0.0.1:8787/health'));
      await expect.poll(() => existsSync(path)).toBe(true);
      const saved = decodeState(readFileSync(path, 'utf8')) as { format: string; parts: Record<string, unknown> };
      expect(saved.format).toBe('relay-emulator-state');
      expect(readFileSync(path, 'utf8')).toContain(wallet.toBase58());

      const other = await createRelayEmulator();
      try {
        await new StateFile({ path, emulator: other }).load();
        expect((await other.getAccount(wallet))?.lamports).toBe(777n);
      } finally {
        await other.close();
      }
    } finally {
      file.stop();
      await emulator.close();
    }
  });

  it('refuses a file that is not a state snapshot', async () => {
    const path = join(directory, 'foreign.json');
    writeFileSync(path, JSON.stringify({ hello: 'world' }));
    const emulator = await createRelayEmulator();
    try {
      await expect(new StateFile({ path, emulator }).load()).rejects.toThrow(/Not a relay-emulator state snapshot/);
    } finally {
      await emulator.close();
    }
  });
});
