import type { components } from '../../generated/relay.ts';
import { TOKEN_PROGRAM_ID } from '../../domain/ledger/spl-token.ts';
import { Keypair, PublicKey } from '@solana/web3.js';
import { decodeBase58 } from '../../base/crypto/base58.ts';
import { z } from 'zod';
import { createEd25519Signer, type Ed25519Signer } from '../../base/crypto/ed25519.ts';
import { RelayError } from '../../base/errors/relay-error.ts';
import { keypairOf, type Fixtures } from '../../domain/fixtures/load-fixtures.ts';
import { InternalError } from '../../base/errors/internal-error.ts';

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
const DEFAULT_EXPLORER = '{origin}/{path}';

/**
 * An explorer template with the emulator's address filled in, so that links follow the port and
 * public URL the emulator really serves on: `{rpcUrl}` is its RPC URL, URL-encoded (a query value),
 * and `{origin}` its origin as is (a path prefix).
 */
function resolveExplorer(template: string, where: { rpcUrl: string; origin: string }): string {
  return template.replaceAll('{rpcUrl}', encodeURIComponent(where.rpcUrl)).replaceAll('{origin}', where.origin);
}

const base58Key = z.string().regex(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/, 'must be a base58 public key');

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
      type: z.enum(['Custom', 'SolanaDevnet', 'SolanaMainnet', 'SolanaTestnet']).default('Custom'),
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
export const appsFileSchema = z.array(appSchema);
export type AppsFile = z.input<typeof appsFileSchema>;

/** A mint entry of an app (spec 2.6), every field resolved: the contract's LegacyMint. */
export type LegacyMint = components['schemas']['LegacyMint'];

export interface LegacyApp {
  /** `app-<index>-<environment>`, as the legacy service named apps in its messages. */
  key: string;
  environment: string;
  index: number;
  name: string;
  explorer: string;
  cluster: { id: string; name: string; type: 'Custom' | 'SolanaDevnet' | 'SolanaMainnet' | 'SolanaTestnet'; endpoint: string };
  mints: LegacyMint[];
  webhooks: { verify: string | null; event: string | null };
  ipsAllowed: string[];
  ipsBlocked: string[];
  uasAllowed: string[];
  uasBlocked: string[];
  commitmentTimeoutMs: number;
}

export function appKey(environment: string, index: number): string {
  return `app-${index}-${environment}`;
}

/**
 * The legacy apps of an emulator, from `fixtures.extra.apps` (fixtures/apps.json), validated and
 * resolved against the other fixtures. Invalid files throw at start-up, naming the problem.
 */
export class LegacyApps {
  readonly #apps = new Map<string, LegacyApp>();
  readonly #signers = new Map<string, Ed25519Signer>();

  /** `rpcUrl` and `origin` are where the emulator serves (its cluster endpoint and explorer links). */
  constructor(fixtures: Fixtures, options: { rpcUrl: string; origin: string }) {
    const parsed = appsFileSchema.safeParse(fixtures.extra.apps ?? []);
    if (!parsed.success) throw new InternalError('FIXTURES_INVALID', { problem: `fixtures apps.json is invalid: ${z.prettifyError(parsed.error)}` });
    const relayFeePayer = fixtures.relay.feePayer;
    this.#signers.set(relayFeePayer.publicKey, createEd25519Signer(keypairOf(relayFeePayer).secretKey));

    for (const app of parsed.data) {
      const key = appKey(app.environment, app.index);
      if (this.#apps.has(key)) throw new InternalError('FIXTURES_INVALID', { problem: `fixtures apps.json defines ${key} twice` });
      const mints = app.mints.map((mint): LegacyMint => {
        const known = fixtures.mints.find((candidate) => candidate.address === mint.publicKey);
        const decimals = mint.decimals ?? known?.decimals;
        if (decimals === undefined)
          throw new InternalError('FIXTURES_INVALID', {
            problem: `fixtures apps.json: ${key} mint ${mint.publicKey} is not in mints.json, so it needs decimals`,
          });
        if (known && decimals !== known.decimals)
          throw new InternalError('FIXTURES_INVALID', {
            problem: `fixtures apps.json: ${key} mint ${mint.publicKey} has ${decimals} decimals; mints.json says ${known.decimals}`,
          });
        const feePayer = mint.feePayer ?? relayFeePayer.publicKey;
        if (!this.#signers.has(feePayer)) {
          if (!mint.feePayerSecretKey)
            throw new InternalError('FIXTURES_INVALID', {
              problem: `fixtures apps.json: ${key} mint ${mint.publicKey} has fee payer ${feePayer} without feePayerSecretKey`,
            });
          const secret = decodeBase58(mint.feePayerSecretKey);
          if (secret === null) throw new InternalError('FIXTURES_INVALID', { problem: `fixtures apps.json: ${key} feePayerSecretKey is not base58` });
          const keypair = Keypair.fromSecretKey(secret);
          if (keypair.publicKey.toBase58() !== feePayer)
            throw new InternalError('FIXTURES_INVALID', { problem: `fixtures apps.json: ${key} feePayerSecretKey is not the secret key of ${feePayer}` });
          this.#signers.set(feePayer, createEd25519Signer(keypair.secretKey));
        }
        return {
          addMemo: mint.addMemo,
          airdrop: mint.airdrop,
          airdropAmount: mint.airdropAmount,
          airdropMax: mint.airdropMax,
          decimals,
          feePayer,
          logoUrl: mint.logoUrl ?? known?.logoUrl ?? '',
          name: mint.name ?? known?.name ?? mint.publicKey,
          programId: mint.programId,
          publicKey: new PublicKey(mint.publicKey).toBase58(),
          symbol: mint.symbol ?? known?.symbol ?? '',
        };
      });
      this.#apps.set(key, {
        key,
        environment: app.environment,
        index: app.index,
        name: app.name,
        explorer: resolveExplorer(app.explorer, options),
        cluster: { ...app.cluster, endpoint: app.cluster.endpoint ?? options.rpcUrl },
        mints,
        webhooks: { verify: app.webhooks.verify ?? null, event: app.webhooks.event ?? null },
        ipsAllowed: app.ipsAllowed,
        ipsBlocked: app.ipsBlocked,
        uasAllowed: app.uasAllowed,
        uasBlocked: app.uasBlocked,
        commitmentTimeoutMs: app.commitmentTimeoutMs,
      });
    }
  }

  all(): LegacyApp[] {
    return [...this.#apps.values()];
  }

  /** The app at environment/index, or 404 APP_NOT_FOUND. */
  get(environment: string, index: number): LegacyApp {
    const key = appKey(environment, index);
    const app = this.#apps.get(key);
    if (!app) throw new RelayError('APP_NOT_FOUND', `${key}: App not found.`);
    return app;
  }

  /** The app's entry for `mint`, or 400 MINT_NOT_IN_APP naming the mint. */
  mint(app: LegacyApp, mint: string): LegacyMint {
    const found = app.mints.find((candidate) => candidate.publicKey === mint);
    if (!found) throw new RelayError('MINT_NOT_IN_APP', `${app.key}: Can't find mint ${mint}`);
    return found;
  }

  /** The signer of a mint's fee payer (always held: the constructor refuses fee payers without a key). */
  signer(mint: LegacyMint): Ed25519Signer {
    return this.#signers.get(mint.feePayer)!;
  }

  /** The signer of `publicKey` when it is the fee payer of one of the app's mints (its "wallets"), else null. */
  walletSigner(app: LegacyApp, publicKey: string): Ed25519Signer | null {
    return app.mints.some((mint) => mint.feePayer === publicKey) ? (this.#signers.get(publicKey) ?? null) : null;
  }
}
