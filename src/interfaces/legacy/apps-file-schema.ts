import type { z as Zod } from 'zod';
import { TOKEN_PROGRAM_ID } from '../../domain/ledger/spl-token.ts';

/** How long a legacy relay call waits for its commitment before the record fails with Timeout. */
export const DEFAULT_COMMITMENT_TIMEOUT_MS = 60_000;

/**
 * Explorer template of an app that names none: the emulator's own web UI, which serves the paths
 * the Solana explorer uses (`tx/<signature>`, `address/<address>`, `account/<address>`) offline and
 * sends the admin token its data needs, where a public explorer needs the network. Kinetic's form:
 * its template is `https://explorer.solana.com/{path}` and its SDKs fill `{path}` with `tx/…`,
 * `account/…` or `address/…`, without a leading slash; a record's link has `tx/<signature>`.
 * `{path}` stays in the config record, which the legacy SDKs fill themselves; `{rpcUrl}` and
 * `{origin}` are filled when the apps load. A fixture may still name Solana's explorer:
 * `https://explorer.solana.com/{path}?cluster=custom&customUrl={rpcUrl}`.
 */
export const DEFAULT_EXPLORER = '{origin}/{path}';

/** A base58 public key's text, as the apps file's keys are checked. */
export const BASE58_KEY = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;

export const CLUSTER_TYPES = ['Custom', 'SolanaDevnet', 'SolanaMainnet', 'SolanaTestnet'] as const;

/**
 * fixtures/apps.json's schema, over the `z` it is given: `relay-emulator/schemas` builds it over the
 * zod a consumer imports; the emulator over the zod it loads when it needs it (base/lazy-zod.ts), as
 * the fast check of interfaces/legacy/apps-file.ts vouches for the usual files without zod.
 */
export function appsFileSchemaOf(z: typeof Zod) {
  const base58Key = z.string().regex(BASE58_KEY, 'must be a base58 public key');
  const mintSchema = z.object({
    /** The mint's address. Fields left out are read from fixtures/mints.json (by address). */
    publicKey: base58Key,
    addMemo: z.boolean().default(false),
    airdrop: z.boolean().default(false),
    /** Whole tokens sent by an airdrop that names no amount. */
    airdropAmount: z.number().int().nonnegative().default(0),
    /** Most whole tokens one airdrop may send. */
    airdropMax: z.number().int().nonnegative().default(0),
    decimals: z.number().int().min(0).max(18).optional(),
    /** Fee payer of this mint's transactions. Default: the relay's fee payer (fixtures/relay.json). */
    feePayer: base58Key.optional(),
    /** Secret key (base58) of `feePayer`, required when it is not the relay's fee payer. */
    feePayerSecretKey: z.string().optional(),
    logoUrl: z.string().optional(),
    name: z.string().optional(),
    programId: base58Key.default(TOKEN_PROGRAM_ID.toBase58()),
    symbol: z.string().optional(),
  });

  const appSchema = z.object({
    environment: z.string().min(1),
    index: z.number().int().nonnegative(),
    name: z.string().min(1),
    /**
     * Explorer URL template: `{path}` becomes `tx/<signature>` (Kinetic's form, no leading slash),
     * `{rpcUrl}` the emulator's RPC URL (URL-encoded), `{origin}` its origin.
     */
    explorer: z.string().default(DEFAULT_EXPLORER),
    cluster: z
      .object({
        id: z.string().default('emulator'),
        name: z.string().default('Relay Emulator'),
        type: z.enum(CLUSTER_TYPES).default('Custom'),
        /** Default: the emulator's RPC URL. */
        endpoint: z.string().optional(),
      })
      .prefault({}),
    /** The first mint is the app's default mint (`mint` of the config record). */
    mints: z.array(mintSchema).min(1),
    webhooks: z
      .object({
        verify: z.url().optional(),
        event: z.url().optional(),
      })
      .prefault({}),
    ipsAllowed: z.array(z.string()).default([]),
    ipsBlocked: z.array(z.string()).default([]),
    uasAllowed: z.array(z.string()).default([]),
    uasBlocked: z.array(z.string()).default([]),
    /** How long a relay call waits for its commitment before failing with Timeout, in ms. */
    commitmentTimeoutMs: z.number().int().positive().default(DEFAULT_COMMITMENT_TIMEOUT_MS),
  });

  /** fixtures/apps.json: an array of apps, each unique by environment and index. */
  return z.array(appSchema);
}

export type AppsFileSchema = ReturnType<typeof appsFileSchemaOf>;
/** fixtures/apps.json as written (defaults left out). */
export type AppsFile = Zod.input<AppsFileSchema>;
/** fixtures/apps.json checked, every default filled. */
export type ParsedAppsFile = Zod.output<AppsFileSchema>;
