import { relative } from 'node:path';
import { EMULATOR_VERSION } from '../../../base/version.ts';
import { API_VERSION, FEATURE_SET } from '../../../interfaces/rpc/context.ts';
import { isInternalError } from '../../../base/errors/internal-error.ts';
import { clusterUrl } from '../shims/cli-config.ts';
import type { Severity } from '../../server/logger.ts';
import { banner, type BannerFacts } from '../launch/banner.ts';
import { serveUntilStopped, type ServeIo } from '../launch/serve.ts';
import { UsageError } from '../start/start-options.ts';
import { LedgerFolder } from './ledger-folder.ts';
import { parseTestValidatorArgs, type TestValidatorOptions } from './test-validator-options.ts';
import { testValidatorUsage } from './test-validator-usage.ts';

/**
 * `relay-emulator test-validator`: solana-test-validator's command line over the emulator, so that
 * `anchor test`, Light's CLI, amman and scripts that start a validator by name start this instead
 * (`relay-emulator shims DIR` writes the name), with the relay, Kora and the web UI on the same port.
 * It serves until SIGINT, SIGTERM or SIGHUP as `start` does; a SIGKILL (what `anchor test` sends)
 * leaves the ledger folder as a crash leaves a state file: the next start on it replays its journal.
 */
export async function runTestValidatorCommand(argv: string[], io: ServeIo = {}): Promise<number> {
  const stdout = io.stdout ?? ((text) => process.stdout.write(text));
  const stderr = io.stderr ?? ((text) => process.stderr.write(text));
  let options: TestValidatorOptions;
  try {
    options = parseTestValidatorArgs(argv, io.env ?? process.env);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    stderr(`relay-emulator test-validator: ${error.message} (relay-emulator test-validator --help lists the flags)\n`);
    return 2;
  }
  if (options.help) {
    stdout(testValidatorUsage());
    return 0;
  }
  if (options.version) {
    stdout(`solana-test-validator ${API_VERSION} (src:relay-emulator ${EMULATOR_VERSION}; feat:${FEATURE_SET}, client:relay-emulator)\n`);
    return 0;
  }
  // The folder and its lock, before anything in it is read or deleted: a ledger in use refuses, --reset included.
  let ledger: LedgerFolder;
  try {
    ledger = await LedgerFolder.open(options.ledger, { reset: options.reset });
  } catch (error) {
    const problem = isInternalError(error, 'PATH_REFUSED') ? error.message : `--ledger ${options.ledger}: ${(error as Error).message}`;
    stderr(`relay-emulator test-validator: cannot start: ${problem}\n`);
    return 1;
  }
  try {
    // The validator's identity, vote, stake and faucet keys: the ledger's, or new ones written there.
    try {
      options.start.cluster = { ...options.start.cluster, keys: ledger.validatorKeys() };
    } catch (error) {
      if (!isInternalError(error, 'PATH_REFUSED')) throw error;
      stderr(`relay-emulator test-validator: cannot start: ${error.message}\n`);
      return 1;
    }
    return await serveOnLedger(options, ledger, io, { stdout, stderr, argv });
  } finally {
    await ledger.release();
  }
}

async function serveOnLedger(
  options: TestValidatorOptions,
  ledger: LedgerFolder,
  io: ServeIo,
  { stdout, stderr, argv }: { stdout: (text: string) => void; stderr: (text: string) => void; argv: readonly string[] },
): Promise<number> {
  if (options.noted.length > 0) {
    stderr(`relay-emulator test-validator: ${options.noted.join(', ')} accepted, meaning nothing here (docs/test-validator.md says why)\n`);
  }
  if (options.mint === null && !options.quiet) {
    stderr('Notice! No wallet available. `solana airdrop` localnet SOL after creating one\n');
  }
  // --warp-slot without a slot: the --url cluster's current one, as the validator reads it.
  if (options.clone.warpToUrlSlot && options.clone.url !== null) {
    try {
      const slot = await clusterSlot(clusterUrl(options.clone.url));
      options.start.genesis = { ...options.start.genesis, warpSlot: slot };
    } catch (error) {
      stderr(
        `relay-emulator test-validator: cannot start: --warp-slot: ${clusterUrl(options.clone.url)} did not tell its slot (${(error as Error).message})\n`,
      );
      return 1;
    }
  }
  // The validator logs to LEDGER/validator.log (a link to this start's validator-<ms>.log), and to stderr with --log;
  // warnings and errors reach stderr either way.
  let logFile: ReturnType<LedgerFolder['openLog']> | null = null;
  if (!options.log) {
    try {
      logFile = ledger.openLog();
    } catch (error) {
      stderr(`relay-emulator test-validator: cannot start: --ledger ${options.ledger}: cannot write its log (${(error as Error).message})\n`);
      return 1;
    }
  }
  try {
    return await serveUntilStopped(options.start, {
      ...io,
      stdout: options.quiet ? () => undefined : stdout,
      stderr,
      banner: (facts) => validatorBanner(facts, options, `${ledger.path}/validator.log`),
      // The lines tools read back from a validator's log (kit's RPC tests: its version, feature set and genesis hash).
      onReady: (facts) => {
        for (const line of agaveStartLines(facts, argv)) logFile?.write(`${line}\n`);
      },
      log: (line: string, severity: Severity) => {
        if (options.log || severity === 'warn' || severity === 'error') stderr(`${line}\n`);
        logFile?.write(`${line}\n`);
      },
    });
  } finally {
    logFile?.close();
  }
}

/** solana-test-validator's start-up lines (what scripts read: "JSON RPC URL: …"), then relay-emulator's own banner. */
function validatorBanner(facts: BannerFacts, options: TestValidatorOptions, logFile: string): string {
  const { config } = facts.server.emulator;
  const origin = facts.server.origin;
  const where = (path: string) => (relative(process.cwd(), path) || '.').replace(/^(?!\.|\/)/, '');
  const lines = [
    `Ledger location: ${where(options.ledger)}`,
    `Log: ${options.log ? 'stderr' : where(logFile)}`,
    `Identity: ${config.identity}`,
    `Genesis Hash: ${facts.server.emulator.services.ledger.genesisHash}`,
    `Version: ${API_VERSION}`,
    `JSON RPC URL: ${origin}`,
    `WebSocket PubSub URL: ${(config.pubsubUrl ?? config.rpcUrl).replace(/^http/, 'ws').replace(/\/rpc$/, '')}`,
    ...(options.mint ? [`Mint: ${options.mint.address} (500000000 SOL; from ${options.mint.from})`] : []),
    '',
  ];
  return `${lines.join('\n')}${banner(facts)}`;
}

/**
 * What Agave's solana-test-validator logs at start that tools parse (solana-test-validator.rs,
 * core/src/validator.rs, rpc_service.rs), in env_logger's format: its version and feature set,
 * the identity, the vote account, the genesis hash, the shred version, where the RPC is bound.
 */
export function agaveStartLines(facts: BannerFacts, argv: readonly string[]): string[] {
  const { config, services } = facts.server.emulator;
  const at = () => new Date().toISOString().replace(/Z$/, '000000Z');
  const line = (target: string, message: string) => `[${at()} INFO  ${target}] ${message}`;
  const rpc = new URL(config.rpcUrl);
  return [
    line(
      'agave_validator',
      `agave-validator ${API_VERSION} (src:relay-emulator-${EMULATOR_VERSION}; feat:${FEATURE_SET.toString(16).padStart(8, '0')}, client:relay-emulator)`,
    ),
    line('agave_validator', `Starting validator with: ${JSON.stringify(['solana-test-validator', ...argv])}`),
    line('solana_core::validator', `identity pubkey: ${config.identity}`),
    line('solana_core::validator', `vote account pubkey: ${config.voteAccount}`),
    line('solana_core::validator', `genesis hash: ${services.ledger.genesisHash}`),
    line('solana_core::validator', 'shred version: 0, hard forks: None'),
    line('solana_rpc::rpc_service', `rpc bound to ${rpc.hostname}:${rpc.port}`),
  ];
}

/** The cluster's slot (getSlot, confirmed). */
async function clusterSlot(url: string): Promise<number> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'getSlot', params: [{ commitment: 'confirmed' }] }),
    signal: AbortSignal.timeout(15_000),
  });
  const body = (await response.json()) as { result?: number; error?: { message: string } };
  if (typeof body.result !== 'number') throw new Error(body.error?.message ?? `HTTP ${response.status}`);
  return body.result;
}
