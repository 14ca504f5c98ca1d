/** A state snapshot: every registered part's data, as the state file stores it (see state-codec). */
export interface EmulatorSnapshot {
  format: 'relay-emulator-state';
  /** 2 since snapshots carry a checksum; 1 (without one) is still read. */
  version: 1 | 2;
  savedAt: string;
  /** The fee payer of the fixtures it was taken with. */
  feePayer: string;
  /** Whether the relay queue was paused. */
  queuePaused: boolean;
  parts: Record<string, unknown>;
  /**
   * `crc32:<hex>` of the rest (snapshot-seal.ts), the last field: restore() and a start from a
   * state file refuse a snapshot whose content does not match it. Changed a snapshot on purpose?
   * Seal it again with sealSnapshot().
   */
  checksum?: string;
}
