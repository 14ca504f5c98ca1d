/**
 * Runs in its own process (node --expose-gc --import tsx bench/memory-probe.ts <mode> <engine> [n])
 * and prints `{ before, after }` RSS in bytes. Modes: `bare` (one bare engine start), `emulator`
 * (one emulator), `churn` (n emulators created and closed; before = after the first two).
 */
import { createRelayEmulator } from '../src/index.ts';
import { isEngineName } from '../src/ledger/engines.ts';
import { startBareEngine } from './bare-engines.ts';

const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);
const rss = () => {
  gc();
  return process.memoryUsage().rss;
};
const [mode, engine, n] = process.argv.slice(2);
if (!isEngineName(engine)) throw new Error(`unknown engine ${engine}`);
// Load every module first so that code size is not counted as state.
await (await createRelayEmulator({ engine })).close();
const keep: unknown[] = [];
let before = rss();
if (mode === 'bare') {
  keep.push(await startBareEngine(engine));
} else if (mode === 'emulator') {
  keep.push(await createRelayEmulator({ engine }));
} else if (mode === 'churn') {
  const count = Number(n ?? 20);
  await (await createRelayEmulator({ engine })).close();
  before = rss();
  for (let index = 0; index < count; index += 1) await (await createRelayEmulator({ engine })).close();
} else {
  throw new Error(`unknown mode ${mode}`);
}
const after = rss();
process.stdout.write(JSON.stringify({ before, after, kept: keep.length }));
