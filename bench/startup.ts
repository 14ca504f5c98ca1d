/** Start-up: createRelayEmulator() with the default fixtures until ready to serve, against a bare bankrun start with the same genesis. */
import { start } from 'solana-bankrun';
import { createRelayEmulator } from '../src/index.ts';
import { genesisAccounts, loadFixtures } from '../src/fixtures/load-fixtures.ts';
import { median, type Figure } from './stats.ts';

export async function startup(rounds: number): Promise<Figure> {
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
  // The median of per-round ratios: each round's two starts are moments apart, so a slow stretch
  // of the machine lands on both sides of one ratio rather than on one side of the medians.
  const ratio = median(full.map((ms, round) => ms / bare[round]!));
  return { name: 'start-up (median ms)', measured: `${median(full).toFixed(1)} ms emulator`, baseline: `${median(bare).toFixed(1)} ms bare bankrun`, ratio, target: '≤ 1.5', meets: ratio <= 1.5 };
}
