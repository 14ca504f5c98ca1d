import type { Ed25519Signer } from '../../base/crypto/ed25519.ts';
import type { Fixtures } from '../../domain/fixtures/load-fixtures.ts';
import { withoutTrailingSlashes } from '../../base/http/request-url.ts';
import { room, type Room } from '../../core/room.ts';
import { PROGRAMS } from '../../domain/relay/programs.ts';
import { defaultFeePayerPolicy, defaultKoraSection, type KoraConfig } from './kora-config.ts';
import { koraAnswer, koraMiddleware } from './kora-handler.ts';
import { readKoraSigners, singleSignerPool } from './kora-signers.ts';
import { KoraUsage } from './kora-usage.ts';
import type { KoraContext, KoraDeps } from './kora-context.ts';
import { boundedReadProblem, MAX_TOML_BYTES, readBoundedText } from '../../base/disk/read-file.ts';
import { InternalError } from '../../base/errors/internal-error.ts';

export interface KoraOptions {
  /** A `kora.toml` to read, as Kora reads it (`--kora-config`). Default: {@link defaultKoraConfig}. */
  config?: string;
  /** A `signers.toml` to read, as Kora reads it (`--kora-signers`), its keys from the environment. Default: the relay's fee payer. */
  signers?: string;
}

/**
 * The Kora a team gets without a kora.toml: the fixture mints allowed and accepted for payment, the
 * programs a token transfer needs (System, SPL Token, Token-2022, ATA, Compute Budget, Memo), 1 SOL
 * and 10 signatures at most, the `free` price, every method enabled, and Kora's own default
 * fee-payer policy (the fee payer may do nothing but pay).
 */
export function defaultKoraConfig(fixtures: Fixtures): KoraConfig {
  const mints = fixtures.mints.map((mint) => mint.address);
  return {
    validation: {
      max_allowed_lamports: 1_000_000_000,
      max_signatures: 10,
      allowed_programs: [
        PROGRAMS.system,
        PROGRAMS.token,
        PROGRAMS.token2022,
        PROGRAMS.associatedToken,
        PROGRAMS.computeBudget,
        PROGRAMS.memo,
        PROGRAMS.memoV1,
      ].map((key) => key.toBase58()),
      allowed_tokens: mints,
      allowed_spl_paid_tokens: [...mints],
      disallowed_accounts: [],
      price_source: 'Mock',
      fee_payer_policy: defaultFeePayerPolicy(),
      price: { type: 'free' },
      token_2022: { blocked_mint_extensions: [], blocked_account_extensions: [] },
      allow_durable_transactions: false,
    },
    kora: defaultKoraSection(),
  };
}

/**
 * Kora's JSON-RPC over the emulator's ledger and relay, signing as the signers.toml's keys, else as
 * `feePayer` (the relay's): at `koraUrl` itself (origin and path: an app may name any URL, `/` or
 * `/rpc` of its own host included), and at `/kora` and `GET /liveness` of every origin the emulator
 * serves. Also the programs its kora.toml allows (the emulator warns at start of any the ledger
 * cannot run).
 */
/** A kora.toml's text, or KORA_CONFIG_INVALID naming it: unreadable, or larger than any kora.toml (`/dev/zero` read 8 GB). */
function readKoraFile(path: string): string {
  try {
    return readBoundedText(path, MAX_TOML_BYTES);
  } catch (error) {
    throw new InternalError('KORA_CONFIG_INVALID', { problem: `${path}: ${boundedReadProblem(error)}` });
  }
}

export async function koraRoom(
  deps: KoraDeps,
  feePayer: Ed25519Signer,
  options: KoraOptions = {},
): Promise<{ room: Room<KoraDeps>; allowedPrograms: readonly string[]; signerAddresses: readonly string[] }> {
  // The kora.toml reader (and the Token-2022 extension names it checks) loads only for a kora.toml.
  const config =
    options.config === undefined
      ? defaultKoraConfig(deps.fixtures)
      : (await import('./kora-toml.ts')).readKoraToml(readKoraFile(options.config), options.config);
  const signers = options.signers === undefined ? singleSignerPool(feePayer) : readKoraSigners(options.signers);
  const usage = new KoraUsage(config.kora.usage_limit, deps.changes.reporter('koraUsage'));
  deps.state.register({
    name: 'koraUsage',
    snapshot: () => usage.snapshot(),
    restore: (data) => usage.restore(data),
    reset: () => usage.reset(),
    replay: (changes) => usage.replay(changes),
  });
  const context: KoraContext = { deps, config, signers, usage };
  const url = new URL(deps.config.koraUrl);
  const koraUrl = { path: withoutTrailingSlashes(url.pathname), origin: url.origin };
  return {
    room: room({
      name: 'kora',
      deps,
      middleware: koraMiddleware(context),
      endpoint: {
        match(request, pathname, context) {
          const { method } = request;
          // Its two paths on every origin, with a method they do not take: 405 with what they take.
          if (pathname === '/kora' && method !== 'POST') return { allow: 'POST' };
          if (pathname === '/liveness' && method !== 'GET' && method !== 'HEAD') return { allow: 'GET' };
          if (!isKora(request, withoutTrailingSlashes(pathname), koraUrl, context.mount?.ownedBy === 'kora')) return null;
          return method === 'GET' ? LIVENESS : JSON_RPC;
        },
        handle: koraAnswer(context),
      },
    }),
    allowedPrograms: config.validation.allowed_programs,
    // Kora's fee payers: sponsors, in the sponsor-cost report.
    signerAddresses: signers.addresses(),
  };
}

const LIVENESS = { operationId: 'koraLiveness' } as const;
const JSON_RPC = { operationId: 'koraJsonRpc' } as const;

/**
 * Kora answers at koraUrl itself, and at `/kora` and `GET /liveness` of every origin; on its own
 * port (`--kora-port`), at the root whatever the Host (`localhost`, the SDK's default, or a LAN
 * address: issue 45, item 9). The path is compared first: most requests are told apart without
 * parsing their URL.
 */
function isKora(request: Request, pathname: string, koraUrl: { path: string; origin: string }, ownPort: boolean): boolean {
  const liveness = request.method === 'GET';
  if (pathname === (liveness ? '/liveness' : '/kora')) return true;
  if (ownPort && !liveness && pathname === '/') return true;
  if (pathname !== (liveness ? `${koraUrl.path === '/' ? '' : koraUrl.path}/liveness` : koraUrl.path)) return false;
  return new URL(request.url).origin === koraUrl.origin;
}
