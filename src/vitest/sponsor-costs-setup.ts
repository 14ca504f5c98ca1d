/**
 * The setup file `sponsorCosts()` adds to every test project: it names the running test for what
 * the emulators in this process accept (domain/relay/cost-labels.ts), and after each test puts
 * what that test's sponsored transactions cost into the test's meta, which the reporter reads.
 */
import { relative } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { CURRENT_TEST } from '../domain/relay/cost-labels.ts';
import { EMULATORS, type RelayEmulator } from '../assembly/emulator.ts';
import { costFigures, labelOf, type TestMeta } from './test-label.ts';

/** How long after a test the queue may take to land what it accepted: an emulator whose queue is paused is not waited for. */
const SETTLE_MS = 10_000;

const global = globalThis as Record<symbol, unknown>;

beforeEach((context) => {
  global[CURRENT_TEST] = labelOf(context.task, (file) => relative(process.cwd(), file));
});

afterEach(async (context) => {
  const label = global[CURRENT_TEST] as string;
  const emulators = [...((global[EMULATORS] as Set<RelayEmulator> | undefined) ?? [])];
  await Promise.all(
    emulators.map(async (emulator) => {
      if (emulator.queueState().paused) return;
      await Promise.race([emulator.settle().catch(() => undefined), new Promise((resolve) => setTimeout(resolve, SETTLE_MS).unref())]);
    }),
  );
  const meta = context.task.meta as TestMeta;
  meta.sponsorCosts = costFigures(emulators.flatMap((emulator) => emulator.sponsorCosts().filter((entry) => entry.label === label)));
  if (emulators.length > 0) meta.sponsorCostsEngine = emulators[0]!.config.engine;
  global[CURRENT_TEST] = undefined;
});
