import { isInternalError } from '../../../base/errors/internal-error.ts';
import { SolanaCliError } from './solana-cli-error.ts';
import { spawn } from 'node:child_process';
import { parseArgsMessage } from '../../../base/words/parse-args-message.ts';
import { accessSync, constants, readFileSync } from 'node:fs';
import { delimiter, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { API_VERSION, FEATURE_SET } from '../../../interfaces/rpc/context.ts';
import { EMULATOR_VERSION } from '../../../base/version.ts';
import { signalExitCode } from '../launch/signals.ts';
import { clusterUrl, keypairAddress, readCliConfig, websocketUrl } from './cli-config.ts';
import { SHIM_MARKER } from './shim-files.ts';
import type { SolanaIo, SolanaTarget } from './solana-target.ts';
import { streamLogs } from './solana-logs.ts';
import { showAccount, requestAirdrop, showBalance } from './solana-wallet.ts';

/** The subcommands this `solana` serves against the emulator; any other goes to the Solana CLI on PATH. */
const SERVED = ['logs', 'balance', 'airdrop', 'account', 'address'] as const;
type Served = (typeof SERVED)[number];

/** The command's flags, as node:util parseArgs takes them (the hostile-path test reads every one: test/support/path-flags.ts). */
export const SOLANA_OPTIONS = {
  url: { type: 'string', short: 'u' },
  ws: { type: 'string' },
  keypair: { type: 'string', short: 'k' },
  config: { type: 'string', short: 'C' },
  commitment: { type: 'string' },
  output: { type: 'string' },
  'output-file': { type: 'string', short: 'o' },
  lamports: { type: 'boolean' },
  'include-votes': { type: 'boolean' },
  verbose: { type: 'boolean', short: 'v' },
} as const;

/**
 * `relay-emulator solana …`, which `relay-emulator shims DIR` installs as DIR/solana: the Solana
 * CLI's subcommands that tools run against a local validator, answered against the emulator over
 * its RPC and PubSub, in the CLI's own output (`anchor test` runs `solana logs ID --url URL` per
 * program). Global options (`-u`, `--ws`, `-k`, `-C`, `--commitment`, `--output`) go before or after
 * the subcommand, as the CLI's are global. Any other subcommand runs the next `solana` on PATH (the
 * real CLI, when installed), else is refused in one line naming what is served.
 */
export async function runSolanaCommand(argv: string[], io: SolanaIo): Promise<number> {
  if (argv[0] === '--version' || argv[0] === '-V') {
    io.stdout(`solana-cli ${API_VERSION} (src:relay-emulator ${EMULATOR_VERSION}; feat:${FEATURE_SET}, client:relay-emulator)\n`);
    return 0;
  }
  const subcommand = argv.find((arg, at) => !arg.startsWith('-') && !takesValue(argv[at - 1]));
  if (subcommand === undefined || !(SERVED as readonly string[]).includes(subcommand)) return handOn(argv, subcommand, io);
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: SOLANA_OPTIONS,
    });
  } catch (error) {
    io.stderr(`error: ${parseArgsMessage(error)}\n`);
    return 2;
  }
  const { values, positionals } = parsed as { values: Record<string, string | boolean | undefined>; positionals: string[] };
  const config = readCliConfig(values.config as string | undefined, io.env.HOME);
  const rpcUrl = clusterUrl((values.url as string | undefined) ?? config.jsonRpcUrl ?? 'http://localhost:8899');
  const output = (values.output as string | undefined) ?? 'display';
  if (!['display', 'json', 'json-compact'].includes(output)) {
    io.stderr(`error: '${output}' isn't a valid value for '--output <FORMAT>'\n`);
    return 2;
  }
  const target: SolanaTarget = {
    rpcUrl,
    wsUrl: (values.ws as string | undefined) ?? (values.url === undefined ? config.websocketUrl : null) ?? websocketUrl(rpcUrl),
    keypairPath: (values.keypair as string | undefined) ?? config.keypairPath,
    commitment: (values.commitment as string | undefined) ?? 'confirmed',
    output: output as SolanaTarget['output'],
  };
  const args = positionals.slice(positionals.indexOf(subcommand) + 1);
  try {
    return await serve(subcommand as Served, args, values, target, io);
  } catch (error) {
    // The CLI's words, and a path refused by the disk module (-o FILE, the keypair): one line each.
    if (!(error instanceof SolanaCliError) && !isInternalError(error)) throw error;
    io.stderr(`Error: ${error.message}\n`);
    return 1;
  }
}

async function serve(subcommand: Served, args: string[], values: Record<string, unknown>, target: SolanaTarget, io: SolanaIo): Promise<number> {
  const signer = () => {
    const address = keypairAddress(target.keypairPath);
    if (address === null) throw new SolanaCliError(`No default signer found, run "solana-keygen new -o ${target.keypairPath}" to create a new one`);
    return address;
  };
  switch (subcommand) {
    case 'logs':
      return streamLogs({ address: args[0] ?? null, includeVotes: values['include-votes'] === true }, target, io);
    case 'balance':
      return showBalance(args[0] ?? signer(), values.lamports === true, target, io);
    case 'airdrop':
      if (args[0] === undefined) throw new SolanaCliError('The following required arguments were not provided: <AMOUNT>');
      return requestAirdrop(args[0], args[1] ?? signer(), target, io);
    case 'account':
      if (args[0] === undefined) throw new SolanaCliError('The following required arguments were not provided: <ACCOUNT_ADDRESS>');
      return showAccount(args[0], { lamports: values.lamports === true, outputFile: (values['output-file'] as string | undefined) ?? null }, target, io);
    case 'address':
      io.stdout(`${signer()}\n`);
      return 0;
  }
}

/** Global options that take a value: what follows one is not the subcommand. */
function takesValue(previous: string | undefined): boolean {
  return (
    previous !== undefined && ['-u', '--url', '--ws', '-k', '--keypair', '-C', '--config', '--commitment', '--output', '-o', '--output-file'].includes(previous)
  );
}

/**
 * A subcommand this `solana` does not serve: the next `solana` on PATH that is not a shim of this
 * kind runs it, with the same arguments, its exit code passed back; without one, one line says so.
 */
async function handOn(argv: string[], subcommand: string | undefined, io: SolanaIo): Promise<number> {
  const real = nextOnPath('solana', io.env);
  if (real === null) {
    io.stderr(
      `relay-emulator's solana serves ${SERVED.join(', ')} and --version against the emulator; ` +
        `${subcommand === undefined ? 'without a subcommand' : `\`solana ${subcommand}\``} needs the Solana CLI, and no other solana is on PATH\n`,
    );
    return 1;
  }
  return new Promise((done) => {
    const child = spawn(real, argv, { stdio: 'inherit', env: io.env });
    const forward = (signal: NodeJS.Signals) => child.kill(signal);
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, forward);
    child.once('error', (error) => {
      io.stderr(`relay-emulator: cannot run ${real}: ${error.message}\n`);
      done(127);
    });
    child.once('close', (code, signal) => done(code ?? (signal === null ? 1 : signalExitCode(signal))));
  });
}

/** The first executable `name` on PATH that is not a shim `relay-emulator shims` wrote. */
export function nextOnPath(name: string, env: NodeJS.ProcessEnv): string | null {
  for (const folder of (env.PATH ?? '').split(delimiter).filter(Boolean)) {
    const candidate = join(resolve(folder), name);
    try {
      accessSync(candidate, constants.X_OK);
    } catch {
      continue;
    }
    try {
      if (readFileSync(candidate).subarray(0, 4096).includes(SHIM_MARKER)) continue;
    } catch {
      continue;
    }
    return candidate;
  }
  return null;
}
