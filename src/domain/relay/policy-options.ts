import { PublicKey } from '@solana/web3.js';

/**
 * The two policy profiles. `faithful` (the default) sponsors what the vendor's own clients build
 * (wrapped-SOL accounts, a recipient's account created without a close-authority hand-over, a SOL
 * transfer from the user's wallet, ...) and records, per transaction, the strict rules it breaks and
 * the lamports the fee payer cannot get back; `strict` refuses all of those. Both refuse every
 * drain: the rules that keep the fee payer from signing, paying or owning anything else are the
 * same in both. The table "Fee-payer policy" of openapi/relay.yaml gives both columns.
 */
export const POLICY_PROFILES = ['faithful', 'strict'] as const;
export type PolicyProfile = (typeof POLICY_PROFILES)[number];

/**
 * What the relay lets a transaction make its fee payer do. The rules are the table "Fee-payer
 * policy" in openapi/relay.yaml (info.description). `profile` picks which shapes are sponsored; the
 * other options narrow either profile the same way (a limit or a list applies whatever the profile).
 */
export interface PolicyOptions {
  /** Which shapes are sponsored: `faithful` (default) or `strict`. */
  profile: PolicyProfile;
  /** Most signatures a transaction may require, the fee payer's included (rule S2). Default 6. */
  maxSignatures: number;
  /**
   * Highest compute-unit price in micro-lamports, since the fee payer pays priority fees (rule C2).
   * Default 100_000 (0.1 lamport per CU: at most 140,000 lamports over Solana's 1.4M CU maximum).
   */
  maxComputeUnitPrice: bigint;
  /**
   * Highest compute-unit limit a SetComputeUnitLimit may request (rule C3). Default 1_400_000,
   * Solana's maximum: a larger request is refused rather than silently clamped.
   */
  maxComputeUnitLimit: number;
  /**
   * Mints the relay sponsors, base58 (rules A5, T1); `null` sponsors every SPL Token mint. Default
   * null. Under `faithful` the wrapped-SOL mint stands for SOL too: when the list is set, wrapped-SOL
   * accounts and SOL transfers are sponsored only if it names So11111111111111111111111111111111111111112.
   */
  allowedMints: readonly string[] | null;
  /**
   * Extra programs a transaction may call, base58 (rule P1). The fee payer may never be among the
   * accounts of their instructions (rule F1), so they can neither spend nor sign as it. Default none.
   */
  extraPrograms: readonly string[];
  /**
   * Most lamports beyond the fee that a simulation may show the fee payer losing to the app's own
   * programs (rule F3, faithful only: Anchor's `payer = …` pays an account's rent so). Default
   * 10,000,000 (0.01 SOL: the rent of an account of about 1,300 bytes).
   */
  maxAppProgramLamports: bigint;
}

/**
 * What callers pass: a profile name alone, or the options with every field optional (the price may
 * be a number, e.g. from JSON).
 */
export type PolicyInput =
  | PolicyProfile
  | (Partial<Omit<PolicyOptions, 'maxComputeUnitPrice' | 'maxAppProgramLamports'>> & {
      maxComputeUnitPrice?: bigint | number;
      maxAppProgramLamports?: bigint | number;
    });

export const DEFAULT_POLICY: PolicyOptions = {
  profile: 'faithful',
  maxSignatures: 6,
  maxComputeUnitPrice: 100_000n,
  maxComputeUnitLimit: 1_400_000,
  allowedMints: null,
  extraPrograms: [],
  maxAppProgramLamports: 10_000_000n,
};

/** Fills defaults and validates; a bad option is a TypeError at start-up, never a surprise per request. */
export function resolvePolicy(input: PolicyInput = {}): PolicyOptions {
  const options = typeof input === 'string' ? { profile: input } : input;
  const defined = Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined)) as Exclude<PolicyInput, PolicyProfile>;
  const policy: PolicyOptions = {
    ...DEFAULT_POLICY,
    ...defined,
    maxComputeUnitPrice: BigInt(defined.maxComputeUnitPrice ?? DEFAULT_POLICY.maxComputeUnitPrice),
    maxAppProgramLamports: BigInt(defined.maxAppProgramLamports ?? DEFAULT_POLICY.maxAppProgramLamports),
  };
  if (!(POLICY_PROFILES as readonly string[]).includes(policy.profile)) {
    throw new TypeError(`policy.profile must be one of ${POLICY_PROFILES.join(', ')}, got ${JSON.stringify(policy.profile)}`);
  }
  if (!Number.isInteger(policy.maxSignatures) || policy.maxSignatures < 1 || policy.maxSignatures > 127) {
    throw new TypeError(`policy.maxSignatures must be an integer from 1 to 127, got ${policy.maxSignatures}`);
  }
  if (policy.maxAppProgramLamports < 0n) throw new TypeError('policy.maxAppProgramLamports must not be negative');
  if (policy.maxComputeUnitPrice < 0n) throw new TypeError('policy.maxComputeUnitPrice must not be negative');
  if (!Number.isInteger(policy.maxComputeUnitLimit) || policy.maxComputeUnitLimit < 0) {
    throw new TypeError(`policy.maxComputeUnitLimit must be a non-negative integer, got ${policy.maxComputeUnitLimit}`);
  }
  return {
    ...policy,
    allowedMints: policy.allowedMints === null ? null : policy.allowedMints.map((mint) => canonicalAddress(mint, 'allowedMints')),
    extraPrograms: policy.extraPrograms.map((program) => canonicalAddress(program, 'extraPrograms')),
  };
}

function canonicalAddress(value: string, option: string): string {
  try {
    return new PublicKey(value).toBase58();
  } catch {
    throw new TypeError(`policy.${option} holds ${JSON.stringify(value)}, which is not a base58 public key`);
  }
}
