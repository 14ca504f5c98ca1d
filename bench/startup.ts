/** Start-up: createRelayEmulator() with the default fixtures until ready to serve, against a bare bankrun start with the same genesis. */
import { start } from 'solana-bankrun';
import { createRelayEmulator } from '../src/index.ts';
import { genesisAccounts, loadFixtures } from '../src/fixtures/load-fixtures.ts';
import type { StartupMeasurement } from './figures.ts';

/** Times `rounds` pairs of starts; startupFigure (figures.ts) makes the figure. */
export async function measureStartup(rounds: number): Promise<StartupMeasurement> {
  const genesis = genesisAccounts(loadFixtures()).map(({ address, account }) => ({ address, info: { ...account, lamports: Number(account.lamports), rentEpoch: 0 } }));
  const bare: number[] = [];
  const full: number[] = [];
  // Interleaved, so that drift on a noisy machine hits both sides alike.
  for (let round = 0; round < rounds; round += 1) {
    let started = performance.now();
    await start([], genesis);
    bare.push(performance.now() - started);
    started = performance.now();
    const emulator = await createRelayEmulator();
    // Ready to serve: the first request is answered.
    const response = await emulator.fetch(new Request(`${emulator.config.baseUrl}/Transaction/blockhash`, { headers: { 'X-API-Key': emulator.config.apiKey } }));
    if (response.status !== 200) throw new Error('emulator not ready');
    full.push(performance.now() - started);
    await emulator.close();
  }
  return { bareMs: bare, emulatorMs: full };
}
