import type { components } from '../../generated/relay.ts';
import { PublicKey } from '@solana/web3.js';
import { decodeBase58 } from '../../base/crypto/base58.ts';
import { parseAppsFile } from './apps-file.ts';
import { createEd25519Signer, type Ed25519Signer } from '../../base/crypto/ed25519.ts';
import { RelayError } from '../../base/errors/relay-error.ts';
import { keypairOf, type Fixtures } from '../../domain/fixtures/load-fixtures.ts';
import { InternalError } from '../../base/errors/internal-error.ts';
import { keypairFromSecretKey } from '../../base/crypto/keypairs.ts';

/**
 * An explorer template with the emulator's address filled in, so that links follow the port and
 * public URL the emulator really serves on: `{rpcUrl}` is its RPC URL, URL-encoded (a query value),
 * and `{origin}` its origin as is (a path prefix).
 */
function resolveExplorer(template: string, where: { rpcUrl: string; origin: string }): string {
  return template.replaceAll('{rpcUrl}', encodeURIComponent(where.rpcUrl)).replaceAll('{origin}', where.origin);
}

export { DEFAULT_COMMITMENT_TIMEOUT_MS, type AppsFile } from './apps-file-schema.ts';

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
    const parsed = parseAppsFile(fixtures.extra.apps ?? []);
    const relayFeePayer = fixtures.relay.feePayer;
    this.#signers.set(relayFeePayer.publicKey, createEd25519Signer(keypairOf(relayFeePayer).secretKey));

    for (const app of parsed) {
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
          const keypair = keypairFromSecretKey(secret);
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
