import { spawn } from 'node:child_process';
import { parseArgsMessage } from '../../../base/words/parse-args-message.ts';
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { EMULATOR_VERSION } from '../../../base/version.ts';
import type { GenesisOptions } from '../../../assembly/options.ts';
import { serveUntilStopped, type ServeIo } from '../launch/serve.ts';
import { signalExitCode } from '../launch/signals.ts';
import { parseStartOptions, UsageError } from '../start/start-options.ts';
import { clusterUrl, keypairAddress } from './cli-config.ts';
import { cachedDumps, DEFAULT_CLONE_CACHE } from '../../../domain/fixtures/clone-cache.ts';
import { nextOnPath } from './solana-command.ts';
import { SurfpoolLog } from './surfpool-log.ts';

/** The Surfpool release whose `start` flags and cheatcodes these are (solana-foundation/surfpool 1.5, crates/cli/src/cli/mod.rs). */
export const SURFPOOL_VERSION = '1.5.0';
/** Surfpool's WebSocket port, whatever --port (crates/types/src/types.rs, DEFAULT_WS_PORT). */
const DEFAULT_WS_PORT = 8900;
/** Surfpool's log folder, relative to the working directory. */
const DEFAULT_LOG_PATH = '.surfpool/logs';
/** Surfpool's default airdrop: 10,000 SOL. */
const DEFAULT_AIRDROP_LAMPORTS = 10_000_000_000_000n;
const NETWORKS: Readonly<Record<string, string>> = { mainnet: 'mainnet-beta', devnet: 'devnet', testnet: 'testnet' };

/** Flags Surfpool takes that mean nothing here: accepted, one note. */
const NOTED = [
  'no-tui',
  'no-studio',
  'disable-instruction-profiling',
  'yes',
  'daemon',
  'max-profiles',
  'studio-port',
  'log-bytes-limit',
  'subgraph-db',
  'surfnet-id',
];

/**
 * `relay-emulator surfpool start …`, which `relay-emulator shims DIR` installs as DIR/surfpool:
 * Surfpool's `start` with the flags projects and Anchor 1.x pass (its `anchor test` runs `surfpool
 * start --host --port --offline --block-production-mode transaction --log-level none --no-tui
 * --disable-instruction-profiling --max-profiles 1 --no-studio` and `--no-deploy` or
 * `--legacy-anchor-compatibility --anchor-test-config-path Anchor.toml`). It serves the emulator as
 * `start` does, in memory (Surfpool keeps no state by default), the RPC open to its callers.
 * `--rpc-url` and `--network`, which fork a cluster, take what the clone cache holds. Any other
 * flag is refused in one line naming it; other subcommands go to the next `surfpool` on PATH.
 */
export async function runSurfpoolCommand(argv: string[], io: ServeIo = {}): Promise<number> {
  const stdout = io.stdout ?? ((text) => process.stdout.write(text));
  const stderr = io.stderr ?? ((text) => process.stderr.write(text));
  const env = io.env ?? process.env;
  if (argv[0] === '--version' || argv[0] === '-V') {
    stdout(`surfpool ${SURFPOOL_VERSION} (relay-emulator ${EMULATOR_VERSION})\n`);
    return 0;
  }
  if (argv[0] !== 'start' && argv[0] !== 'simnet') return handOn(argv, env, stderr);
  let options: ReturnType<typeof surfpoolStartOptions>;
  try {
    options = surfpoolStartOptions(argv.slice(1), env);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    const line = `${error.message} (relay-emulator's surfpool start: docs/test-validator.md lists its flags)`;
    stderr(`Error: ${line}\n`);
    // Anchor 1.x hides surfpool's stderr and points at .surfpool/logs/: the reason is written there too.
    new SurfpoolLog(logPathIn(argv)).add('ERROR', line);
    return 2;
  }
  const log = new SurfpoolLog(options.logPath);
  log.add('INFO', `relay-emulator ${EMULATOR_VERSION}, standing in for Surfpool ${SURFPOOL_VERSION}: surfpool ${argv.join(' ')}`);
  const warn = (line: string) => {
    stderr(`relay-emulator surfpool: ${line}\n`);
    log.add('WARN', line);
  };
  if (log.problem !== null) stderr(`relay-emulator surfpool: no log file: ${log.problem}\n`);
  if (options.noted.length > 0 && !options.silent) stderr(`relay-emulator surfpool: ${options.noted.join(', ')} accepted, meaning nothing here\n`);
  for (const line of options.warnings) warn(line);
  // Surfpool forks the cluster, fetching each account as it is read; here the clone cache holds what was fetched before.
  if (options.datasource !== null) {
    const dumps = cachedDumps(options.cacheRoot, options.datasource);
    options.start.accounts.push(...dumps);
    warn(
      `${options.datasource}: ${dumps.length} account(s) from the clone cache ` +
        `(${dumps.length === 0 ? 'none yet: `relay-emulator clone --url URL --out DIR ADDRESS…` or start --clone fetch them once' : 'no network'})`,
    );
  }
  const quiet = options.silent ? () => undefined : stdout;
  return serveUntilStopped(options.start, {
    ...io,
    stdout: quiet,
    stderr,
    log(line, severity) {
      (severity === 'error' || severity === 'warn' ? stderr : quiet)(`${line}\n`);
      if (severity === 'error' || severity === 'warn') log.add(severity === 'error' ? 'ERROR' : 'WARN', line);
    },
    onReady({ server }) {
      log.add('INFO', `ready (pid ${process.pid}): RPC ${server.origin}, WebSocket ${server.emulator.config.pubsubUrl}`);
    },
  });
}

/** `--log-path`'s value in argv that did not parse, else Surfpool's default. */
function logPathIn(argv: readonly string[]): string {
  const at = argv.indexOf('--log-path');
  return at >= 0 && argv[at + 1] !== undefined ? argv[at + 1]! : DEFAULT_LOG_PATH;
}

/** The command's flags, as node:util parseArgs takes them (the hostile-path test reads every one: test/support/path-flags.ts). */
export const SURFPOOL_OPTIONS = {
  port: { type: 'string', short: 'p' },
  'ws-port': { type: 'string', short: 'w' },
  host: { type: 'string', short: 'o' },
  airdrop: { type: 'string', short: 'a', multiple: true },
  'airdrop-amount': { type: 'string', short: 'q' },
  'airdrop-keypair-path': { type: 'string', short: 'k', multiple: true },
  'slot-time': { type: 'string', short: 't' },
  'block-production-mode': { type: 'string', short: 'b' },
  'log-level': { type: 'string', short: 'l' },
  'rpc-url': { type: 'string', short: 'u' },
  network: { type: 'string', short: 'n' },
  offline: { type: 'boolean' },
  'no-deploy': { type: 'boolean' },
  'legacy-anchor-compatibility': { type: 'boolean' },
  'anchor-test-config-path': { type: 'string', multiple: true },
  watch: { type: 'boolean' },
  ci: { type: 'boolean' },
  'no-tui': { type: 'boolean' },
  'no-studio': { type: 'boolean' },
  'disable-instruction-profiling': { type: 'boolean' },
  yes: { type: 'boolean', short: 'y' },
  daemon: { type: 'boolean' },
  'max-profiles': { type: 'string', short: 'c' },
  'studio-port': { type: 'string', short: 's' },
  'log-path': { type: 'string' },
  'log-bytes-limit': { type: 'string' },
  'subgraph-db': { type: 'string', short: 'd' },
  'manifest-file-path': { type: 'string', short: 'm' },
  runbook: { type: 'string', short: 'r', multiple: true },
  'runbook-input': { type: 'string', short: 'i', multiple: true },
  'artifacts-path': { type: 'string' },
  snapshot: { type: 'string', multiple: true },
  'surfnet-id': { type: 'string' },
} as const;

/** Surfpool's `start` flags, as `start`'s options. Throws UsageError, one line. */
export function surfpoolStartOptions(argv: string[], env: NodeJS.ProcessEnv, home: string = homedir()) {
  let values: Record<string, string | boolean | string[] | undefined>;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: SURFPOOL_OPTIONS,
    }));
  } catch (error) {
    // node:util names the flag: "Unknown option '--runbook'".
    throw new UsageError(`${parseArgsMessage(error).replace(/; To specify a positional argument.*$/s, '')}; it cannot be honoured here`);
  }
  const text = (name: string) => values[name] as string | undefined;
  if (text('rpc-url') !== undefined && text('network') !== undefined) throw new UsageError("the argument '--rpc-url' cannot be used with '--network'");
  const network = text('network');
  if (network !== undefined && !(network in NETWORKS)) throw new UsageError(`--network must be one of mainnet, devnet, testnet, not "${network}"`);
  const port = text('port') ?? '8899';
  const wsPort = text('ws-port') ?? String(DEFAULT_WS_PORT);
  if (!/^\d+$/.test(wsPort) || Number(wsPort) < 1 || Number(wsPort) > 65535) throw new UsageError(`--ws-port must be a port (1 to 65535), not "${wsPort}"`);
  const mode = (text('block-production-mode') ?? 'clock').toLowerCase();
  if (!['clock', 'transaction', 'manual'].includes(mode)) {
    throw new UsageError(`Invalid block production mode: ${mode}. Valid values are: clock, transaction, manual`);
  }
  const level = values.ci === true ? 'none' : (text('log-level') ?? 'info').toLowerCase();
  if (!['trace', 'debug', 'info', 'warn', 'error', 'none'].includes(level))
    throw new UsageError(`--log-level must be trace, debug, info, warn, error or none, not "${level}"`);
  // The project: the folder of --manifest-file-path (default ./txtx.yml), where Surfpool looks for Anchor.toml.
  const manifest = resolve(text('manifest-file-path') ?? 'txtx.yml');
  const base = dirname(manifest);
  const deploy = values['no-deploy'] !== true;
  const anchor = deploy && existsSync(join(base, 'Anchor.toml'));
  const { runbooks, warnings } = runbooksOf({
    deploy,
    anchor,
    base,
    manifest: existsSync(manifest) ? manifest : null,
    asked: (values.runbook as string[] | undefined) ?? [],
    compat: values['legacy-anchor-compatibility'] === true,
    extras: (['runbook-input', 'artifacts-path'] as const).filter((flag) => values[flag] !== undefined),
  });
  const startArgs = [
    '--port',
    port,
    '--host',
    // Surfpool reads SURFPOOL_NETWORK_HOST over --host, for the RPC and the WebSocket alike.
    env.SURFPOOL_NETWORK_HOST || text('host') || '127.0.0.1',
    '--rpc-auth',
    'off',
    '--log-level',
    level === 'none' ? 'warn' : level === 'trace' ? 'debug' : level,
    ...(anchor ? ['--anchor', base] : ['--no-anchor']),
    // Surfpool's clock mode opens a slot every --slot-time ms (400), as wall-clock mode does; transaction and manual modes move slots with transactions.
    ...(mode === 'clock' ? ['--slot-time', text('slot-time') ?? '400'] : []),
    ...(values.watch === true ? ['--watch'] : []),
  ];
  const start = parseStartOptions(startArgs, { ...env, RELAY_EMULATOR_STATE_FILE: '' });
  start.pubsubPort = Number(wsPort);
  start.surfnet = {
    snapshots: ((values.snapshot as string[] | undefined) ?? []).map((path) => resolve(path)),
    anchorTestConfigs: anchor ? ((values['anchor-test-config-path'] as string[] | undefined) ?? []).map((path) => resolve(path)) : [],
    runbooks,
  };
  const amount = BigInt(/^\d+$/.test(text('airdrop-amount') ?? '') ? text('airdrop-amount')! : DEFAULT_AIRDROP_LAMPORTS);
  const keypairs = (values['airdrop-keypair-path'] as string[] | undefined) ?? [`${home}/.config/solana/id.json`];
  const airdrops = [
    ...((values.airdrop as string[] | undefined) ?? []),
    ...keypairs.filter((path) => existsSync(path)).flatMap((path) => keypairAddress(path) ?? []),
  ];
  const genesis: GenesisOptions = {};
  if (airdrops.length > 0) genesis.fund = [...new Set(airdrops)].map((address) => ({ address, lamports: amount }));
  start.genesis = genesis;
  // Surfpool reads SURFPOOL_DATASOURCE_RPC_URL for --rpc-url; --offline wins over both.
  const rpcUrl = text('rpc-url') ?? (network === undefined ? env.SURFPOOL_DATASOURCE_RPC_URL || undefined : undefined);
  const datasource = values.offline === true ? null : (rpcUrl ?? (network === undefined ? null : clusterUrl(NETWORKS[network]!)));
  const noted = NOTED.filter((flag) => values[flag] !== undefined).map((flag) => `--${flag}`);
  return {
    start,
    datasource,
    noted,
    warnings,
    silent: level === 'none',
    logPath: text('log-path') ?? DEFAULT_LOG_PATH,
    cacheRoot: resolve(env.RELAY_EMULATOR_CLONE_CACHE || DEFAULT_CLONE_CACHE),
  };
}

/**
 * What surfnet_getSurfnetInfo reports as run, and what to warn of. Runbooks are txtx's and cannot
 * run here: with `--legacy-anchor-compatibility` Surfpool's own in-memory runbook (`deployment`)
 * deploys Anchor.toml's programs and accounts, which the emulator does by loading the workspace; a
 * runbook asked for by name or a txtx.yml beside the project is reported completed with the reason
 * in its `errors` (Anchor waits only for `completedAt`), and the same reason is warned of.
 */
function runbooksOf(facts: {
  deploy: boolean;
  anchor: boolean;
  base: string;
  manifest: string | null;
  asked: string[];
  compat: boolean;
  extras: readonly string[];
}): { runbooks: { id: string; errors: string[] | null }[]; warnings: string[] } {
  if (!facts.deploy) return { runbooks: [], warnings: [] };
  if (facts.asked.length === 0 && facts.manifest === null) {
    return { runbooks: facts.compat && facts.anchor ? [{ id: 'deployment', errors: null }] : [], warnings: [] };
  }
  const ids = facts.asked.length > 0 ? facts.asked : ['deployment'];
  const instead = facts.anchor
    ? `deployed ${join(facts.base, 'Anchor.toml')}'s programs and test accounts instead, as --legacy-anchor-compatibility does`
    : `nothing was deployed (no Anchor.toml in ${facts.base})`;
  const reason =
    `relay-emulator cannot run txtx runbooks (${ids.join(', ')}${facts.manifest === null ? '' : ` of ${facts.manifest}`}): ${instead}` +
    (facts.extras.length > 0 ? `; ${facts.extras.map((flag) => `--${flag}`).join(', ')} not used` : '');
  return { runbooks: ids.map((id) => ({ id, errors: [reason] })), warnings: [reason] };
}

/** A subcommand other than `start`: the next `surfpool` on PATH that is no shim runs it, else one line says so. */
function handOn(argv: string[], env: NodeJS.ProcessEnv, stderr: (text: string) => void): Promise<number> {
  const real = nextOnPath('surfpool', env);
  if (real === null) {
    stderr(
      `relay-emulator's surfpool serves \`surfpool start\` and --version; \`surfpool ${argv.join(' ')}\` needs Surfpool, and no other surfpool is on PATH\n`,
    );
    return Promise.resolve(1);
  }
  return new Promise((done) => {
    const child = spawn(real, argv, { stdio: 'inherit', env });
    child.once('error', () => done(127));
    child.once('close', (code, signal) => done(code ?? (signal === null ? 1 : signalExitCode(signal))));
  });
}
