import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { EMULATOR_VERSION } from '../../../base/version.ts';
import { serveUntilStopped, type ServeIo } from '../launch/serve.ts';
import { signalExitCode } from '../launch/signals.ts';
import { UsageError } from '../start/start-options.ts';
import { cachedDumps } from '../../../domain/fixtures/clone-cache.ts';
import { nextOnPath } from './solana-command.ts';
import { SurfpoolLog } from './surfpool-log.ts';
import { DEFAULT_LOG_PATH, SURFPOOL_VERSION, surfpoolStartOptions } from './surfpool-options.ts';

export { SURFPOOL_OPTIONS, SURFPOOL_VERSION, surfpoolStartOptions } from './surfpool-options.ts';

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
      if (options.anchorTestMode) stopWhenOrphaned(log);
    },
  });
}

/** How often an Anchor-started stand-in checks that Anchor is still there. */
const PARENT_CHECK_MS = 1_000;

/**
 * Anchor 1.x kills surfpool after its tests, but when its surfnet_getSurfnetInfo poll fails it drops
 * the child without a kill (otter-sec/anchor cli/src/lib.rs, `start_surfpool_validator`), and the
 * validator holds its port until someone finds it. Started by Anchor (its parent's name is
 * `anchor`, from /proc) with Anchor's test-mode flags, the stand-in stops itself, as SIGTERM stops
 * it, once that parent is gone (x-emulator-choice: Surfpool keeps running). Started any other way
 * (a shell, nohup, setsid), it runs until stopped, as Surfpool does.
 */
function stopWhenOrphaned(log: SurfpoolLog): void {
  const parent = process.ppid;
  if (commandName(parent) !== 'anchor') return;
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    log.add('WARN', `anchor (pid ${parent}) is gone without stopping surfpool: stopping`);
    process.kill(process.pid, 'SIGTERM');
  }, PARENT_CHECK_MS);
  timer.unref();
}

/** A process's command name (Linux's /proc/PID/comm), or null where it cannot be read. */
function commandName(pid: number): string | null {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return null;
  }
}

/** `--log-path`'s value in argv that did not parse, else Surfpool's default. */
function logPathIn(argv: readonly string[]): string {
  const at = argv.indexOf('--log-path');
  return at >= 0 && argv[at + 1] !== undefined ? argv[at + 1]! : DEFAULT_LOG_PATH;
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
