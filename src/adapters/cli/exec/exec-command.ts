import { spawn } from 'node:child_process';
import { readyFacts } from '../launch/ready.ts';
import { ignoreStopSignals, onStopSignals, signalExitCode, type SignalSource } from '../launch/signals.ts';
import { optionLines, parseStartOptions, UsageError, type StartOptions } from '../start/start-options.ts';
import { validatorFlagLines } from '../launch/validator-flags.ts';
import { keypairAddress } from '../shims/cli-config.ts';
import { MINT_LAMPORTS } from '../test-validator/test-validator-options.ts';

export interface ExecIo {
  env?: NodeJS.ProcessEnv;
  stdout?: (text: string) => void;
  stderr?: (text: string) => void;
  /** Where signals come from. Default: process. */
  signals?: SignalSource;
}

/** What the command finds in its environment, on top of the emulator's own. */
const EXEC_ENV = {
  RELAY_BASE_URL: 'the base URL, /api included',
  RELAY_RPC_URL: 'the JSON-RPC endpoint (PubSub on the same port, ws://)',
  RELAY_API_KEY: 'an accepted X-API-Key',
  RELAY_FEE_PAYER: 'the fee payer, base58',
  RELAY_KORA_URL: "Kora's JSON-RPC (the --kora-port root, else <origin>/kora)",
  ANCHOR_PROVIDER_URL: 'in an Anchor workspace: the RPC URL, as `anchor test` gives it (AnchorProvider.env())',
  ANCHOR_WALLET: "in an Anchor workspace: [provider] wallet, ~ expanded; it holds 500,000,000 SOL, as anchor test's --mint",
} as const;

/**
 * How long a SIGINT to `exec` waits before it is passed on to the command. Ctrl+C reaches the
 * command by itself (it is in the terminal's foreground process group), and many runners take a
 * second SIGINT to mean "stop now": it is passed on only when the command is still running.
 */
const SIGINT_FORWARD_DELAY_MS = 500;

function execUsage(): string {
  const env = Object.entries(EXEC_ENV)
    .map(([name, what]) => `  ${name.padEnd(17)} ${what}`)
    .join('\n');
  return (
    `Usage: relay-emulator exec [options] -- <command> [args...]\n\nStarts the emulator, runs the command with these in its environment, stops ` +
    `the emulator once the\ncommand ends, and exits with the command's exit code (128 + n when a signal n ended it):\n${env}\nThe emulator takes a ` +
    `free port unless --port says otherwise, and logs to stderr, warnings and errors\n` +
    `only unless --log-level says otherwise.\n\nOptions (those of start):\n${optionLines()}\n${validatorFlagLines()}\n  --help                     this text\n`
  );
}

/**
 * The Anchor workspace's `[provider] wallet` (its path, and its address when the keypair reads), as
 * `anchor test` hands it to its script (ANCHOR_WALLET) and funds it (`--mint`). Null fields when
 * Anchor.toml names none; a workspace that cannot be read is left to the emulator's start to refuse.
 */
async function anchorProvider(directory: string): Promise<{ walletPath: string | null; walletAddress: string | null }> {
  const { readAnchorWorkspace } = await import('../../../domain/fixtures/anchor-workspace.ts');
  let walletPath: string | null;
  try {
    walletPath = readAnchorWorkspace(directory, { generate: false }).walletPath;
  } catch {
    return { walletPath: null, walletAddress: null };
  }
  return { walletPath, walletAddress: walletPath === null ? null : keypairAddress(walletPath) };
}

/** Splits `exec`'s arguments at `--`: the emulator's options before, the command after. Throws UsageError. */
function parseExecArgs(argv: string[], env: NodeJS.ProcessEnv): { options: StartOptions; command: string[] } {
  const at = argv.indexOf('--');
  const flags = at < 0 ? argv : argv.slice(0, at);
  const command = at < 0 ? [] : argv.slice(at + 1);
  // exec's emulator is quiet unless asked: the command's output is what a runner reads. It takes a
  // free port unless one is given: the command learns it from RELAY_BASE_URL, and a fixed one
  // would clash with an emulator already running (npm start).
  const options = parseStartOptions(flags, { RELAY_EMULATOR_LOG_LEVEL: 'warn', RELAY_EMULATOR_PORT: '0', ...env });
  if (!options.help && command.length === 0) throw new UsageError('give the command to run after --, e.g. relay-emulator exec -- npm test');
  return { options, command };
}

/**
 * `relay-emulator exec -- <command…>`: the habit of the Firebase emulators' `emulators:exec`. The
 * command gets RELAY_BASE_URL, RELAY_RPC_URL, RELAY_API_KEY and RELAY_FEE_PAYER; SIGTERM and SIGHUP
 * are passed on to it at once, SIGINT after SIGINT_FORWARD_DELAY_MS; the emulator stops (state
 * saved, with --state-file) after the command ends. Resolves with the command's exit code, 127
 * when it cannot be found, 126 when it cannot be run, 2 on a usage error.
 */
export async function runExecCommand(argv: string[], io: ExecIo = {}): Promise<number> {
  const stdout = io.stdout ?? ((text) => process.stdout.write(text));
  const stderr = io.stderr ?? ((text) => process.stderr.write(text));
  const env = io.env ?? process.env;
  let parsed: ReturnType<typeof parseExecArgs>;
  try {
    parsed = parseExecArgs(argv, env);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    stderr(`relay-emulator exec: ${error.message} (relay-emulator exec --help lists the options)\n`);
    return 2;
  }
  if (parsed.options.help) {
    stdout(execUsage());
    return 0;
  }
  // In an Anchor workspace the command gets what `anchor test` gives its script, and the wallet its SOL.
  const anchor = parsed.options.anchor === null ? null : await anchorProvider(parsed.options.anchor);
  if (anchor?.walletAddress) {
    parsed.options.genesis = {
      ...parsed.options.genesis,
      fund: [...(parsed.options.genesis?.fund ?? []), { address: anchor.walletAddress, lamports: MINT_LAMPORTS }],
    };
  }
  // Imported here, past --help and usage errors: it loads the emulator.
  const { launch } = await import('../launch/launch.ts');
  const launched = await launch(parsed.options, { stdout, stderr, announce: false });
  if (typeof launched === 'number') return launched;

  const facts = readyFacts(launched.server);
  const [file, ...args] = parsed.command as [string, ...string[]];
  const child = spawn(file, args, {
    stdio: 'inherit',
    env: {
      ...env,
      RELAY_BASE_URL: facts.baseUrl,
      RELAY_RPC_URL: facts.rpcUrl,
      RELAY_API_KEY: facts.apiKey,
      RELAY_FEE_PAYER: facts.feePayer,
      RELAY_KORA_URL: facts.koraUrl,
      ...(anchor === null ? {} : { ANCHOR_PROVIDER_URL: facts.rpcUrl, ...(anchor.walletPath === null ? {} : { ANCHOR_WALLET: anchor.walletPath }) }),
    },
    // npx, npm and friends are .cmd files on Windows, which only a shell runs.
    shell: process.platform === 'win32',
  });
  const timers = new Set<NodeJS.Timeout>();
  const signals = io.signals ?? process;
  const stopListening = onStopSignals(signals, (signal) => {
    if (signal !== 'SIGINT') {
      child.kill(signal);
      return;
    }
    const timer = setTimeout(() => {
      timers.delete(timer);
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    }, SIGINT_FORWARD_DELAY_MS);
    timers.add(timer);
  });
  const code = await new Promise<number>((resolve) => {
    child.once('error', (error: NodeJS.ErrnoException) => {
      stderr(`relay-emulator exec: cannot run ${file}: ${error.message}\n`);
      resolve(error.code === 'ENOENT' ? 127 : 126);
    });
    child.once('exit', (exitCode, signal) => resolve(exitCode ?? signalExitCode(signal ?? 'SIGTERM')));
  });
  stopListening();
  // The command is gone; what is left is stopping the emulator and exiting with its code.
  ignoreStopSignals(signals);
  for (const timer of timers) clearTimeout(timer);
  try {
    await launched.shutdown();
  } catch (error) {
    stderr(`relay-emulator: shutdown failed: ${error instanceof Error ? error.message : String(error)}\n`);
    return code === 0 ? 1 : code;
  }
  return code;
}
