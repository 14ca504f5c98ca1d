import { parseArgs } from 'node:util';
import { parseArgsMessage } from '../../../base/words/parse-args-message.ts';
import { START_FLAGS } from './start-flags.ts';
import { DEFAULT_HOST, DEFAULT_PORT } from '../../listen/defaults.ts';
import { DEFAULT_STATE_INTERVAL_MS } from '../../server/state-file.ts';
import { LOG_LEVELS, type LogLevel } from '../../server/logger.ts';
import { READY_LINE_PREFIX } from '../launch/ready.ts';
import { DEFAULT_ENGINE, ENGINE_NAMES, isEngineName, type EngineName } from '../../../domain/ledger/engines.ts';
import { MIN_SLOT_TIME_MS } from '../../../domain/ledger/slot-ticker.ts';
import { normalizeOrigin } from '../../../base/http/server-mount.ts';
import { POLICY_PROFILES, type PolicyProfile } from '../../../domain/relay/policy-options.ts';
import { RPC_AUTH_MODES, type RpcAuthMode } from '../../../domain/auth/rpc-auth.ts';
import { resolve } from 'node:path';
import type { AccountOption, ProgramOption } from '../../../domain/fixtures/app-genesis.ts';
import type { GenesisOptions, SurfnetOptions } from '../../../assembly/options.ts';
import type { ClusterOptions } from '../../../domain/fixtures/validator-genesis.ts';
import type { CloneOptions } from '../../../domain/fixtures/clone-cache.ts';
import { takeValidatorFlags, validatorFlagLines } from '../launch/validator-flags.ts';
import { oneOf, UsageError } from '../launch/usage-error.ts';
import { anchorWorkspace, type CloneListFlag, cloneOptions, flagFromEnv, integer, list, splitPaths } from '../launch/flag-values.ts';

/** What `relay-emulator start` runs with, once flags, environment and defaults are merged. */
export interface StartOptions {
  port: number;
  host: string;
  publicUrl: string | null;
  apiKeys: string[] | null;
  fixtures: string | null;
  stateFile: string | null;
  /** --import: a state exported by `relay-emulator export` (or a state file) to start from. */
  importFile: string | null;
  stateIntervalMs: number;
  tokenTtlSeconds: number | null;
  logLevel: LogLevel;
  adminToken: string | null;
  controlOrigins: string[];
  journalLimit: number | null;
  /** --slot-time: wall-clock mode's milliseconds a slot, or null (off). */
  slotTimeMs: number | null;
  /** --timing: instant (the default) or validator (slots with time, a transaction in the next slot, commitments lagging). */
  timing: 'instant' | 'validator';
  /** When the RPC and PubSub need the Token (--rpc-auth; --no-rpc-auth is `off`). */
  rpcAuth: RpcAuthMode;
  /** --skip-preflight: relayed transactions are submitted without simulating them first. */
  skipPreflight: boolean;
  /** A second port with Kora's JSON-RPC at its root, or null. */
  koraPort: number | null;
  /** The `surfpool` stand-in's: PubSub's own port (--ws-port), and its snapshots, test configs and runbooks; null for `start`. */
  pubsubPort: number | null;
  surfnet: SurfnetOptions | null;
  /** The kora.toml for Kora's JSON-RPC, or null for the default config. */
  koraConfig: string | null;
  /** The signers.toml for Kora's signers, or null for the relay's fee payer. */
  koraSigners: string | null;
  /** Where to write the ready facts (URLs, API key, fee payer) as JSON once the emulator answers. */
  readyFile: string | null;
  engine: EngineName;
  policy: PolicyProfile | null;
  /** --bpf-program and --upgradeable-program, in solana-test-validator's syntax. */
  programs: ProgramOption[];
  /** --account ADDRESS|- FILE. */
  accounts: AccountOption[];
  /** --account-dir DIR, resolved. */
  accountDirs: string[];
  /** The Anchor workspace to load: --anchor DIR, else the working directory when it holds an Anchor.toml (not with --no-anchor). */
  anchor: string | null;
  /** --watch: reload a program loaded from a .so when the file changes. */
  watch: boolean;
  /** solana-test-validator's genesis flags (test-validator's --mint, --slots-per-epoch, …), or null: none. */
  genesis: GenesisOptions | null;
  /** The validator the emulator stands for: --genesis (app or validator), and test-validator's keys and faucet. */
  cluster: ClusterOptions;
  /** --url and the clone flags: what the clone cache holds, or fetches once; null when none was given. */
  clone: CloneOptions | null;
  /** --sponsor-costs FILE: the sponsor-cost report written on stop, or null. */
  sponsorCosts: string | null;
  /** --accept-state-loss: cut a damaged journal where the damage starts, and serve what precedes it. */
  acceptStateLoss: boolean;
  help: boolean;
}

export { UsageError } from '../launch/usage-error.ts';

/** The command's flags, as node:util parseArgs takes them (the hostile-path test reads every one: test/support/path-flags.ts). */
export const START_OPTIONS = {
  port: { type: 'string', short: 'p' },
  host: { type: 'string' },
  'public-url': { type: 'string' },
  'api-key': { type: 'string', multiple: true },
  fixtures: { type: 'string' },
  'state-file': { type: 'string' },
  import: { type: 'string' },
  'state-interval': { type: 'string' },
  'token-ttl': { type: 'string' },
  'log-level': { type: 'string' },
  'admin-token': { type: 'string' },
  'control-origin': { type: 'string', multiple: true },
  'journal-limit': { type: 'string' },
  'slot-time': { type: 'string' },
  'rpc-auth': { type: 'string' },
  'no-rpc-auth': { type: 'boolean' },
  'skip-preflight': { type: 'boolean' },
  'ready-file': { type: 'string' },
  'kora-config': { type: 'string' },
  'kora-signers': { type: 'string' },
  'kora-port': { type: 'string' },
  engine: { type: 'string' },
  policy: { type: 'string' },
  genesis: { type: 'string' },
  timing: { type: 'string' },
  'account-dir': { type: 'string', multiple: true },
  url: { type: 'string', short: 'u' },
  clone: { type: 'string', short: 'c', multiple: true },
  'maybe-clone': { type: 'string', multiple: true },
  'clone-upgradeable-program': { type: 'string', multiple: true },
  'deep-clone-address-lookup-table': { type: 'string', multiple: true },
  'clone-cache': { type: 'string' },
  'refresh-clones': { type: 'boolean' },
  'sponsor-costs': { type: 'string' },
  'accept-state-loss': { type: 'boolean' },
  anchor: { type: 'string' },
  'no-anchor': { type: 'boolean' },
  watch: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** Parses `start`'s arguments with node:util parseArgs, then fills gaps from `env`. Throws UsageError. */
export function parseStartOptions(argv: string[], env: NodeJS.ProcessEnv = process.env): StartOptions {
  const validator = takeValidatorFlags(argv, (message) => {
    throw new UsageError(message);
  });
  let values: Record<string, string | string[] | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: validator.rest,
      strict: true,
      allowPositionals: false,
      options: START_OPTIONS,
    }));
  } catch (error) {
    throw new UsageError(parseArgsMessage(error));
  }
  const pick = (
    flag: Exclude<
      keyof typeof START_FLAGS,
      'no-rpc-auth' | 'skip-preflight' | 'account-dir' | 'no-anchor' | 'watch' | CloneListFlag | 'refresh-clones' | 'accept-state-loss'
    >,
  ): string | undefined => {
    const value = values[flag];
    if (typeof value === 'string') return value;
    const fromEnv = env[START_FLAGS[flag].env];
    return fromEnv === undefined || fromEnv === '' ? undefined : fromEnv;
  };

  const apiKeyFlags = values['api-key'] as string[] | undefined;
  const apiKeyEnv = env[START_FLAGS['api-key'].env];
  const apiKeys =
    apiKeyFlags ??
    (apiKeyEnv
      ? apiKeyEnv
          .split(',')
          .map((key) => key.trim())
          .filter(Boolean)
      : null);
  if (apiKeys !== null && (apiKeys.length === 0 || apiKeys.some((key) => key === ''))) throw new UsageError('--api-key must not be empty');

  const controlOrigins = list(values['control-origin'] as string[] | undefined, env[START_FLAGS['control-origin'].env]);
  for (const origin of controlOrigins) {
    try {
      normalizeOrigin(origin);
    } catch {
      throw new UsageError(`--control-origin must be an origin like http://localhost:5173, not "${origin}"`);
    }
  }

  const logLevel = oneOf('log-level', pick('log-level') ?? 'info', LOG_LEVELS);

  const publicUrl = pick('public-url') ?? null;
  if (publicUrl !== null && !/^https?:\/\/[^/]+\/?$/.test(publicUrl))
    throw new UsageError(`--public-url must be an origin like http://10.0.2.2:8787, not "${publicUrl}"`);

  const engine = pick('engine') ?? DEFAULT_ENGINE;
  if (!isEngineName(engine)) throw new UsageError(`--engine must be one of ${ENGINE_NAMES.join(', ')}, not "${engine}"`);
  const policy = pick('policy') === undefined ? null : oneOf('policy', pick('policy')!, POLICY_PROFILES);

  const noRpcAuth = values['no-rpc-auth'] === true || flagFromEnv('no-rpc-auth', env[START_FLAGS['no-rpc-auth'].env]);
  const rpcAuth = oneOf('rpc-auth', noRpcAuth ? 'off' : (pick('rpc-auth') ?? 'remote'), RPC_AUTH_MODES);
  const importFile = pick('import') ?? null;
  if (importFile !== null && pick('state-file') !== undefined) {
    throw new UsageError('--import and --state-file: a state file restores its own state; import into a running one with `relay-emulator import` instead');
  }
  const genesisKind = oneOf('genesis', pick('genesis') ?? 'app', ['app', 'validator'] as const);
  const timing = oneOf('timing', pick('timing') ?? 'instant', ['instant', 'validator'] as const);
  const tokenTtl = pick('token-ttl');
  const journalLimit = pick('journal-limit');
  const slotTime = pick('slot-time');
  return {
    port: integer('port', pick('port'), DEFAULT_PORT, { min: 0, max: 65535 }),
    host: pick('host') ?? DEFAULT_HOST,
    publicUrl,
    apiKeys,
    fixtures: pick('fixtures') ?? null,
    stateFile: pick('state-file') ?? null,
    importFile,
    stateIntervalMs: 1000 * integer('state-interval', pick('state-interval'), DEFAULT_STATE_INTERVAL_MS / 1000, { min: 0, max: 86_400 }),
    tokenTtlSeconds: tokenTtl === undefined ? null : integer('token-ttl', tokenTtl, 0, { min: 1, max: 31_536_000 }),
    logLevel,
    adminToken: pick('admin-token') ?? null,
    controlOrigins,
    journalLimit: journalLimit === undefined ? null : integer('journal-limit', journalLimit, 0, { min: 0, max: 1_000_000 }),
    slotTimeMs: slotTime === undefined ? null : integer('slot-time', slotTime, 0, { min: MIN_SLOT_TIME_MS, max: 3_600_000 }),
    timing,
    rpcAuth,
    skipPreflight: values['skip-preflight'] === true || flagFromEnv('skip-preflight', env[START_FLAGS['skip-preflight'].env]),
    readyFile: pick('ready-file') ?? null,
    koraConfig: pick('kora-config') ?? null,
    koraSigners: pick('kora-signers') ?? null,
    koraPort: pick('kora-port') === undefined ? null : integer('kora-port', pick('kora-port'), 0, { min: 0, max: 65535 }),
    pubsubPort: null,
    surfnet: null,
    engine,
    policy,
    programs: validator.programs,
    accounts: validator.accounts,
    accountDirs: ((values['account-dir'] as string[] | undefined) ?? splitPaths(env[START_FLAGS['account-dir'].env])).map((dir) => resolve(dir)),
    anchor: anchorWorkspace(pick('anchor'), values['no-anchor'] === true || flagFromEnv('no-anchor', env[START_FLAGS['no-anchor'].env])),
    watch: values.watch === true || flagFromEnv('watch', env[START_FLAGS.watch.env]),
    genesis: null,
    cluster: { genesis: genesisKind },
    clone: cloneOptions(values, env, pick('url'), pick('clone-cache')),
    sponsorCosts: pick('sponsor-costs') === undefined ? null : resolve(pick('sponsor-costs')!),
    acceptStateLoss: values['accept-state-loss'] === true || flagFromEnv('accept-state-loss', env[START_FLAGS['accept-state-loss'].env]),
    help: values.help === true,
  };
}

export function startUsage(): string {
  return (
    `Usage: relay-emulator start [options]\n\nRuns the relay emulator on a port (the same core as its MSW handlers).\nOnce it answers, its last ` +
    `line is "${READY_LINE_PREFIX} {json}": origin, baseUrl, rpcUrl, pubsubUrl, apiKey, feePayer, ...\n\nOptions:\n${optionLines()}\n` +
    `${validatorFlagLines()}\n  --help                     this text\n`
  );
}

/** The options' help, with each one's environment twin. */
export function optionLines(): string {
  return Object.entries(START_FLAGS)
    .map(([flag, { env, value, help }]) => `  --${`${flag} ${value}`.trimEnd().padEnd(24)} ${help}\n  ${' '.repeat(26)} env ${env}`)
    .join('\n');
}
