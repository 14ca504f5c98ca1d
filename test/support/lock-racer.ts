/**
 * One contender of the state-lock race (test/e2e/state-lock.test.ts): for each trial it waits for the
 * starting gun (`go-<trial>`), tries to take the lock of `state-<trial>`, and reports `took` or
 * `refused` in `result-<trial>-<pid>`. It keeps every lock it took until the parent kills it, so a
 * second taker is two live holders, not a handover.
 */
import { existsSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { StateLock } from '../../src/adapters/server/state-lock.ts';

const [directory = '', trialsText = '0'] = process.argv.slice(2);
const trials = Number(trialsText);
const held: StateLock[] = [];
const deadline = Date.now() + 120_000;

for (let trial = 0; trial < trials; trial += 1) {
  while (!existsSync(join(directory, `go-${trial}`))) {
    if (Date.now() > deadline) process.exit(2);
    await new Promise((resolve) => setImmediate(resolve));
  }
  let outcome: string;
  try {
    held.push(await StateLock.acquire(join(directory, `state-${trial}`)));
    outcome = 'took';
  } catch (error) {
    outcome = /in use by process/.test((error as Error).message) ? 'refused' : `error: ${(error as Error).message}`;
  }
  // Written whole, then renamed: the parent reads a result as soon as its file exists, and once read
  // read a file created empty and written a moment later as '' (a race of the harness, seen once under load).
  const result = join(directory, `result-${trial}-${process.pid}`);
  writeFileSync(`${result}.tmp`, outcome);
  renameSync(`${result}.tmp`, result);
}
// Held until killed.
setInterval(() => undefined, 1_000);
