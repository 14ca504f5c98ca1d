/**
 * Runs in its own process (node --expose-gc --import tsx bench/memory-probe.ts <mode> <engine> [n])
 * and prints `{ before, after }` RSS in bytes. Modes: `bare` (one bare engine start), `emulator`
 * (one emulator), `churn` (n emulators created and closed one after the other; before = after
 * the first closed one, whose LiteSVM bank the others reuse).
 */
import { createRelayEmulator } from '../src/index.ts';
import { isEngineName } from '../src/domain/ledger/engines.ts';
import { startBareEngine } from './bare-engines.ts';

const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);
/**
 * RSS once the runtime has let go of what it can: a native engine (LiteSVM's bank) is freed by a
 * finalizer that runs on a later turn of the event loop than the collection that found it, so a
 * single gc() right before reading would still count every closed engine.
 */
const rss = async () => {
  for (let turn = 0; turn < 5; turn += 1) {
    gc();
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return process.memoryUsage().rss;
};
const [mode, engine, n] = process.argv.slice(2);
if (!isEngineName(engine)) throw new Error(`unknown engine ${engine}`);
// Load every module first so that code size is not counted as state. The warm-up emulator stays
// open: closed, it would leave its LiteSVM bank for the next emulator to reuse, and `emulator`
// would measure a reused bank instead of a new one.
const keep: unknown[] = [await createRelayEmulator({ engine })];
let before = await rss();
if (mode === 'bare') {
  keep.push(await startBareEngine(engine));
} else if (mode === 'emulator') {
  keep.push(await createRelayEmulator({ engine }));
} else if (mode === 'churn') {
  const count = Number(n ?? 20);
  await (await createRelayEmulator({ engine })).close();
  before = await rss();
  for (let index = 0; index < count; index += 1) await (await createRelayEmulator({ engine })).close();
} else {
  throw new Error(`unknown mode ${mode}`);
}
const after = await rss();
process.stdout.write(JSON.stringify({ before, after, kept: keep.length }));
