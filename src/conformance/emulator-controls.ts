import { fail } from './check.ts';
import { describeResponse } from './describe-response.ts';
import type { TargetClient } from './target-client.ts';

/**
 * The target's own test controls (`/__emulator/…` at the server root), found by capability:
 * GET /__emulator/clock must answer 200 with a JSON clock. Nothing is assumed from the URL.
 */
export interface EmulatorControls {
  /** POST /__emulator/mints. */
  createMint(decimals: number, symbol?: string): Promise<{ mint: string; decimals: number }>;
  /** POST /__emulator/faucet: tokens of `mint` (base units) to `address`, creating its associated token account. */
  fundTokens(address: string, mint: string, amount: bigint): Promise<{ tokenAccount: string | null; tokenAmount: string | null }>;
}

export type ControlsDetection = { found: true; controls: EmulatorControls } | { found: false; reason: string };

export async function detectEmulatorControls(client: TargetClient): Promise<ControlsDetection> {
  let probe: Awaited<ReturnType<typeof client.request>>;
  try {
    probe = await client.request({ method: 'GET', path: '/__emulator/clock', on: 'root', auth: 'none' });
  } catch (error) {
    return { found: false, reason: `the target has no /__emulator routes (GET /__emulator/clock: ${(error as Error).message})` };
  }
  const clock = probe.json as { slot?: unknown } | undefined;
  if (probe.status !== 200 || typeof clock?.slot !== 'number') {
    return { found: false, reason: `the target has no /__emulator routes (${describeResponse(probe)})` };
  }
  return {
    found: true,
    controls: {
      async createMint(decimals, symbol) {
        const res = await client.request({ method: 'POST', path: '/__emulator/mints', on: 'root', auth: 'none', json: { decimals, symbol } });
        const body = res.json as { mint?: unknown; decimals?: unknown } | undefined;
        if (res.status !== 200 || typeof body?.mint !== 'string') fail(`could not create a mint: ${describeResponse(res)}`);
        return { mint: body.mint, decimals: typeof body.decimals === 'number' ? body.decimals : decimals };
      },
      async fundTokens(address, mint, amount) {
        const res = await client.request({
          method: 'POST',
          path: '/__emulator/faucet',
          on: 'root',
          auth: 'none',
          json: { address, mint, amount: amount.toString() },
        });
        const body = res.json as { tokenAccount?: unknown; tokenAmount?: unknown } | undefined;
        if (res.status !== 200 || body === undefined) fail(`the faucet refused: ${describeResponse(res)}`);
        return {
          tokenAccount: typeof body.tokenAccount === 'string' ? body.tokenAccount : null,
          tokenAmount: typeof body.tokenAmount === 'string' ? body.tokenAmount : null,
        };
      },
    },
  };
}
