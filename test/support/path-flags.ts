/**
 * Every flag (and positional) of every command that takes a path, what it does with it, and how a
 * test reaches the moment it does: the table test/e2e/hostile-paths.test.ts puts through the same
 * hostile paths (decision 0010). Every other string flag is listed in NOT_PATHS; the test fails
 * when a command has a string flag in neither (a flag added without a row).
 */
import { START_FLAGS } from '../../src/adapters/cli/start/start-flags.ts';
import { START_OPTIONS } from '../../src/adapters/cli/start/start-options.ts';
import { VALIDATOR_FLAGS } from '../../src/adapters/cli/test-validator/test-validator-flags.ts';
import { MULTI_VALUE_FLAGS } from '../../src/adapters/cli/launch/validator-flags.ts';
import { CLONE_OPTIONS } from '../../src/adapters/cli/clone/clone-command.ts';
import { COSTS_OPTIONS } from '../../src/adapters/cli/costs/costs-command.ts';
import { STATE_OPTIONS } from '../../src/adapters/cli/state/state-commands.ts';
import { SOLANA_OPTIONS } from '../../src/adapters/cli/shims/solana-command.ts';
import { SURFPOOL_OPTIONS } from '../../src/adapters/cli/shims/surfpool-command.ts';
import { CONFORMANCE_OPTIONS } from '../../src/conformance/command.ts';

/**
 * - `writes-file`, `writes-folder`: the emulator writes there; every hostile path is refused in one
 *   line (a shared folder, `accepts: ['a folder']`, is written into beside what it holds);
 * - `reads-file`, `reads-folder`: read; every hostile path is refused in one line;
 * - `lenient`: read where the tool it stands in for falls back to its defaults (the Solana CLI's
 *   `-C`, Surfpool's keypaths): never followed, never waited on, never touched; the run goes on.
 */
export type PathUse = 'writes-file' | 'writes-folder' | 'reads-file' | 'reads-folder' | 'lenient';

export interface Reach {
  /** A cluster (an emulator's RPC URL) for commands that fetch or call. */
  url: string;
  /** An address the cluster holds. */
  address: string;
  /** A sponsor-cost report to read (costs update). */
  report: string;
  /** A free port for commands that listen on a fixed one. */
  port: number;
}

export interface PathFlagRow {
  command: string;
  /** The flag as spelled, or `<DIR>` / `<FILE>` for a positional. */
  flag: string;
  use: PathUse;
  /** The cases that may go on (a server that starts) rather than be refused. */
  accepts?: readonly string[];
  argv: (path: string, reach: Reach) => string[];
}

const start = (...rest: string[]) => ['start', '--port', '0', ...rest];
const PROGRAM = 'Fg6PaFpoGXkYsidMpWTK6W2BeZ7FEfcYkg476zPFsLnS';

export const PATH_FLAGS: readonly PathFlagRow[] = [
  { command: 'start', flag: '--ready-file', use: 'writes-file', argv: (path) => start('--ready-file', path) },
  { command: 'start', flag: '--sponsor-costs', use: 'writes-file', argv: (path) => start('--sponsor-costs', path) },
  { command: 'start', flag: '--state-file', use: 'writes-file', argv: (path) => start('--state-file', path) },
  { command: 'start', flag: '--import', use: 'reads-file', argv: (path) => start('--import', path) },
  { command: 'start', flag: '--kora-config', use: 'reads-file', argv: (path) => start('--kora-config', path) },
  { command: 'start', flag: '--kora-signers', use: 'reads-file', argv: (path) => start('--kora-signers', path) },
  { command: 'start', flag: '--fixtures', use: 'reads-folder', argv: (path) => start('--fixtures', path) },
  { command: 'start', flag: '--anchor', use: 'reads-folder', argv: (path) => start('--anchor', path) },
  { command: 'start', flag: '--account-dir', use: 'reads-folder', argv: (path) => start('--account-dir', path) },
  {
    command: 'start',
    flag: '--clone-cache',
    use: 'writes-folder',
    // A folder of the user's to keep caches in: the cluster's folder is made inside it, beside what it holds.
    accepts: ['a folder'],
    argv: (path, { url, address }) => start('--clone-cache', path, '--url', url, '--clone', address),
  },
  { command: 'start', flag: '--bpf-program', use: 'reads-file', argv: (path) => start('--bpf-program', PROGRAM, path) },
  { command: 'start', flag: '--upgradeable-program', use: 'reads-file', argv: (path) => start('--upgradeable-program', PROGRAM, path, 'none') },
  { command: 'start', flag: '--account', use: 'reads-file', argv: (path) => start('--account', '-', path) },
  { command: 'exec', flag: '--ready-file', use: 'writes-file', argv: (path) => ['exec', '--ready-file', path, '--', 'true'] },
  { command: 'exec', flag: '--sponsor-costs', use: 'writes-file', argv: (path) => ['exec', '--sponsor-costs', path, '--', 'true'] },
  {
    command: 'test-validator',
    flag: '--ledger',
    use: 'writes-folder',
    accepts: ['a folder'],
    argv: (path, { port }) => ['test-validator', '--ledger', path, '--rpc-port', String(port)],
  },
  {
    command: 'test-validator',
    flag: '--config',
    use: 'lenient',
    argv: (path, { port }) => ['test-validator', '--ledger', `${path}.ledger-of-config-row`, '--rpc-port', String(port), '--config', path],
  },
  {
    command: 'test-validator',
    flag: '--geyser-plugin-config',
    use: 'reads-file',
    argv: (path, { port }) => ['test-validator', '--rpc-port', String(port), '--geyser-plugin-config', path],
  },
  { command: 'clone', flag: '--out', use: 'writes-folder', argv: (path, { url, address }) => ['clone', '--url', url, '--out', path, address] },
  { command: 'costs', flag: '--snapshot', use: 'writes-file', argv: (path, { report }) => ['costs', 'update', '--report', report, '--snapshot', path] },
  { command: 'costs', flag: '--report', use: 'reads-file', argv: (path, { report }) => ['costs', 'check', '--report', path, '--snapshot', report] },
  { command: 'export', flag: '--out', use: 'writes-file', argv: (path, { url }) => ['export', '--url', url, '--out', path] },
  {
    command: 'export',
    flag: '--out (solana-accounts)',
    use: 'writes-folder',
    argv: (path, { url }) => ['export', '--url', url, '--format', 'solana-accounts', '--out', path],
  },
  { command: 'import', flag: '<FILE>', use: 'reads-file', argv: (path, { url }) => ['import', '--url', url, path] },
  { command: 'shims', flag: '<DIR>', use: 'writes-folder', accepts: ['a folder'], argv: (path) => ['shims', path] },
  {
    command: 'solana',
    flag: '--output-file',
    use: 'writes-file',
    argv: (path, { url, address }) => ['solana', 'account', address, '--url', url, '--output', 'json', '--output-file', path],
  },
  { command: 'solana', flag: '--keypair', use: 'reads-file', argv: (path, { url }) => ['solana', 'balance', '--url', url, '--keypair', path] },
  { command: 'solana', flag: '--config', use: 'lenient', argv: (path, { url, address }) => ['solana', 'balance', address, '--url', url, '--config', path] },
  {
    command: 'surfpool',
    flag: '--airdrop-keypair-path',
    use: 'lenient',
    argv: (path, { port }) => ['surfpool', 'start', '--offline', '--port', String(port), '--ws-port', String(port + 1), '--airdrop-keypair-path', path],
  },
  {
    command: 'surfpool',
    flag: '--anchor-test-config-path',
    use: 'reads-file',
    argv: (path, { port }) => ['surfpool', 'start', '--offline', '--port', String(port), '--ws-port', String(port + 1), '--anchor-test-config-path', path],
  },
  {
    command: 'surfpool',
    flag: '--log-path',
    use: 'lenient',
    argv: (path, { port }) => ['surfpool', 'start', '--offline', '--port', String(port), '--ws-port', String(port + 1), '--log-path', path],
  },
  {
    command: 'surfpool',
    flag: '--snapshot',
    use: 'reads-file',
    argv: (path, { port }) => ['surfpool', 'start', '--offline', '--port', String(port), '--ws-port', String(port + 1), '--snapshot', path],
  },
  // The project's manifest (txtx.yml): only its folder is used (for Anchor.toml), and whether it exists.
  {
    command: 'surfpool',
    flag: '--manifest-file-path',
    use: 'lenient',
    argv: (path, { port }) => ['surfpool', 'start', '--offline', '--port', String(port), '--ws-port', String(port + 1), '--manifest-file-path', path],
  },
  // Runbook inputs and artifacts are txtx's: named in the runbook warning, never read.
  {
    command: 'surfpool',
    flag: '--runbook-input',
    use: 'lenient',
    argv: (path, { port }) => ['surfpool', 'start', '--offline', '--port', String(port), '--ws-port', String(port + 1), '--runbook-input', path],
  },
  {
    command: 'surfpool',
    flag: '--artifacts-path',
    use: 'lenient',
    argv: (path, { port }) => ['surfpool', 'start', '--offline', '--port', String(port), '--ws-port', String(port + 1), '--artifacts-path', path],
  },
  {
    command: 'surfpool',
    flag: '--subgraph-db',
    use: 'lenient',
    argv: (path, { port }) => ['surfpool', 'start', '--offline', '--port', String(port), '--ws-port', String(port + 1), '--subgraph-db', path],
  },
  {
    command: 'conformance',
    flag: '--out',
    use: 'writes-file',
    argv: (path, { url }) => ['conformance', '--base-url', url, '--api-key', 'k', '--report', 'json', '--out', path],
  },
  {
    command: 'conformance',
    flag: '--owner-keypair',
    use: 'reads-file',
    argv: (path, { url }) => ['conformance', '--base-url', url, '--api-key', 'k', '--owner-keypair', path],
  },
];

/** String flags that take no path, by command (what else they take: a port, a URL, an address, a word). */
export const NOT_PATHS: Record<string, readonly string[]> = {
  start: [
    '--port',
    '--host',
    '--public-url',
    '--api-key',
    '--state-interval',
    '--token-ttl',
    '--log-level',
    '--admin-token',
    '--control-origin',
    '--journal-limit',
    '--slot-time',
    '--timing',
    '--rpc-auth',
    '--kora-port',
    '--engine',
    '--policy',
    '--genesis',
    '--url',
    '--clone',
    '--maybe-clone',
    '--clone-upgradeable-program',
    '--deep-clone-address-lookup-table',
  ],
  'test-validator': [],
  clone: ['--url', '--maybe', '--upgradeable-program', '--lookup-table'],
  costs: ['--tolerance'],
  export: ['--url', '--admin-token', '--format'],
  solana: ['--url', '--ws', '--commitment', '--output'],
  surfpool: [
    '--port',
    '--ws-port',
    '--host',
    '--airdrop',
    '--airdrop-amount',
    '--slot-time',
    '--block-production-mode',
    '--log-level',
    '--rpc-url',
    '--network',
    '--max-profiles',
    '--studio-port',
    '--log-bytes-limit',
    '--runbook',
    '--surfnet-id',
  ],
  conformance: [
    '--base-url',
    '--api-key',
    '--rpc-url',
    '--mint',
    '--legacy',
    '--interface',
    '--kora-url',
    '--kora-api-key',
    '--kora-hmac-secret',
    '--report',
    '--timeout',
    '--only',
  ],
};

/** A value name that says the flag takes a path (solana-test-validator's table names its values). */
const PATH_VALUE = /(^|_)(DIR|DIRECTORY|PATH|FILE)(_|$)|\.SO$|\.JSON$|KEYPAIR$/;

/** Every string flag of every command, from the commands' own tables: what the rows and NOT_PATHS must cover. */
export function everyStringFlag(): Record<string, string[]> {
  const strings = (options: Record<string, { type: string }>) =>
    Object.entries(options)
      .filter(([, option]) => option.type === 'string')
      .map(([name]) => `--${name}`);
  const startFlags = [...strings(START_OPTIONS), ...Object.keys(MULTI_VALUE_FLAGS).map((name) => `--${name}`)];
  const validatorPathFlags = VALIDATOR_FLAGS.filter((flag) => flag.values.some((value) => PATH_VALUE.test(value))).map((flag) => `--${flag.name}`);
  return {
    start: startFlags,
    exec: startFlags,
    // The validator's flags that take a path; its others take a port, a number or an address (the docs test holds that table).
    'test-validator': validatorPathFlags,
    clone: strings(CLONE_OPTIONS),
    costs: strings(COSTS_OPTIONS),
    export: strings(STATE_OPTIONS),
    solana: strings(SOLANA_OPTIONS),
    surfpool: strings(SURFPOOL_OPTIONS),
    conformance: strings(CONFORMANCE_OPTIONS),
  };
}

/** START_FLAGS's value names for the same flags: a path flag of start must be a row (checked against its table too). */
export function startPathFlags(): string[] {
  return Object.entries(START_FLAGS)
    .filter(([, flag]) => PATH_VALUE.test(flag.value))
    .map(([name]) => `--${name}`);
}
