import { dirname } from 'node:path';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { createLogger, requestLogLine, type Logger, type Severity } from '../../server/logger.ts';
import { startServer, StateRestoreError, type RunningServer } from '../../server/start-server.ts';
import { isInternalError } from '../../../base/errors/internal-error.ts';
import { watchPrograms } from '../../server/program-watch.ts';
import { banner, type BannerFacts } from './banner.ts';
import { readyFacts, READY_LINE_PREFIX } from './ready.ts';
import { ReadyFile } from './ready-file.ts';
import type { StartOptions } from '../start/start-options.ts';
import { EMULATOR_VERSION } from '../../../base/version.ts';
import { claimReport, makeReport } from '../../../vitest/report.ts';
import { costFigures } from '../../../vitest/test-label.ts';

export interface LaunchIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** Print the banner and the ready line (start), or only log (exec, whose command gets the URLs in its environment). */
  announce: boolean;
  /** The banner's text, in place of relay-emulator's own (test-validator prints a validator's lines first). */
  banner?: (facts: BannerFacts) => string;
  /** Told once the emulator serves, before the banner (test-validator logs a validator's start-up lines). */
  onReady?: (facts: BannerFacts) => void;
  /** Where log lines go, in place of stdout and stderr (test-validator writes its ledger's validator.log). */
  log?: (line: string, severity: Severity) => void;
}

export interface Launched {
  server: RunningServer;
  log: Logger;
  /** Stops accepting requests, lets those in flight answer, saves the state file, closes, removes the ready file. */
  shutdown(): Promise<void>;
}

/**
 * Starts the emulator as `start` and `exec` both do: the server, request logging, the state file,
 * the banner with its machine-readable ready line, and the ready file. Resolves with exit code 1
 * (after one line on stderr) when it cannot start for a usual reason.
 */
export async function launch(options: StartOptions, io: LaunchIo): Promise<Launched | number> {
  const { stdout, stderr } = io;
  const log = createLogger(
    options.logLevel,
    io.log ?? ((line, severity) => (severity === 'error' || severity === 'warn' || !io.announce ? stderr : stdout)(`${line}\n`)),
  );
  let readyFile: ReadyFile | null = null;
  let costsFile: ReturnType<typeof claimReport> | null = null;
  let server: RunningServer;
  try {
    // Taken before anything listens: refused in one line when PATH holds what the emulator did not write.
    readyFile = options.readyFile === null ? null : ReadyFile.claim(resolve(options.readyFile));
    costsFile = options.sponsorCosts === null ? null : claimReport(options.sponsorCosts, '--sponsor-costs');
    server = await startServer({
      port: options.port,
      host: options.host,
      ...(options.publicUrl === null ? {} : { publicUrl: options.publicUrl }),
      ...(options.adminToken === null ? {} : { adminToken: options.adminToken }),
      controlOrigins: options.controlOrigins,
      ...(options.koraPort === null ? {} : { koraPort: options.koraPort }),
      ...(options.pubsubPort === null ? {} : { pubsubPort: options.pubsubPort }),
      emulator: {
        ...(options.apiKeys === null ? {} : { apiKeys: options.apiKeys }),
        ...(options.fixtures === null ? {} : { fixtures: resolve(options.fixtures) }),
        ...(options.tokenTtlSeconds === null ? {} : { tokenTtlSeconds: options.tokenTtlSeconds }),
        ...(options.journalLimit === null ? {} : { journalLimit: options.journalLimit }),
        ...(options.slotTimeMs === null ? {} : { slotTimeMs: options.slotTimeMs }),
        timing: options.timing,
        ...(options.policy === null ? {} : { policy: options.policy }),
        rpcAuth: options.rpcAuth,
        skipPreflight: options.skipPreflight,
        kora: {
          ...(options.koraConfig === null ? {} : { config: resolve(options.koraConfig) }),
          ...(options.koraSigners === null ? {} : { signers: resolve(options.koraSigners) }),
        },
        engine: options.engine,
        programs: options.programs,
        accounts: options.accounts,
        accountDirs: options.accountDirs,
        ...(options.anchor === null ? {} : { anchor: options.anchor }),
        ...(options.genesis === null ? {} : { genesis: options.genesis }),
        cluster: options.cluster,
        ...(options.clone === null ? {} : { clone: options.clone }),
        ...(options.surfnet === null ? {} : { surfnet: options.surfnet }),
      },
      ...(options.importFile === null ? {} : { importFile: resolve(options.importFile) }),
      // Restored (snapshot, then journal) before anything is served.
      ...(options.stateFile === null
        ? {}
        : {
            stateFile: {
              path: resolve(options.stateFile),
              intervalMs: options.stateIntervalMs,
              acceptLoss: options.acceptStateLoss,
              onError: (error: unknown) => log.error(`could not save state: ${String(error)}`),
              onCheckpoint: (event) =>
                log.debug(
                  event.phase === 'started'
                    ? `state snapshot started (the journal goes on in segment ${event.from})`
                    : `state snapshot written (${event.bytes} bytes)`,
                ),
            },
          }),
    });
  } catch (error) {
    if (error instanceof StateRestoreError) {
      stderr(`relay-emulator: ${error.message}\n`);
      return 1;
    }
    // A refusal of what it was given (fixtures, kora.toml, programs, account dumps): one line naming
    // the file or flag; the stack only when asked for.
    if (isInternalError(error)) {
      stderr(`relay-emulator: cannot start: ${error.message}\n`);
      if (options.logLevel === 'debug') stderr(`${error.stack}\n`);
      return 1;
    }
    // The usual ways a start fails (port taken, address not here, fixtures missing) get one line, not a stack.
    const { code } = error as NodeJS.ErrnoException;
    if (code === undefined || !['EADDRINUSE', 'EACCES', 'EADDRNOTAVAIL', 'ENOENT', 'ENOTFOUND', 'EAI_AGAIN'].includes(code)) throw error;
    const hint =
      code === 'EADDRINUSE'
        ? ` (another process has it, an emulator already running perhaps: choose another with --port N, or --port 0 for a free one)`
        : code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EADDRNOTAVAIL'
          ? ` (the address to listen on is neither one of this machine's nor a name that resolves to one: 127.0.0.1, 0.0.0.0 or an interface's address)`
          : '';
    stderr(`relay-emulator: cannot start: ${(error as Error).message}${hint}\n`);
    return 1;
  }
  const { emulator, stateFile } = server;
  emulator.observe((exchange) => {
    if (exchange.response.status >= 500) log.error(requestLogLine(exchange, { withOperationId: true }));
    else log.info(requestLogLine(exchange, { withOperationId: log.level === 'debug' }));
  });

  for (const loss of server.restored?.losses ?? []) {
    log.warn(
      `state file journal: --accept-state-loss cut ${loss.file} at byte ${loss.offset}: ${loss.lostBytes} byte(s) of acknowledged changes ` +
        `after it are lost (copies: ${loss.copies.join(', ')})`,
    );
  }
  let restored: { transactions: number; savedAt: string | null } | null = null;
  if (server.restored && (server.restored.snapshot || server.restored.replayed > 0)) {
    restored = { transactions: emulator.transactionJournal().length, savedAt: server.restored.snapshot?.savedAt ?? null };
    if (server.restored.discardedBytes > 0)
      log.warn(`state file journal: cut ${server.restored.discardedBytes} byte(s) of a torn last entry (a crash mid-write; never acknowledged)`);
    const saved = server.restored.snapshot?.feePayer;
    if (saved && saved !== emulator.config.feePayer) log.warn(`state file was saved with fee payer ${saved}; these fixtures have ${emulator.config.feePayer}`);
  }
  const facts = readyFacts(server);
  // The file first: a ready line is never printed for a start that then fails.
  try {
    readyFile?.write(facts);
  } catch (error) {
    stderr(`relay-emulator: cannot start: --ready-file ${readyFile?.path}: cannot write it (${(error as NodeJS.ErrnoException).code ?? error})\n`);
    await stateFile?.close();
    await server.close();
    return 1;
  }
  io.onReady?.({ server, stateFile: stateFile?.path ?? null, restored });
  if (io.announce && options.logLevel !== 'silent') {
    stdout((io.banner ?? banner)({ server, stateFile: stateFile?.path ?? null, restored }));
    stdout(`${READY_LINE_PREFIX} ${JSON.stringify(facts)}\n`);
  } else {
    log.info(`relay-emulator listening on ${server.emulator.config.baseUrl}`);
  }
  const stopWatching = options.watch ? watchPrograms(emulator, log) : () => undefined;

  return {
    server,
    log,
    async shutdown() {
      stopWatching();
      await server.stopAccepting();
      // A folder removed while it ran (a deleted ledger) is said in one line once the rest has stopped.
      let lost: string | null = null;
      if (stateFile) {
        try {
          await stateFile.close();
          log.info(`state saved to ${stateFile.path}`);
        } catch (error) {
          if (existsSync(dirname(stateFile.path))) throw error;
          lost = `the folder of its state, ${dirname(stateFile.path)}, was removed while it ran: what changed since the last save is not kept`;
        }
      }
      if (costsFile !== null) writeServerCosts(costsFile, emulator, log);
      await server.close();
      readyFile?.remove();
      if (lost !== null) throw new Error(lost);
    },
  };
}

/** --sponsor-costs FILE: what the sponsor paid, by label (the X-Relay-Emulator-Test header, else the app), in relay-emulator/vitest's report. */
function writeServerCosts(file: ReturnType<typeof claimReport>, emulator: RunningServer['emulator'], log: Logger): void {
  const rows = emulator.sponsorCosts().map((entry) => ({ file: '', test: entry.label, ...costFigures([entry]) }));
  try {
    file.write(makeReport(rows, EMULATOR_VERSION, emulator.config.engine));
    log.info(`sponsor costs written to ${file.path} (${rows.length} label(s))`);
  } catch (error) {
    log.error(`could not write the sponsor costs: ${(error as Error).message}`);
  }
}
