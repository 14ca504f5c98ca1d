/**
 * Runs in its own process (node --expose-gc --import tsx bench/memory-probe.ts <mode>) and prints
 * `{ before, after }` RSS in bytes. Modes: `bare` (one bankrun start), `emulator` (one emulator),
 * `churn` (20 emulators created and closed; before = after the first one).
 */
import { start } from 'solana-bankrun';
import { createRelayEmulator } from '../src/index.ts';
import { genesisAccounts, loadFixtures } from '../src/fixtures/load-fixtures.ts';

const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);
const rss = () => {
  gc();
  return process.memoryUsage().rss;
};
const mode = process.argv[2];
const genesis = genesisAccounts(loadFixtures());
// Load every module first so that code size is not counted as state.
await (await createRelayEmulator()).close();
const keep: unknown[] = [];
let before = rss();
if (mode === 'bare') {
  keep.push(await start([], genesis.map(({ address, account }) => ({ address, info: { ...account, lamports: Number(account.lamports), rentEpoch: 0 } }))));
} else if (mode === 'emulator') {
  keep.push(await createRelayEmulator());
} else if (mode === 'churn') {
  const count = Number(process.argv[3] ?? 20);
  await (await createRelayEmulator()).close();
  before = rss();
  for (let index = 0; index < count; index += 1) await (await createRelayEmulator()).close();
} else {
  throw new Error(`unknown mode ${mode}`);
}
const after = rss();
process.stdout.write(JSON.stringify({ before, after, kept: keep.length }));
