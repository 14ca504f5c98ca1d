import { mkdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const LOCK = join(tmpdir(), 'relay-emulator-test-ports-8899-8900.lock');
/** Past this a lock is a crashed run's (no test holds the default ports for longer). */
const STALE_MS = 10 * 60_000;

/**
 * Runs `work` holding the loopback's default Solana ports (8899 and 8900) for this machine's test
 * runs: a tool that takes no port flag (Anchor 1.x without a [surfpool] table, `anchor account`,
 * gill's localnet) listens or calls there, and two vitest workers must not both. A folder made
 * atomically is the lock; waiting is bounded.
 */
export async function withDefaultPorts<T>(work: () => Promise<T>, waitMs = 5 * 60_000): Promise<T> {
  const until = Date.now() + waitMs;
  for (;;) {
    try {
      mkdirSync(LOCK);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      try {
        if (Date.now() - statSync(LOCK).mtimeMs > STALE_MS) rmSync(LOCK, { recursive: true, force: true });
      } catch {
        // Gone already: try again.
      }
      if (Date.now() > until) throw new Error(`ports 8899 and 8900: still held by another test run after ${waitMs / 1000} s (${LOCK})`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  try {
    return await work();
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}
