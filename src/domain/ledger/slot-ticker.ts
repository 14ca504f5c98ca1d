/** What a slot ticker moves: a ledger, one slot at a time. */
export interface Tickable {
  tick(): Promise<unknown>;
}

/** The fewest milliseconds a slot may take in wall-clock mode (option `slotTimeMs`, `--slot-time`). */
export const MIN_SLOT_TIME_MS = 10;

/**
 * Wall-clock mode: opens a new slot every `ms` of wall time, as a validator (about 400 ms) or
 * Surfpool does, by ticking the ledger one slot; so an idle emulator's slots, block height,
 * SlotHashes, blockhash expiry and PubSub slot notifications move by themselves. Off by default:
 * tests stay deterministic. A tick that finds the last one still waiting on the ledger (a long
 * transaction holds it) is skipped, never queued. The timer does not keep the process alive.
 */
export function startSlotTicker(ledger: Tickable, ms: number, onError: (error: unknown) => void): { stop(): Promise<void> } {
  checkSlotTime(ms);
  let running: Promise<void> | null = null;
  const timer = setInterval(() => {
    if (running) return;
    running = ledger
      .tick()
      .then(() => undefined, onError)
      .finally(() => {
        running = null;
      });
  }, ms);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}

/** Throws a RangeError for a slot time that is not a whole number of milliseconds of at least {@link MIN_SLOT_TIME_MS}. */
export function checkSlotTime(ms: number): void {
  if (!Number.isInteger(ms) || ms < MIN_SLOT_TIME_MS)
    throw new RangeError(`slotTimeMs must be a whole number of milliseconds, at least ${MIN_SLOT_TIME_MS}, not ${ms}`);
}
