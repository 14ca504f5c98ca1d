/**
 * Start-up, per engine: createRelayEmulator({ engine }) with the default fixtures until the first
 * request is answered, against a bare start of the same engine with the same genesis
 * (bench/bare-engines.ts). Interleaved rounds.
 */
import { createRelayEmulator } from '../src/index.ts';
import type { EngineName } from '../src/domain/ledger/engines.ts';
import { startBareEngine } from './bare-engines.ts';
import type { StartupMeasurement } from './figures.ts';

/** Times `rounds` pairs of starts; startupFigure (figures.ts) makes the figure. */
export async function measureStartup(engine: EngineName, rounds: number): Promise<StartupMeasurement> {
  const bare: number[] = [];
  const full: number[] = [];
  // Interleaved, so that drift on a noisy machine hits both sides alike.
  for (let round = 0; round < rounds; round += 1) {
    let started = performance.now();
    await startBareEngine(engine);
    bare.push(performance.now() - started);
    started = performance.now();
    const emulator = await createRelayEmulator({ engine });
    // Ready to serve: the first request is answered.
    const response = await emulator.fetch(
      new Request(`${emulator.config.baseUrl}/Transaction/blockhash`, { headers: { 'X-API-Key': emulator.config.apiKey } }),
    );
    if (response.status !== 200) throw new Error('emulator not ready');
    full.push(performance.now() - started);
    await emulator.close();
  }
  return { engine, bareMs: bare, emulatorMs: full };
}
