import { spawn } from 'node:child_process';
import { parseArgsMessage } from '../../../base/words/parse-args-message.ts';
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { EMULATOR_VERSION } from '../../../base/version.ts';
import type { GenesisOptions } from '../../../assembly/options.ts';
import { serveUntilStopped, type ServeIo } from '../serve.ts';
import { signalExitCode } from '../signals.ts';
import { parseStartOptions, UsageError } from '../start-options.ts';
import { clusterUrl, keypairAddress } from './cli-config.ts';
import { cachedDumps, DEFAULT_CLONE_CACHE } from '../../../domain/fixtures/clone-cache.ts';
import { nextOnPath } from './solana-command.ts';

/** The Surfpool release whose `start` flags these are (solana-foundation/surfpool, crates/cli/src/cli/mod.rs). */
export const SURFPOOL_VERSION = '1.1.1';
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
  'log-path',
  'log-bytes-limit',
  'subgraph-db',
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
    stderr(`Error: ${error.message} (relay-emulator's surfpool start: docs/test-validator.md lists its flags)\n`);
    return 2;
  }
  if (options.noted.length > 0 && !options.silent) stderr(`relay-emulator surfpool: ${options.noted.join(', ')} accepted, meaning nothing here\n`);
  // Surfpool forks the cluster, fetching each account as it is read; here the clone cache holds what was fetched before.
  if (options.datasource !== null) {
    const dumps = cachedDumps(options.cacheRoot, options.datasource);
    options.start.accounts.push(...dumps);
    stderr(
      `relay-emulator surfpool: ${options.datasource}: ${dumps.length} account(s) from the clone cache ` +
        `(${dumps.length === 0 ? 'none yet: `relay-emulator clone --url URL --out DIR ADDRESS…` or start --clone fetch them once' : 'no network'})\n`,
    );
  }
  return serveUntilStopped(options.start, { ...io, stdout: options.silent ? () => undefined : stdout, stderr });
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
  const wsPort = text('ws-port');
  if (wsPort !== undefined && Number(wsPort) !== Number(port) + 1) {
    throw new UsageError(`--ws-port ${wsPort}: PubSub answers on the RPC port + 1 (${Number(port) + 1}) and on the RPC port itself, not on another`);
  }
  const mode = (text('block-production-mode') ?? 'clock').toLowerCase();
  if (!['clock', 'transaction', 'manual'].includes(mode)) throw new UsageError(`--block-production-mode must be clock, transaction or manual, not "${mode}"`);
  const level = values.ci === true ? 'none' : (text('log-level') ?? 'info').toLowerCase();
  if (!['trace', 'debug', 'info', 'warn', 'error', 'none'].includes(level))
    throw new UsageError(`--log-level must be trace, debug, info, warn, error or none, not "${level}"`);
  // The workspace: --anchor-test-config-path's folder (Anchor's legacy compatibility), else the working directory's Anchor.toml.
  const anchorToml = (values['anchor-test-config-path'] as string[] | undefined)?.[0];
  const startArgs = [
    '--port',
    port,
    '--host',
    text('host') ?? env.SURFPOOL_NETWORK_HOST ?? '127.0.0.1',
    '--rpc-auth',
    'off',
    '--log-level',
    level === 'none' ? 'warn' : level === 'trace' ? 'debug' : level,
    ...(anchorToml === undefined ? [] : ['--anchor', dirname(resolve(anchorToml))]),
    // Surfpool's clock mode opens a slot every --slot-time ms (400), as wall-clock mode does; transaction and manual modes move slots with transactions.
    ...(mode === 'clock' ? ['--slot-time', text('slot-time') ?? '400'] : []),
    ...(values.watch === true ? ['--watch'] : []),
  ];
  const start = parseStartOptions(startArgs, { ...env, RELAY_EMULATOR_STATE_FILE: '' });
  const amount = BigInt(/^\d+$/.test(text('airdrop-amount') ?? '') ? text('airdrop-amount')! : DEFAULT_AIRDROP_LAMPORTS);
  const keypairs = (values['airdrop-keypair-path'] as string[] | undefined) ?? [`${home}/.config/solana/id.json`];
  const airdrops = [
    ...((values.airdrop as string[] | undefined) ?? []),
    ...keypairs.filter((path) => existsSync(path)).flatMap((path) => keypairAddress(path) ?? []),
  ];
  const genesis: GenesisOptions = {};
  if (airdrops.length > 0) genesis.fund = [...new Set(airdrops)].map((address) => ({ address, lamports: amount }));
  start.genesis = genesis;
  const datasource = values.offline === true ? null : (text('rpc-url') ?? (network === undefined ? null : clusterUrl(NETWORKS[network]!)));
  const noted = NOTED.filter((flag) => values[flag] !== undefined).map((flag) => `--${flag}`);
  return { start, datasource, noted, silent: level === 'none', cacheRoot: resolve(env.RELAY_EMULATOR_CLONE_CACHE || DEFAULT_CLONE_CACHE) };
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
