/**
 * What the relay lets a transaction make its fee payer do. Every rule is in docs of
 * {@link checkPolicy}; these options make it stricter or looser.
 */
export interface PolicyOptions {
  /** Most signatures a transaction may require, the fee payer's included. Default 6. */
  maxSignatures: number;
  /**
   * Highest compute-unit price in micro-lamports, since the fee payer pays priority fees.
   * Default 100_000 (0.1 lamport per CU: at most 20,000 lamports over a 200k CU budget).
   */
  maxComputeUnitPrice: bigint;
  /** Mints the relay sponsors, base58; `null` sponsors every mint. Default null. */
  allowedMints: readonly string[] | null;
  /**
   * Extra programs a transaction may call, base58. The fee payer may never be a signer or
   * writable in their instructions. Default none.
   */
  extraPrograms: readonly string[];
}

export const DEFAULT_POLICY: PolicyOptions = {
  maxSignatures: 6,
  maxComputeUnitPrice: 100_000n,
  allowedMints: null,
  extraPrograms: [],
};

export function resolvePolicy(options: Partial<PolicyOptions> = {}): PolicyOptions {
  return { ...DEFAULT_POLICY, ...options };
}
