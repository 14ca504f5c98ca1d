import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import type { GenesisOptions } from '../../../assembly/options.ts';
import { clusterUrl, keypairAddress, readCliConfig } from '../shims/cli-config.ts';
import { LEDGER_STATE_FILE } from './ledger-folder.ts';
import { START_FLAGS } from '../start/start-flags.ts';
import { parseStartOptions, UsageError, type StartOptions } from '../start/start-options.ts';
import { VALIDATOR_FLAG_NAMES, type ValidatorFlag } from './test-validator-flags.ts';

/** solana-test-validator's defaults (Agave's test_app). */
export const VALIDATOR_RPC_PORT = 8899;
export const VALIDATOR_LEDGER = 'test-ledger';
/** What the validator's genesis gives `--mint`: 500,000,000 SOL. */
export const MINT_LAMPORTS = 500_000_000n * 1_000_000_000n;
/** The state file's name in the ledger folder (its journal segments and lock beside it). */

/** What `relay-emulator test-validator` runs with. */
export interface TestValidatorOptions {
  /** What `start` would run with, made from the validator's flags (and relay-emulator's own, which it takes too). */
  start: StartOptions;
  /** The ledger folder, resolved. */
  ledger: string;
  reset: boolean;
  quiet: boolean;
  log: boolean;
  /** The mint's address and where it came from, or null (no --mint and no CLI keypair). */
  mint: { address: string; from: string } | null;
  /** Flags that mean nothing here, as given, for the one line that says so. */
  noted: string[];
  /** `--url` and the clone flags, for the clone cache. */
  clone: CloneFlags;
  help: boolean;
  version: boolean;
}

export interface CloneFlags {
  url: string | null;
  clone: string[];
  maybeClone: string[];
  upgradeablePrograms: string[];
  lookupTables: string[];
  /** `--warp-slot` without a slot: the `--url` cluster's. */
  warpToUrlSlot: boolean;
}

/** relay-emulator's own flags that test-validator takes too, and whether each takes a value. */
const OWN_FLAGS: ReadonlyMap<string, boolean> = new Map([
  ...Object.entries(START_FLAGS).map(([flag, { value }]) => [flag, value !== ''] as const),
  ...['no-rpc-auth', 'skip-preflight', 'no-anchor', 'watch'].map((flag) => [flag, false] as const),
]);
/** Flags of `start` that the validator's own stand for here: given, they would contradict them. */
const TAKEN_BY_VALIDATOR: ReadonlySet<string> = new Set(['port', 'host', 'state-file', 'import']);

/**
 * Reads solana-test-validator's command line (VALIDATOR_FLAGS) into `start`'s options, with a
 * validator's defaults: the RPC on 8899 (PubSub on 8900) at 127.0.0.1, the state in `test-ledger/`,
 * the RPC open to its callers (no Token, `--rpc-auth off`, as a validator has none), no Anchor.toml
 * read from the working directory (anchor test passes its programs as flags; `--anchor DIR` still
 * loads one). Throws UsageError, one line: an unknown flag, a value missing, a refused flag.
 */
export function parseTestValidatorArgs(argv: readonly string[], env: NodeJS.ProcessEnv = process.env, home: string = homedir()): TestValidatorOptions {
  const given = new Map<ValidatorFlag, string[][]>();
  const own: string[] = [];
  let help = false;
  let version = false;
  for (let at = 0; at < argv.length; at += 1) {
    const arg = argv[at]!;
    if (arg === '-h' || arg === '--help') {
      help = true;
      continue;
    }
    if (arg === '-V' || arg === '--version') {
      version = true;
      continue;
    }
    const match = /^(--?)([^=]+)(?:=(.*))?$/s.exec(arg);
    if (!match || (match[1] === '-' && match[2]!.length !== 1)) throw new UsageError(`unexpected argument "${arg}"`);
    const [, dashes, name, inline] = match as unknown as [string, string, string, string | undefined];
    const flag = VALIDATOR_FLAG_NAMES.get(name);
    const spelled = `${dashes}${name}`;
    if (flag) {
      if (flag.kind === 'refused') throw new UsageError(`${spelled} cannot be honoured here: ${flag.does} (docs/test-validator.md lists every flag)`);
      const values: string[] = inline === undefined ? [] : [inline];
      while (values.length < flag.values.length) {
        const next = argv[at + 1];
        const isValue = next !== undefined && !(next.startsWith('-') && next.length > 1 && !/^-\d/.test(next));
        if (!isValue) {
          if (flag.optional && values.length === flag.values.length - 1) break;
          throw new UsageError(`--${flag.name} takes ${flag.values.join(' ')}; ${flag.values[values.length]} is missing`);
        }
        values.push(next);
        at += 1;
      }
      if (!flag.repeats && given.has(flag)) throw new UsageError(`--${flag.name} was given twice`);
      given.set(flag, [...(given.get(flag) ?? []), values]);
      continue;
    }
    if (dashes === '--' && OWN_FLAGS.has(name)) {
      if (TAKEN_BY_VALIDATOR.has(name))
        throw new UsageError(`--${name} is relay-emulator start's; here the validator's flags say it (--rpc-port, --bind-address, --ledger)`);
      own.push(`--${name}`);
      if (OWN_FLAGS.get(name)) {
        const value = inline ?? argv[++at];
        if (value === undefined) throw new UsageError(`--${name} takes a value`);
        own.push(value);
      }
      continue;
    }
    throw new UsageError(`${spelled} is not a flag of solana-test-validator (docs/test-validator.md lists every flag)`);
  }

  const one = (name: string): string | undefined => given.get(VALIDATOR_FLAG_NAMES.get(name)!)?.[0]?.[0];
  const all = (name: string): string[][] => given.get(VALIDATOR_FLAG_NAMES.get(name)!) ?? [];
  const has = (name: string): boolean => given.has(VALIDATOR_FLAG_NAMES.get(name)!);
  if (has('quiet') && has('log')) throw new UsageError('--quiet and --log: give one');

  const ledger = resolve(one('ledger') ?? VALIDATOR_LEDGER);
  const port = one('rpc-port') ?? String(VALIDATOR_RPC_PORT);
  if (!/^\d{1,5}$/.test(port) || Number(port) > 65_535) throw new UsageError(`--rpc-port must be a port number from 0 to 65535, not "${port}"`);
  const startArgs = [
    `--port=${port}`,
    '--host',
    one('bind-address') ?? '127.0.0.1',
    '--state-file',
    join(ledger, LEDGER_STATE_FILE),
    ...(own.includes('--rpc-auth') || own.includes('--no-rpc-auth') ? [] : ['--rpc-auth', 'off']),
    ...(own.includes('--anchor') || own.includes('--no-anchor') ? [] : ['--no-anchor']),
    ...all('bpf-program').flatMap((values) => ['--bpf-program', ...values]),
    ...all('upgradeable-program').flatMap((values) => ['--upgradeable-program', ...values]),
    ...all('account').flatMap((values) => ['--account', ...values]),
    ...all('account-dir').flatMap((values) => ['--account-dir', ...values]),
    ...own,
  ];
  const start = parseStartOptions(startArgs, env);
  // A validator's genesis, unless --genesis app asks for the fixture app beside it; the faucet holds --faucet-sol.
  const faucetSol = one('faucet-sol');
  if (faucetSol !== undefined && !/^\d+(\.\d{1,9})?$/.test(faucetSol)) throw new UsageError(`--faucet-sol must be a number of SOL, not "${faucetSol}"`);
  // A validator's timing too (slots with time, commitments lagging), unless --timing says otherwise.
  if (!own.includes('--timing') && !env[START_FLAGS.timing.env]) start.timing = 'validator';
  start.cluster = {
    genesis: own.includes('--genesis') || env[START_FLAGS.genesis.env] ? start.cluster.genesis : 'validator',
    ...(faucetSol === undefined ? {} : { faucetLamports: solToLamports(faucetSol) }),
  };

  const mint = mintOf(one('mint'), one('config'), home);
  const integer = (name: string): number | undefined => {
    const raw = one(name);
    if (raw === undefined) return undefined;
    if (!/^\d+$/.test(raw)) throw new UsageError(`--${name} must be a whole number, not "${raw}"`);
    return Number(raw);
  };
  const genesis: GenesisOptions = {};
  if (mint) genesis.fund = [{ address: mint.address, lamports: MINT_LAMPORTS }];
  const slotsPerEpoch = integer('slots-per-epoch');
  if (slotsPerEpoch !== undefined) genesis.slotsPerEpoch = slotsPerEpoch;
  const computeUnitLimit = integer('compute-unit-limit');
  if (computeUnitLimit !== undefined) genesis.computeUnitLimit = computeUnitLimit;
  const features = all('deactivate-feature').map(([feature]) => feature!);
  if (features.length > 0) genesis.deactivateFeatures = features;
  const warpSlot = integer('warp-slot');
  if (warpSlot !== undefined) genesis.warpSlot = warpSlot;
  start.genesis = genesis;

  const clone: CloneFlags = {
    url: one('url') ?? null,
    clone: all('clone').map(([address]) => address!),
    maybeClone: all('maybe-clone').map(([address]) => address!),
    upgradeablePrograms: all('clone-upgradeable-program').map(([address]) => address!),
    lookupTables: all('deep-clone-address-lookup-table').map(([address]) => address!),
    warpToUrlSlot: has('warp-slot') && warpSlot === undefined,
  };
  const cloning = clone.clone.length + clone.maybeClone.length + clone.upgradeablePrograms.length + clone.lookupTables.length > 0;
  if ((cloning || clone.warpToUrlSlot) && clone.url === null) {
    throw new UsageError(`${clone.warpToUrlSlot && !cloning ? '--warp-slot without a slot' : 'the --clone flags'} need --url, the cluster to fetch from`);
  }

  if (clone.url !== null && cloning) {
    start.clone = {
      url: clusterUrl(clone.url),
      accounts: clone.clone,
      maybe: clone.maybeClone,
      upgradeablePrograms: clone.upgradeablePrograms,
      lookupTables: clone.lookupTables,
      refresh: own.includes('--refresh-clones'),
      ...(own.includes('--clone-cache') ? { cache: resolve(own[own.indexOf('--clone-cache') + 1]!) } : {}),
    };
  }
  const noted = [...given.keys()].filter((flag) => flag.kind === 'noted').map((flag) => `--${flag.name}`);
  return { start, ledger, reset: has('reset'), quiet: has('quiet'), log: has('log'), mint, noted, clone, help, version };
}

/** SOL as a decimal of at most 9 places, in lamports (exactly: no float). */
function solToLamports(sol: string): bigint {
  const [whole, fraction = ''] = sol.split('.');
  return BigInt(whole!) * 1_000_000_000n + BigInt(fraction.padEnd(9, '0'));
}

/**
 * `--mint`, else the Solana CLI's keypair as the validator finds it: the config's `keypair_path`
 * (`-C`, else `~/.config/solana/cli/config.yml`), else `~/.config/solana/id.json`. Null when none
 * can be read (the validator then makes a key nobody holds, and says so).
 */
function mintOf(flag: string | undefined, config: string | undefined, home: string): { address: string; from: string } | null {
  if (flag !== undefined) return { address: flag, from: '--mint' };
  const { keypairPath } = readCliConfig(config, home);
  const address = keypairAddress(keypairPath);
  return address === null ? null : { address, from: keypairPath };
}
