/**
 * Start-up, per engine: createRelayEmulator({ engine }) with the default fixtures until the first
 * request is answered, against a bare start of the same engine with the same genesis
 * (bench/bare-engines.ts). Interleaved rounds; the figure is the median of per-round ratios.
 */
import { createRelayEmulator } from '../src/index.ts';
import type { EngineName } from '../src/ledger/engines.ts';
import { startBareEngine } from './bare-engines.ts';
import { median, type Figure } from './stats.ts';

export async function startup(engine: EngineName, rounds: number): Promise<Figure> {
  const bare: number[] = [];
  const full: number[] = [];
  for (let round = 0; round < rounds; round += 1) {
    let started = performance.now();
    await startBareEngine(engine);
    bare.push(performance.now() - started);
    started = performance.now();
    const emulator = await createRelayEmulator({ engine });
    // Ready to serve: the first request is answered.
    const response = await emulator.fetch(new Request(`${emulator.config.baseUrl}/Transaction/blockhash`, { headers: { 'X-API-Key': emulator.config.apiKey } }));
    if (response.status !== 200) throw new Error('emulator not ready');
    full.push(performance.now() - started);
    await emulator.close();
  }
  // The median of per-round ratios: each round's two starts are moments apart, so a slow stretch
  // of the machine lands on both sides of one ratio rather than on one side of the medians.
  const ratio = median(full.map((ms, round) => ms / bare[round]!));
  const bankrun = engine === 'bankrun';
  return {
    name: `start-up, ${engine} (median ms)`,
    measured: `${median(full).toFixed(1)} ms emulator`,
    baseline: `${median(bare).toFixed(1)} ms bare ${engine}`,
    ratio,
    target: bankrun ? '≤ 1.5' : 'report',
    meets: bankrun ? ratio <= 1.5 : null,
    ...(bankrun ? {} : { note: 'each round closes its emulator, so the next reuses its LiteSVM bank (reset); a bare start loads the SPL programs anew every time' }),
  };
}
