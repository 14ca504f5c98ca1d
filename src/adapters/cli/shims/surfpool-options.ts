import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { GenesisOptions } from '../../../assembly/options.ts';
import { parseArgsMessage } from '../../../base/words/parse-args-message.ts';
import { DEFAULT_CLONE_CACHE } from '../../../domain/fixtures/clone-cache.ts';
import { parseStartOptions, UsageError } from '../start/start-options.ts';
import { clusterUrl, keypairAddress } from './cli-config.ts';

/** The Surfpool release whose `start` flags and cheatcodes these are (solana-foundation/surfpool 1.5, crates/cli/src/cli/mod.rs). */
export const SURFPOOL_VERSION = '1.5.0';
/** Surfpool's WebSocket port, whatever --port (crates/types/src/types.rs, DEFAULT_WS_PORT). */
const DEFAULT_WS_PORT = 8900;
/** Surfpool's log folder, relative to the working directory. */
export const DEFAULT_LOG_PATH = '.surfpool/logs';
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
  if (Number(wsPort) === Number(port)) throw new UsageError(`--ws-port ${wsPort} is the RPC's --port: Surfpool serves WebSocket on a port of its own`);
  const airdropAmount = text('airdrop-amount');
  if (airdropAmount !== undefined && (!/^\d+$/.test(airdropAmount) || BigInt(airdropAmount) > 2n ** 64n - 1n)) {
    throw new UsageError(`--airdrop-amount must be a whole number of lamports, not "${airdropAmount}"`);
  }
  const mode = (text('block-production-mode') ?? 'clock').toLowerCase();
  if (!['clock', 'transaction', 'manual'].includes(mode)) {
    throw new UsageError(`Invalid block production mode: ${mode}. Valid values are: clock, transaction, manual`);
  }
  const level = values.ci === true ? 'none' : (text('log-level') ?? 'info').toLowerCase();
  if (!['trace', 'debug', 'info', 'warn', 'error', 'none'].includes(level))
    throw new UsageError(`--log-level must be trace, debug, info, warn, error or none, not "${level}"`);
  // The project: the folder of --manifest-file-path (default ./txtx.yml), where Surfpool looks for Anchor.toml.
  // Run elsewhere, the first test config's folder when it holds the Anchor.toml (Anchor runs it in the workspace).
  const configs = ((values['anchor-test-config-path'] as string[] | undefined) ?? []).map((path) => resolve(path));
  const named = text('manifest-file-path');
  const manifest = resolve(named ?? 'txtx.yml');
  const besideConfig = configs[0] === undefined ? null : dirname(configs[0]);
  const base =
    named === undefined && !existsSync(join(dirname(manifest), 'Anchor.toml')) && besideConfig !== null && existsSync(join(besideConfig, 'Anchor.toml'))
      ? besideConfig
      : dirname(manifest);
  const deploy = values['no-deploy'] !== true;
  const anchor = deploy && existsSync(join(base, 'Anchor.toml'));
  if (deploy && configs.length > 0 && !anchor) {
    throw new UsageError(
      `--anchor-test-config-path ${configs[0]}: no Anchor.toml in ${base} ` +
        "(the project: --manifest-file-path's folder, else the working directory) to deploy from",
    );
  }
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
    anchorTestConfigs: anchor ? configs : [],
    runbooks,
  };
  const amount = airdropAmount === undefined ? DEFAULT_AIRDROP_LAMPORTS : BigInt(airdropAmount);
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
    // Anchor's `anchor test` flags (full_simnet_mode off): only Anchor starts a surfpool so.
    anchorTestMode:
      values['no-tui'] === true && values['disable-instruction-profiling'] === true && text('max-profiles') === '1' && values['no-studio'] === true,
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
