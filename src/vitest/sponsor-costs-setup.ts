/**
 * The setup file `sponsorCosts()` adds to every test project: it runs each test inside its label
 * (domain/relay/cost-labels.ts TEST_LABELS, by async context, so concurrent tests keep their own),
 * names it on the requests its clients send to a loopback port, and after each test puts what that
 * test's sponsored transactions cost into the test's meta, which the reporter reads.
 */
import { relative } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { getFn, setFn } from 'vitest/suite';
import { TEST_LABELS } from '../domain/relay/cost-labels.ts';
import { EMULATORS, type RelayEmulator } from '../assembly/emulator.ts';
import { costFigures, labelOf, testNameOf, type TestMeta } from './test-label.ts';
import { nameRequestsByTest } from './test-header.ts';

/** How long after a test the queue may take to land what it accepted: an emulator whose queue is paused is not waited for. */
const SETTLE_MS = 10_000;

const global = globalThis as Record<symbol, unknown>;
const LABEL = Symbol('relay-emulator.sponsor-cost-label');

nameRequestsByTest();

beforeEach((context) => {
  const task = context.task as typeof context.task & { [LABEL]?: string };
  const label = labelOf(task, (file) => relative(process.cwd(), file));
  task[LABEL] = label;
  // The test's own function, run inside its label: what it sends, directly or by its clients, is its.
  const fn = getFn(task);
  setFn(task, (...args: Parameters<typeof fn>) => TEST_LABELS.run(label, () => fn(...args)));
});

afterEach(async (context) => {
  const label = (context.task as { [LABEL]?: string })[LABEL];
  const emulators = [...((global[EMULATORS] as Set<RelayEmulator> | undefined) ?? [])];
  await Promise.all(
    emulators.map(async (emulator) => {
      if (emulator.queueState().paused) return;
      await Promise.race([emulator.settle().catch(() => undefined), new Promise((resolve) => setTimeout(resolve, SETTLE_MS).unref())]);
    }),
  );
  const meta = context.task.meta as TestMeta;
  meta.sponsorCostsTest = testNameOf(context.task);
  meta.sponsorCosts = costFigures(emulators.flatMap((emulator) => emulator.sponsorCosts().filter((entry) => entry.label === label)));
  if (emulators.length > 0) meta.sponsorCostsEngine = emulators[0]!.config.engine;
});
